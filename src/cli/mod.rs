//! What each command of the `searchlab` binary does; `main.rs` only parses arguments and
//! dispatches here. Every function returns a message for the user instead of panicking.

use std::io::Write;
use std::path::{Path, PathBuf};

use cozy_chess::Board;

use crate::engine::config::{Algorithm, SearchConfig};
use crate::engine::eval::EvalKind;
use crate::engine::fen::parse_position;
use crate::engine::notation;
use crate::engine::perft;
use crate::engine::position::Position;
use crate::engine::search::{self, IterationInfo, Observer};
use crate::engine::spec;
use crate::engine::stats::{Counter, SearchStats};
use crate::harness::format::mm_ss;
use crate::harness::{bench, plan, results};

mod audit;
mod engine_options;
pub mod fastchess;
mod game_args;
mod games;
mod heuristics;
mod limits;
mod nnue;
mod players;
mod run;
mod submit;
mod tune;
pub use crate::harness::tune::params::spsa_lines;
pub use audit::audit_rate;
pub use engine_options::{EngineOptionsArgs, engine_options};
pub use games::preflight as match_preflight;
pub use games::{MatchArgs, SprtArgs, play_match, sprt};
pub use heuristics::{HeuristicsArgs, heuristics, list_heuristics};
pub use limits::LimitArgs;
pub use nnue::{DatagenArgs, TrainArgs, datagen, datagen_preflight, train};
pub use run::{RunArgs, preflight as run_preflight, run};
pub use submit::{StatusArgs, SubmitArgs, status, submit};
pub use tune::{TuneArgs, preflight as tune_preflight, tune};

/// Arguments of `searchlab perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// `startpos` or a FEN in quotes.
    pub position: String,
    /// Depth in plies.
    pub depth: u32,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
}

/// `searchlab perft`.
pub fn perft(args: &PerftArgs) -> Result<(), String> {
    let (depth, divide) = (args.depth, args.divide);
    let board = parse_position(&args.position)?;
    let start = std::time::Instant::now();
    let total = if divide {
        let mut total = 0;
        for (mv, nodes) in perft::divide(&board, depth) {
            println!("{}: {nodes}", notation::uci(&board, mv));
            total += nodes;
        }
        println!();
        total
    } else {
        perft::perft(&board, depth)
    };
    println!("perft({depth}) = {total}");
    eprintln!(
        "{} ms, {} leaves/s",
        start.elapsed().as_millis(),
        search::nps(total, start.elapsed())
    );
    Ok(())
}

/// Prints one line per completed iteration, under a header line.
struct IterationTable {
    header_printed: bool,
}

/// An iteration's time: milliseconds under ten seconds, else `mm:ss`.
fn iteration_time(time: std::time::Duration) -> String {
    if time.as_secs() < 10 {
        format!("{} ms", time.as_millis())
    } else {
        mm_ss(time)
    }
}

impl Observer for IterationTable {
    fn iteration(&mut self, root: &Board, info: &IterationInfo) {
        if !self.header_printed {
            println!("depth/seldepth  time  nodes  nps  score (pawns)  PV");
            self.header_printed = true;
        }
        // An iteration whose fail high aspiration searched again shallower says how deep.
        let searched = if info.searched < info.depth {
            format!("  [searched {}]", info.searched)
        } else {
            String::new()
        };
        println!(
            "{}/{}  {}  {}  {}  {}  {}{searched}",
            info.depth,
            info.seldepth,
            iteration_time(info.iteration_time),
            info.stats.nodes(),
            info.iteration_nps(),
            notation::pawns(info.score),
            notation::line(root, &info.pv, notation::san)
        );
        let _ = std::io::stdout().flush();
    }
}

/// Arguments of `searchlab search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// `startpos` or a FEN in quotes.
    pub position: String,
    /// The search's limit: one of --depth (default 6), --nodes, --movetime.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Heuristics: comma-separated presets, ids, +id, -id, id.param=value, applied left to
    /// right from nothing (see `searchlab heuristics`).
    #[arg(long, default_value = "plain", allow_hyphen_values = true)]
    pub heuristics: String,
    /// Seed of the search's PRNG (GSR, mate history).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The search algorithm (overrides an `algorithm=` item of the heuristics).
    #[arg(long, value_enum)]
    pub algorithm: Option<Algorithm>,
    /// The static evaluation (overrides an `eval=` item of the heuristics) [default: full].
    #[arg(long, value_enum)]
    pub eval: Option<EvalKind>,
    /// Audit each pruning or reduction decision with this probability (0 < RATE <= 1): search
    /// it again without the decision and print how often it was wrong, per heuristic and
    /// depth. The search's own nodes and move do not change.
    #[arg(long, value_name = "RATE")]
    pub audit: Option<f64>,
}

