//! `searchlab tune`: SPSA in games over searchlab's own parameters or an external engine's
//! spin options (what is tuned, and how far, is `harness::tune::params`).

use std::path::PathBuf;

use super::game_args::GameArgs;
use crate::harness::external::probe;
use crate::harness::external::uci_options::UciOption;
use crate::harness::games::clock::reference_speed;
use crate::harness::plan;
use crate::harness::results;
use crate::harness::tune::spsa::{Schedule, TunedParam};
use crate::harness::tune::{self, TunePlan};
use crate::harness::variant::Variant;

/// Arguments of `searchlab tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// The configuration tuned, a SPEC of searchlab's own search (`modern`); its parameters
    /// are `ID.PARAM`.
    #[arg(long, allow_hyphen_values = true, conflicts_with = "engine")]
    pub variant: Option<String>,
    /// An external engine tuned instead, as for `match` (`"name=dev cmd=./dev option.X=…"`);
    /// its spin options are `option.NAME`.
    #[arg(long)]
    pub engine: Option<String>,
    /// Settings for the engine, `"option.NAME=VALUE ..."`.
    #[arg(long = "each")]
    pub each: Vec<String>,
    /// A parameter tuned, repeated: `ID.PARAM` (or `option.NAME` of an engine) starts from the
    /// configuration's value, within the declared (or advertised) range, with c_end a
    /// twentieth of the range and r_end 0.002; `NAME=START[,MIN,MAX[,C_END[,R_END]]]` sets them
    /// (OpenBench's order).
    #[arg(long = "param", value_name = "NAME[=START,MIN,MAX,C_END,R_END]")]
    pub params: Vec<String>,
    /// Parameters in OpenBench's SPSA input format, one a line: `NAME, int|float, default,
    /// min, max, c_end, r_end` (`#` starts a comment). `heuristics --spsa SPEC` writes one.
    #[arg(long = "params", value_name = "FILE")]
    pub params_file: Option<PathBuf>,
    /// SPSA iterations (the schedule's N: c_k and r_k reach c_end and r_end at the last).
    #[arg(long)]
    pub iterations: u64,
    /// Game pairs per iteration (each opening with both colours), played side by side,
    /// --concurrency pairs at once (a pair's two games one after the other). Default: the
    /// --concurrency, so that no thread waits for an iteration's last pair.
    #[arg(long)]
    pub pairs: Option<u64>,
    /// Move θ this many iterations late: iteration k is perturbed around θ after iteration
    /// k−1−LAG, so the pairs of LAG+1 iterations are played together and no thread waits for
    /// an iteration's last game (as fishtest's workers play around a θ a few updates old).
    /// 0 is textbook SPSA; 1 keeps 2 cores busy. Part of the tune's identity.
    #[arg(long, default_value_t = 0)]
    pub lag: u64,
    /// The tune file (JSON Lines, one line per iteration; a killed tune resumes from it).
    #[arg(long, default_value = "tune.jsonl")]
    pub out: PathBuf,
    /// An independent trajectory I of N (its own seed): run N shards on N machines, then
    /// `searchlab report` of their files averages their final values.
    #[arg(long)]
    pub shard: Option<String>,
    /// Games ended by a player's failure (a crash, a hang, an illegal move, a loss on time)
    /// the tune bears before it stops with an error: each is named as it happens, recorded in
    /// its iteration's line and counted as the loss it is, which says nothing of the
    /// parameters.
    #[arg(long, default_value_t = 10)]
    pub max_failures: u64,
    /// Without a terminal (output to a file or a pipe: a cluster job, nohup, CI), print a
    /// status line each time this many more games were played (rounded up to whole
    /// iterations): iterations, time elapsed and left, the last iteration's θ; 0: none.
    #[arg(long, default_value_t = 10)]
    pub rating_interval: u64,
    /// Openings, limits, adjudication, concurrency, seed (as for `match`).
    #[command(flatten)]
    pub game: GameArgs,
}

/// What `tune` checks before its first game, for `submit` to check before anything is
/// queued: the engine (if one is tuned) starts and speaks UCI, the opening book reads.
pub fn preflight(args: &TuneArgs) -> Result<(), String> {
    if let Some(engine) = &args.engine {
        let (mut players, _) = plan::variants(
            &[],
            std::slice::from_ref(engine),
            (&args.each, &[]),
            None,
            &[],
        )?;
        probe::probe_all(&mut players)?;
    }
    crate::harness::games::book::openings::read(&args.game.openings, args.game.opening_plies)?;
    Ok(())
}

