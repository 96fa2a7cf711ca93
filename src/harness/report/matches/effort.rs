//! Elo against effort (issue 59): the report of a match played at several levels of effort
//! (`match --nodes 2000,8000,32000`, one file or set of shards per level). Per variant: its
//! Elo against the baseline at each level, and the difference between the first and the last
//! level with its interval, a two-sided test of whether the variant's value changes with
//! effort. This is the question fishtest answers by testing every patch at two time controls,
//! and the one Stockfish's developers charted in "Elo of each search feature against time
//! control" (removing one feature at a time at several controls).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

use crate::harness::games::clock::levels::Effort;
use crate::harness::games::playing::record::{MatchHeader, read_match};
use crate::harness::games::rating::goal::Goal;
use crate::harness::report::matches::charts::effort::{Line, Point};
use crate::harness::report::matches::report::{self, MatchAnalysis};

/// The report of every level.
#[derive(Serialize)]
pub struct EffortAnalysis {
    /// The option the levels vary (`nodes`, `tc`, `movetime`, `depth`) and what its axis
    /// measures.
    pub option: String,
    pub axis: String,
    /// The levels read, from the least effort to the most.
    pub levels: Vec<LevelAnalysis>,
    /// Levels of the run that no file read holds.
    pub missing_levels: Vec<String>,
    /// Each variant's Elo across the levels.
    pub variants: Vec<Trend>,
    pub warnings: Vec<String>,
}

/// One level: its value, its place on the axis, the folder its own report is written into,
/// and its match analysis.
#[derive(Serialize)]
pub struct LevelAnalysis {
    pub value: String,
    pub amount: f64,
    pub folder: String,
    pub analysis: MatchAnalysis,
}

/// One variant across the levels.
#[derive(Serialize)]
pub struct Trend {
    pub dev: String,
    pub base: String,
    pub cells: Vec<Cell>,
    /// The last level's Elo less the first's; `None` when either has no interval.
    pub change: Option<Change>,
    /// Why there is no change, when there is none.
    pub no_change: Option<String>,
}

/// One variant at one level.
#[derive(Serialize)]
pub struct Cell {
    pub level: String,
    pub amount: f64,
    pub games: u64,
    /// Elo and its 95% interval; the interval only when the estimate has one.
    pub elo: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub elo_text: String,
    pub nelo_text: String,
    /// Why the cell has no interval, when it has none.
    pub no_interval: Option<String>,
}

/// The difference between the last level's Elo and the first's: independent samples, each
/// interval's half-width read as 1.96 standard errors, so the difference's standard error is
/// the root of the sum of the squares.
#[derive(Serialize)]
pub struct Change {
    pub first: String,
    pub last: String,
    pub difference: f64,
    pub low: f64,
    pub high: f64,
    /// Two-sided p-value of "no change".
    pub p: f64,
    /// p < 0.05: the interval excludes 0.
    pub significant: bool,
}

/// Whether `files` are levels of one run at several levels of effort (their headers name
/// levels, and not all the same one).
pub fn is_effort_run(files: &[PathBuf]) -> Result<bool, String> {
    let mut levels = Vec::new();
    for path in files {
        let header = header(path)?;
        levels.push(header.effort.map(|e| e.level));
    }
    Ok(levels.iter().any(Option::is_some) && levels.windows(2).any(|w| w[0] != w[1]))
}

fn header(path: &Path) -> Result<MatchHeader, String> {
    read_match(path)?
        .header
        .ok_or_else(|| format!("{}: empty or not a searchlab match file", path.display()))
}

