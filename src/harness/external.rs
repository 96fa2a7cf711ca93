//! Any UCI engine as a variant of a run (`--engine [LABEL=]"COMMAND"`). Each position gets a
//! fresh engine process, so an engine that crashes or hangs costs only that position: it is
//! killed, the position is recorded as failed with the reason, and the run goes on. What the
//! engine's `info` lines give (depth, seldepth, nodes, time, score, PV) and its best move are
//! recorded like searchlab's own searches; its nodes are not split by kind, so they are all
//! counted as interior nodes. Its time is measured from `go` to `bestmove`, so the process's
//! start-up and handshake are not charged to the search. Before a run each engine is started
//! once (`probe`): a command that does not start, or does not answer `uci` with `uciok`
//! within a few seconds, stops the run before any search, and the engine's `id name` is
//! recorded in the results header.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use cozy_chess::util::parse_uci_move;
use serde::{Deserialize, Serialize};

use super::epd::EpdRecord;
use crate::engine::config::Limits;
use crate::engine::score::MATE;

/// How to start and set up an external engine.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
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
}

/// How long an engine may take to answer `uci` with `uciok` when it is probed.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Start the engine once, check that it speaks UCI and return its `id name` (the command
/// itself when it gives none).
pub fn probe(engine: &EngineSpec) -> Result<String, String> {
    let mut process = Process::start(engine)?;
    let mut name = None;
    let mut advertised = Vec::new();
    // An engine that exits at once may close its input before `uci` is written: that is
    // the same failure as exiting before `uciok`.
    process
        .send("uci")
        .and_then(|()| {
            process.until(PROBE_TIMEOUT, |line| {
                let line = line.trim();
                if let Some(n) = line.strip_prefix("id name ") {
                    name = Some(n.trim().to_string());
                }
                if let Some(option) = line.strip_prefix("option name ") {
                    advertised.push(option.to_string());
                }
                line == "uciok"
            })
        })
        .map_err(|e| {
            format!(
                "engine '{}' does not speak UCI: {e} after 'uci' (expected 'uciok' within {} s)",
                engine.command,
                PROBE_TIMEOUT.as_secs()
            )
        })?;
    let _ = process.send("quit");
    for (option, value) in &engine.options {
        match check_option(&advertised, option, value) {
            Ok(true) => {}
            // UCI engines ignore options they do not know (fastchess warns the same way).
            Ok(false) => eprintln!(
                "warning: engine '{}' has no option '{option}'; it is sent all the same",
                engine.command
            ),
            Err(e) => return Err(format!("engine '{}': {e}", engine.command)),
        }
    }
    Ok(name.unwrap_or_else(|| engine.command.clone()))
}

/// Whether `setoption name OPTION value VALUE` is one the engine advertises (`advertised`:
/// the text after `option name ` of each line); an error for a spin value outside its range,
/// which some engines do not survive.
fn check_option(advertised: &[String], option: &str, value: &str) -> Result<bool, String> {
    let Some(line) = advertised.iter().find(|line| {
        line.get(..option.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(option))
            && line[option.len()..].trim_start().starts_with("type ")
    }) else {
        return Ok(false);
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|w| w.parse::<i64>().ok())
    };
    if words.windows(2).any(|w| w == ["type", "spin"]) {
        let (low, high) = (after("min"), after("max"));
        let given: i64 = value
            .trim()
            .parse()
            .map_err(|_| format!("option '{option}' is a number, got '{value}'"))?;
        if low.is_some_and(|low| given < low) || high.is_some_and(|high| given > high) {
            return Err(format!(
                "option '{option}' = {given} is outside its range {}..{}",
                low.map_or("?".into(), |l| l.to_string()),
                high.map_or("?".into(), |h| h.to_string())
            ));
        }
    }
    Ok(true)
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

/// Log every engine's traffic to `path` (created anew) from now on.
pub fn log_to(path: &Path) -> Result<(), String> {
    let file = File::create(path).map_err(|e| format!("--log {}: {e}", path.display()))?;
    LOG.set(Mutex::new(file))
        .map_err(|_| "--log is given once".to_string())
}

/// One line of the log: `TIME ENGINE > line` (sent), `<` (received), `!` (its stderr).
fn log_line(engine: &str, direction: char, line: &str) {
    if let Some(log) = LOG.get() {
        let time = humantime::format_rfc3339_millis(std::time::SystemTime::now());
        if let Ok(mut file) = log.lock() {
            let _ = writeln!(file, "{time} {engine} {direction} {line}");
        }
    }
}

/// A running engine process: its input, and its output lines read on a thread.
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// How the log names it: its name (or command) and process id.
    tag: String,
}

