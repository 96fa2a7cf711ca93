//! `searchlab datagen` and `searchlab train`.

use std::path::PathBuf;

use crate::engine::config::SearchConfig;
use crate::engine::eval::EvalKind;
use crate::engine::spec;
use crate::harness::games::book::openings;
use crate::harness::nnue::datagen::{self, DataRun, Plan, Progress};
use crate::harness::provenance::Provenance;
use crate::harness::{plan, results};

/// Arguments of `searchlab datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// The data file (32 bytes a position, the bulletformat layout); `OUT.json` beside it
    /// records what was played and how far, and a killed run resumes from it.
    #[arg(long)]
    pub out: PathBuf,
    /// Games to play (of every shard).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// The configuration that plays both sides, a SPEC.
    #[arg(long, default_value = crate::uci::DEFAULT_HEURISTICS, allow_hyphen_values = true)]
    pub heuristics: String,
    /// The static evaluation that plays, for a SPEC that names none (a SPEC's `eval=` is its
    /// own; a different `--eval` beside it is refused) [default: full].
    #[arg(long, value_enum)]
    pub eval: Option<EvalKind>,
    /// Openings: EPD or PGN, as for `match`; game i starts from the i-th (cycling).
    #[arg(long, default_value = "suites/openings.epd")]
    pub openings: PathBuf,
    /// Random legal moves played after each opening's book, drawn from the seed and the game.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Seeds the random plies and every search.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only the games whose index is I-1 modulo N (`I/N`).
    #[arg(long)]
    pub shard: Option<String>,
    /// Games played at once (default: all cores); the file is the same for any number.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Transposition table of each side, MiB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// No progress bar or status line.
    #[arg(long)]
    pub quiet: bool,
    /// Without a terminal (output to a file or a pipe: a cluster job, nohup, CI), print a
    /// status line every this many seconds: games done, positions, time elapsed and left at
    /// the current rate; 0: none. On a terminal a bar shows the same.
    #[arg(long, default_value_t = 60.0)]
    pub status_interval: f64,
}

/// The file name of the held-out openings book: every evaluation match of a network plays
/// from it, and no training game does.
pub const HELD_OUT_BOOK: &str = "openings-heldout.epd";

/// `searchlab datagen`.
/// What `datagen` checks before its first game, for `submit` to check before anything is
/// queued: the opening book reads.
pub fn datagen_preflight(args: &DatagenArgs) -> Result<(), String> {
    openings::read(&args.openings, None).map(|_| ())
}

/// `searchlab datagen`.
pub fn datagen(args: &DatagenArgs) -> Result<(), String> {
    if args.nodes == 0 || args.games == 0 {
        return Err("--nodes and --games must be at least 1".into());
    }
    if !(1..=4096).contains(&args.hash) {
        return Err(format!("--hash must be 1..4096 MiB, got {}", args.hash));
    }
    let config = datagen_config(args)?;
    if args.openings.file_name().and_then(|n| n.to_str()) == Some(HELD_OUT_BOOK) {
        return Err(format!(
            "--openings {}: the held-out book networks are judged on (suites/README.md); training games play from another, suites/openings.epd by default",
            args.openings.display()
        ));
    }
    let openings = openings::read(&args.openings, None)?;
    let plan = Plan {
        out: args.out.clone(),
        provenance: DataRun {
            provenance: Provenance::now(),
            spec: args.heuristics.clone(),
            config: config.clone(),
            nodes: args.nodes,
            openings: args.openings.display().to_string(),
            opening_count: openings.len(),
            random_plies: args.random_plies,
            seed: args.seed,
            games: args.games,
            shard: args
                .shard
                .as_deref()
                .map(results::Shard::parse)
                .transpose()?,
            hash_mb: args.hash,
            progress: Progress::default(),
            merged_from: Vec::new(),
        },
        openings,
        jobs: plan::jobs(args.jobs)?,
        progress: match args.quiet {
            true => None,
            false => Some(crate::harness::progress::every_seconds(
                args.status_interval,
            )?),
        },
    };
    eprintln!(
        "datagen: {} games of {} ({:?} evaluation) at {} nodes a move, {} random plies after {} openings, {} at once, into {}",
        args.games,
        args.heuristics,
        config.eval,
        args.nodes,
        args.random_plies,
        plan.openings.len(),
        plan.jobs,
        args.out.display()
    );
    let done = datagen::run(&plan)?;
    println!("{}", data_summary(&done));
    eprintln!(
        "data in {}, provenance in {}",
        args.out.display(),
        datagen::provenance_path(&args.out).display()
    );
    Ok(())
}

/// The configuration that plays: the SPEC with `--eval` (which may not contradict the SPEC's
/// own `eval=`), its network pinned.
fn datagen_config(args: &DatagenArgs) -> Result<SearchConfig, String> {
    let mut config = spec::parse(&args.heuristics)?;
    match args.eval {
        Some(eval) if spec::names_eval(&args.heuristics) && eval != config.eval => {
            return Err(format!(
                "--eval {eval:?} and the SPEC's own eval= ({:?}) disagree: one SPEC names one configuration; drop one",
                config.eval
            ));
        }
        Some(eval) => config.eval = eval,
        None => {}
    }
    Ok(config.with_pinned_net())
}

