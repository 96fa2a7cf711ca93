//! `searchlab run`: its arguments and the run from them to the summary and the report.

use crate::harness::progress;
use std::path::Path;

use super::audit::audit_rate;
use super::limits::LimitArgs;
use super::players::PlayerArgs;
use crate::engine::heuristics::REGISTRY;
use crate::harness::{plan, report, results, runner};

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
    /// Without a terminal (output to a file or a pipe: a cluster job, nohup, CI), print a
    /// status line every this many seconds: searches done, time elapsed and left at the
    /// current rate; 0: none. On a terminal a bar shows the same.
    #[arg(long, default_value_t = 60.0)]
    pub status_interval: f64,
    /// EPD files (default: the project's suites/bench.epd and suites/tactics.epd).
    #[arg(long = "suite")]
    pub suites: Vec<std::path::PathBuf>,
    /// The players and the design that widens the first.
    #[command(flatten)]
    pub players: PlayerArgs,
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
    /// Audit each pruning or reduction decision with this probability (0 < RATE <= 1): each
    /// record gains its audit (decision, depth, audited, wrong, error) and the report an
    /// error-rate table and chart. Node counts and moves do not change.
    #[arg(long, value_name = "RATE")]
    pub audit: Option<f64>,
    /// Record each in-process search's width by remaining depth (nodes, moves searched and at
    /// full depth, reductions by move number and their re-searches, cut-offs, table hits, each
    /// decision tested and fired): each record gains a `width` object, which
    /// `scripts/depth_gap.py --width` tabulates. Node counts and moves do not change.
    #[arg(long)]
    pub width: bool,
}

/// The analysis a run makes, if any (`pairs`, `sweep`, `audit`).
fn analysis_kind(args: &RunArgs, audit: Option<f64>) -> Option<&'static str> {
    if args
        .players
        .ablation
        .as_deref()
        .is_some_and(|m| m.starts_with("pairs"))
    {
        Some("pairs")
    } else if !args.players.sweeps.is_empty() {
        Some("sweep")
    } else {
        audit.map(|_| "audit")
    }
}

/// What `run` checks before it searches, for `submit` to check before anything is queued:
/// every engine starts and speaks UCI, every suite reads.
pub fn preflight(args: &RunArgs) -> Result<(), String> {
    args.players.probed()?;
    plan::suites(&args.suites, args.skip_invalid)?;
    Ok(())
}

/// `searchlab run`.
pub fn run(args: &RunArgs) -> Result<(), String> {
    if args.seeds == 0 {
        return Err("--seeds must be at least 1".into());
    }
    let audit = audit_rate(args.audit)?;
    let main_job = args.players.none() && args.suites.is_empty() && audit.is_none();
    // A design or an audit writes a file of its own, its report beside it.
    let analysis_kind = analysis_kind(args, audit);
    let out = args.out.clone().unwrap_or_else(|| match analysis_kind {
        Some(kind) => format!("reports/latest/{kind}/results.jsonl").into(),
        None => plan::MAIN_JOB_OUT.into(),
    });
    // Each external engine once, before anything is written: a command that does not start
    // or does not speak UCI stops the run here, not position by position.
    let (variants, design) = args.players.probed()?;
    if let Some(v) = variants.iter().find(|v| !v.limits.is_empty()) {
        let (key, _) = &v.limits[0];
        return Err(format!(
            "player '{}': {key}= is a match's per-player limit; run searches every player under --depth, --movetime or --nodes",
            v.label
        ));
    }
    for variant in &variants {
        if let Some(name) = variant.engine.as_ref().and_then(|e| e.name.as_ref()) {
            eprintln!("engine {}: {name}", variant.label);
        }
    }
    let run = runner::Run {
        variants,
        suites: plan::suites(&args.suites, args.skip_invalid)?,
        limits: args.limits.limits(7)?,
        seeds: (0..args.seeds).collect(),
        jobs: plan::jobs(args.jobs)?,
        out: out.clone(),
        shard: results::Shard::from_arg(args.shard.as_deref())?,
        progress: Some(progress::every_seconds(args.status_interval)?),
        audit,
        width: args.width,
        design,
    };
    runner::run(&run)?;
    // A shard's summary is of its own share: the other shards are other tasks', not missing.
    let data = match args.shard {
        Some(_) => report::Dataset::read_share(&out)?,
        None => report::Dataset::read(std::slice::from_ref(&out))?,
    };
    let analysis = report::analyse(&data, None)?;
    let table = report::summary_table(&analysis);
    print!("{}", report::terminal_summary(&analysis));
    let summary_path = out.with_extension("md");
    crate::harness::files::write_atomic(&summary_path, &table)?;
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
