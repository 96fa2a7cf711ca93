//! `searchlab tune`: SPSA in games (`spsa.rs`) over searchlab's own parameters or an external
//! engine's spin options. Each iteration plays its game pairs of θ+ against θ− (in-process
//! players, or the engine with the options set), then moves θ; every iteration is one JSON line
//! appended and flushed (θ before, the perturbation, the games, the result, θ after), so a
//! killed tune resumes where it stopped and, the signs and openings being drawn from the seed
//! and the iteration alone, follows the trajectory the uninterrupted one would have followed
//! (node-limited games are deterministic).
//!
//! Shards: iterations depend on each other, so a tune cannot be split across machines
//! iteration by iteration. `--shard I/N` runs an independent trajectory of its own seed (the
//! seed mixed with I), and `report` of the shards' files draws every trajectory and averages
//! their final θ (independent runs averaged, the noise of each shrinking by √N).

pub mod report;
pub mod spsa;

use std::fs::File;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

use super::games::game::Rules;
use super::games::openings::{self, Opening, OpeningOrder};
use super::games::play::play_pair;
use super::games::stats::Outcome;
use super::results::{self, Shard, Variant};
use crate::engine::spec;
use spsa::{Perturbation, Schedule, TunedParam};

/// What a tune needs.
pub struct TunePlan {
    /// The player tuned: its SPEC or its engine, before the tuned values.
    pub base: Variant,
    pub params: Vec<TunedParam>,
    pub schedule: Schedule,
    /// Game pairs per iteration (each opening with both colours).
    pub pairs: u64,
    pub openings_path: String,
    pub openings: Vec<Opening>,
    pub opening_order: OpeningOrder,
    pub rules: Rules,
    /// Games played at once (the pairs of an iteration in parallel).
    pub concurrency: usize,
    pub seed: u64,
    pub hash_mb: usize,
    pub shard: Option<Shard>,
    pub out: PathBuf,
    pub progress: bool,
}

/// The first line of a tune file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TuneHeader {
    #[serde(rename = "type")]
    pub kind: String,
    pub searchlab: String,
    pub commit: Option<String>,
    pub date: String,
    pub base: Variant,
    pub params: Vec<TunedParam>,
    pub schedule: Schedule,
    pub pairs: u64,
    pub seed: u64,
    /// The seed this trajectory draws from (the seed mixed with the shard's index).
    pub trajectory_seed: u64,
    pub control: String,
    pub openings: String,
    pub opening_count: usize,
    pub hash_mb: usize,
    #[serde(default)]
    pub shard: Option<Shard>,
}

impl TuneHeader {
    /// The same tune (the date and the build aside).
    fn same_tune(&self, other: &TuneHeader) -> bool {
        let strip = |h: &TuneHeader| TuneHeader {
            date: String::new(),
            commit: None,
            ..h.clone()
        };
        strip(self) == strip(other)
    }
}

/// One iteration of a tune file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct IterationLine {
    #[serde(rename = "type")]
    pub kind: String,
    /// 1-based.
    pub k: u64,
    pub theta: Vec<f64>,
    pub perturbation: Perturbation,
    /// Each pair's opening (its index in the file) and its two results for θ+ (`W`, `D`,
    /// `L`; game 0 with θ+ White).
    pub games: Vec<(usize, [String; 2])>,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// θ+'s wins minus losses.
    pub result: f64,
    pub theta_after: Vec<f64>,
}

/// The labels of the two sides in the games.
const PLUS: &str = "theta+";
const MINUS: &str = "theta-";

/// The player of `values` (one per parameter): the base's SPEC with `id.param=value` items,
/// or its engine with the options set after its own.
pub fn player(
    base: &Variant,
    params: &[TunedParam],
    values: &[f64],
    label: &str,
) -> Result<Variant, String> {
    let text = |p: &TunedParam, v: f64| {
        if p.int {
            format!("{}", v.round() as i64)
        } else {
            format!("{v}")
        }
    };
    let mut variant = base.clone();
    variant.label = label.to_string();
    match variant.engine.as_mut() {
        Some(engine) => {
            for (p, v) in params.iter().zip(values) {
                engine
                    .options
                    .retain(|(n, _)| !n.eq_ignore_ascii_case(&p.name));
                engine.options.push((p.name.clone(), text(p, *v)));
            }
        }
        None => {
            let items: Vec<String> = params
                .iter()
                .zip(values)
                .map(|(p, v)| format!("{}={}", p.name, text(p, *v)))
                .collect();
            variant.spec = format!("{},{}", base.spec, items.join(","));
            variant.config = spec::configure(&variant.spec, None, 0)
                .map_err(|e| format!("tune: {}: {e}", variant.spec))?;
        }
    }
    Ok(variant)
}

