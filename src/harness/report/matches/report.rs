//! The report of a match, from its results files only: `report.md` (a table per pairing:
//! games, W-D-L, pentanomial counts, Elo ± 95%, normalized Elo, LOS, draw ratio, LLR and the
//! outcome; how the games ended; nodes, depth, time and branching factor per move), `analysis.json` (every number of
//! the report), `elo.svg` and, under an SPRT, `llr.svg`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::harness::games::clock::limit_check;
use crate::harness::games::playing::record::{MatchHeader, read_matches};
use crate::harness::games::rating::goal::Goal;
use crate::harness::games::rating::replays::ReplayedOpenings;
use crate::harness::games::rating::stats::Decision;
use crate::harness::games::rating::tally::{PairingResult, SprtResult, tally};
use crate::harness::report::matches::charts;
use crate::harness::verdicts::{self, Verdict};

/// Everything a match report says.
#[derive(Serialize)]
pub struct MatchAnalysis {
    pub header: MatchHeader,
    pub pairings: Vec<PairingResult>,
    pub warnings: Vec<String>,
    /// The goals judged in the verdicts (`report --goal`); kept in `verdicts.json`.
    #[serde(skip)]
    pub goals: Vec<Goal>,
}

/// Read the files (one match, or its shards) and tally them; `goals` are judged in the
/// verdicts, and a goal on a player of no pairing is an error.
pub fn analyse(files: &[PathBuf], goals: &[Goal]) -> Result<MatchAnalysis, String> {
    let (header, pairs, mut warnings) = read_matches(files)?;
    let pairings = tally(&header, &pairs);
    warnings.extend(
        limit_check::breaches(&header, &pairs)
            .iter()
            .map(|b| b.warning()),
    );
    for g in goals {
        if !pairings
            .iter()
            .any(|r| r.dev == g.player || r.base == g.player)
        {
            let players: Vec<&str> = pairings.iter().map(|r| r.dev.as_str()).collect();
            return Err(format!(
                "goal '{g}': '{}' plays in no pairing of {} (players: {}, {})",
                g.player,
                files[0].display(),
                header.base(),
                players.join(", ")
            ));
        }
    }
    Ok(MatchAnalysis {
        header,
        pairings,
        warnings,
        goals: goals.to_vec(),
    })
}

impl MatchAnalysis {
    /// The charts' second line: control, openings, date.
    fn caption(&self) -> String {
        let h = &self.header;
        format!(
            "{}{} · {}",
            h.reference
                .as_ref()
                .map_or(h.control.to_string(), |r| format!(
                    "{} at {:.2} M nodes/s of {}",
                    r.control,
                    r.reference_nps / 1e6,
                    r.yardstick
                )),
            if h.player_controls.is_empty() {
                ""
            } else {
                " (some players their own)"
            },
            h.caption_tail()
        )
    }
}

/// Write report.md, analysis.json and the charts into `dir`.
pub fn write(analysis: &MatchAnalysis, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let json = serde_json::to_string_pretty(analysis).expect("analysis serialises");
    crate::harness::files::write_atomic(&dir.join("analysis.json"), json)?;
    let caption = analysis.caption();
    charts::elo::draw(&analysis.pairings, &caption, &dir.join("elo.svg"))?;
    if analysis.header.sprt.is_some() {
        charts::llr::draw(&analysis.pairings, &caption, &dir.join("llr.svg"))?;
    }
    crate::harness::verdicts::write(dir, &verdicts(analysis))?;
    crate::harness::files::write_atomic(&dir.join("report.md"), markdown(analysis))
}

