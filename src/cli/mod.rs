//! What each command of the `searchlab` binary does; `main.rs` only parses arguments and
//! dispatches here. Every function returns a message for the user instead of panicking.

use std::io::Write;
use std::path::{Path, PathBuf};

use cozy_chess::Board;

use crate::engine::config::{Algorithm, Limits, SearchConfig};
use crate::engine::eval::EvalKind;
use crate::engine::fen::parse_position;
use crate::engine::heuristics::REGISTRY;
use crate::engine::notation;
use crate::engine::perft;
use crate::engine::position::Position;
use crate::engine::search::{self, IterationInfo, Observer};
use crate::engine::spec;
use crate::engine::stats::{Counter, SearchStats};
use crate::harness::format::mm_ss;
use crate::harness::{bench, plan, report, results, runner};

mod audit;
mod games;
mod heuristics;
mod nnue;
pub use audit::audit_rate;
pub use games::{MatchArgs, SprtArgs, play_match, sprt};
pub use heuristics::list_heuristics;
pub use nnue::{DatagenArgs, TrainArgs, datagen, train};

/// `searchlab perft`.
pub fn perft(position: &str, depth: u32, divide: bool) -> Result<(), String> {
    let board = parse_position(position)?;
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
        println!(
            "{}/{}  {}  {}  {}  {}  {}",
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

/// The limit of every search of a command: one of depth, nodes or time, under one rule for
/// `search` and `run` (`plan::limits`).
#[derive(clap::Args, Debug)]
pub struct LimitArgs {
    /// Deepest iteration (1..127).
    #[arg(long, conflicts_with_all = ["nodes", "movetime"])]
    pub depth: Option<u32>,
    /// Stop after this many nodes (the last completed iteration counts).
    #[arg(long, conflicts_with = "movetime")]
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds (results then depend on the machine).
    #[arg(long)]
    pub movetime: Option<u64>,
}

impl LimitArgs {
    /// The limits, checked, with `default_depth` when none is given.
    pub fn limits(&self, default_depth: u32) -> Result<Limits, String> {
        plan::limits(self.depth, self.nodes, self.movetime, default_depth)
    }
}

/// Print the counters of each enabled heuristic, form by form.
fn print_counters(config: &SearchConfig, stats: &SearchStats) {
    for id in config.heuristics.enabled_ids() {
        for counter in Counter::of_heuristic(id) {
            let c = stats.heuristics.get(counter);
            println!(
                "  {:<24} tested {:>12}  fired {:>12}  overruled {:>10}",
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
        config,
        rate,
        &mut IterationTable {
            header_printed: false,
        },
    );
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

/// `searchlab bench`.
pub fn bench(
    depth: u32,
    heuristics: &str,
    seed: u64,
    suite: Option<&Path>,
    verbose: bool,
    audit: Option<f64>,
) -> Result<(), String> {
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
    let report = bench::run(&records, depth, config, rate, |line| {
        if verbose {
            eprintln!(
                "{:<24} {:>12} nodes {:>8} ms",
                line.id,
                line.stats.nodes(),
                line.elapsed.as_millis()
            );
        }
    });
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

/// The `--seeds` help, naming the heuristics whose registry row says they draw random numbers.
fn randomised_help() -> String {
    let ids: Vec<&str> = REGISTRY
        .iter()
        .filter(|info| info.randomised)
        .map(|info| info.name)
        .collect();
    format!(
        "Repeat randomised variants ({}) over seeds 0..K",
        ids.join(", ")
    )
}

/// Arguments of `searchlab run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// EPD files (default: the project's suites/bench.epd and suites/tactics.epd).
    #[arg(long = "suite")]
    pub suites: Vec<std::path::PathBuf>,
    /// A variant `[LABEL=]SPEC`, repeated (default: the main job's variants). A label or SPEC
    /// may start with `-`: `--variant -killers=classic,-killers`.
    #[arg(long = "variant", allow_hyphen_values = true)]
    pub variants: Vec<String>,
    /// An external UCI engine, repeated: `"name=dev cmd=./dev args='-x 1' dir=PATH
    /// option.Hash=64"` (fastchess's form) or `[LABEL=]"COMMAND"`; one fresh process per
    /// position, failures recorded with their reason.
    #[arg(long = "engine")]
    pub engines: Vec<String>,
    /// Settings for every engine, `"option.NAME=VALUE ..."` (an engine's own option wins).
    #[arg(long = "each")]
    pub each: Vec<String>,
    /// `NAME=VALUE` sent to every external engine with setoption, repeated.
    #[arg(long = "uci-option")]
    pub uci_options: Vec<String>,
    /// The limit of every search: one of --depth (default 7), --nodes, --movetime.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Repeat randomised variants over seeds 0..K.
    #[arg(long, default_value_t = 1, help = randomised_help())]
    pub seeds: u64,
    /// Worker threads (default: all cores). Node counts do not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The results file (default reports/latest/main/results.jsonl); an existing file of
    /// the same run is resumed.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Also render the full report (Markdown, charts, CSV) into this directory. The main job
    /// (no variants, suites or engines given) renders it beside its results by default.
    #[arg(long)]
    pub report: Option<std::path::PathBuf>,
    /// Run only part I of N of the searches (`--shard 1/2`).
    #[arg(long)]
    pub shard: Option<String>,
    /// Skip bad EPD lines with a warning instead of stopping.
    #[arg(long)]
    pub skip_invalid: bool,
    /// Ablation around the first variant: `on-one` adds one variant per heuristic switched on
    /// alone over it (default base `plain`), `off-one` one per heuristic of it switched off
    /// (default `all`); `pairs[:ID,ID,...]` makes the interaction matrix: every single toggle
    /// and every pair of the heuristics (default: the main job's six) over the base (default
    /// `classic`), reported as synergy ratios.
    #[arg(long, value_name = "on-one|off-one|pairs[:ID,...]")]
    pub ablation: Option<String>,
    /// Sweep a parameter over the base variant (default `classic`), one variant per value:
    /// `ID.PARAM=V1,V2,...` or `ID.PARAM=FROM..TO:STEP`; repeated, a grid. The heuristic is
    /// switched on when the base has it off. The report draws node ratio and solve rate
    /// against the value, the documents' default marked.
    #[arg(long = "sweep", value_name = "ID.PARAM=VALUES")]
    pub sweeps: Vec<String>,
    /// Audit each pruning or reduction decision with this probability (0 < RATE <= 1): each
    /// record gains its audit (decision, depth, audited, wrong, error) and the report an
    /// error-rate table and chart. Node counts and moves do not change.
    #[arg(long, value_name = "RATE")]
    pub audit: Option<f64>,
}

/// The analysis a run makes, if any (`pairs`, `sweep`, `audit`).
fn analysis_kind(args: &RunArgs, audit: Option<f64>) -> Option<&'static str> {
    if args
        .ablation
        .as_deref()
        .is_some_and(|m| m.starts_with("pairs"))
    {
        Some("pairs")
    } else if !args.sweeps.is_empty() {
        Some("sweep")
    } else {
        audit.map(|_| "audit")
    }
}

/// `searchlab run`.
pub fn run(args: &RunArgs) -> Result<(), String> {
    if args.seeds == 0 {
        return Err("--seeds must be at least 1".into());
    }
    let audit = audit_rate(args.audit)?;
    let main_job = args.variants.is_empty()
        && args.engines.is_empty()
        && args.suites.is_empty()
        && args.ablation.is_none()
        && args.sweeps.is_empty()
        && audit.is_none();
    // A design or an audit writes a file of its own, its report beside it.
    let analysis_kind = analysis_kind(args, audit);
    let out = args.out.clone().unwrap_or_else(|| match analysis_kind {
        Some(kind) => format!("reports/latest/{kind}/results.jsonl").into(),
        None => plan::MAIN_JOB_OUT.into(),
    });
    let (mut variants, design) = plan::variants(
        &args.variants,
        &args.engines,
        (&args.each, &args.uci_options),
        args.ablation.as_deref(),
        &args.sweeps,
    )?;
    if let Some(v) = variants.iter().find(|v| !v.limits.is_empty()) {
        let (key, _) = &v.limits[0];
        return Err(format!(
            "player '{}': {key}= is a match's per-player limit; run searches every player under --depth, --movetime or --nodes",
            v.label
        ));
    }
    // Each external engine once, before anything is written: a command that does not start
    // or does not speak UCI stops the run here, not position by position.
    for variant in &mut variants {
        if let Some(engine) = &mut variant.engine {
            let name = crate::harness::external::probe(engine)
                .map_err(|e| format!("--engine {}: {e}", variant.label))?;
            eprintln!("engine {}: {name}", variant.label);
            engine.name = Some(name);
        }
    }
    let run = runner::Run {
        variants,
        suites: plan::suites(&args.suites, args.skip_invalid)?,
        limits: args.limits.limits(7)?,
        seeds: (0..args.seeds).collect(),
        jobs: plan::jobs(args.jobs)?,
        out: out.clone(),
        shard: args
            .shard
            .as_deref()
            .map(results::Shard::parse)
            .transpose()?,
        progress: true,
        audit,
        design,
    };
    runner::run(&run)?;
    let analysis = report::analyse(&report::Dataset::read(std::slice::from_ref(&out))?, None)?;
    let table = report::summary_table(&analysis);
    print!("{}", report::terminal_summary(&analysis));
    let summary_path = out.with_extension("md");
    std::fs::write(&summary_path, &table)
        .map_err(|e| format!("{}: {e}", summary_path.display()))?;
    eprintln!(
        "results: {}  summary: {}",
        out.display(),
        summary_path.display()
    );
    let report_dir = args.report.clone().or_else(|| {
        ((main_job || analysis_kind.is_some()) && args.out.is_none())
            .then(|| out.parent().map(Path::to_path_buf))
            .flatten()
    });
    if let Some(dir) = report_dir {
        report::write_report(&analysis, &dir)?;
        eprintln!("report: {}", dir.join("report.md").display());
    }
    Ok(())
}

/// Options of `searchlab report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Results files written by `searchlab run` (several are joined; a variant label must mean
    /// the same SPEC in all of them), or by `searchlab match` (one match, or its shards).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Directory for report.md, analysis.json, the CSV tables and the SVG charts (default: the
    /// first results file's directory).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The variant every ratio and paired test is taken against (default: the first variant).
    #[arg(long)]
    pub baseline: Option<String>,
}

/// `searchlab report`: render a report from results files, never by searching.
pub fn report(args: &ReportArgs) -> Result<(), String> {
    let dir = args.out.clone().unwrap_or_else(|| {
        args.files[0]
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    });
    let matches = args
        .files
        .iter()
        .filter(|f| crate::harness::games::record::is_match_file(f))
        .count();
    if matches > 0 {
        if matches < args.files.len() {
            return Err("these files mix match results and run results: report them apart".into());
        }
        return games::report(&args.files, &dir, args.baseline.as_deref());
    }
    let data = report::Dataset::read(&args.files)?;
    let analysis = report::analyse(&data, args.baseline.as_deref())?;
    report::write_report(&analysis, &dir)?;
    print!("{}", report::summary_table(&analysis));
    eprintln!(
        "report: {} ({} records, {} variants; charts: {})",
        dir.join("report.md").display(),
        data.records.len(),
        analysis.variants.len(),
        report::CHARTS.len()
    );
    Ok(())
}

/// `searchlab merge`: join shard files of one run.
pub fn merge(files: &[PathBuf], out: &Path) -> Result<(), String> {
    if files
        .iter()
        .any(|f| crate::harness::games::record::is_match_file(f))
    {
        let (pairs, warnings) = crate::harness::games::record::merge_matches(files, out)?;
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
    reproduce::write(&r, &args.out)?;
    print!("{}", reproduce::markdown::markdown(&r));
    eprintln!(
        "reproduction: {} ({:.0} s)",
        args.out.join("reproduction.md").display(),
        r.wall_s
    );
    Ok(())
}
