//! `searchlab run`: variants × EPD suites × seeds, one single-threaded in-process search per
//! (variant, position, seed), positions in parallel (rayon). Every finished search is one JSON
//! Lines record, appended and flushed at once, so a run killed at any point keeps everything
//! it finished; the same command resumes it, skipping what is done. With depth or node limits
//! the records are identical, nodes for nodes, whatever the number of workers.

use super::progress::{Every, ProgressDisplay};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use rayon::prelude::*;

use super::design::Design;
use super::epd::EpdRecord;
use super::external;
use super::external::engine_pool::EnginePool;
use super::results::{
    self, FORMAT, Header, IterationRecord, PositionRecord, RecordCounters, RecordKey, Shard,
};
use super::variant::Variant;
use crate::engine::config::{Limits, SearchConfig};
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::search::{Instruments, SearchResult, Silent, search_instrumented};
use crate::harness::provenance::Provenance;

/// A suite: its path and its positions.
#[derive(Clone, Debug)]
pub struct Suite {
    /// The file.
    pub path: PathBuf,
    /// Its positions.
    pub records: Vec<EpdRecord>,
}

/// Everything a run needs.
pub struct Run {
    pub variants: Vec<Variant>,
    pub suites: Vec<Suite>,
    /// Limits of every search.
    pub limits: Limits,
    /// Seeds (one search per seed per variant and position).
    pub seeds: Vec<u64>,
    /// Worker threads.
    pub jobs: usize,
    /// The results file.
    pub out: PathBuf,
    /// This process's part of the tasks.
    pub shard: Option<Shard>,
    /// Show a progress bar on stderr, or without a terminal a status line on stdout this
    /// often (`None`: nothing).
    pub progress: Option<Every>,
    /// Audit each pruning or reduction decision with this probability (`--audit`).
    pub audit: Option<f64>,
    /// Record each in-process search's width by depth (`--width`).
    pub width: bool,
    /// How the variants were made, when a design made them.
    pub design: Option<Design>,
}

pub use results::randomised;

/// Is the move correct for the record? `None` when it has no `bm` or `am`.
/// The STS points of a best move: 0 when `c0` does not list it. A move listed twice with
/// different points (7 STS positions, `suites/README.md`) scores its first listing.
fn sts_points(record: &EpdRecord, best: Option<cozy_chess::Move>) -> u32 {
    best.and_then(|mv| record.points.iter().find(|(m, _)| *m == mv))
        .map_or(0, |(_, p)| *p)
}

fn correct(record: &EpdRecord, mv: Option<cozy_chess::Move>) -> Option<bool> {
    if record.best_moves.is_empty() && record.avoid_moves.is_empty() {
        return None;
    }
    let mv = mv?;
    let in_bm = record.best_moves.is_empty() || record.best_moves.contains(&mv);
    Some(in_bm && !record.avoid_moves.contains(&mv))
}

/// Build the record of one finished search.
pub fn position_record(
    variant: &str,
    suite: &Path,
    record: &EpdRecord,
    seed: u64,
    result: &SearchResult,
) -> PositionRecord {
    let board = &record.board;
    let iterations: Vec<IterationRecord> = result
        .iterations
        .iter()
        .map(|it| IterationRecord {
            depth: it.depth,
            seldepth: it.seldepth,
            interior: it.stats.interior,
            horizon: it.stats.horizon,
            quiescence: it.stats.quiescence,
            cutoffs: it.stats.cutoffs,
            first_move_cutoffs: it.stats.first_move_cutoffs,
            cutoff_index_sum: Some(it.stats.cutoff_index_sum),
            quiescence_cutoffs: Some(it.stats.quiescence_cutoffs),
            quiescence_first_move_cutoffs: Some(it.stats.quiescence_first_move_cutoffs),
            quiescence_cutoff_index_sum: Some(it.stats.quiescence_cutoff_index_sum),
            time_ms: it.elapsed.as_secs_f64() * 1000.0,
            score: it.score,
            best_move: it.pv.first().map(|&mv| notation::uci(board, mv)),
            pv: notation::line(board, &it.pv, notation::uci),
        })
        .collect();
    let solved = correct(record, result.best_move);
    // The first iteration from which the best move stayed correct.
    let mut from = None;
    if solved == Some(true) {
        for it in result.iterations.iter().rev() {
            if correct(record, it.pv.first().copied()) != Some(true) {
                break;
            }
            from = Some(it);
        }
    }
    let points = (!record.points.is_empty()).then(|| sts_points(record, result.best_move));
    PositionRecord {
        kind: "position".into(),
        variant: variant.to_string(),
        suite: suite.display().to_string(),
        line: record.line,
        id: record.id(),
        seed,
        fen: record.fen.clone(),
        iterations,
        counters: result.stats.heuristics.into(),
        nodes: result.stats.nodes(),
        time_ms: result.elapsed.as_secs_f64() * 1000.0,
        best_move: result.best_move.map(|mv| notation::uci(board, mv)),
        solved,
        points,
        time_to_solution_ms: from.map(|it| it.elapsed.as_secs_f64() * 1000.0),
        depth_to_solution: from.map(|it| it.depth),
        failure: None,
        audit: result.audit.as_ref().map(|tally| tally.rows()),
        width: result.width.clone(),
    }
}