/// Each pairing's verdicts: its Elo's interval against 0, its SPRT's decision and each goal
/// on the score of one of its players.
pub fn verdicts(analysis: &MatchAnalysis) -> Vec<Verdict> {
    let mut out = Vec::new();
    for r in &analysis.pairings {
        let name = format!("{} vs {}", r.dev, r.base);
        if let Some(e) = &r.estimate {
            let verdict = match e.no_interval() {
                Some(why) => format!("no interval ({why})"),
                None => verdicts::of_interval(e.elo.low, e.elo.high, 0.0),
            };
            out.push(Verdict {
                comparison: format!("{name}: Elo"),
                estimate: format!("{} [{:+.1}, {:+.1}]", e.elo_text(1), e.elo.low, e.elo.high),
                verdict,
                goal: None,
            });
        }
        if let Some(s) = &r.sprt {
            let verdict = match s.decision {
                Decision::Accepted => format!(
                    "H1 accepted: the games favour Elo ≥ {} over Elo ≤ {} (α = {}, β = {})",
                    s.sprt.elo1, s.sprt.elo0, s.sprt.alpha, s.sprt.beta
                ),
                Decision::Rejected => format!(
                    "H0 accepted: the games favour Elo ≤ {} over Elo ≥ {} (α = {}, β = {})",
                    s.sprt.elo0, s.sprt.elo1, s.sprt.alpha, s.sprt.beta
                ),
                Decision::Continue => "undecided: neither hypothesis accepted".into(),
            };
            out.push(Verdict {
                comparison: format!("{name}: SPRT [{}, {}]", s.sprt.elo0, s.sprt.elo1),
                estimate: format!("LLR {:.2} ({:.2}, {:.2})", s.llr, s.lower, s.upper),
                verdict,
                goal: None,
            });
        }
        if let Some(c) = &r.replayed {
            out.push(Verdict {
                comparison: format!("{name}: Elo, each opening one cluster"),
                estimate: format!(
                    "{:+.1} ± {:.1} [{:+.1}, {:+.1}]",
                    c.elo.value,
                    c.elo.half_width(),
                    c.elo.low,
                    c.elo.high
                ),
                verdict: verdicts::of_interval(c.elo.low, c.elo.high, 0.0),
                goal: None,
            });
        }
        out.extend(analysis.goals.iter().filter_map(|g| g.verdict(r)));
    }
    out
}

/// Said on every row an SPRT stopped: a test stopped where the LLR first crossed a bound
/// stops more often after a lucky run, so its Elo estimate is biased away from zero (Wald;
/// fishtest shows a bias-adjusted estimate for this reason). No adjusted estimate is given.
const STOPPED: &str = "stopped by the SPRT: its Elo is biased away from 0";

fn outcome(result: &PairingResult) -> String {
    match &result.sprt {
        Some(s) => match s.decision {
            Decision::Accepted => format!("H1 accepted (≥ {}); {STOPPED}", s.sprt.elo1),
            Decision::Rejected => format!("H0 accepted (≤ {}); {STOPPED}", s.sprt.elo0),
            Decision::Continue => "undecided".into(),
        },
        None => match &result.estimate {
            Some(e) if e.elo.low > 0.0 => "stronger (interval above 0)".into(),
            Some(e) if e.elo.high < 0.0 => "weaker (interval below 0)".into(),
            Some(_) => "no difference shown".into(),
            None => "no games".into(),
        },
    }
}

