//! `searchlab match` and `searchlab sprt`.

use std::path::PathBuf;

use crate::harness::design::Design;
use crate::harness::games::book::pgn::MoveComments;
use crate::harness::games::playing::play::{MatchPlan, run_match};
use crate::harness::games::playing::record::{MatchHeader, openings_replay_games, read_match};
use crate::harness::games::playing::speeds::append_speed;
use crate::harness::games::rating::elo::elo;
use crate::harness::games::rating::stats::{Counts, Decision, MAX_COUNT, Model, Sprt};
use crate::harness::games::rating::tally::{PairingResult, status_line};
use crate::harness::results;

use super::game_args::GameArgs;
use super::players::PlayerArgs;
use crate::harness::games::clock::levels::{self, Effort, Levels};
use crate::harness::games::clock::reference_speed;

/// Games per pairing when neither `--games` nor `--sprt` is given.
const DEFAULT_GAMES: u64 = 100;
/// The most games per pairing an SPRT plays when `--games` does not cap it.
const SPRT_GAMES_CAP: u64 = 20_000;

/// Arguments of `searchlab match`.
#[derive(clap::Args, Clone, Debug)]
pub struct MatchArgs {
    /// The players (the first is the baseline; each other plays it) and the design that
    /// widens the first.
    #[command(flatten)]
    pub players: PlayerArgs,
    /// Games per pairing (even: games come in pairs). Default 100; under --sprt, the cap
    /// (default 20000).
    #[arg(long)]
    pub games: Option<u64>,
    /// A sequential test that stops a pairing when it is decided:
    /// `elo0=E0,elo1=E1[,alpha=0.05,beta=0.05][,model=normalized|logistic]`.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Write the games here as PGN.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// The results file (JSON Lines, resumable).
    #[arg(long, default_value = "match.jsonl")]
    pub out: PathBuf,
    /// Play only part I of N of the pairs (`--shard 1/4`); merge the parts with `merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// With `--shard` and `--sprt`: the folder where every shard of this match writes
    /// (`shard-*.jsonl`, as `submit` lays them out). After each pair the shard reads them all
    /// and stops when the merged SPRT decides, not its own.
    #[arg(long, requires = "shard", requires = "sprt")]
    pub shards_dir: Option<PathBuf>,
    /// Without a terminal (output to a file or a pipe: a cluster job, nohup, CI), print a
    /// status line every N games: games, W-D-L, Elo ± interval, LLR and its bounds, time left
    /// at the current rate (fastchess's `-ratinginterval`); 0: none. On a terminal the live
    /// line shows the same.
    #[arg(long, default_value_t = 10)]
    pub rating_interval: u64,
    /// Stop the match when a player does not honour its node or depth limit (the median of its
    /// moves below a tenth or above twice `nodes=`, or below `depth=`; judged after each of
    /// the first 50 pairs). Without it the match warns once and its report says so.
    #[arg(long)]
    pub strict_limits: bool,
    /// Pin each game thread, and the engines it starts, to a core of its own (fastchess's
    /// `-use-affinity`; Linux, through taskset): games at once do not trade cores mid-move.
    #[arg(long)]
    pub use_affinity: bool,
    /// Write the final position of every game here, one EPD line each (fastchess's
    /// `-epdout`).
    #[arg(long, value_name = "FILE")]
    pub epdout: Option<PathBuf>,
    /// More in each move's PGN comment than score, depth and time: `nodes` (`, n=NODES`) and
    /// `nps` (`, nps=N`), comma-separated (fastchess's `-pgnout nodes=true nps=true`).
    #[arg(long, value_name = "LIST", requires = "pgn")]
    pub pgn_comments: Option<String>,
    /// Openings, limits, adjudication, concurrency, seed (shared with `tune`).
    #[command(flatten)]
    pub game: GameArgs,
}

/// What `match` checks before its first game, for `submit` to check before anything is
/// queued: every engine starts and speaks UCI, the opening book reads, the levels of effort
/// are valid. Returns the levels' folders (none for a match at one limit).
pub fn preflight(args: &MatchArgs) -> Result<Vec<String>, String> {
    let variants = players(args)?;
    let book =
        crate::harness::games::book::openings::read(&args.game.openings, args.game.opening_plies)?;
    if args.game.levels()?.is_none() {
        let (base, own) = args.game.player_controls(&variants)?;
        let control_of = |label: &str| own.get(label).unwrap_or(&base).control;
        let sprt = args.sprt.is_some();
        book_holds_the_games(
            openings_replay_games(&variants, control_of),
            (
                games_per_pairing(args.games, sprt)?,
                args.games.is_some(),
                sprt,
            ),
            (book.len(), &args.game.openings.display().to_string()),
        )?;
    }
    Ok(args.game.levels()?.map_or(Vec::new(), |levels| {
        (0..levels.values.len())
            .map(|i| levels.effort(i).folder(i))
            .collect()
    }))
}

