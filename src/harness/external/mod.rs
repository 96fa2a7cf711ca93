//! Any UCI engine as a player (`--engine`): how it is started (`EngineSpec`), its process
//! with its output read on a thread and the traffic log (`Process`), and what its `info` lines
//! and counter lines say about one search (`Outcome`). What the engine's `info` lines give
//! (depth, seldepth, nodes, time, score, PV) and its best move are recorded like searchlab's
//! own searches; its nodes are not split by kind, so they are all counted as interior nodes.
//! Its time runs from `go` to `bestmove`, so start-up and handshake are not charged to the
//! search.
//!
//! The room of the external engines as processes: `session.rs` sets a process up, probes it
//! and searches with it, `probe.rs` probes every engine of a run before it starts,
//! `engine_pool.rs` keeps one per worker of a run, and `uci_options.rs` reads the options an
//! engine advertises. Reading their descriptions and designing over their options is
//! planning, in `plan/` (`engine_args.rs`, `engine_design.rs`).

pub mod affinity;
pub mod engine_pool;
pub mod probe;
pub mod session;
pub mod uci_options;

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::engine::config::Limits;
use crate::engine::score::MATE;
use crate::engine::stats::Counters;

/// How to start and set up an external engine.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct EngineSpec {
    /// The shell command that starts it.
    pub command: String,
    /// `setoption` pairs sent after `uci`.
    pub options: Vec<(String, String)>,
    /// What the engine calls itself (`id name`), read when the run starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The directory it starts in (fastchess's `dir=`); `None`: the current one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// FNV-1a of the engine's program file, read when the engine is probed: two builds of one
    /// engine in a match (or a rebuild between a run and its resumption) are told apart by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program_checksum: Option<String>,
    /// How long one search without a clock may take before the engine counts as hung,
    /// milliseconds (`timeout=SECONDS`); `None`: derived from the limit (`search_deadline`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// A fresh process for every game (fastchess's `restart=on`); else one process per
    /// player, restarted only after a failure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub restart: bool,
}

impl EngineSpec {
    /// How long a search of `limits` may take before the engine counts as hung: `timeout=`
    /// when given, else `search_deadline`.
    pub fn deadline(&self, limits: &Limits) -> Deadline {
        match self.timeout_ms {
            Some(ms) => Deadline {
                after: Duration::from_millis(ms),
                why: "timeout=",
            },
            None => search_deadline(limits),
        }
    }
}

/// The longest wait for one search's `bestmove`, and what set it (named in a failure).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deadline {
    pub after: Duration,
    pub why: &'static str,
}

impl Deadline {
    /// The failure of a search that passed it.
    pub fn missed(&self, what: &str) -> String {
        format!(
            "no {what} within {:.1} s (the deadline {}; timeout=SECONDS in --engine or --each sets it)",
            self.after.as_secs_f64(),
            self.why
        )
    }
}

/// The deadline of a search with no `timeout=`: generous for any engine that answers at all,
/// short enough that a hung one costs seconds, not the run. A movetime gets three times itself
/// and 3 s; a node limit 3 s and a second for every 20,000 nodes (an engine slower than that
/// is not searching); a depth limit 3 s to depth 6, doubling every two plies beyond (a
/// branching factor of about 2 per ply, as modern engines' trees grow: depth 12 gets 24 s,
/// depth 20 384 s); no limit ten minutes.
pub fn search_deadline(limits: &Limits) -> Deadline {
    let base = 3.0;
    let (seconds, why) = match (limits.movetime_ms, limits.nodes, limits.depth) {
        (Some(ms), _, _) => (ms as f64 * 3.0 / 1000.0 + base, "for the movetime"),
        (None, Some(nodes), _) => (base + nodes as f64 / 20_000.0, "for the node limit"),
        (None, None, Some(depth)) => (
            base * 2f64.powf((f64::from(depth) - 6.0).max(0.0) / 2.0),
            "for the depth limit",
        ),
        _ => (600.0, "of a search without a limit"),
    };
    Deadline {
        after: Duration::from_secs_f64(seconds.min(1e7)),
        why,
    }
}