/// Print the counters of each enabled heuristic, form by form.
fn print_counters(config: &SearchConfig, stats: &SearchStats) {
    for id in config.heuristics.enabled_ids() {
        for counter in Counter::of_heuristic(id) {
            let c = stats.heuristics.get(counter);
            println!(
                "  {:<29} tested {:>12}  fired {:>12}  overruled {:>10}",
                counter.key(),
                c.tested,
                c.fired,
                c.overruled
            );
        }
    }
}

/// `searchlab search`.
pub fn search(args: &SearchArgs) -> Result<(), String> {
    let board = parse_position(&args.position)?;
    let limits = args.limits.limits(6)?;
    let configured = spec::configure(&args.heuristics, args.algorithm, args.seed)?;
    let config = SearchConfig {
        eval: args.eval.unwrap_or(configured.eval),
        limits,
        ..configured
    };
    let rate = audit_rate(args.audit)?;
    let result = search::search_audited(
        Position::new(board.clone(), config.eval),
        config.clone(),
        rate,
        &mut IterationTable {
            header_printed: false,
        },
    )?;
    if let Some(last) = result.iterations.last() {
        let s = last.stats;
        println!(
            "depth {}: interior {}  horizon {}  quiescence {}  seldepth {}  cut-offs {}  first-move cut-offs {} ({:.1}%, mean index {})  quiescence cut-offs {} (first move {:.1}%)",
            last.depth,
            s.interior,
            s.horizon,
            s.quiescence,
            s.seldepth,
            s.cutoffs,
            s.first_move_cutoffs,
            100.0 * s.first_move_cutoff_rate(),
            s.mean_cutoff_index()
                .map_or("-".to_string(), |i| format!("{i:.2}")),
            s.quiescence_cutoffs,
            100.0 * s.quiescence_first_move_cutoffs as f64 / s.quiescence_cutoffs.max(1) as f64,
        );
    }
    println!(
        "total: {} nodes in {} ms ({} nps)",
        result.stats.nodes(),
        result.elapsed.as_millis(),
        search::nps(result.stats.nodes(), result.elapsed)
    );
    if !config.heuristics.enabled_ids().is_empty() {
        println!("heuristics (whole search):");
        print_counters(&config, &result.stats);
    }
    if let (Some(rate), Some(tally)) = (rate, &result.audit) {
        print!("{}", audit::audit_table(rate, tally));
    }
    match result.best_move {
        Some(mv) => println!("bestmove {}", notation::uci(&board, mv)),
        None => println!("bestmove (none): the side to move has no legal move"),
    }
    Ok(())
}

/// Arguments of `searchlab bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    pub depth: u32,
    /// Heuristics SPEC, as for `search` (default: the UCI engine's, `modern`).
    #[arg(long, default_value = crate::uci::DEFAULT_PRESET, allow_hyphen_values = true)]
    pub heuristics: String,
    /// Seed of the search's PRNG.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// An EPD file to bench instead of the embedded suites/bench.epd.
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// Print one line per position on stderr.
    #[arg(long)]
    pub verbose: bool,
    /// Audit each pruning or reduction decision with this probability (0 < RATE <= 1)
    /// and print the audit table; the signature does not change.
    #[arg(long, value_name = "RATE")]
    pub audit: Option<f64>,
}