/// `searchlab tune`.
pub fn tune(args: &TuneArgs) -> Result<(), String> {
    let pairs = args.pairs.unwrap_or(args.game.concurrency.max(1) as u64);
    if args.iterations == 0 || pairs == 0 {
        return Err("--iterations and --pairs must be at least 1".into());
    }
    let mut players = tuned_player(args)?;
    // The engine's probe gives its advertised options too: no second start for them.
    let mut probes = probe::probe_all(&mut players)?;
    let base = players.remove(0);
    let advertised = probes
        .remove(&base.label)
        .map_or_else(Vec::new, |probe| probe.options);
    let params = tuned_params(args, &base, &advertised)?;
    // The start must be a player the engine or the SPEC takes.
    let start: Vec<f64> = params.iter().map(|p| p.start).collect();
    tune::player(&base, &params, &start, "start")?;
    let mut setup = args.game.setup(std::slice::from_ref(&base))?;
    // A resumed tune keeps the factor its header scaled by.
    let previous = if setup.reference.is_some() {
        tune::read(&args.out)?.header.and_then(|h| h.reference)
    } else {
        None
    };
    let reference = setup.scale_to_reference(previous.as_ref())?;
    let request = setup.reference.clone();
    let plan = TunePlan {
        base,
        params,
        schedule: Schedule::new(args.iterations),
        pairs,
        openings_path: args.game.openings.display().to_string(),
        openings: setup.openings,
        opening_order: setup.opening_order,
        rules: setup.rules,
        concurrency: setup.concurrency,
        lag: args.lag,
        seed: args.game.seed,
        hash_mb: args.game.hash,
        shard: results::Shard::from_arg(args.shard.as_deref())?,
        out: args.out.clone(),
        progress: !args.game.quiet,
        max_failures: args.max_failures,
        rating_interval: args.rating_interval,
        reference,
    };
    eprintln!(
        "tune of {} over {} parameter(s): {} iterations of {} game pair(s), {}, {} openings, into {}",
        plan.base.described(),
        plan.params.len(),
        args.iterations,
        pairs,
        plan.rules.control,
        plan.openings.len(),
        plan.out.display()
    );
    let lines = tune::run(&plan)?;
    reference_speed::remeasure(request.as_ref(), plan.reference.as_ref())?;
    let theta = lines.last().map_or_else(
        || plan.params.iter().map(|p| p.start).collect(),
        |l| l.theta_after.clone(),
    );
    eprintln!(
        "the tuned values, in OpenBench's SPSA format (name, type, value, min, max, C_end, R_end):"
    );
    for (p, v) in plan.params.iter().zip(&theta) {
        println!("{}", p.openbench_line(*v));
    }
    eprintln!(
        "{} iterations in {}; `searchlab report {}` draws θ against the iterations",
        lines.len(),
        plan.out.display(),
        plan.out.display()
    );
    Ok(())
}

/// The parameters to tune: each `--param`, then each line of `--params` (OpenBench's
/// format), every one inside its declared range and none twice.
/// The one player a tune tunes, not yet probed (`--log` opened before its probe).
fn tuned_player(args: &TuneArgs) -> Result<Vec<Variant>, String> {
    let (given, engines): (Vec<String>, Vec<String>) = match (&args.variant, &args.engine) {
        (Some(v), None) => (vec![format!("tuned={v}")], vec![]),
        (None, Some(e)) => (vec![], vec![e.clone()]),
        _ => return Err("tune one player: --variant SPEC or --engine DESCRIPTION".into()),
    };
    let (players, _) = plan::variants(&given, &engines, (&args.each, &[]), None, &[])?;
    args.game.start_log()?;
    Ok(players)
}

fn tuned_params(
    args: &TuneArgs,
    base: &Variant,
    advertised: &[UciOption],
) -> Result<Vec<TunedParam>, String> {
    let mut params = Vec::new();
    for text in &args.params {
        params.push(tune::params::param(text, base, advertised)?);
    }
    if let Some(path) = &args.params_file {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = format!("{}:{}", path.display(), n + 1);
            let p = TunedParam::parse_openbench(line, &at)?;
            tune::params::within_declared(&p, base, advertised)
                .map_err(|e| format!("{at}: {e}"))?;
            params.push(p);
        }
    }
    if params.is_empty() {
        return Err("nothing to tune: give --param NAME or --params FILE".into());
    }
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.name == p.name) {
            return Err(format!("{} is tuned twice", p.name));
        }
    }
    Ok(params)
}
