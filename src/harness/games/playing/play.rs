//! `searchlab match`: the schedule of game pairs, played on `--concurrency` threads, each pair
//! flushed to the results file as it ends, the SPRT read after every pair, one live progress
//! line. Every pair is a pure function of (players, opening, rules, seed), so under fixed nodes
//! or depth the same command gives the same games for any concurrency; only the order pairs
//! finish in (and so the order of the lines of the file) changes, and the PGN is rewritten in
//! the planned order when the match ends.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fs::File;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use indicatif::{ProgressBar, ProgressStyle};

use crate::harness::games::book::openings::{self, Opening};
use crate::harness::games::book::pgn;
use crate::harness::games::clock::levels::Effort;
use crate::harness::games::clock::limit_check::LimitWatch;
use crate::harness::games::clock::reference_speed::{ReferenceClock, SpeedReading};
use crate::harness::games::playing::game::{Rules, play};
use crate::harness::games::playing::player::Players;
use crate::harness::games::playing::record::{
    MATCH_FORMAT, MatchHeader, PairKey, PairRecord, open_for_match,
};
use crate::harness::games::rating::stats::Sprt;
use crate::harness::games::rating::tally::{PairingResult, Sequential, status_line, tally};
use crate::harness::provenance::Provenance;
use crate::harness::results::{self, Shard};
use crate::harness::variant::Variant;

/// What `searchlab match` was asked to do.
pub struct MatchPlan {
    pub variants: Vec<Variant>,
    pub openings: Vec<Opening>,
    pub openings_path: String,
    pub opening_plies: Option<usize>,
    pub opening_order: openings::OpeningOrder,
    pub rules: Rules,
    pub games: u64,
    pub sprt: Option<Sprt>,
    pub concurrency: usize,
    pub seed: u64,
    pub hash_mb: usize,
    pub shard: Option<Shard>,
    pub out: PathBuf,
    pub pgn: Option<PathBuf>,
    pub progress: bool,
    /// The folder of every shard's file (`shard-*.jsonl`): the SPRT is decided on their
    /// merged pairs (`submit`'s tasks), not on this shard's own.
    pub shards_dir: Option<PathBuf>,
    /// Print a status line on stdout every this many games (0: none; the live bar serves a
    /// terminal).
    pub rating_interval: u64,
    /// The limits' scaling to a reference speed (`rules` holds the scaled limits).
    pub reference: Option<ReferenceClock>,
    /// The yardstick's reading on resuming a scaled match, recorded in its file.
    pub resumed_reading: Option<SpeedReading>,
    /// The level of effort this match is, of a run at several.
    pub effort: Option<Effort>,
    /// A player that ignores its node or depth limit stops the match (`limit_check`).
    pub strict_limits: bool,
    /// Pin each game thread, and the engines it starts, to a core of its own.
    pub use_affinity: bool,
    /// Write every game's final position here (`epd_out`).
    pub epd_out: Option<PathBuf>,
    /// What the PGN's move comments hold beyond score, depth and time.
    pub pgn_comments: pgn::MoveComments,
}

impl MatchPlan {
    pub fn header(&self) -> MatchHeader {
        MatchHeader {
            kind: "match".into(),
            provenance: Provenance::now(),
            variants: self.variants.clone(),
            control: self.rules.control,
            adjudication: self.rules.adjudication,
            margin_ms: self.rules.margin_ms,
            overhead_ms: self.rules.overhead_ms,
            player_controls: self.rules.own.clone(),
            reference: self.reference.clone(),
            effort: self.effort.clone(),
            openings: self.openings_path.clone(),
            opening_count: self.openings.len(),
            opening_plies: self.opening_plies,
            opening_order: self.opening_order,
            games: self.games,
            sprt: self.sprt,
            sprt_pooled: self.shards_dir.is_some(),
            seed: self.seed,
            hash_mb: self.hash_mb,
            shard: self.shard,
            format: MATCH_FORMAT,
            missing: Vec::new(),
        }
    }
}