/// `searchlab bench`.
pub fn bench(args: &BenchArgs) -> Result<(), String> {
    let (depth, heuristics, seed, verbose) = (
        args.depth,
        args.heuristics.as_str(),
        args.seed,
        args.verbose,
    );
    let (suite, audit) = (args.suite.as_deref(), args.audit);
    plan::check_depth(depth)?;
    let rate = audit_rate(audit)?;
    let records = match suite {
        None => bench::bench_positions(),
        Some(path) => bench::read_suite(path).map_err(|errors| {
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })?,
    };
    let config = spec::configure(heuristics, None, seed)?;
    let report = bench::run(&records, depth, config.clone(), rate, |line| {
        if verbose {
            eprintln!(
                "{:<24} {:>12} nodes {:>8} ms",
                line.id,
                line.stats.nodes(),
                line.elapsed.as_millis()
            );
        }
    })?;
    println!(
        "{} positions, depth {depth}, {} ms",
        report.lines.len(),
        report.elapsed.as_millis()
    );
    if !config.heuristics.enabled_ids().is_empty() {
        println!("heuristics (all positions):");
        print_counters(&config, &report.stats);
    }
    if let (Some(rate), Some(tally)) = (rate, &report.audit) {
        print!("{}", audit::audit_table(rate, tally));
    }
    println!("{} nodes {} nps", report.nodes(), report.nps());
    Ok(())
}

/// `report --index DIR`: the files whose index or "As of" line is not fresh, rewritten.
fn write_index(dir: &Path) -> Result<(), String> {
    use crate::harness::report::index;
    let name = dir
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let top = dir.parent().unwrap_or(Path::new("")).join("README.md");
    let mut readmes = vec![(dir.join("README.md"), String::new())];
    let top_text = std::fs::read_to_string(&top).unwrap_or_default();
    if top_text.contains(index::BEGIN) {
        readmes.push((top, format!("{name}/")));
    }
    let stale = index::stale(dir, &readmes)?;
    for (path, text) in &stale {
        crate::harness::files::write_atomic(path, text)?;
        println!("wrote {}", path.display());
    }
    if stale.is_empty() {
        println!(
            "{}: the index and every As of line are fresh",
            dir.display()
        );
    }
    Ok(())
}

/// Options of `searchlab report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Files of one kind, told apart by their header's `type`: results written by `searchlab
    /// run` (several are joined; a variant label must mean the same SPEC in all of them), by
    /// `searchlab match` (one match, or its shards), tune files (`searchlab tune`), or one
    /// `reproduction.json` (`searchlab reproduce`).
    #[arg(required_unless_present = "index")]
    pub files: Vec<PathBuf>,
    /// Instead of a report: write the index of the report folders under DIR (`reports`) from
    /// their results headers alone, into DIR/README.md and the README beside DIR between the
    /// index markers, and each report README's one "As of" line (which reading describes
    /// today's default, computed).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["files", "out", "baseline", "goal"])]
    pub index: Option<PathBuf>,
    /// Directory for report.md, analysis.json, the CSV tables and the SVG charts (default: the
    /// first results file's directory).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The variant every ratio and paired test is taken against (default: the first variant).
    #[arg(long)]
    pub baseline: Option<String>,
    /// A goal on one player's score in a match, judged in the verdicts: `NAME<=PERCENT%` or
    /// `NAME>=PERCENT%` (`--goal ethereal<=60%`): the probability that the true score meets
    /// it, and whether the 95% interval meets it, misses it or straddles it. Repeatable. For a
    /// match of levels each goal is judged at every level. A report is refused where the
    /// folder's `verdicts.json` judges a goal the command leaves out (it would drop it).
    #[arg(long, value_name = "GOAL")]
    pub goal: Vec<crate::harness::games::rating::goal::Goal>,
}

/// `searchlab report`: render a report from results files, never by searching (one dispatch
/// by the files' kind: `harness::report::dispatch`).
pub fn report(args: &ReportArgs) -> Result<(), String> {
    if let Some(dir) = &args.index {
        return write_index(dir);
    }
    crate::harness::report::dispatch::render(
        &args.files,
        &crate::harness::report::dispatch::Options {
            out: args.out.clone(),
            baseline: args.baseline.as_deref(),
            goals: &args.goal,
        },
    )
}

/// Arguments of `searchlab merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The shard files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The merged file.
    #[arg(long)]
    pub out: PathBuf,
}