/// What the engine reported at one depth.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Nodes so far (cumulative, as UCI reports them).
    pub nodes: u64,
    /// Milliseconds so far.
    pub time_ms: u64,
    /// Score in centipawns (mates as searchlab's mate scores).
    pub score: i32,
    /// Principal variation (UCI).
    pub pv: Vec<String>,
}

/// The outcome of one search by an external engine.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The last report of each depth, in order.
    pub infos: Vec<Info>,
    /// The best move (UCI), when the engine gave a legal one.
    pub best_move: Option<String>,
    /// Why the search failed, if it did.
    pub failure: Option<String>,
    /// Wall time from `go` to `bestmove` (or to the failure, once `go` was sent; zero
    /// before).
    pub elapsed: Duration,
    /// The counters protocol's lines (`docs/protocol.md`), the last of each name.
    pub counters: Vec<(String, Counters)>,
}

/// Read one `info` line; `None` for lines without a depth and a PV (currmove and the like).
pub fn parse_info(line: &str) -> Option<Info> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.first() != Some(&"info") {
        return None;
    }
    let mut info = Info::default();
    let mut has_depth = false;
    let mut i = 1;
    while i < tokens.len() {
        let at = i;
        let next = |k: usize| tokens.get(at + k).copied().unwrap_or("");
        match tokens[i] {
            "depth" => {
                info.depth = next(1).parse().ok()?;
                has_depth = true;
                i += 2;
            }
            "seldepth" => {
                info.seldepth = next(1).parse().unwrap_or(0);
                i += 2;
            }
            "nodes" => {
                info.nodes = next(1).parse().unwrap_or(0);
                i += 2;
            }
            "time" => {
                info.time_ms = next(1).parse().unwrap_or(0);
                i += 2;
            }
            "score" => {
                let value: i32 = next(2).parse().unwrap_or(0);
                info.score = match next(1) {
                    "mate" if value > 0 => MATE - (2 * value - 1),
                    "mate" => -MATE - 2 * value,
                    _ => value,
                };
                if matches!(next(3), "lowerbound" | "upperbound") {
                    return None;
                }
                i += 3;
            }
            "pv" => {
                info.pv = tokens[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            _ => i += 1,
        }
    }
    (has_depth && !info.pv.is_empty()).then_some(info)
}

/// The engines' traffic log (`--log FILE`): every line sent to and received from each engine,
/// and what it writes on stderr, with the time and the engine (fastchess's `-log`).
static LOG: OnceLock<Mutex<File>> = OnceLock::new();

/// Log every engine's traffic to `path` (created anew) from now on. Started before the
/// players are probed, so the log holds the `uci`/`setoption`/`isready` handshake a user reads
/// when an option does not take; a second call (the next level of a match at several) keeps
/// the log already open.
pub fn log_to(path: &Path, level: LogLevel) -> Result<(), String> {
    if LOG.get().is_some() {
        return Ok(());
    }
    let file = File::create(path).map_err(|e| format!("--log {}: {e}", path.display()))?;
    let _ = LOG_LEVEL.set(level);
    LOG.set(Mutex::new(file))
        .map_err(|_| "--log is given once".to_string())
}

/// What the log keeps (`--log-level`, fastchess's `-log level=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogLevel {
    /// Every line.
    Trace,
    /// All but the engines' `info` lines (their search output).
    Info,
    /// Only what the engines write on stderr (`warn`, `err`, `fatal`).
    Errors,
}

impl LogLevel {
    pub fn parse(text: &str) -> Result<LogLevel, String> {
        match text {
            "trace" => Ok(LogLevel::Trace),
            "info" => Ok(LogLevel::Info),
            "warn" | "err" | "fatal" => Ok(LogLevel::Errors),
            _ => Err(format!(
                "--log-level {text}: trace, info, warn, err or fatal"
            )),
        }
    }