/// Build the record of an external engine's search.
pub fn external_record(
    variant: &str,
    suite: &Path,
    record: &EpdRecord,
    outcome: &external::Outcome,
) -> PositionRecord {
    let board = &record.board;
    let parse = |text: &str| cozy_chess::util::parse_uci_move(board, text).ok();
    let mut previous = 0;
    let iterations: Vec<IterationRecord> = outcome
        .infos
        .iter()
        .map(|info| {
            let nodes = info.nodes.saturating_sub(previous);
            previous = info.nodes;
            IterationRecord {
                depth: info.depth,
                seldepth: info.seldepth,
                interior: nodes,
                horizon: 0,
                quiescence: 0,
                cutoffs: 0,
                first_move_cutoffs: 0,
                cutoff_index_sum: None,
                quiescence_cutoffs: None,
                quiescence_first_move_cutoffs: None,
                quiescence_cutoff_index_sum: None,
                time_ms: info.time_ms as f64,
                score: info.score,
                best_move: info.pv.first().cloned(),
                pv: info.pv.join(" "),
            }
        })
        .collect();
    let best = outcome.best_move.as_deref().and_then(parse);
    let solved = if outcome.failure.is_some() {
        None
    } else {
        correct(record, best)
    };
    let mut from: Option<(f64, u32)> = None;
    if solved == Some(true) {
        for (info, it) in outcome.infos.iter().zip(&iterations).rev() {
            if correct(record, info.pv.first().and_then(|m| parse(m))) != Some(true) {
                break;
            }
            from = Some((it.time_ms, it.depth));
        }
    }
    let points =
        (!record.points.is_empty() && outcome.failure.is_none()).then(|| sts_points(record, best));
    PositionRecord {
        kind: "position".into(),
        variant: variant.to_string(),
        suite: suite.display().to_string(),
        line: record.line,
        id: record.id(),
        seed: 0,
        fen: record.fen.clone(),
        nodes: outcome.infos.last().map_or(0, |i| i.nodes),
        iterations,
        counters: RecordCounters::from_lines(&outcome.counters),
        time_ms: outcome.elapsed.as_secs_f64() * 1000.0,
        best_move: outcome.best_move.clone(),
        solved,
        points,
        time_to_solution_ms: from.map(|(time, _)| time),
        depth_to_solution: from.map(|(_, depth)| depth),
        failure: outcome.failure.clone(),
        audit: None,
        width: None,
    }
}

/// One search to do.
struct Task<'a> {
    variant: &'a Variant,
    suite: &'a Suite,
    record: &'a EpdRecord,
    seed: u64,
}

/// Run (or resume) and return every position record of the file.
pub fn run(plan: &Run) -> Result<Vec<PositionRecord>, String> {
    for suite in &plan.suites {
        if suite.records.is_empty() {
            return Err(format!(
                "no positions in {}: nothing to search",
                suite.path.display()
            ));
        }
    }
    let header = header(plan);
    let (file, mut records) = results::open_for_run(&plan.out, &header)?;
    let done: HashSet<RecordKey> = records.iter().map(PositionRecord::key).collect();
    let tasks = tasks(plan, &header, &done);
    if tasks.is_empty() && !records.is_empty() {
        eprintln!(
            "{}: the run is already complete ({} searches); nothing left to search",
            plan.out.display(),
            records.len()
        );
    }
    execute(plan, &tasks, file, &mut records)?;
    Ok(records)
}

/// The header of the run's results file.
fn header(plan: &Run) -> Header {
    Header {
        kind: "header".into(),
        provenance: Provenance::now(),
        limits: plan.limits,
        variants: plan.variants.clone(),
        suites: plan
            .suites
            .iter()
            .map(|s| s.path.display().to_string())
            .collect(),
        seeds: plan.seeds.clone(),
        shard: plan.shard,
        format: Some(FORMAT),
        positions: Some(
            plan.suites
                .iter()
                .map(|s| s.records.iter().map(|r| r.line).collect())
                .collect(),
        ),
        missing: Vec::new(),
        audit: plan.audit,
        width: plan.width,
        design: plan.design.clone(),
    }
}