/// Read the levels' files (each level one file, or its shards), check they are one run, and
/// analyse each level (`goals` judged at every one) and each variant across them.
pub fn analyse(files: &[PathBuf], goals: &[Goal]) -> Result<EffortAnalysis, String> {
    let mut groups: Vec<(Effort, Vec<PathBuf>, MatchHeader, PathBuf)> = Vec::new();
    for path in files {
        let h = header(path)?;
        let effort = h.effort.clone().ok_or_else(|| {
            format!(
                "{}: a match at one limit, not a level of a run at several (`match --nodes 2000,8000,…`): report it alone",
                path.display()
            )
        })?;
        if let Some((_, _, first, first_path)) = groups.first()
            && !first.same_run(&h)
        {
            return Err(format!(
                "{} and {} are not levels of one run (players, openings, games, seed or settings differ): report each run alone",
                first_path.display(),
                path.display()
            ));
        }
        match groups.iter_mut().find(|g| g.0.level == effort.level) {
            Some(group) => group.1.push(path.clone()),
            None => groups.push((effort, vec![path.clone()], h, path.clone())),
        }
    }
    groups.sort_by_key(|g| g.0.level);
    let run = groups[0].0.clone();
    let mut levels = Vec::new();
    let mut warnings = Vec::new();
    for (effort, paths, _, _) in &groups {
        let analysis = report::analyse(paths, goals)?;
        warnings.extend(
            analysis
                .warnings
                .iter()
                .map(|w| format!("{} {}: {w}", run.option, effort.value())),
        );
        levels.push(LevelAnalysis {
            value: effort.value().to_string(),
            amount: effort.amount(effort.level),
            folder: effort.folder(effort.level),
            analysis,
        });
    }
    let missing_levels: Vec<String> = (0..run.levels.len())
        .filter(|i| !groups.iter().any(|g| g.0.level == *i))
        .map(|i| run.levels[i].clone())
        .collect();
    if !missing_levels.is_empty() {
        warnings.push(format!(
            "the run has levels {} and no file read holds {}: the trends are of the levels read only",
            run.levels.join(", "),
            missing_levels.join(", ")
        ));
    }
    let variants = trends(&levels);
    Ok(EffortAnalysis {
        option: run.option.clone(),
        axis: run.axis().to_string(),
        levels,
        missing_levels,
        variants,
        warnings,
    })
}

/// Each variant's cells, in the order of the levels.
fn trends(levels: &[LevelAnalysis]) -> Vec<Trend> {
    let first = &levels[0].analysis;
    first
        .pairings
        .iter()
        .map(|p| {
            let cells: Vec<Cell> = levels.iter().map(|level| cell(level, &p.dev)).collect();
            let (change, no_change) = match change(&cells) {
                Ok(change) => (Some(change), None),
                Err(why) => (None, Some(why)),
            };
            Trend {
                dev: p.dev.clone(),
                base: p.base.clone(),
                cells,
                change,
                no_change,
            }
        })
        .collect()
}

fn cell(level: &LevelAnalysis, dev: &str) -> Cell {
    let result = level.analysis.pairings.iter().find(|r| r.dev == dev);
    let estimate = result.and_then(|r| r.estimate);
    let interval = estimate.filter(|e| e.no_interval().is_none());
    Cell {
        level: level.value.clone(),
        amount: level.amount,
        games: result.map_or(0, |r| r.counts.games()),
        elo: estimate.filter(|e| !e.unbounded).map(|e| e.elo.value),
        low: interval.map(|e| e.elo.low),
        high: interval.map(|e| e.elo.high),
        elo_text: estimate.map_or("no games".into(), |e| e.elo_text(1)),
        nelo_text: estimate.map_or("-".into(), |e| e.nelo_text(1)),
        no_interval: match estimate {
            Some(e) => e.no_interval(),
            None => Some("no games".into()),
        },
    }
}