    /// Whether a line goes into the log.
    fn keeps(self, direction: char, line: &str) -> bool {
        match self {
            LogLevel::Trace => true,
            LogLevel::Info => !(direction == '<' && line.starts_with("info ")),
            LogLevel::Errors => direction == '!',
        }
    }
}

static LOG_LEVEL: OnceLock<LogLevel> = OnceLock::new();

/// The names the log gives engine processes: each player's label (`name=`), by its engine's
/// command, folder and options, so two builds of one program are told apart by name, not only
/// by process id.
static LOG_NAMES: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

fn log_key(engine: &EngineSpec) -> String {
    format!("{}\0{:?}\0{:?}", engine.command, engine.dir, engine.options)
}

/// Name `engine`'s processes `label` in the log.
pub fn name_in_log(engine: &EngineSpec, label: &str) {
    let key = log_key(engine);
    let mut names = LOG_NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if !names.iter().any(|(k, l)| *k == key && l == label) {
        names.push((key, label.to_string()));
    }
}

/// The labels the log names `engine` by (several joined by `/` when players share one
/// engine exactly), if any was given.
fn log_name(engine: &EngineSpec) -> Option<String> {
    let key = log_key(engine);
    let names = LOG_NAMES.lock().unwrap_or_else(|e| e.into_inner());
    let labels: Vec<&str> = names
        .iter()
        .filter(|(k, _)| *k == key)
        .map(|(_, l)| l.as_str())
        .collect();
    (!labels.is_empty()).then(|| labels.join("/"))
}

/// One line of the log: `TIME ENGINE > line` (sent), `<` (received), `!` (its stderr).
fn log_line(engine: &str, direction: char, line: &str) {
    let level = LOG_LEVEL.get().copied().unwrap_or(LogLevel::Trace);
    if let Some(log) = LOG.get().filter(|_| level.keeps(direction, line)) {
        let time = humantime::format_rfc3339_millis(std::time::SystemTime::now());
        if let Ok(mut file) = log.lock() {
            let _ = writeln!(file, "{time} {engine} {direction} {line}");
        }
    }
}

/// The engine's program exists (a path, from its `dir=` when relative, or a name on PATH):
/// a missing one is "not found", not an engine that "does not speak UCI".
fn program_found(engine: &EngineSpec) -> Result<(), String> {
    let Some(program) = shlex::split(&engine.command).and_then(|words| words.into_iter().next())
    else {
        return Ok(());
    };
    match program_path(engine) {
        Some(_) => Ok(()),
        None => Err(format!(
            "engine program '{program}' not found{}",
            if program.contains('/') {
                ""
            } else {
                " on PATH"
            }
        )),
    }
}

/// Where the engine's program is: its path (from its `dir=` when relative), or the first
/// match of its name on PATH.
pub fn program_path(engine: &EngineSpec) -> Option<std::path::PathBuf> {
    let program = shlex::split(&engine.command)?.into_iter().next()?;
    if program.contains('/') {
        let path = std::path::Path::new(&program);
        let full = match (&engine.dir, path.is_relative()) {
            (Some(dir), true) => std::path::Path::new(dir).join(path),
            _ => path.to_path_buf(),
        };
        full.exists().then_some(full)
    } else {
        std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|dir| dir.join(&program))
            .find(|p| p.exists())
    }
}

/// FNV-1a of the engine's program file, when it can be read.
pub fn program_checksum(engine: &EngineSpec) -> Option<String> {
    let bytes = std::fs::read(program_path(engine)?).ok()?;
    Some(format!("{:016x}", crate::engine::nnue::checksum(&bytes)))
}

/// A running engine process: its input, and its output lines read on a thread.
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// How the log names it: its player's label (else its `id name`, else its command) and
    /// process id.
    tag: String,
}