impl TunePlan {
    /// The seed of this trajectory.
    fn trajectory_seed(&self) -> u64 {
        let index = self.shard.map_or(0, |s| s.index as u64 - 1);
        self.seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03)
    }

    pub fn header(&self) -> TuneHeader {
        TuneHeader {
            kind: "tune".into(),
            searchlab: env!("CARGO_PKG_VERSION").into(),
            commit: results::git_commit(),
            date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            base: self.base.clone(),
            params: self.params.clone(),
            schedule: self.schedule,
            pairs: self.pairs,
            seed: self.seed,
            trajectory_seed: self.trajectory_seed(),
            control: self.rules.control.to_string(),
            openings: self.openings_path.clone(),
            opening_count: self.openings.len(),
            hash_mb: self.hash_mb,
            shard: self.shard,
        }
    }
}

/// Run (or resume) the tune; the iterations of the file, the new ones included.
pub fn run(plan: &TunePlan) -> Result<Vec<IterationLine>, String> {
    let header = plan.header();
    let (mut file, mut lines) = open(&plan.out, &header)?;
    let mut theta: Vec<f64> = lines.last().map_or_else(
        || plan.params.iter().map(|p| p.start).collect(),
        |l| l.theta_after.clone(),
    );
    let order = openings::arrange(
        plan.openings.len(),
        header.trajectory_seed,
        plan.opening_order,
    );
    let bar = progress(plan, lines.len() as u64);
    let first = lines.len() as u64 + 1;
    if first > plan.schedule.iterations {
        eprintln!(
            "{}: the tune is already complete ({} iterations)",
            plan.out.display(),
            lines.len()
        );
    }
    for k in first..=plan.schedule.iterations {
        let line = iteration(plan, &order, &theta, header.trajectory_seed, k)?;
        results::append(&mut file, &line).map_err(|e| format!("{}: {e}", plan.out.display()))?;
        theta = line.theta_after.clone();
        bar.set_message(status(plan, &line));
        bar.inc(1);
        lines.push(line);
    }
    bar.finish_and_clear();
    Ok(lines)
}

/// Play iteration `k` from `theta`.
fn iteration(
    plan: &TunePlan,
    order: &[usize],
    theta: &[f64],
    seed: u64,
    k: u64,
) -> Result<IterationLine, String> {
    let perturbation = spsa::perturb(&plan.params, &plan.schedule, theta, seed, k);
    let plus = player(&plan.base, &plan.params, &perturbation.plus, PLUS)?;
    let minus = player(&plan.base, &plan.params, &perturbation.minus, MINUS)?;
    let indices: Vec<usize> = (0..plan.pairs)
        .map(|j| order[(((k - 1) * plan.pairs + j) as usize) % order.len()])
        .collect();
    // The iteration's pairs side by side: `concurrency` threads take the next pair as they
    // finish one (each pair's two games one after the other), so only the iteration's end
    // waits for the slowest.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = plan.concurrency.max(1).min(indices.len());
    let mut outcomes: Vec<(usize, usize, [Outcome; 2])> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let (plus, minus, next, indices) = (&plus, &minus, &next, &indices);
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let slot = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&index) = indices.get(slot) else {
                            break;
                        };
                        let pair = play_pair(
                            (&plan.rules, plan.hash_mb, plan.seed),
                            plus,
                            minus,
                            index,
                            &plan.openings[index],
                        );
                        mine.push((
                            slot,
                            index,
                            pair.games.each_ref().map(|g| g.outcome_of(PLUS)),
                        ));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a game thread does not panic"))
            .collect()
    });
    // In the planned order, whichever thread played them.
    outcomes.sort_by_key(|(slot, _, _)| *slot);
    let outcomes: Vec<(usize, [Outcome; 2])> = outcomes
        .into_iter()
        .map(|(_, index, o)| (index, o))
        .collect();
    let count = |want: Outcome| {
        outcomes
            .iter()
            .flat_map(|(_, o)| o.iter())
            .filter(|o| **o == want)
            .count() as u32
    };
    let (wins, draws, losses) = (
        count(Outcome::Win),
        count(Outcome::Draw),
        count(Outcome::Loss),
    );
    let result = f64::from(wins) - f64::from(losses);
    let theta_after = spsa::step(&plan.params, theta, &perturbation, result);
    let letter = |o: &Outcome| match o {
        Outcome::Win => "W".to_string(),
        Outcome::Draw => "D".to_string(),
        Outcome::Loss => "L".to_string(),
    };
    Ok(IterationLine {
        kind: "iteration".into(),
        k,
        theta: theta.to_vec(),
        perturbation,
        games: outcomes
            .iter()
            .map(|(i, o)| (*i, [letter(&o[0]), letter(&o[1])]))
            .collect(),
        wins,
        draws,
        losses,
        result,
        theta_after,
    })
}

