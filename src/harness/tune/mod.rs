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

mod file;
pub mod params;
pub mod spsa;

use file::open;
pub use file::{IterationLine, TuneFile, TuneHeader, is_tune_file, read};

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use super::progress::{Every, ProgressDisplay};

use super::games::book::openings::{self, Opening, OpeningOrder};
use super::games::playing::game::Rules;
use super::games::playing::play::play_pair;
use super::games::playing::player::Players;
use super::games::rating::stats::Outcome;
use super::results::{self, Shard};
use super::variant::Variant;
use crate::engine::spec;
use crate::harness::games::clock::reference_speed::ReferenceClock;
use crate::harness::provenance::Provenance;
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
    /// Iterations θ moves late by: iteration k is perturbed around θ after iteration
    /// k−1−lag, so lag+1 iterations' pairs are in flight (0: textbook SPSA).
    pub lag: u64,
    pub seed: u64,
    pub hash_mb: usize,
    pub shard: Option<Shard>,
    pub out: PathBuf,
    pub progress: bool,
    /// Without a terminal, a status line every this many games (0: none).
    pub rating_interval: u64,
    /// The limits' scaling to a reference speed (`rules` holds the scaled limits).
    pub reference: Option<ReferenceClock>,
    /// Games ended by a player's failure (crash, hang, illegal move, time loss) the tune
    /// bears before it stops: each is a loss that says nothing of the parameters.
    pub max_failures: u64,
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
            provenance: Provenance::now(),
            base: self.base.clone(),
            params: self.params.clone(),
            schedule: self.schedule,
            pairs: self.pairs,
            lag: self.lag,
            seed: self.seed,
            trajectory_seed: self.trajectory_seed(),
            control: self.rules.control.to_string(),
            reference: self.reference.clone(),
            openings: self.openings_path.clone(),
            opening_count: self.openings.len(),
            hash_mb: self.hash_mb,
            shard: self.shard,
        }
    }
}

/// Run (or resume) the tune; the iterations of the file, the new ones included.
///
/// Game pairs go through one queue to `concurrency` threads. With `lag` 0 iteration k's
/// pairs are the queue's only work, and the last of them leaves the other threads idle until
/// θ moves; with `lag` L the pairs of iterations k..=k+L are queued together (iteration k is
/// perturbed around θ as it stood after iteration k−1−L), so a thread finding its iteration
/// finished starts the next one. Which thread plays a pair changes nothing: a pair's games
/// depend only on its players and opening, and θ moves in the order of the iterations.
pub fn run(plan: &TunePlan) -> Result<Vec<IterationLine>, String> {
    let header = plan.header();
    let (mut file, mut lines) = open(&plan.out, &header)?;
    // `history[j]`: θ after iteration j (`history[0]` the start).
    let mut history: Vec<Vec<f64>> = vec![plan.params.iter().map(|p| p.start).collect()];
    history.extend(lines.iter().map(|l| l.theta_after.clone()));
    let order = openings::arrange(
        plan.openings.len(),
        header.trajectory_seed,
        plan.opening_order,
    );
    let bar = progress(plan, lines.len() as u64);
    let first = lines.len() as u64 + 1;
    let last = plan.schedule.iterations;
    if complete(plan, lines.len() as u64) {
        return Ok(lines);
    }
    let workers = plan.concurrency.max(1);
    let (job_tx, job_rx) = mpsc::channel::<PairJob>();
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<PairDone>();
    // Set when the tune stops on an error: the pairs still queued are then not played (the
    // scope waits only for the pairs already being played).
    let stopped = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Owned here, so that leaving the scope closes the queue and the threads end.
        let job_tx = job_tx;
        for _ in 0..workers {
            let (job_rx, done_tx, stopped) = (&job_rx, done_tx.clone(), &stopped);
            scope.spawn(move || play_jobs(plan, job_rx, &done_tx, stopped));
        }
        drop(done_tx);
        let _stop = StopOnExit(&stopped);
        let mut pending: BTreeMap<u64, Pending> = BTreeMap::new();
        let queue = |k: u64, history: &[Vec<f64>], pending: &mut BTreeMap<u64, Pending>| {
            let center = &history[k.saturating_sub(1 + plan.lag) as usize];
            let iteration =
                Pending::queue(plan, &order, center, header.trajectory_seed, k, &job_tx)?;
            pending.insert(k, iteration);
            Ok::<(), String>(())
        };
        for k in first..=last.min(first + plan.lag) {
            queue(k, &history, &mut pending)?;
        }
        let mut next = first;
        let mut failed: u64 = lines.iter().map(|l| l.failures.len() as u64).sum();
        while next <= last {
            let done = done_rx
                .recv()
                .map_err(|_| "tune: every game thread stopped".to_string())?;
            let (results, plies, failures) = done.outcome?;
            for failure in &failures {
                failed += 1;
                bar.println(&format!("tune: iteration {}, opening {failure}", done.k));
            }
            within_failures(plan, failed, &failures, next - 1)?;
            let iteration = pending.get_mut(&done.k).expect("a queued iteration");
            iteration.outcomes[done.slot] = Some((done.index, results, plies, failures));
            while pending.get(&next).is_some_and(Pending::complete) {
                let iteration = pending.remove(&next).expect("checked above");
                let line = iteration.finish(plan, next, &history[next as usize - 1]);
                results::append(&mut file, &line)
                    .map_err(|e| format!("{}: {e}", plan.out.display()))?;
                history.push(line.theta_after.clone());
                bar.set_message(status(plan, &line));
                bar.inc(1);
                lines.push(line);
                if next + 1 + plan.lag <= last {
                    queue(next + 1 + plan.lag, &history, &mut pending)?;
                }
                next += 1;
            }
        }
        Ok::<(), String>(())
    })?;
    bar.finish_and_clear();
    Ok(lines)
}

