//! `searchlab run`: variants × EPD suites × seeds, one single-threaded in-process search per
//! (variant, position, seed), positions in parallel (rayon). Every finished search is one JSON
//! Lines record, appended and flushed at once, so a run killed at any point keeps everything
//! it finished; the same command resumes it, skipping what is done. With depth or node limits
//! the records are identical, nodes for nodes, whatever the number of workers.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::epd::EpdRecord;
use super::external;
use crate::engine::config::{Limits, SearchConfig};
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::search::{SearchResult, Silent, search};
use crate::engine::stats::HeuristicCounters;

/// One configuration under test.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Variant {
    /// Its name in tables and records.
    pub label: String,
    /// The SPEC it came from.
    pub spec: String,
    /// The full configuration (every parameter, the seed set per search).
    pub config: SearchConfig,
    /// An external UCI engine instead of searchlab's own search.
    #[serde(default)]
    pub engine: Option<external::EngineSpec>,
}

/// A suite: its path and its positions.
#[derive(Clone, Debug)]
pub struct Suite {
    /// The file.
    pub path: PathBuf,
    /// Its positions.
    pub records: Vec<EpdRecord>,
}

/// Which part of the task list this process runs: `index` of `count` (1-based).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Shard {
    /// 1-based index.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl Shard {
    /// Parse `I/N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| format!("--shard is I/N, got '{text}'"))?;
        let index: usize = i.parse().map_err(|_| format!("--shard: bad index '{i}'"))?;
        let count: usize = n.parse().map_err(|_| format!("--shard: bad count '{n}'"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("--shard: need 1 <= I <= N, got {index}/{count}"));
        }
        Ok(Shard { index, count })
    }
}

/// The first record of a results file: what the run is.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Header {
    /// Always `header`.
    #[serde(rename = "type")]
    pub kind: String,
    /// searchlab's version.
    pub searchlab: String,
    /// The git commit of the source, when known.
    pub commit: Option<String>,
    /// When the run started (RFC 3339, UTC).
    pub date: String,
    /// Logical cores of the machine.
    pub cores: usize,
    /// The limits of every search.
    pub limits: Limits,
    /// The variants, with every parameter.
    pub variants: Vec<Variant>,
    /// The suites, as given.
    pub suites: Vec<String>,
    /// The seeds each variant runs with.
    pub seeds: Vec<u64>,
    /// The shard, when the run is split.
    pub shard: Option<Shard>,
}

impl Header {
    /// Two headers describe the same run (date, commit and cores aside).
    pub fn same_run(&self, other: &Header) -> bool {
        self.limits == other.limits
            && self.variants == other.variants
            && self.suites == other.suites
            && self.seeds == other.seeds
            && self.shard == other.shard
    }
}

/// One completed iteration, as recorded.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct IterationRecord {
    /// Depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Interior nodes of this iteration.
    pub interior: u64,
    /// Horizon leaves of this iteration.
    pub horizon: u64,
    /// Quiescence nodes of this iteration.
    pub quiescence: u64,
    /// Beta cut-offs.
    pub cutoffs: u64,
    /// Beta cut-offs by the first move.
    pub first_move_cutoffs: u64,
    /// Milliseconds since the search started.
    pub time_ms: f64,
    /// Score (centipawns, side to move).
    pub score: i32,
    /// Best move (UCI).
    pub best_move: Option<String>,
    /// Principal variation (UCI).
    pub pv: String,
}

/// One (variant, position, seed) search.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionRecord {
    /// Always `position`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The variant's label.
    pub variant: String,
    /// The suite file.
    pub suite: String,
    /// Line in the suite.
    pub line: usize,
    /// The position's id.
    pub id: String,
    /// The seed.
    pub seed: u64,
    /// The position.
    pub fen: String,
    /// Every completed iteration.
    pub iterations: Vec<IterationRecord>,
    /// Per heuristic counters of the whole search.
    pub counters: HeuristicCounters,
    /// Every node of the search.
    pub nodes: u64,
    /// Wall time of the search, ms.
    pub time_ms: f64,
    /// The move played (UCI).
    pub best_move: Option<String>,
    /// In `bm` and not in `am`; `None` when the position has neither.
    pub solved: Option<bool>,
    /// STS points of the move played, when the position has points.
    pub points: Option<u32>,
    /// Time of the first iteration from which the best move stayed correct, ms.
    pub time_to_solution_ms: Option<f64>,
    /// Depth of that iteration.
    pub depth_to_solution: Option<u32>,
    /// Why an external engine's search failed (crash, hang, illegal move).
    #[serde(default)]
    pub failure: Option<String>,
}