/// The table of pairings, one row each.
pub fn table(analysis: &MatchAnalysis) -> String {
    let mut out = String::from(
        "| variant vs baseline | games | W-D-L | pairs LL, LD, DD+WL, WD, WW | Elo ± 95% | nElo ± 95% | LOS | draws | LLR (bounds) | outcome |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in &analysis.pairings {
        let c = &r.counts;
        let (elo, nelo, los) = match &r.estimate {
            Some(e) if e.unbounded => (e.elo_text(1), "-".into(), format!("{:.1}%", 100.0 * e.los)),
            Some(e) => (
                e.elo_text(1),
                e.nelo_text(1),
                format!("{:.1}%", 100.0 * e.los),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        let llr = r.sprt.as_ref().map_or("-".into(), |s| {
            format!("{:.2} ({:.2}, {:.2})", s.llr, s.lower, s.upper)
        });
        let _ = writeln!(
            out,
            "| {} vs {} | {} | {}-{}-{} | {} | {elo} | {nelo} | {los} | {:.1}% | {llr} | {} |",
            r.dev,
            r.base,
            c.games(),
            c.wins,
            c.draws,
            c.losses,
            c.penta
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            100.0 * c.draw_ratio(),
            outcome(r)
        );
    }
    out
}

/// The pairs read with each opening as one cluster (`replays`), and what that does to an
/// SPRT's evidence.
fn replayed_line(c: &ReplayedOpenings, sprt: Option<&SprtResult>) -> String {
    let correlation = c.replay_correlation.map_or(String::new(), |r| {
        format!("; an opening's first two pairs correlate at {r:.2}")
    });
    let llr = sprt.filter(|_| c.variance_ratio > 0.0).map_or(String::new(), |s| {
        format!(
            "; the SPRT's LLR {:.2} is worth about {:.2} as independent pairs (the LLR scales as \
             1/variance)",
            s.llr,
            s.llr / c.variance_ratio
        )
    });
    format!(
        "  Read with each of its {} openings as one cluster (the cluster-robust variance): Elo \
         {:+.1} ± {:.1}, a variance {:.2} times the pentanomial's{correlation}{llr}.\n",
        c.openings,
        c.elo.value,
        c.elo.half_width(),
        c.variance_ratio
    )
}

fn markdown(analysis: &MatchAnalysis) -> String {
    let h = &analysis.header;
    let mut out = String::from("# Match report\n\n");
    let _ = writeln!(
        out,
        "Each variant played the baseline **{}** in game pairs: every opening twice, the colours reversed. Elo is from the variant's side (positive: stronger than the baseline), its interval from the pentanomial variance of the pairs; nElo is normalized Elo (Elo per unit of the score's t-value, independent of the draw ratio); LOS is the likelihood that the variant is the stronger.\n",
        h.base()
    );
    if !h.missing.is_empty() {
        let planned = h.planned().len();
        let _ = writeln!(
            out,
            "**Incomplete: this report holds {} of {planned} planned pairs**; {} are in no file read (a shard not given, or a match stopped early). Its results are of the pairs played only.\n",
            planned - h.missing.len(),
            h.missing.len()
        );
    }
    out.push_str(&control_lines(h));
    out.push_str(&player_lines(h));
    out.push_str(&setting_lines(h));
    for r in analysis.pairings.iter().filter(|r| r.reused_openings > 0) {
        let _ = writeln!(
            out,
            "- **Openings reused.** {} vs {}: the book's {} openings ran out, and {} of the counted pairs started from an opening already played (both colours again): those pairs are not independent of the earlier ones.",
            r.dev, r.base, h.opening_count, r.reused_openings
        );
        if let Some(c) = &r.replayed {
            out += &replayed_line(c, r.sprt.as_ref());
        }
    }
    if analysis.pairings.iter().any(|r| r.reused_openings > 0) {
        // A table right under a list item's text would be read as part of it.
        out.push('\n');
    }
    out += &table(analysis);
    out += "\n![Elo](elo.svg)\n\n";
    if h.sprt.is_some() {
        out += "![LLR](llr.svg)\n\n";
    }
    out += &endings_table(analysis);
    out += "\n";
    out += &verdicts::markdown(&verdicts(analysis));
    if !analysis.warnings.is_empty() {
        out += "\n## Warnings\n\n";
        for w in &analysis.warnings {
            let _ = writeln!(out, "- {w}");
        }
    }
    out
}

/// The report's line on the players: each in-process player's SPEC and network (its
/// checksum, as the results header records it), each external engine's name, command,
/// options and program checksum. A reader of a match against another engine needs both to
/// know what played.
fn player_lines(h: &MatchHeader) -> String {
    let players: Vec<String> = h
        .variants
        .iter()
        .map(|v| match &v.engine {
            Some(e) => format!(
                "`{}`: {} (`{}`{}{})",
                v.label,
                e.name.as_deref().unwrap_or("an external engine"),
                e.command,
                e.options
                    .iter()
                    .map(|(k, val)| format!(", {k}={val}"))
                    .collect::<String>(),
                e.program_checksum
                    .as_deref()
                    .map_or(String::new(), |c| format!("; program checksum {c}"))
            ),
            None if v.config.eval == crate::engine::eval::EvalKind::Nnue => format!(
                "`{}`: searchlab `{}`, network {}",
                v.label,
                v.spec,
                v.config.net.checksum()
            ),
            None => format!("`{}`: searchlab `{}`", v.label, v.spec),
        })
        .collect();
    format!("- Players: {}\n", players.join("; "))
}

/// The report's lines on the openings, the games per pairing (and the SPRT), adjudication and
/// the build that played.
fn setting_lines(h: &MatchHeader) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "- Openings: {} ({} openings{}), order seeded by {}",
        h.openings,
        h.opening_count,
        h.opening_plies
            .map_or(String::new(), |p| format!(", at most {p} book plies")),
        h.seed
    );
    match &h.sprt {
        Some(s) if h.sprt_pooled => {
            let _ = writeln!(
                out,
                "- SPRT {s}, at most {} games per pairing, pooled across the tasks that played it (`submit`): every pair recorded by any task counts, as fishtest pools its workers' results, so the pairs the tasks finished after the LLR crossed a bound are counted too.",
                h.games
            );
        }
        Some(s) => {
            let _ = writeln!(
                out,
                "- SPRT {s}, at most {} games per pairing. The decision is taken at the first pair after which the LLR crosses a bound, the pairs read in their planned order; pairs played after it are recorded but not counted.",
                h.games
            );
        }
        None => {
            let _ = writeln!(out, "- {} games per pairing, no SPRT", h.games);
        }
    }
    if h.openings_replay_games() && h.games > 2 * h.pairs() as u64 {
        let _ = writeln!(
            out,
            "- Every player is searchlab's own search under a node or depth limit, so an opening played again replays its two games move for move: the match plays each of the book's {} openings once ({} games per pairing at most), and pairs a file holds past them are not counted.",
            h.opening_count,
            2 * h.pairs()
        );
    }
    if h.adjudication.draw.is_some() || h.adjudication.resign.is_some() {
        let _ = writeln!(out, "- Adjudication: {:?}", h.adjudication);
    } else {
        let _ = writeln!(
            out,
            "- No adjudication: every game played to its end by the rules"
        );
    }
    let hash = if h.variants.iter().any(|v| v.engine.is_none()) {
        format!("; in-process players with {} MiB of hash each", h.hash_mb)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "- searchlab {} ({}), {}, {} cores{hash}\n",
        h.provenance.searchlab,
        h.provenance.commit.as_deref().unwrap_or("commit unknown"),
        h.provenance.date,
        h.provenance.cores,
    );
    out
}