impl Process {
    pub(crate) fn start(engine: &EngineSpec) -> Result<Process, String> {
        let command = &engine.command;
        program_found(engine)?;
        let mut shell = Command::new("sh");
        if let Some(dir) = &engine.dir {
            shell.current_dir(dir);
        }
        let mut child = shell
            .arg("-c")
            .arg(format!("exec {}{command}", affinity::command_prefix()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if LOG.get().is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|e| format!("cannot start '{command}': {e}"))?;
        let tag = format!(
            "{}[{}]",
            log_name(engine)
                .or_else(|| engine.name.clone())
                .unwrap_or_else(|| command.clone())
                .replace([' ', '\''], "_"),
            child.id()
        );
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        if let Some(stderr) = child.stderr.take() {
            let tag = tag.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    log_line(&tag, '!', &line);
                }
            });
        }
        let (sender, lines) = channel();
        let reader_tag = tag.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                log_line(&reader_tag, '<', &line);
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
            tag,
        })
    }

    pub(crate) fn send(&mut self, line: &str) -> Result<(), String> {
        log_line(&self.tag, '>', line);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("engine closed its input: {e}"))
    }

    /// Lines until one satisfies `done`, within `timeout`.
    pub(crate) fn until(
        &mut self,
        timeout: Duration,
        mut on_line: impl FnMut(&str) -> bool,
    ) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if on_line(&line) {
                        return Ok(());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer within {:.1} s", timeout.as_secs_f64()));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // Output closes a moment before the exit is seen: wait for it briefly,
                    // so the reason names the exit status when there is one.
                    let mut status = None;
                    for _ in 0..40 {
                        status = self.child.try_wait().ok().flatten();
                        if status.is_some() {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    return Err(match status {
                        Some(status) => format!("engine exited ({status})"),
                        None => "engine closed its output".into(),
                    });
                }
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without `timeout=`, a hung engine costs seconds under a small limit, and a large limit
    /// still leaves a real engine room; `timeout=` wins over every limit.
    #[test]
    fn deadlines_follow_the_limit() {
        let seconds = |limits: Limits| search_deadline(&limits).after.as_secs_f64();
        assert_eq!(seconds(Limits::depth(3)), 3.0);
        assert_eq!(seconds(Limits::depth(12)), 24.0);
        let nodes = |n| Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        assert_eq!(seconds(nodes(1000)), 3.05);
        assert_eq!(seconds(nodes(1_000_000)), 53.0);
        let movetime = Limits {
            movetime_ms: Some(1000),
            ..Limits::default()
        };
        assert_eq!(seconds(movetime), 6.0);
        let spec = EngineSpec {
            timeout_ms: Some(1500),
            ..EngineSpec::default()
        };
        assert_eq!(spec.deadline(&Limits::depth(30)).after.as_millis(), 1500);
        assert!(
            spec.deadline(&Limits::depth(3))
                .missed("bestmove")
                .contains("timeout=")
        );
    }

    #[test]
    fn info_lines() {
        let info = parse_info("info depth 12 seldepth 18 multipv 1 score cp 31 nodes 123456 nps 1000 time 120 pv e2e4 e7e5").unwrap();
        assert_eq!(
            (
                info.depth,
                info.seldepth,
                info.nodes,
                info.time_ms,
                info.score
            ),
            (12, 18, 123456, 120, 31)
        );
        assert_eq!(info.pv, ["e2e4", "e7e5"]);
        assert_eq!(
            parse_info("info depth 3 score mate 2 nodes 5 pv a1a8")
                .unwrap()
                .score,
            MATE - 3
        );
        assert_eq!(
            parse_info("info depth 3 score mate -1 nodes 5 pv a1a8")
                .unwrap()
                .score,
            -MATE + 2
        );
        assert!(parse_info("info depth 5 currmove e2e4 currmovenumber 1").is_none());
        assert!(parse_info("info depth 5 score cp 10 lowerbound nodes 4 pv e2e4").is_none());
        assert!(parse_info("info string hello").is_none());
        assert!(parse_info("bestmove e2e4").is_none());
    }
}