impl PositionRecord {
    /// The key that identifies the task, for resuming.
    pub fn key(&self) -> (String, String, usize, u64) {
        (
            self.variant.clone(),
            self.suite.clone(),
            self.line,
            self.seed,
        )
    }
}

/// Everything a run needs.
pub struct Run {
    /// The variants.
    pub variants: Vec<Variant>,
    /// The suites.
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
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// The variant draws random numbers (GSR crossover points, mate-history bonuses), so its
/// results depend on the seed.
pub fn randomised(config: &SearchConfig) -> bool {
    let h = &config.heuristics;
    h.gsr.enabled || h.gsr_simple.enabled || h.mate_history.enabled || h.iid_null_window.enabled
}

/// Is the move correct for the record? `None` when it has no `bm` or `am`.
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
    let points = (!record.points.is_empty()).then(|| {
        result
            .best_move
            .and_then(|mv| record.points.iter().find(|(m, _)| *m == mv))
            .map_or(0, |(_, p)| *p)
    });
    PositionRecord {
        kind: "position".into(),
        variant: variant.to_string(),
        suite: suite.display().to_string(),
        line: record.line,
        id: record.id(),
        seed,
        fen: record.fen.clone(),
        iterations,
        counters: result.stats.heuristics,
        nodes: result.stats.nodes(),
        time_ms: result.elapsed.as_secs_f64() * 1000.0,
        best_move: result.best_move.map(|mv| notation::uci(board, mv)),
        solved,
        points,
        time_to_solution_ms: from.map(|it| it.elapsed.as_secs_f64() * 1000.0),
        depth_to_solution: from.map(|it| it.depth),
        failure: None,
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
    let points = (!record.points.is_empty() && outcome.failure.is_none()).then(|| {
        best.and_then(|mv| record.points.iter().find(|(m, _)| *m == mv))
            .map_or(0, |(_, p)| *p)
    });
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
        counters: HeuristicCounters::default(),
        time_ms: outcome.elapsed.as_secs_f64() * 1000.0,
        best_move: outcome.best_move.clone(),
        solved,
        points,
        time_to_solution_ms: from.map(|(time, _)| time),
        depth_to_solution: from.map(|(_, depth)| depth),
        failure: outcome.failure.clone(),
    }
}

/// The git commit of the working directory, when git knows it.
pub fn git_commit() -> Option<String> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Read an existing results file (plain or `.gz`): its header, its position records, and the
/// length of its complete lines (a line cut by a kill is dropped).
pub fn read_results(path: &Path) -> Result<(Option<Header>, Vec<PositionRecord>, u64), String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((None, Vec::new(), 0)),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut header = None;
    let mut records = Vec::new();
    let mut complete = 0u64;
    // Results kept in the repository are gzipped (`results.jsonl.gz`); read them as they are.
    let mut reader: Box<dyn BufRead> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(BufReader::new(flate2::read::GzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    };
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if read == 0 || !line.ends_with('\n') {
            break;
        }
        number += 1;
        let value: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| format!("{}:{number}: {e}", path.display()))?;
        match value.get("type").and_then(|t| t.as_str()) {
            Some("header") => {
                header = Some(
                    serde_json::from_value(value)
                        .map_err(|e| format!("{}:{number}: {e}", path.display()))?,
                )
            }
            Some("position") => records.push(
                serde_json::from_value(value)
                    .map_err(|e| format!("{}:{number}: {e}", path.display()))?,
            ),
            _ => {
                return Err(format!(
                    "{}:{number}: not a searchlab record",
                    path.display()
                ));
            }
        }
        complete += read as u64;
    }
    Ok((header, records, complete))
}