/// The searches of this shard that the results file does not hold yet, in the order the
/// header plans them (`Header::planned`, the one definition of a run's searches).
fn tasks<'a>(plan: &'a Run, header: &Header, done: &HashSet<RecordKey>) -> Vec<Task<'a>> {
    let variants: HashMap<&str, &Variant> = plan
        .variants
        .iter()
        .map(|v| (v.label.as_str(), v))
        .collect();
    // The position's place in the run: the order the searches are made in.
    let mut positions: HashMap<(String, usize), (&Suite, &EpdRecord, usize)> = HashMap::new();
    for suite in &plan.suites {
        for record in &suite.records {
            let place = positions.len();
            positions.insert(
                (suite.path.display().to_string(), record.line),
                (suite, record, place),
            );
        }
    }
    let mut tasks: Vec<(usize, Task)> = header
        .planned()
        .expect("a run's header records its positions")
        .into_iter()
        .filter(|key| !done.contains(key))
        .map(|key| {
            let (suite, record, place) = positions[&(key.suite.clone(), key.line)];
            let task = Task {
                variant: variants[key.variant.as_str()],
                suite,
                record,
                seed: key.seed,
            };
            (place, task)
        })
        .collect();
    // Interleaved: each position's variants are searched one after another (in the order of
    // the variants), not each variant's block in turn, so a machine whose speed drifts over a
    // run slows every variant alike and their time ratios compare like with like (issue 61).
    tasks.sort_by_key(|(place, task)| (*place, task.seed));
    tasks.into_iter().map(|(_, task)| task).collect()
}

/// One search, in-process or by an external engine (in one of the run's sessions), as its
/// record.
fn search_task(
    task: &Task,
    limits: Limits,
    instruments: Instruments,
    sessions: &EnginePool,
) -> Result<PositionRecord, String> {
    let Task {
        variant,
        suite,
        record,
        seed,
    } = *task;
    match &variant.engine {
        Some(engine) => {
            let outcome = sessions.search(&variant.label, engine, record, &limits);
            Ok(external_record(
                &variant.label,
                &suite.path,
                record,
                &outcome,
            ))
        }
        None => {
            let config = SearchConfig {
                limits,
                seed,
                ..variant.config.clone()
            };
            let position = Position::new(record.board.clone(), config.eval);
            let result = search_instrumented(position, config, instruments, &mut Silent)
                .map_err(|e| format!("variant '{}': {e}", variant.label))?;
            Ok(position_record(
                &variant.label,
                &suite.path,
                record,
                seed,
                &result,
            ))
        }
    }
}

/// Search the tasks on `plan.jobs` threads; each record is appended and flushed as soon as it
/// is done, and added to `records`.
fn execute(
    plan: &Run,
    tasks: &[Task],
    mut file: File,
    records: &mut Vec<PositionRecord>,
) -> Result<(), String> {
    let bar = ProgressDisplay::new(
        plan.progress.is_some(),
        "run",
        tasks.len() as u64,
        0,
        "searches",
        plan.progress.unwrap_or(Every::Count(0)),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let (sender, receiver) = mpsc::channel::<Result<PositionRecord, String>>();
    let limits = plan.limits;
    let instruments = Instruments {
        audit: plan.audit,
        width: plan.width,
    };
    let sessions = EnginePool::new(plan.jobs);
    let mut failure = None;
    std::thread::scope(|scope| {
        let sessions = &sessions;
        scope.spawn(move || {
            pool.install(|| {
                tasks.par_iter().for_each_with(sender, |sender, task| {
                    // The receiver only goes away on an error; stop quietly then.
                    let _ = sender.send(search_task(task, limits, instruments, sessions));
                });
            });
        });
        for record in receiver {
            let record = match record {
                Ok(record) => record,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            };
            if let Err(e) = results::append(&mut file, &record) {
                failure = Some(format!("{}: {e}", plan.out.display()));
                break;
            }
            records.push(record);
            bar.inc(1);
        }
    });
    bar.finish_and_clear();
    for (label, starts) in sessions.starts() {
        let searches = tasks.iter().filter(|t| t.variant.label == label).count();
        eprintln!(
            "engine {label}: {starts} process{} (the probe's included) for {searches} searches on {} worker{}",
            if starts == 1 { "" } else { "es" },
            plan.jobs,
            if plan.jobs == 1 { "" } else { "s" }
        );
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// STS "Open Files and Diagonals.049" lists Re2 for 2 points and again for 5: the first
    /// listing counts, and a move not listed scores 0.
    #[test]
    fn a_move_listed_twice_scores_its_first_listing() {
        let line = r#"4r1k1/3q1ppb/2p5/2Pp1P1p/p2P3P/P3P1PB/5Q1K/4R3 w - - bm Rb1; c0 "Rb1=10, Qf4=5, Re2=2, Re2=5";"#;
        let record = super::super::epd::parse_line(line, 1).unwrap();
        let points = |uci: &str| sts_points(&record, Some(uci.parse().unwrap()));
        assert_eq!(points("e1e2"), 2);
        assert_eq!(points("e1b1"), 10);
        assert_eq!(points("h2g1"), 0);
        assert_eq!(sts_points(&record, None), 0);
    }
}