/// Play one pair: game 0 with the baseline White, game 1 with the variant measured White.
pub fn play_pair(
    (rules, hash_mb, seed): (&Rules, usize, u64),
    base: &Variant,
    dev: &Variant,
    index: usize,
    opening: &Opening,
    players: &mut Players,
) -> PairRecord {
    let mut base_player = players.take(base, hash_mb, seed);
    let mut dev_player = players.take(dev, hash_mb, seed);
    let first = play(
        opening,
        [&mut base_player, &mut dev_player],
        [&base.label, &dev.label],
        rules,
    );
    let second = play(
        opening,
        [&mut dev_player, &mut base_player],
        [&dev.label, &base.label],
        rules,
    );
    players.keep(base, base_player);
    players.keep(dev, dev_player);
    PairRecord {
        kind: "pair".into(),
        base: base.label.clone(),
        dev: dev.label.clone(),
        index,
        opening: opening.clone(),
        games: [first, second],
    }
}

/// The match's live state: pairs read in planned order per pairing.
struct Live {
    planned: HashMap<String, Vec<usize>>,
    cursor: HashMap<String, usize>,
    held: HashMap<PairKey, [crate::harness::games::rating::stats::Outcome; 2]>,
    tests: HashMap<String, Sequential>,
    /// The shards' folder, when the decision is the merged SPRT's (`MatchPlan::shards_dir`).
    shards_dir: Option<PathBuf>,
    /// The pairings the merged SPRT has decided.
    merged_decided: HashSet<String>,
}

impl Live {
    fn new(header: &MatchHeader, shards_dir: Option<&std::path::Path>) -> Self {
        let mut planned: HashMap<String, Vec<usize>> = HashMap::new();
        for key in header.planned() {
            planned.entry(key.dev).or_default().push(key.index);
        }
        Live {
            cursor: planned.keys().map(|d| (d.clone(), 0)).collect(),
            tests: planned
                .keys()
                .map(|d| (d.clone(), Sequential::new(header.sprt)))
                .collect(),
            planned,
            held: HashMap::new(),
            shards_dir: shards_dir.map(PathBuf::from),
            merged_decided: HashSet::new(),
        }
    }

    /// Read every shard in the shards' folder and take the merged SPRT's decisions: the
    /// planned pairs of the whole match in order, up to the first no shard has played, as a
    /// single process would count them. A shard not yet begun, or a line being written, is
    /// simply not counted yet.
    fn read_shards(&mut self) {
        let Some(dir) = &self.shards_dir else {
            return;
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".jsonl"))
            })
            .collect();
        let Ok((header, pairs, _)) = crate::harness::games::playing::record::read_matches(&files)
        else {
            return;
        };
        for result in tally(&header, &pairs) {
            if result.sprt.is_some_and(|s| {
                s.decision != crate::harness::games::rating::stats::Decision::Continue
            }) {
                self.merged_decided.insert(result.dev);
            }
        }
    }

    /// Take a pair in; advance its pairing's test over the pairs now contiguous.
    fn add(&mut self, pair: &PairRecord) {
        self.held.insert(pair.key(), pair.outcomes());
        let dev = &pair.dev;
        let planned = &self.planned[dev];
        let cursor = self.cursor.get_mut(dev).expect("a planned pairing");
        let test = self.tests.get_mut(dev).expect("a planned pairing");
        while *cursor < planned.len() && !test.decided() {
            let key = PairKey {
                dev: dev.clone(),
                index: planned[*cursor],
            };
            let Some(outcomes) = self.held.get(&key) else {
                break;
            };
            test.push(*outcomes);
            *cursor += 1;
        }
    }

    /// Whether the pairing is decided: by the merged SPRT when the shards decide together,
    /// else by this process's own.
    fn decided(&self, dev: &str) -> bool {
        match self.shards_dir {
            Some(_) => self.merged_decided.contains(dev),
            // A shard may hold no pair of a pairing (shards as many as the pairings).
            None => self.tests.get(dev).is_some_and(Sequential::decided),
        }
    }
}