/// `searchlab merge`: join shard files of one run (results, matches or datagen's data).
pub fn merge(args: &MergeArgs) -> Result<(), String> {
    let (files, out) = (args.files.as_slice(), args.out.as_path());
    if files
        .iter()
        .any(|f| crate::harness::nnue::datagen::is_data_file(f))
    {
        let total = crate::harness::nnue::merge::merge(files, out)?;
        eprintln!(
            "{} positions of {} games from {} shards into {} (provenance in {})",
            total.positions,
            total.games_done,
            files.len(),
            out.display(),
            crate::harness::nnue::datagen::provenance_path(out).display()
        );
        return Ok(());
    }
    if files
        .iter()
        .any(|f| crate::harness::games::playing::record::is_match_file(f))
    {
        let (pairs, warnings) = crate::harness::games::playing::record::merge_matches(files, out)?;
        for warning in &warnings {
            eprintln!("warning: {warning}");
        }
        eprintln!(
            "{pairs} pairs from {} file{} into {}",
            files.len(),
            if files.len() == 1 { "" } else { "s" },
            out.display()
        );
        return Ok(());
    }
    let merged = results::merge(files, out)?;
    for warning in &merged.warnings {
        eprintln!("warning: {warning}");
    }
    if let Some((merged_shards, count)) = merged.shards
        && merged_shards != count
    {
        eprintln!("warning: {merged_shards} of {count} shards merged");
    }
    if !merged.missing.is_empty() {
        eprintln!(
            "warning: {} searches of the run are in no shard (listed in the merged header as \"missing\"); the first: {}",
            merged.missing.len(),
            merged
                .missing
                .iter()
                .take(5)
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    eprintln!(
        "{} records from {} files into {}{}",
        merged.records,
        files.len(),
        out.display(),
        if merged.missing.is_empty() {
            ""
        } else {
            " (incomplete)"
        }
    );
    Ok(())
}

/// Options of `searchlab reproduce`.
#[derive(clap::Args, Debug)]
pub struct ReproduceArgs {
    /// Directory for reproduction.md, reproduction.json, killers.svg and quiescence.svg.
    #[arg(long, default_value = "reports/reproduction")]
    pub out: PathBuf,
    /// Stop at depth 5 (quiescence table) and 7 (killer table), with 4 shuffled orders at
    /// depth 7 and none at 8: well under a minute, for CI.
    #[arg(long)]
    pub quick: bool,
    /// Shuffled-order searches run side by side (default: all cores). The timed searches
    /// always run one at a time, so that their times are not shared; node counts depend on
    /// neither.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Shuffled quiet orders (seeds 1..=N) searched at depth 7 [default: 20, 4 with --quick].
    #[arg(long)]
    pub shuffles: Option<u64>,
    /// Shuffled quiet orders searched at depth 8, the killer configurations to depth 9 (003's
    /// half-move) [default: 20, 0 with --quick].
    #[arg(long)]
    pub deep_shuffles: Option<u64>,
    /// Do not search: render the Markdown and the charts again from this reproduction.json.
    #[arg(long, conflicts_with_all = ["quick", "jobs", "shuffles", "deep_shuffles"])]
    pub from: Option<PathBuf>,
}

/// `searchlab reproduce`: search the documents' two tables again and write them beside
/// Ifrit's numbers.
pub fn reproduce(args: &ReproduceArgs) -> Result<(), String> {
    use crate::harness::reproduce;
    let options = reproduce::Options {
        quick: args.quick,
        jobs: plan::jobs(args.jobs)?,
        shuffles: args.shuffles.unwrap_or(if args.quick { 4 } else { 20 }),
        deep_shuffles: args
            .deep_shuffles
            .unwrap_or(if args.quick { 0 } else { 20 }),
    };
    let r = match &args.from {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            serde_json::from_str(&text)
                .map_err(|e| format!("{}: not a reproduction.json: {e}", path.display()))?
        }
        None => {
            eprintln!(
                "searching the documents' tables from the start position: the timed searches one at a time, each row printed as its iteration completes; then each configuration under {} shuffled orders at depth 7 and {} to depth 8 (9 with killers), {} searches at a time",
                options.shuffles, options.deep_shuffles, options.jobs
            );
            reproduce::reproduce(&options)?
        }
    };
    crate::harness::report::reproduction::write(&r, &args.out)?;
    print!("{}", reproduce::markdown::markdown(&r));
    eprintln!(
        "reproduction: {} ({:.0} s)",
        args.out.join("reproduction.md").display(),
        r.wall_s
    );
    Ok(())
}