/// How each pairing's games ended, what failed, and the nodes and depth per move.
fn endings_table(analysis: &MatchAnalysis) -> String {
    let mut out = String::from(
        "## How the games ended\n\n| variant vs baseline | endings | failures | nodes per move (baseline / variant) | depth per move (baseline / variant) | time per move, ms (baseline / variant) | branching factor (baseline / variant) | pairs recorded (counted) |\n|---|---|---|---|---|---|---|---|\n",
    );
    let factor = |b: f64| {
        if b > 0.0 {
            format!("{b:.2}")
        } else {
            "n/a".to_string()
        }
    };
    let join = |m: &std::collections::BTreeMap<String, u64>| {
        if m.is_empty() {
            "none".to_string()
        } else {
            m.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    for r in &analysis.pairings {
        let _ = writeln!(
            out,
            "| {} vs {} | {} | {} | {:.0} / {:.0} | {:.2} / {:.2} | {:.1} / {:.1} | {} / {} | {} ({}) |",
            r.dev,
            r.base,
            join(&r.endings),
            join(&r.failures),
            r.nodes_per_move.0,
            r.nodes_per_move.1,
            r.depth_per_move.0,
            r.depth_per_move.1,
            r.time_per_move_ms.0,
            r.time_per_move_ms.1,
            factor(r.branching.0),
            factor(r.branching.1),
            r.recorded_pairs,
            r.counts.pairs()
        );
    }
    let _ = writeln!(
        out,
        "\nThe branching factor is `N^(1/d)` of each move's nodes and depth, the geometric mean over the moves searched to depth {} or deeper. Each engine counts its nodes its own way: compare it within one engine (across clocks or builds), not between two.",
        crate::harness::games::rating::tally::BRANCHING_MIN_DEPTH
    );
    out
}

/// The report's lines on the limits: the match's, and each player's own.
fn control_lines(h: &MatchHeader) -> String {
    let mut out = String::new();
    if let Some(r) = &h.reference {
        let _ = writeln!(
            out,
            "- Control: {} at a reference speed of {:.2} M nodes/s of `{}`, time margin {} ms; played here at {} (this machine measured {:.2} M nodes/s, the median of {:?}: every time limit × {:.4}){}",
            r.control,
            r.reference_nps / 1e6,
            r.yardstick,
            h.margin_ms,
            h.control,
            r.measured.nps / 1e6,
            r.measured
                .runs
                .iter()
                .map(|n| (n / 1e3).round() / 1e3)
                .collect::<Vec<_>>(),
            r.factor,
            if r.yardstick == crate::harness::games::clock::reference_speed::OWN_BENCH {
                ". The yardstick is this build's own bench: a faster build is given less time, so this clock does not judge a change of speed"
            } else {
                ""
            }
        );
        for (label, own) in &r.player_controls {
            let _ = writeln!(
                out,
                "- {label} plays under its own control at the reference speed: {own}"
            );
        }
        return out;
    }
    let _ = writeln!(
        out,
        "- Control: {}, time margin {} ms{}",
        h.control,
        h.margin_ms,
        if h.player_controls.is_empty() {
            ""
        } else {
            " (every player but those below)"
        }
    );
    for (label, own) in &h.player_controls {
        let _ = writeln!(out, "- {label} plays under its own control: {own}");
    }
    out
}