/// Play the match; returns every pairing's result.
pub fn run_match(plan: &MatchPlan) -> Result<Vec<PairingResult>, String> {
    let header = plan.header();
    let (file, mut pairs) = open_for_match(&plan.out, &header, plan.resumed_reading.as_ref())?;
    let done: HashSet<PairKey> = pairs.iter().map(PairRecord::key).collect();
    let mut live = Live::new(&header, plan.shards_dir.as_deref());
    for pair in &pairs {
        live.add(pair);
    }
    live.read_shards();
    let order = openings::arrange(plan.openings.len(), plan.seed, plan.opening_order);
    let tasks: VecDeque<PairKey> = header
        .planned()
        .into_iter()
        .filter(|k| !done.contains(k) && !live.decided(&k.dev))
        .collect();
    if tasks.is_empty() && !pairs.is_empty() {
        eprintln!(
            "{}: the match is already complete ({} pairs); nothing left to play",
            plan.out.display(),
            pairs.len()
        );
    }
    play_tasks(plan, &header, &order, tasks, file, &mut pairs, &mut live)?;
    if let Some(path) = &plan.pgn {
        write_pgn(path, &header, &pairs, plan.pgn_comments)?;
    }
    if let Some(path) = &plan.epd_out {
        let text = crate::harness::games::book::epd_out::lines(&in_planned_order(&header, &pairs));
        crate::harness::files::write_atomic(path, text)?;
    }
    if let Some(dir) = &plan.shards_dir {
        // A task's log must say what stopped it: the pooled SPRT, not its own share's LLR.
        for dev in header.devs() {
            if live.merged_decided.contains(dev) {
                eprintln!(
                    "'{dev}': stopped: the SPRT pooled over every task's pairs (the shards in {}) decided; the line below is this task's own share, not the decision",
                    dir.display()
                );
            } else {
                eprintln!(
                    "'{dev}': this task's pairs are played; the SPRT pooled over every task's pairs had not decided when it ended (the merge reports it)"
                );
            }
        }
    }
    let results = tally(&header, &pairs);
    Ok(results)
}

/// A game thread: play the queue's pairs, skipping decided pairings, until the queue is empty
/// or the receiver is gone. Every player of the match is kept by the thread, so an engine runs
/// in one process per thread for the whole match.
fn play_queue(
    plan: &MatchPlan,
    order: &[usize],
    (base, variants): (&Variant, &HashMap<&str, &Variant>),
    (queue, decided, sender): (
        &Mutex<VecDeque<PairKey>>,
        &Mutex<HashSet<String>>,
        &mpsc::Sender<PairRecord>,
    ),
) {
    let mut players = Players::new(variants.len() + 1);
    loop {
        let task = queue.lock().expect("queue").pop_front();
        let Some(key) = task else { break };
        if decided.lock().expect("decided").contains(&key.dev) {
            continue;
        }
        let opening = &plan.openings[order[key.index % order.len()]];
        let pair = play_pair(
            (&plan.rules, plan.hash_mb, plan.seed),
            base,
            variants[key.dev.as_str()],
            key.index,
            opening,
            &mut players,
        );
        if sender.send(pair).is_err() {
            break;
        }
    }
}

/// The `--pgn` file, opened for appending.
fn open_pgn(plan: &MatchPlan) -> Result<Option<File>, String> {
    plan.pgn
        .as_ref()
        .map(|path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", path.display()))
        })
        .transpose()
}

/// Append a pair's two games to the PGN file (the results file is the record; a PGN that
/// cannot be written loses nothing it holds).
fn append_pgn(
    pgn_out: &mut File,
    pair: &PairRecord,
    header: &MatchHeader,
    extras: pgn::MoveComments,
) {
    use std::io::Write;
    let _ = pgn_out.write_all(pgn_text([pair], header, extras).as_bytes());
}