/// `searchlab match`: one match, or one at each level of effort.
pub fn play_match(args: &MatchArgs) -> Result<(), String> {
    match args.game.levels()? {
        Some(levels) => play_levels(args, &levels),
        None => play_one(args, None),
    }
}

/// A match at each level of `levels`, one after the other, each in its level's folder: a
/// level already complete is passed over as a resumed match is, so a killed run resumes.
fn play_levels(args: &MatchArgs, levels: &Levels) -> Result<(), String> {
    let cells: Vec<(MatchArgs, Effort)> = (0..levels.values.len())
        .map(|level| {
            let effort = levels.effort(level);
            let folder = effort.folder(level);
            let mut at = args.clone();
            at.game = args.game.at_level(levels, level);
            at.out = levels::in_level(&args.out, &folder, false);
            at.pgn = args
                .pgn
                .as_ref()
                .map(|p| levels::in_level(p, &folder, false));
            at.shards_dir = args
                .shards_dir
                .as_ref()
                .map(|d| levels::in_level(d, &folder, true));
            (at, effort)
        })
        .collect();
    let files: Vec<String> = cells
        .iter()
        .map(|(a, _)| a.out.display().to_string())
        .collect();
    eprintln!(
        "{} levels of --{}: {}; each level a match of its own, into {}",
        levels.values.len(),
        levels.option,
        levels.values.join(", "),
        files.join(", ")
    );
    for (at, effort) in &cells {
        eprintln!(
            "level {} of {}: --{} {}",
            effort.level + 1,
            effort.levels.len(),
            effort.option,
            effort.value()
        );
        play_one(at, Some(effort.clone()))?;
    }
    eprintln!(
        "`searchlab report {} --out DIR` draws Elo against effort",
        files.join(" ")
    );
    Ok(())
}