/// The line that sums up a data generation: positions and games, and what was left out.
fn data_summary(done: &Progress) -> String {
    let scored = done.positions + done.in_check + done.tactical + done.mate;
    format!(
        "{} positions from {} games (W-D-L for White {}-{}-{}, {} games left out); of {scored} scored positions {} in check, {} with a capture or promotion best, {} with a mate score left out",
        done.positions,
        done.games_done,
        done.white_wins,
        done.draws,
        done.white_losses,
        done.games_skipped,
        done.in_check,
        done.tactical,
        done.mate
    )
}

/// Arguments of `searchlab train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Data files written by `datagen`, repeated.
    #[arg(long = "data", required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write (after every epoch).
    #[arg(long)]
    pub out: PathBuf,
    /// The directory of the checkpoint, `train.json` and `loss.svg` [default: OUT.train].
    #[arg(long)]
    pub dir: Option<PathBuf>,
    #[arg(long, default_value_t = 20)]
    pub epochs: u32,
    /// Positions per AdamW step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// AdamW's learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// The learning rate is multiplied by --lr-drop after this share of the epochs.
    #[arg(long, default_value_t = 0.75)]
    pub drop_at: f32,
    #[arg(long, default_value_t = 0.1)]
    pub lr_drop: f32,
    /// AdamW's decoupled weight decay.
    #[arg(long, default_value_t = 0.01)]
    pub weight_decay: f32,
    /// Weight of the game's result in the target; the rest is the search's score.
    #[arg(long, default_value_t = 0.25)]
    pub lambda: f32,
    /// Centipawns per unit of the sigmoid that makes scores expected scores.
    #[arg(long, default_value_t = 400.0)]
    pub scale: f32,
    /// Share of the positions held out for validation.
    #[arg(long, default_value_t = 0.02)]
    pub validation: f64,
    /// Seeds the initial weights, the split and every epoch's order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: all cores); the numbers do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output layers: 1, or 8 (one per bucket of 4 pieces on the board, the field's "output
    /// buckets"; the network file is then of format 2).
    #[arg(long, default_value_t = 1)]
    pub output_buckets: usize,
    /// Mirror each perspective's inputs file for file when its king stands on the e to h
    /// files (the field's horizontal mirroring: one set of weights for a king on either wing);
    /// the network file is then of format 3. A net of either kind may be the --init.
    #[arg(long)]
    pub mirror: bool,
    /// Start from this network's weights instead of random ones: the next generation
    /// fine-tuned from the one before on new data (the log names its checksum). Its number of
    /// output layers must suit --output-buckets.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The network `train --init` starts from, with its checksum.
fn start_network(path: &std::path::Path) -> Result<(crate::engine::nnue::Network, String), String> {
    let named = |e: String| format!("--init {}: {e}", path.display());
    let bytes = crate::engine::nnue::read_file(path).map_err(named)?;
    let net = crate::engine::nnue::Network::from_bytes(&bytes).map_err(|e| named(e.to_string()))?;
    Ok((
        net,
        format!("{:016x}", crate::engine::nnue::checksum(&bytes)),
    ))
}

/// `searchlab train`.
pub fn train(args: &TrainArgs) -> Result<(), String> {
    use crate::harness::nnue::model::{AdamWSettings, LossShape};
    use crate::harness::nnue::train::{self, Settings};
    if args.epochs == 0 || args.batch == 0 {
        return Err("--epochs and --batch must be at least 1".into());
    }
    if !(0.0..=1.0).contains(&args.lambda) || !(0.0..1.0).contains(&args.validation) {
        return Err("--lambda is within 0..=1 and --validation within 0..1".into());
    }
    if !(args.lr > 0.0 && args.scale > 0.0 && args.lr.is_finite() && args.scale.is_finite()) {
        return Err("--lr and --scale must be positive".into());
    }
    let buckets = crate::engine::nnue::OUTPUT_BUCKETS;
    if args.output_buckets != 1 && args.output_buckets != buckets {
        return Err(format!(
            "--output-buckets {}: a network has 1 output layer or {buckets} (one per bucket of the number of pieces)",
            args.output_buckets
        ));
    }
    let init = args.init.as_deref().map(start_network).transpose()?;
    let dir = args.dir.clone().unwrap_or_else(|| {
        let mut name = args.out.as_os_str().to_owned();
        name.push(".train");
        PathBuf::from(name)
    });
    let plan = train::Plan {
        data: args.data.clone(),
        out: args.out.clone(),
        dir: dir.clone(),
        settings: Settings {
            epochs: args.epochs,
            batch: args.batch,
            lr: args.lr,
            drop_at: args.drop_at,
            lr_drop: args.lr_drop,
            shape: LossShape {
                lambda: args.lambda,
                scale: args.scale,
                mirrored: args.mirror,
            },
            adamw: AdamWSettings {
                decay: args.weight_decay,
                ..AdamWSettings::default()
            },
            validation: args.validation,
            seed: args.seed,
            output_buckets: args.output_buckets,
            init: init.as_ref().map(|(_, sum)| sum.clone()),
        },
        threads: plan::jobs(args.threads)?,
        progress: !args.quiet,
        init: init.map(|(net, _)| net),
    };
    let log = train::run(&plan)?;
    let last = log.epochs.last().expect("at least one epoch");
    println!(
        "network {} (checksum {}): {} epochs on {} positions, validation loss {}",
        args.out.display(),
        log.net_checksum.as_deref().unwrap_or("-"),
        log.epochs.len(),
        log.train_positions,
        train::validation_text(last.validation_loss)
    );
    eprintln!(
        "log in {}, loss chart in {}",
        dir.join("train.json").display(),
        dir.join("loss.svg").display()
    );
    Ok(())
}