impl Process {
    pub(crate) fn start(engine: &EngineSpec) -> Result<Process, String> {
        let command = &engine.command;
        let mut shell = Command::new("sh");
        if let Some(dir) = &engine.dir {
            shell.current_dir(dir);
        }
        let mut child = shell
            .arg("-c")
            .arg(format!("exec {command}"))
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
            engine
                .name
                .as_deref()
                .unwrap_or(command)
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
                    let status = self.child.try_wait().ok().flatten();
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

/// How long a search may take before the engine counts as hung.
fn search_timeout(limits: &Limits) -> Duration {
    match limits.movetime_ms {
        Some(ms) => Duration::from_millis(ms * 3 + 5000),
        None => Duration::from_secs(600),
    }
}

/// Search one position with an external engine.
pub fn search(engine: &EngineSpec, record: &EpdRecord, limits: &Limits) -> Outcome {
    let mut outcome = Outcome::default();
    let mut go_sent = None;
    if let Err(reason) = talk(engine, record, limits, &mut outcome, &mut go_sent) {
        outcome.failure = Some(reason);
    }
    if let Some(at) = go_sent {
        outcome.elapsed = at.elapsed();
    }
    outcome
}

fn talk(
    engine: &EngineSpec,
    record: &EpdRecord,
    limits: &Limits,
    outcome: &mut Outcome,
    go_sent: &mut Option<Instant>,
) -> Result<(), String> {
    let mut process = Process::start(engine)?;
    let setup = Duration::from_secs(30);
    process.send("uci")?;
    process.until(setup, |l| l.trim() == "uciok")?;
    for (name, value) in &engine.options {
        process.send(&format!("setoption name {name} value {value}"))?;
    }
    process.send("ucinewgame")?;
    process.send("isready")?;
    process.until(setup, |l| l.trim() == "readyok")?;
    process.send(&format!("position fen {}", record.fen))?;
    let go = match (limits.depth, limits.nodes, limits.movetime_ms) {
        (_, _, Some(ms)) => format!("go movetime {ms}"),
        (_, Some(nodes), _) => format!("go nodes {nodes}"),
        (Some(depth), _, _) => format!("go depth {depth}"),
        _ => "go depth 10".to_string(),
    };
    process.send(&go)?;
    *go_sent = Some(Instant::now());
    let mut best = None;
    let until_bestmove = process.until(search_timeout(limits), |line| {
        if let Some(info) = parse_info(line) {
            match outcome.infos.last_mut() {
                Some(last) if last.depth == info.depth => *last = info,
                _ => outcome.infos.push(info),
            }
            return false;
        }
        let mut tokens = line.split_whitespace();
        if tokens.next() == Some("bestmove") {
            best = tokens.next().map(str::to_string);
            return true;
        }
        false
    });
    // The search ends at `bestmove`: stop the clock before the move is checked.
    if let Some(at) = go_sent.take() {
        outcome.elapsed = at.elapsed();
    }
    until_bestmove?;
    let best = best.ok_or("bestmove without a move")?;
    let legal = parse_uci_move(&record.board, &best)
        .ok()
        .filter(|&mv| record.board.is_legal(mv))
        .is_some();
    if !legal {
        return Err(format!("illegal best move '{best}'"));
    }
    outcome.best_move = Some(best);
    let _ = process.send("quit");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked_against_what_the_engine_advertises() {
        let advertised = vec![
            "Hash type spin default 16 min 2 max 65536".to_string(),
            "Move Overhead type spin default 10 min 0 max 500".to_string(),
            "Ponder type check default false".to_string(),
        ];
        assert_eq!(check_option(&advertised, "Hash", "16"), Ok(true));
        assert_eq!(check_option(&advertised, "hash", "2"), Ok(true));
        assert_eq!(check_option(&advertised, "Move Overhead", "100"), Ok(true));
        assert_eq!(check_option(&advertised, "Ponder", "true"), Ok(true));
        let low = check_option(&advertised, "Hash", "1").unwrap_err();
        assert!(low.contains("outside its range 2..65536"), "{low}");
        assert_eq!(
            check_option(&advertised, "LMR", "false"),
            Ok(false),
            "unknown: a warning"
        );
        assert!(check_option(&advertised, "Hash", "lots").is_err());
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

    #[test]
    fn a_missing_or_silent_engine_is_a_failure_not_a_panic() {
        let record =
            crate::harness::epd::parse_line("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - -", 1).unwrap();
        let missing = EngineSpec {
            command: "/nonexistent/engine".into(),
            options: vec![],
            name: None,
            dir: None,
        };
        let outcome = search(&missing, &record, &Limits::depth(3));
        assert!(outcome.failure.is_some());
        let dies = EngineSpec {
            command: "true".into(),
            options: vec![],
            name: None,
            dir: None,
        };
        let outcome = search(&dies, &record, &Limits::depth(3));
        assert!(
            outcome.failure.unwrap().contains("engine"),
            "crash reported"
        );
    }

    #[test]
    fn time_runs_from_go_to_bestmove_not_from_start_up() {
        // An engine that takes a second to start, then answers at once.
        let slow = EngineSpec {
            command: "sh -c 'sleep 1; while read l; do case \"$l\" in uci) echo id name Slow; echo uciok;; isready) echo readyok;; go*) echo info depth 1 score cp 0 nodes 1 time 0 pv e2e4; echo bestmove e2e4;; quit) exit;; esac; done'".into(),
            options: vec![],
            name: None,
            dir: None,
        };
        assert_eq!(probe(&slow).unwrap(), "Slow");
        let record = crate::harness::epd::parse_line(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;",
            1,
        )
        .unwrap();
        let outcome = search(&slow, &record, &Limits::depth(1));
        assert_eq!(outcome.failure, None);
        assert_eq!(outcome.best_move.as_deref(), Some("e2e4"));
    }
}