/// One match (at one level of effort, if `effort`).
fn play_one(args: &MatchArgs, effort: Option<Effort>) -> Result<(), String> {
    make_output_folders(args)?;
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let games = games_per_pairing(args.games, sprt.is_some())?;
    args.game.start_log()?;
    let variants = players(args)?;
    let mut setup = args.game.setup(&variants)?;
    if effort.is_some() && !setup.rules.own.is_empty() {
        return Err(format!(
            "a player with limits of its own ({}) would not follow the levels of effort: give every player the match's limit",
            setup
                .rules
                .own
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    // A resumed match keeps the factor its header scaled by.
    let previous = if setup.reference.is_some() {
        read_match(&args.out)?.header.and_then(|h| h.reference)
    } else {
        None
    };
    let reference = setup.scale_to_reference(previous.as_ref())?;
    let request = setup.reference.clone();
    let concurrency = setup.concurrency;
    let plan = MatchPlan {
        variants,
        openings_path: args.game.openings.display().to_string(),
        openings: setup.openings,
        opening_plies: args.game.opening_plies,
        opening_order: setup.opening_order,
        rules: setup.rules,
        games,
        sprt,
        concurrency,
        seed: args.game.seed,
        hash_mb: args.game.hash,
        shard: results::Shard::from_arg(args.shard.as_deref())?,
        out: args.out.clone(),
        pgn: args.pgn.clone(),
        progress: !args.game.quiet,
        shards_dir: args.shards_dir.clone(),
        rating_interval: if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            0
        } else {
            args.rating_interval
        },
        reference,
        resumed_reading: setup.resumed_reading,
        effort,
        strict_limits: args.strict_limits,
        use_affinity: args.use_affinity,
        epd_out: args.epdout.clone(),
        pgn_comments: args
            .pgn_comments
            .as_deref()
            .map_or(Ok(Default::default()), MoveComments::parse)?,
    };
    let header = plan.header();
    book_holds_the_games(
        header.openings_replay_games(),
        (plan.games, args.games.is_some(), plan.sprt.is_some()),
        (plan.openings.len(), &plan.openings_path),
    )?;
    announce(&plan);
    let results = run_match(&plan)?;
    if let Some(reading) = reference_speed::remeasure(request.as_ref(), plan.reference.as_ref())? {
        append_speed(&plan.out, read_match(&plan.out)?.pairs.len(), &reading)?;
    }
    print_results(&plan, &results);
    say_where_the_book_ended(&header, &results);
    Ok(())
}

/// The folders of the results file and the PGN, made (or refused) before the first game, not
/// after the last.
fn make_output_folders(args: &MatchArgs) -> Result<(), String> {
    for path in std::iter::once(&args.out).chain(args.pgn.as_ref()) {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
    }
    Ok(())
}

/// An SPRT that ran out of book under a limit where a replayed opening replays its games
/// (`openings_replay_games`) ends undecided: each such pairing says why.
fn say_where_the_book_ended(header: &MatchHeader, results: &[PairingResult]) {
    for result in results.iter().filter(|r| {
        header.openings_replay_games()
            && r.counts.pairs() as usize == header.pairs()
            && r.sprt
                .as_ref()
                .is_some_and(|s| s.decision == Decision::Continue)
    }) {
        eprintln!(
            "'{}': the SPRT is undecided after each of the book's {} openings played once with both colours; more pairs under this limit would be copies: a larger book, or a clock, decides it",
            result.dev, header.opening_count
        );
    }
}

/// Under a limit where a replayed opening replays its games (`openings_replay_games`), a
/// match plays the book once: `--games` beyond it is refused, and an SPRT is told where it
/// will stop.
fn book_holds_the_games(
    replay: bool,
    (games, games_given, sprt): (u64, bool, bool),
    (openings, path): (usize, &str),
) -> Result<(), String> {
    let most = 2 * openings as u64;
    if !replay || games <= most {
        return Ok(());
    }
    if games_given {
        return Err(format!(
            "--games {games}: {path} holds {openings} openings, so {most} games at most under a node or depth limit: searchlab's search is deterministic there, and an opening played again replays its two games move for move. Give --games {most} or fewer, a larger book (--openings), or a clock (--tc)"
        ));
    }
    if sprt {
        eprintln!(
            "under a node or depth limit an opening played again replays its games, so the SPRT stops undecided if it has not decided when the book's {openings} openings ({most} games) are played"
        );
    }
    Ok(())
}

/// Each pairing's status line and failures, and where the results are.
fn print_results(plan: &MatchPlan, results: &[PairingResult]) {
    for result in results {
        println!("{}", status_line(result));
        for (failure, count) in &result.failures {
            println!("  {failure} ×{count}");
        }
    }
    eprintln!(
        "results in {}{}; `searchlab report {}` draws the tables and charts",
        plan.out.display(),
        plan.pgn
            .as_ref()
            .map_or(String::new(), |p| format!(", games in {}", p.display())),
        plan.out.display()
    );
}

/// The match's first line: pairings, games, limits, openings, concurrency.
fn announce(plan: &MatchPlan) {
    eprintln!(
        "{} pairing(s) against '{}', {} games each{}, {}{}, {} openings from {}, concurrency {}",
        plan.variants.len() - 1,
        plan.variants[0].label,
        plan.games,
        plan.sprt
            .map_or(String::new(), |s| format!(" at most (SPRT {s})")),
        plan.rules.control,
        plan.rules
            .own
            .iter()
            .map(|(label, c)| format!(" ({label}: {})", c.control))
            .collect::<String>(),
        plan.openings.len(),
        plan.openings_path,
        plan.concurrency
    );
}

/// Games per pairing: `--games` (even), else the SPRT's cap or the default.
fn games_per_pairing(games: Option<u64>, sprt: bool) -> Result<u64, String> {
    match (games, sprt) {
        (Some(0), _) => Err("--games must be at least 2".into()),
        (Some(n), _) if n % 2 == 1 => Err(format!(
            "--games {n}: games are played in pairs (each opening with both colours); give an even number"
        )),
        (Some(n), _) => Ok(n),
        (None, true) => Ok(SPRT_GAMES_CAP),
        (None, false) => Ok(DEFAULT_GAMES),
    }
}

/// The players, each engine started once to check it speaks UCI: one that does not stops the
/// match before its first game (a crash later in the match loses that game and the match goes
/// on).
fn players(args: &MatchArgs) -> Result<Vec<crate::harness::variant::Variant>, String> {
    if args.players.variants.is_empty() && args.players.engines.is_empty() {
        return Err(
            "a match needs players: --variant [LABEL=]SPEC and/or --engine [LABEL=]\"COMMAND\""
                .into(),
        );
    }
    let (variants, design) = args.players.probed()?;
    if design
        .as_ref()
        .is_some_and(|d| matches!(d, Design::Pairs { .. }))
    {
        return Err(
            "--ablation pairs makes an interaction matrix of node counts, a `run` design; a match plays on-one or off-one variants or a sweep against the base"
                .into(),
        );
    }
    if variants.len() < 2 {
        return Err("a match needs at least two players (the first is the baseline)".into());
    }
    warn_identical(&variants);
    Ok(variants)
}

/// A player configured exactly as the baseline (a tune whose values did not move, verified)
/// measures nothing but noise: said before the first game (an A/A test may be meant).
fn warn_identical(variants: &[crate::harness::variant::Variant]) {
    let what = |v: &crate::harness::variant::Variant| {
        let mut engine = v.engine.clone();
        if let Some(e) = engine.as_mut() {
            e.name = None;
        }
        serde_json::to_string(&(&v.config, &engine, &v.limits)).unwrap_or_default()
    };
    let base = what(&variants[0]);
    for v in &variants[1..] {
        if what(v) == base {
            eprintln!(
                "warning: '{}' is configured exactly as the baseline '{}': their games measure nothing but noise (an A/A test)",
                v.label, variants[0].label
            );
        }
    }
}

/// Arguments of `searchlab sprt`.
#[derive(clap::Args, Debug)]
pub struct SprtArgs {
    /// Game-pair counts `LL,LD,DD+WL,WD,WW` (fishtest's and fastchess's order).
    #[arg(long, conflicts_with = "wdl")]
    pub penta: Option<String>,
    /// Game counts `W,D,L`.
    #[arg(long)]
    pub wdl: Option<String>,
    #[arg(long, allow_hyphen_values = true)]
    pub elo0: f64,
    #[arg(long, allow_hyphen_values = true)]
    pub elo1: f64,
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// `normalized` (fishtest's default) or `logistic`.
    #[arg(long, default_value = "normalized")]
    pub model: String,
}

fn counts_list<const N: usize>(option: &str, text: &str) -> Result<[u64; N], String> {
    let values: Vec<u64> = text
        .split(',')
        .map(|v| v.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            format!("{option} takes {N} whole numbers separated by commas, got '{text}'")
        })?;
    let total = values.iter().try_fold(0u64, |sum, &v| sum.checked_add(v));
    if total.is_none_or(|total| total > MAX_COUNT) {
        return Err(format!(
            "{option}: the counts add up to more than {MAX_COUNT} games, got '{text}'"
        ));
    }
    values
        .try_into()
        .map_err(|_| format!("{option} takes {N} numbers, got '{text}'"))
}

/// `searchlab sprt`: the LLR, the decision and the Elo of given counts.
pub fn sprt(args: &SprtArgs) -> Result<(), String> {
    for (option, value) in [
        ("--elo0", args.elo0),
        ("--elo1", args.elo1),
        ("--alpha", args.alpha),
        ("--beta", args.beta),
    ] {
        if value.is_nan() {
            return Err(format!("{option} must be a number, got NaN"));
        }
    }
    let test = Sprt {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
        model: args.model.parse::<Model>()?,
    };
    test.check()?;
    let counts = match (&args.penta, &args.wdl) {
        (Some(penta), None) => Counts::from_penta(counts_list::<5>("--penta", penta)?, 0),
        (None, Some(wdl)) => {
            let [w, d, l] = counts_list::<3>("--wdl", wdl)?;
            Counts::from_wdl(w, d, l)
        }
        _ => return Err("give the counts: --penta LL,LD,DD+WL,WD,WW or --wdl W,D,L".into()),
    };
    if counts.games() == 0 {
        return Err("no games in the counts".into());
    }
    let llr = test.llr(&counts);
    if !llr.is_finite() {
        return Err(format!(
            "the LLR of these counts is not a number ({llr}): check the bounds and counts"
        ));
    }
    let (lower, upper) = test.bounds();
    println!("LLR {llr:.2} ({lower:.2}, {upper:.2})");
    let decision = test.decide(llr);
    println!(
        "{}",
        match decision {
            Decision::Accepted => format!("H1 accepted: elo >= {} ({})", test.elo1, test.model),
            Decision::Rejected => format!("H0 accepted: elo <= {} ({})", test.elo0, test.model),
            Decision::Continue => "continue: neither bound crossed".to_string(),
        }
    );
    if let Some(e) = elo(&counts) {
        let unit = if counts.paired() { "pairs" } else { "games" };
        // Pair counts do not say how DD+WL splits, so they give no draw ratio.
        let draws = if counts.paired() {
            String::new()
        } else {
            format!(", draw ratio {:.2}%", 100.0 * counts.draw_ratio())
        };
        println!(
            "Elo {}, nElo {}, LOS {:.2}%{draws} ({} {unit}; intervals 95%)",
            e.elo_text(2),
            if e.unbounded {
                "n/a".to_string()
            } else {
                e.nelo_text(2)
            },
            100.0 * e.los,
            if counts.paired() {
                counts.pairs()
            } else {
                counts.games()
            }
        );
    }
    Ok(())
}