/// Run (or resume) and return every position record of the file.
pub fn run(plan: &Run) -> Result<Vec<PositionRecord>, String> {
    let header = Header {
        kind: "header".into(),
        searchlab: env!("CARGO_PKG_VERSION").into(),
        commit: git_commit(),
        date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        limits: plan.limits,
        variants: plan.variants.clone(),
        suites: plan
            .suites
            .iter()
            .map(|s| s.path.display().to_string())
            .collect(),
        seeds: plan.seeds.clone(),
        shard: plan.shard,
    };
    let (existing, mut done_records, complete) = read_results(&plan.out)?;
    if let Some(existing) = &existing
        && !existing.same_run(&header)
    {
        return Err(format!(
            "{} holds another run (different variants, suites, limits, seeds or shard); choose another --out",
            plan.out.display()
        ));
    }
    if let Some(parent) = plan.out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&plan.out)
        .map_err(|e| format!("{}: {e}", plan.out.display()))?;
    // Drop a line cut short by an earlier kill.
    file.set_len(complete)
        .map_err(|e| format!("{}: {e}", plan.out.display()))?;
    if existing.is_none() {
        writeln!(
            file,
            "{}",
            serde_json::to_string(&header).expect("header serialises")
        )
        .and_then(|_| file.flush())
        .map_err(|e| format!("{}: {e}", plan.out.display()))?;
    }

    let done: HashSet<_> = done_records.iter().map(PositionRecord::key).collect();
    let mut tasks = Vec::new();
    let mut index = 0usize;
    for variant in &plan.variants {
        for suite in &plan.suites {
            for record in &suite.records {
                let seeds: &[u64] = if randomised(&variant.config) {
                    &plan.seeds
                } else {
                    &plan.seeds[..1]
                };
                for &seed in seeds {
                    let mine = plan.shard.is_none_or(|s| index % s.count == s.index - 1);
                    index += 1;
                    let key = (
                        variant.label.clone(),
                        suite.path.display().to_string(),
                        record.line,
                        seed,
                    );
                    if mine && !done.contains(&key) {
                        tasks.push((variant, suite, record, seed));
                    }
                }
            }
        }
    }

    let bar = if plan.progress {
        ProgressBar::new(tasks.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} searches  {elapsed_precise} elapsed, ETA {eta_precise}",
        )
        .expect("valid template"),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let (sender, receiver) = mpsc::channel::<PositionRecord>();
    let limits = plan.limits;
    let mut write_error = None;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.install(|| {
                tasks
                    .par_iter()
                    .for_each_with(sender, |sender, (variant, suite, record, seed)| {
                        let record = match &variant.engine {
                            Some(engine) => {
                                let outcome = external::search(engine, record, &limits);
                                external_record(&variant.label, &suite.path, record, &outcome)
                            }
                            None => {
                                let config = SearchConfig {
                                    limits,
                                    seed: *seed,
                                    ..variant.config
                                };
                                let position = Position::new(record.board.clone(), config.eval);
                                let result = search(position, config, &mut Silent);
                                position_record(&variant.label, &suite.path, record, *seed, &result)
                            }
                        };
                        // The receiver only goes away on a write error; stop quietly then.
                        let _ = sender.send(record);
                    });
            });
        });
        for record in receiver {
            let line = serde_json::to_string(&record).expect("record serialises");
            if let Err(e) = writeln!(file, "{line}").and_then(|_| file.flush()) {
                write_error = Some(format!("{}: {e}", plan.out.display()));
                break;
            }
            done_records.push(record);
            bar.inc(1);
        }
    });
    bar.finish_and_clear();
    match write_error {
        Some(e) => Err(e),
        None => Ok(done_records),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse() {
        assert_eq!(Shard::parse("1/2"), Ok(Shard { index: 1, count: 2 }));
        assert!(Shard::parse("0/2").is_err());
        assert!(Shard::parse("3/2").is_err());
        assert!(Shard::parse("x").is_err());
    }
}