/// Play the tasks on `plan.concurrency` threads; the receiving thread writes each pair, feeds
/// the SPRT and tells the workers which pairings have been decided.
fn play_tasks(
    plan: &MatchPlan,
    header: &MatchHeader,
    order: &[usize],
    tasks: VecDeque<PairKey>,
    mut file: File,
    pairs: &mut Vec<PairRecord>,
    live: &mut Live,
) -> Result<(), String> {
    let mut shown = Progress {
        bar: progress_bar(plan, header, pairs.len()),
        started: std::time::Instant::now(),
        played: 0,
    };
    let variants: HashMap<&str, &Variant> = plan
        .variants
        .iter()
        .map(|v| (v.label.as_str(), v))
        .collect();
    let base = &plan.variants[0];
    let queue = Arc::new(Mutex::new(tasks));
    let decided: Arc<Mutex<HashSet<String>>> = Arc::new(Mutex::new(
        header
            .devs()
            .filter(|d| live.decided(d))
            .map(String::from)
            .collect(),
    ));
    let mut pgn_file = open_pgn(plan)?;
    let (sender, receiver) = mpsc::channel::<PairRecord>();
    let mut stop_reason = None;
    let mut watch = LimitWatch::new(plan.strict_limits);
    std::thread::scope(|scope| {
        for thread in 0..plan.concurrency.max(1) {
            let sender = sender.clone();
            let queue = Arc::clone(&queue);
            let decided = Arc::clone(&decided);
            let variants = &variants;
            scope.spawn(move || {
                pin_game_thread(plan, thread);
                let jobs = (&*queue, &*decided, &sender);
                play_queue(plan, order, (base, variants), jobs);
            });
        }
        drop(sender);
        for pair in receiver {
            if let Err(e) = results::append(&mut file, &pair) {
                stop_reason = Some(format!("{}: {e}", plan.out.display()));
                // Stop the workers: nothing more can be recorded.
                queue.lock().expect("queue").clear();
                break;
            }
            if let Some(pgn_out) = pgn_file.as_mut() {
                append_pgn(pgn_out, &pair, header, plan.pgn_comments);
            }
            live.add(&pair);
            if let Err(e) = watch.after_pair(header, &pair) {
                // The pairs in play finish and are recorded; no other begins.
                queue.lock().expect("queue").clear();
                stop_reason.get_or_insert(e);
            }
            pairs.push(pair);
            live.read_shards();
            for dev in header.devs() {
                if live.decided(dev) {
                    decided.lock().expect("decided").insert(dev.to_string());
                }
            }
            shown.pair(plan, header, live, pairs);
        }
    });
    shown.bar.finish_and_clear();
    match stop_reason {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Under `--use-affinity`, the game thread `thread` (and the engines it starts) stays on a
/// core of its own.
fn pin_game_thread(plan: &MatchPlan, thread: usize) {
    if plan.use_affinity {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if let Err(e) = crate::harness::external::affinity::pin_this_thread(thread % cores) {
            eprintln!("warning: {e}: this game thread is not pinned");
        }
    }
}

/// What a match shows as it plays: the live bar on a terminal, and without one a status line
/// on stdout every `rating_interval` games.
struct Progress {
    bar: ProgressBar,
    started: std::time::Instant,
    /// Pairs this process has played (the rate of the time left is theirs).
    played: usize,
}

impl Progress {
    /// The newest of `pairs` was recorded.
    fn pair(&mut self, plan: &MatchPlan, header: &MatchHeader, live: &Live, pairs: &[PairRecord]) {
        let pair = pairs.last().expect("a pair was recorded");
        let line = status_line(&shown(header, live, pair));
        self.played += 1;
        let games = pairs.len() as u64 * 2;
        if plan.progress
            && plan.rating_interval > 0
            && games / plan.rating_interval != (games - 2) / plan.rating_interval
        {
            println!("{line}  {}", self.time_left(header, pairs.len()));
        }
        self.bar.set_message(line);
        self.bar.inc(2);
    }

    /// Elapsed time and the time left at the rate of this process's pairs so far (under an
    /// SPRT, at most: it may decide sooner).
    fn time_left(&self, header: &MatchHeader, done: usize) -> String {
        let elapsed = self.started.elapsed();
        let left_pairs = header.planned().len().saturating_sub(done);
        let per_pair = elapsed.as_secs_f64() / self.played.max(1) as f64;
        let left = std::time::Duration::from_secs((per_pair * left_pairs as f64) as u64);
        format!(
            "· {} elapsed, {}{} left at this rate",
            humantime::format_duration(std::time::Duration::from_secs(elapsed.as_secs())),
            if header.sprt.is_some() {
                "at most "
            } else {
                ""
            },
            humantime::format_duration(left)
        )
    }
}

/// The progress bar of a match whose `done` pairs are already played.
fn progress_bar(plan: &MatchPlan, header: &MatchHeader, done: usize) -> ProgressBar {
    let total_games = (header.planned().len() * 2) as u64;
    let bar = if plan.progress {
        ProgressBar::new(total_games)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{pos}/{len} games {elapsed_precise}  {msg}")
            .expect("valid template"),
    );
    bar.set_position(done as u64 * 2);
    bar
}

/// The live result of `pair`'s pairing, for the progress line.
fn shown(header: &MatchHeader, live: &Live, pair: &PairRecord) -> PairingResult {
    let test = &live.tests[&pair.dev];
    PairingResult {
        counts: test.counts,
        estimate: crate::harness::games::rating::elo::elo(&test.counts),
        sprt: header.sprt.map(|sprt| {
            let (lower, upper) = sprt.bounds();
            crate::harness::games::rating::tally::SprtResult {
                sprt,
                llr: test.llr,
                lower,
                upper,
                decision: test.decision,
                path: Vec::new(),
            }
        }),
        ..empty_result(pair)
    }
}

fn empty_result(pair: &PairRecord) -> PairingResult {
    PairingResult {
        base: pair.base.clone(),
        dev: pair.dev.clone(),
        counts: Default::default(),
        recorded_pairs: 0,
        estimate: None,
        sprt: None,
        endings: Default::default(),
        failures: Default::default(),
        nodes_per_move: (0.0, 0.0),
        depth_per_move: (0.0, 0.0),
        time_per_move_ms: (0.0, 0.0),
        branching: (0.0, 0.0),
        reused_openings: 0,
        replayed: None,
    }
}

/// The PGN of `pairs`' games, dated by the match.
fn pgn_text<'a>(
    pairs: impl IntoIterator<Item = &'a PairRecord>,
    header: &MatchHeader,
    extras: pgn::MoveComments,
) -> String {
    let mut text = String::new();
    for pair in pairs {
        pgn::write_pair(
            &mut text,
            pair,
            header,
            &header.provenance.date[..10],
            extras,
        );
    }
    text
}

/// The pairs in the planned order (pair 0 of each pairing, then pair 1, ...).
fn in_planned_order<'a>(header: &MatchHeader, pairs: &'a [PairRecord]) -> Vec<&'a PairRecord> {
    let mut sorted: Vec<&PairRecord> = pairs.iter().collect();
    let rank: HashMap<PairKey, usize> = header
        .planned()
        .into_iter()
        .enumerate()
        .map(|(i, k)| (k, i))
        .collect();
    sorted.sort_by_key(|p| rank.get(&p.key()).copied().unwrap_or(usize::MAX));
    sorted
}

/// Rewrite the PGN from every pair of the file, in the planned order (pair 0 of each pairing,
/// then pair 1, ...), so the same match gives the same PGN whatever its concurrency.
fn write_pgn(
    path: &std::path::Path,
    header: &MatchHeader,
    pairs: &[PairRecord],
    extras: pgn::MoveComments,
) -> Result<(), String> {
    let text = pgn_text(in_planned_order(header, pairs), header, extras);
    crate::harness::files::write_atomic(path, text)
}