/// The last cell's Elo less the first's, with its 95% interval and p-value.
fn change(cells: &[Cell]) -> Result<Change, String> {
    let (first, last) = (&cells[0], &cells[cells.len() - 1]);
    let spread = |c: &Cell| -> Result<(f64, f64), String> {
        match (c.elo, c.low, c.high) {
            (Some(elo), Some(low), Some(high)) => Ok((elo, (high - low) / 2.0)),
            _ => Err(format!(
                "no interval at {}: {}",
                c.level,
                c.no_interval.as_deref().unwrap_or("no estimate")
            )),
        }
    };
    let (a, half_a) = spread(first)?;
    let (b, half_b) = spread(last)?;
    let z = Normal::standard().inverse_cdf(0.975);
    let se = ((half_a / z).powi(2) + (half_b / z).powi(2)).sqrt();
    let difference = b - a;
    let p = if se > 0.0 {
        2.0 * (1.0 - Normal::standard().cdf((difference / se).abs()))
    } else {
        1.0
    };
    Ok(Change {
        first: first.level.clone(),
        last: last.level.clone(),
        difference,
        low: difference - z * se,
        high: difference + z * se,
        p,
        significant: p < 0.05,
    })
}

impl EffortAnalysis {
    /// The words: which variants' Elo changes with effort beyond its interval.
    pub fn summary(&self) -> String {
        let (changed, steady): (Vec<&Trend>, Vec<&Trend>) = self
            .variants
            .iter()
            .filter(|t| t.change.is_some())
            .partition(|t| t.change.as_ref().is_some_and(|c| c.significant));
        let untested: Vec<&str> = self
            .variants
            .iter()
            .filter(|t| t.change.is_none())
            .map(|t| t.dev.as_str())
            .collect();
        let mut out = String::new();
        if changed.is_empty() && !steady.is_empty() {
            out.push_str("No variant's Elo changes with effort beyond its interval (5% level).");
        } else if !changed.is_empty() {
            let _ = write!(
                out,
                "Elo changes with effort beyond the interval (5% level) for {}.",
                changed
                    .iter()
                    .map(|t| change_words(t))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
        if !steady.is_empty() {
            let _ = write!(
                out,
                " No change shown for {} (the interval of the difference includes 0: not evidence that the value is the same).",
                steady
                    .iter()
                    .map(|t| t.dev.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        if !untested.is_empty() {
            let _ = write!(
                out,
                " Not tested (no interval at the first or the last level): {}.",
                untested.join(", ")
            );
        }
        out
    }
}

/// "modern-lmr: −30.1 at 2000, −85.0 at 32000 (−54.9, 95% [−80.2, −29.6], p = 0.0001)".
fn change_words(t: &Trend) -> String {
    let c = t.change.as_ref().expect("a change");
    let at = |cell: &Cell| format!("{} at {}", cell.elo_text, cell.level);
    format!(
        "{}: {}, {} ({:+.1}, 95% [{:+.1}, {:+.1}], p = {:.4})",
        t.dev,
        at(&t.cells[0]),
        at(&t.cells[t.cells.len() - 1]),
        c.difference,
        c.low,
        c.high,
        c.p
    )
}

/// Write `report.md`, `analysis.json` and `effort.svg` into `dir`, and each level's own match
/// report into its folder there (`nodes-2000/`).
pub fn write(analysis: &EffortAnalysis, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for level in &analysis.levels {
        report::write(&level.analysis, &dir.join(&level.folder))?;
    }
    let json = serde_json::to_string_pretty(analysis).map_err(|e| e.to_string())? + "\n";
    crate::harness::files::write_atomic(&dir.join("analysis.json"), json)?;
    let base = analysis.variants.first().map_or("", |t| t.base.as_str());
    crate::harness::report::matches::charts::effort::draw(
        &analysis.lines(),
        (base, &analysis.axis),
        &analysis.caption(),
        &dir.join("effort.svg"),
    )?;
    crate::harness::files::write_atomic(&dir.join("report.md"), markdown(analysis))
}

impl EffortAnalysis {
    /// The chart's lines, a variant each.
    fn lines(&self) -> Vec<Line> {
        self.variants
            .iter()
            .map(|t| Line {
                label: t.dev.clone(),
                points: t
                    .cells
                    .iter()
                    .map(|c| Point {
                        level: c.level.clone(),
                        amount: c.amount,
                        played: c.games > 0,
                        elo: c.elo,
                        interval: c.low.zip(c.high),
                    })
                    .collect(),
            })
            .collect()
    }

    /// The chart's second line: the levels, the openings, the commit and date.
    pub fn caption(&self) -> String {
        let h = &self.levels[0].analysis.header;
        format!(
            "--{} {} · {}",
            self.option,
            self.levels
                .iter()
                .map(|l| l.value.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            h.caption_tail()
        )
    }

    /// The table of cells, a row per variant and level, and the table of changes.
    pub fn tables(&self) -> String {
        let mut out = String::from(
            "| variant vs baseline | level | games | Elo ± 95% | nElo ± 95% |\n|---|---|---|---|---|\n",
        );
        for t in &self.variants {
            for c in &t.cells {
                let _ = writeln!(
                    out,
                    "| {} vs {} | {} | {} | {} | {} |",
                    t.dev, t.base, c.level, c.games, c.elo_text, c.nelo_text
                );
            }
        }
        out.push_str(
            "\n| variant | first level → last | Elo change ± 95% | p | significant at 5% |\n|---|---|---|---|---|\n",
        );
        for t in &self.variants {
            let (first, last) = (&t.cells[0].level, &t.cells[t.cells.len() - 1].level);
            let _ = match (&t.change, &t.no_change) {
                (Some(c), _) => writeln!(
                    out,
                    "| {} | {first} → {last} | {:+.1} ± {:.1} | {:.4} | {} |",
                    t.dev,
                    c.difference,
                    (c.high - c.low) / 2.0,
                    c.p,
                    if c.significant { "yes" } else { "no" }
                ),
                (None, why) => writeln!(
                    out,
                    "| {} | {first} → {last} | - ({}) | - | - |",
                    t.dev,
                    why.as_deref().unwrap_or("")
                ),
            };
        }
        out
    }
}

fn markdown(a: &EffortAnalysis) -> String {
    let h = &a.levels[0].analysis.header;
    let mut out = String::from("# Elo against effort\n\n");
    let _ = writeln!(
        out,
        "Every pairing against the baseline `{}` at {} levels of --{} ({}); the axis: {}. Each level is a match of its own, its full report in its folder: {}.\n",
        h.base(),
        a.levels.len(),
        a.option,
        a.levels
            .iter()
            .map(|l| l.value.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        a.axis,
        a.levels
            .iter()
            .map(|l| format!("[`{}/`]({}/report.md)", l.folder, l.folder))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        out,
        "{} openings from `{}`, seed {}, searchlab {} ({}).\n",
        h.opening_count,
        h.openings,
        h.seed,
        h.provenance.searchlab,
        &h.provenance.date[..h.provenance.date.len().min(10)]
    );
    if let Some(r) = &h.reference {
        let _ = writeln!(
            out,
            "Clocks at {:.2} M nodes/s of `{}` (the reference speed; each level's report names the clock played).\n",
            r.reference_nps / 1e6,
            r.yardstick
        );
    }
    out.push_str("![Elo against effort](effort.svg)\n\n## What changes with effort\n\n");
    out.push_str(&a.summary());
    out.push_str(
        "\n\n## Each variant at each level, and the change from the first level to the last\n\n",
    );
    out.push_str(&a.tables());
    out.push_str("\nThe change is the last level's Elo less the first's, the two levels' games independent: its standard error is the root of the sum of their squared standard errors (each interval's half-width over 1.96), and p is the two-sided normal test of no change. A cell an SPRT stopped has an Elo biased away from 0. A variant's Elo is against the baseline at the same level: with `--ablation off-one`, a variant without heuristic X, so a more negative Elo at more effort means X is worth more with more effort.\n");
    if !a.warnings.is_empty() {
        out.push_str("\n## Warnings\n\n");
        for w in &a.warnings {
            let _ = writeln!(out, "- {w}");
        }
    }
    out
}