/// Whether the `done` iterations recorded are all the tune plans (then said).
fn complete(plan: &TunePlan, done: u64) -> bool {
    let complete = done >= plan.schedule.iterations;
    if complete {
        eprintln!(
            "{}: the tune is already complete ({done} iterations)",
            plan.out.display()
        );
    }
    complete
}

/// Sets the flag when dropped: however the tune's loop ends, on an error (`?`) or done, the
/// game threads take no further pair.
struct StopOnExit<'a>(&'a AtomicBool);

impl Drop for StopOnExit<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A tune stops when more than `--max-failures` games (`failed`) ended by a player's failure
/// (`failures`: the last pair's), each a loss that says nothing of the parameters.
fn within_failures(
    plan: &TunePlan,
    failed: u64,
    failures: &[String],
    finished: u64,
) -> Result<(), String> {
    if failed <= plan.max_failures {
        return Ok(());
    }
    Err(format!(
        "tune stopped: {failed} games ended by a player's failure, more than --max-failures {} (the last: opening {}); the {finished} iterations finished are in {}",
        plan.max_failures,
        failures.last().map_or("?", String::as_str),
        plan.out.display()
    ))
}

/// One game pair of an iteration.
struct PairJob {
    k: u64,
    /// The pair's place in its iteration.
    slot: usize,
    /// The opening's index in the file.
    index: usize,
    players: Arc<[Variant; 2]>,
}

/// θ+'s two results in a pair, the games' plies and the failures that ended any of them.
type PairResult = ([Outcome; 2], [u32; 2], Vec<String>);

/// A pair played, or why it could not be played.
struct PairDone {
    k: u64,
    slot: usize,
    index: usize,
    outcome: Result<PairResult, String>,
}