/// The progress line: iteration, games, θ.
fn status(plan: &TunePlan, line: &IterationLine) -> String {
    let theta: Vec<String> = plan
        .params
        .iter()
        .zip(&line.theta_after)
        .map(|(p, v)| format!("{}={v:.2}", p.name))
        .collect();
    format!(
        "iteration {}/{}  games {}  θ: {}",
        line.k,
        plan.schedule.iterations,
        line.k * plan.pairs * 2,
        theta.join(" ")
    )
}

fn progress(plan: &TunePlan, done: u64) -> ProgressBar {
    let bar = if plan.progress {
        ProgressBar::new(plan.schedule.iterations)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{pos}/{len} iterations {elapsed_precise}  {msg}")
            .expect("valid template"),
    );
    bar.set_position(done);
    bar
}

/// A tune file read: its header and iterations, the bytes of its complete lines and a last
/// line cut short.
pub struct TuneFile {
    pub header: Option<TuneHeader>,
    pub lines: Vec<IterationLine>,
    complete: u64,
    torn: bool,
}

/// Whether `path` is a tune file (its first line says `"type":"tune"`).
pub fn is_tune_file(path: &Path) -> bool {
    read(path).is_ok_and(|f| f.header.is_some())
}

/// Read a tune file; iterations must follow one another from 1.
pub fn read(path: &Path) -> Result<TuneFile, String> {
    let name = path.display();
    let mut out = TuneFile {
        header: None,
        lines: Vec::new(),
        complete: 0,
        torn: false,
    };
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let lines = results::read_lines(path, file, |number, value| {
        let kind = value.get("type").and_then(|t| t.as_str()).unwrap_or("");
        match (number, kind) {
            (1, "tune") => {
                out.header = Some(
                    serde_json::from_value(value)
                        .map_err(|e| format!("{name}:1: damaged tune header: {e}"))?,
                );
            }
            (1, _) => {
                return Err(format!(
                    "{name}:1: not a tune file (`searchlab tune` writes them)"
                ));
            }
            (_, "iteration") => {
                let line: IterationLine = serde_json::from_value(value)
                    .map_err(|e| format!("{name}:{number}: damaged iteration: {e}"))?;
                if line.k != out.lines.len() as u64 + 1 {
                    return Err(format!(
                        "{name}:{number}: iteration {} where {} was due",
                        line.k,
                        out.lines.len() + 1
                    ));
                }
                out.lines.push(line);
            }
            _ => return Err(format!("{name}:{number}: not an iteration of a tune")),
        }
        Ok(())
    })?;
    out.complete = lines.complete;
    out.torn = lines.torn_line.is_some();
    Ok(out)
}

/// Open `path` for the tune `header` (locked): a new file gets the header, a file of the same
/// tune is resumed (a line cut short is dropped and its iteration played again), another is
/// refused.
fn open(path: &Path, header: &TuneHeader) -> Result<(File, Vec<IterationLine>), String> {
    let mut file = results::open_locked(path)?;
    let existing = read(path)?;
    if let Some(old) = &existing.header {
        if !old.same_tune(header) {
            return Err(format!(
                "{} holds another tune (different player, parameters, schedule, pairs, limits, openings or seed); choose another --out",
                path.display()
            ));
        }
        results::one_build(path, old.commit.as_deref(), header.commit.as_deref())?;
    }
    if existing.torn {
        eprintln!(
            "{}: the last line was cut short; that iteration is played again",
            path.display()
        );
    }
    file.set_len(existing.complete)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if existing.header.is_none() {
        results::append(&mut file, header).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok((file, existing.lines))
}