/// A game thread: play the queue's pairs until the queue closes.
fn play_jobs(
    plan: &TunePlan,
    jobs: &Mutex<mpsc::Receiver<PairJob>>,
    done: &mpsc::Sender<PairDone>,
    stopped: &AtomicBool,
) {
    loop {
        let job = match jobs.lock() {
            Ok(jobs) => jobs.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        if stopped.load(Ordering::SeqCst) {
            return;
        }
        // A panic in a game becomes the tune's error rather than a thread that never answers.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let [plus, minus] = &*job.players;
            let pair = play_pair(
                (&plan.rules, plan.hash_mb, plan.seed),
                plus,
                minus,
                job.index,
                &plan.openings[job.index],
                // θ+ and θ− differ every iteration: nothing to keep.
                &mut Players::new(0),
            );
            (
                pair.games.each_ref().map(|g| g.outcome_of(PLUS)),
                pair.games.each_ref().map(|g| g.moves.len() as u32),
                pair.games
                    .iter()
                    .filter_map(|g| g.failure())
                    .map(|why| format!("{}: {why}", job.index))
                    .collect(),
            )
        }))
        .map_err(|_| format!("tune: a game of iteration {} panicked", job.k));
        let answer = PairDone {
            k: job.k,
            slot: job.slot,
            index: job.index,
            outcome,
        };
        if done.send(answer).is_err() {
            return;
        }
    }
}

/// A pair's opening index, θ+'s two results, the two games' plies and their failures.
type PairPlayed = (usize, [Outcome; 2], [u32; 2], Vec<String>);

/// An iteration whose pairs are queued: its perturbation and the results so far.
struct Pending {
    perturbation: Perturbation,
    outcomes: Vec<Option<PairPlayed>>,
}

impl Pending {
    /// Perturb `center` for iteration `k` and queue its pairs.
    fn queue(
        plan: &TunePlan,
        order: &[usize],
        center: &[f64],
        seed: u64,
        k: u64,
        jobs: &mpsc::Sender<PairJob>,
    ) -> Result<Pending, String> {
        let perturbation = spsa::perturb(&plan.params, &plan.schedule, center, seed, k);
        let players = Arc::new([
            player(&plan.base, &plan.params, &perturbation.plus, PLUS)?,
            player(&plan.base, &plan.params, &perturbation.minus, MINUS)?,
        ]);
        for slot in 0..plan.pairs as usize {
            let index = order[((k - 1) as usize * plan.pairs as usize + slot) % order.len()];
            let job = PairJob {
                k,
                slot,
                index,
                players: Arc::clone(&players),
            };
            jobs.send(job)
                .map_err(|_| "tune: every game thread stopped".to_string())?;
        }
        Ok(Pending {
            perturbation,
            outcomes: vec![None; plan.pairs as usize],
        })
    }

    fn complete(&self) -> bool {
        self.outcomes.iter().all(Option::is_some)
    }

    /// The iteration's line: θ moves from `theta` (θ after the iteration before).
    fn finish(self, plan: &TunePlan, k: u64, theta: &[f64]) -> IterationLine {
        let played: Vec<PairPlayed> = self.outcomes.into_iter().flatten().collect();
        let plies = played.iter().map(|(_, _, p, _)| *p).collect();
        let failures = played.iter().flat_map(|(.., f)| f.clone()).collect();
        let outcomes: Vec<(usize, [Outcome; 2])> =
            played.into_iter().map(|(i, o, ..)| (i, o)).collect();
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
        let theta_after = spsa::step(&plan.params, theta, &self.perturbation, result);
        let letter = |o: &Outcome| match o {
            Outcome::Win => "W".to_string(),
            Outcome::Draw => "D".to_string(),
            Outcome::Loss => "L".to_string(),
        };
        IterationLine {
            kind: "iteration".into(),
            k,
            theta: theta.to_vec(),
            perturbation: self.perturbation,
            games: outcomes
                .iter()
                .map(|(i, o)| (*i, [letter(&o[0]), letter(&o[1])]))
                .collect(),
            plies,
            wins,
            draws,
            losses,
            failures,
            result,
            theta_after,
        }
    }
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

/// The tune's progress: without a terminal a status line each time `rating_interval` more
/// games were played (rounded up to whole iterations).
fn progress(plan: &TunePlan, done: u64) -> ProgressDisplay {
    let games_per_iteration = (2 * plan.pairs).max(1);
    let every = match plan.rating_interval {
        0 => Every::Count(0),
        n => Every::Count(n.div_ceil(games_per_iteration)),
    };
    ProgressDisplay::new(
        plan.progress,
        "tune",
        plan.schedule.iterations,
        done,
        "iterations",
        every,
    )
}
