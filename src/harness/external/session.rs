//! An engine's process set up for searches: the probe that checks an engine before a run or a
//! match (its name, its advertised options, its answer to its options), and the session that
//! searches one position after another in one process (`ucinewgame` between them). A probed
//! process is kept for the engine's first search, so the probe costs no extra start.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use cozy_chess::util::parse_uci_move;

use super::uci_options::{self, UciOption};
use super::{EngineSpec, Outcome, Process, parse_info};
use crate::engine::config::Limits;
use crate::harness::epd::EpdRecord;

/// How long an engine may take to answer `uci` with `uciok` when it is probed.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// What probing an engine learnt.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    /// Its `id name` (the command itself when it gives none).
    pub name: String,
    /// The options it advertises.
    pub options: Vec<UciOption>,
    /// What it said between its options and `readyok` (an engine that refuses an option
    /// says so there: Stockfish's `No such option`, searchlab's `info string setoption: …`).
    pub said: Vec<String>,
}

/// Start the engine once, check that it speaks UCI and takes its options, and return its
/// name, its advertised options and what it answered to the options.
pub fn probe(engine: &EngineSpec) -> Result<Probe, String> {
    // A keyed engine's command is already shell-quoted (`'/path/engine'`): quoted once.
    let shown = if engine.command.starts_with('\'') {
        engine.command.clone()
    } else {
        format!("'{}'", engine.command)
    };
    let fail = |e: String| {
        format!(
            "engine {shown} does not speak UCI: {e} after 'uci' (expected 'uciok' within {} s)",
            PROBE_TIMEOUT.as_secs()
        )
    };
    let mut process = Process::start(engine)?;
    let mut probe = Probe::default();
    // An engine that exits at once may close its input before `uci` is written: that is
    // the same failure as exiting before `uciok`.
    process.send("uci").map_err(fail)?;
    process
        .until(PROBE_TIMEOUT, |line| {
            let line = line.trim();
            if let Some(n) = line.strip_prefix("id name ") {
                probe.name = n.trim().to_string();
            }
            if let Some(option) = line.strip_prefix("option name ").and_then(UciOption::parse) {
                probe.options.push(option);
            }
            line == "uciok"
        })
        .map_err(fail)?;
    for (option, value) in &engine.options {
        match uci_options::find(&probe.options, option) {
            Some(advertised) => advertised
                .check(value)
                .map_err(|e| format!("engine '{}': {e}", engine.command))?,
            // UCI engines ignore options they do not know (fastchess warns the same way).
            None => eprintln!(
                "warning: engine '{}' has no option '{option}'; it is sent all the same",
                engine.command
            ),
        }
        process.send(&format!("setoption name {option} value {value}"))?;
    }
    process.send("isready")?;
    process
        .until(PROBE_TIMEOUT, |line| {
            let line = line.trim();
            if line == "readyok" {
                return true;
            }
            if !line.is_empty() {
                probe.said.push(line.to_string());
            }
            false
        })
        .map_err(|e| {
            format!(
                "engine '{}': {e} after its options and 'isready'",
                engine.command
            )
        })?;
    // Set up exactly as a session would be, so the first search of this engine (same
    // command and options) takes this process instead of starting another.
    keep_warm(
        engine,
        Session {
            process,
            timeout_ms: engine.timeout_ms,
        },
    );
    if probe.name.is_empty() {
        probe.name = engine.command.clone();
    }
    Ok(probe)
}

/// Probed processes waiting for their first search, by the engine they run.
static WARM: Mutex<Vec<(EngineSpec, Session)>> = Mutex::new(Vec::new());

/// The same engine: command, directory and options (its recorded name aside).
fn same(a: &EngineSpec, b: &EngineSpec) -> bool {
    (&a.command, &a.dir, &a.options) == (&b.command, &b.dir, &b.options)
}

fn keep_warm(engine: &EngineSpec, session: Session) {
    let mut warm = WARM.lock().unwrap_or_else(|e| e.into_inner());
    // One per engine is enough: it stands in for the first worker's start.
    warm.retain(|(spec, _)| !same(spec, engine));
    warm.push((engine.clone(), session));
}

/// The probed process of this engine, if it still waits.
fn take_warm(engine: &EngineSpec) -> Option<Session> {
    let mut warm = WARM.lock().unwrap_or_else(|e| e.into_inner());
    let at = warm.iter().position(|(spec, _)| same(spec, engine))?;
    Some(warm.remove(at).1)
}

/// `engine` gained options after its probe (at the end of its list): send them to its probed
/// process, which then waits for the engine as it now is.
pub fn amend_warm(before: &EngineSpec, engine: &EngineSpec) {
    let Some(mut session) = take_warm(before) else {
        return;
    };
    let added = &engine.options[before.options.len().min(engine.options.len())..];
    for (name, value) in added {
        if session
            .process
            .send(&format!("setoption name {name} value {value}"))
            .is_err()
        {
            return;
        }
    }
    keep_warm(engine, session);
}

/// Forget the probed process of an engine that will not search (its process is told `quit`).
pub fn discard_warm(engine: &EngineSpec) {
    drop(take_warm(engine));
}

/// How long an engine may take to start, answer `uci` and answer `isready`.
const SETUP_PATIENCE: Duration = Duration::from_secs(30);

/// How long a started engine may take to answer `isready` before a search: the probe saw it
/// answer, so a longer silence is a hang.
const READY_PATIENCE: Duration = Duration::from_secs(10);

/// An engine process set up for searches (`uci`, its options), kept for many: `run` keeps one
/// per worker for the whole run. A search that fails leaves it in an unknown state, so the
/// caller drops it (the process is killed) and starts another, options and all.
pub struct Session {
    process: Process,
    /// `timeout=` of its engine, milliseconds.
    timeout_ms: Option<u64>,
}

impl Session {
    /// A session of `engine`: its probed process when that still waits (`Ok((session,
    /// false))`), else a new process (`true`).
    pub fn open(engine: &EngineSpec) -> Result<(Session, bool), String> {
        // A pinned thread (`--use-affinity`) starts its own process on its core; the probe's
        // was started unpinned.
        let warm = super::affinity::pinned_core()
            .is_none()
            .then(|| take_warm(engine))
            .flatten();
        match warm {
            Some(session) => Ok((session, false)),
            None => Session::start(engine).map(|session| (session, true)),
        }
        .map(|(mut session, fresh)| {
            // The probe's process was kept for the engine as probed: its deadline is this
            // engine's.
            session.timeout_ms = engine.timeout_ms;
            (session, fresh)
        })
    }

    /// Start the engine and send it `uci` and its options.
    pub fn start(engine: &EngineSpec) -> Result<Session, String> {
        let mut process = Process::start(engine)?;
        process.send("uci")?;
        process
            .until(SETUP_PATIENCE, |l| l.trim() == "uciok")
            .map_err(|e| format!("{e} after 'uci'"))?;
        for (name, value) in &engine.options {
            process.send(&format!("setoption name {name} value {value}"))?;
        }
        Ok(Session {
            process,
            timeout_ms: engine.timeout_ms,
        })
    }

    /// `ucinewgame`, then `isready` answered.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.process.send("ucinewgame")?;
        self.process.send("isready")?;
        self.process
            .until(READY_PATIENCE, |l| l.trim() == "readyok")
            .map_err(|e| format!("{e} after 'isready'"))
    }

    /// The process, for a game's own exchange (`games::playing::player`).
    pub(crate) fn process(&mut self) -> &mut Process {
        &mut self.process
    }

    /// Search one position afresh (`ucinewgame`, so that no search depends on the one
    /// before: records stay the same whatever the order or the number of workers). A failure
    /// is in the outcome; the session should then be dropped.
    pub fn search(&mut self, record: &EpdRecord, limits: &Limits) -> Outcome {
        let mut outcome = Outcome::default();
        let mut go_sent = None;
        if let Err(reason) = self.talk(record, limits, &mut outcome, &mut go_sent) {
            outcome.failure = Some(reason);
        }
        if let Some(at) = go_sent {
            outcome.elapsed = at.elapsed();
        }
        outcome
    }

    fn talk(
        &mut self,
        record: &EpdRecord,
        limits: &Limits,
        outcome: &mut Outcome,
        go_sent: &mut Option<Instant>,
    ) -> Result<(), String> {
        self.new_game()?;
        let process = &mut self.process;
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
        let mut bad_line = None;
        let deadline = EngineSpec {
            timeout_ms: self.timeout_ms,
            ..EngineSpec::default()
        }
        .deadline(limits);
        let until_bestmove = process.until(deadline.after, |line| {
            if let Some(info) = parse_info(line) {
                match outcome.infos.last_mut() {
                    Some(last) if last.depth == info.depth => *last = info,
                    _ => outcome.infos.push(info),
                }
                return false;
            }
            match crate::engine::counter_lines::parse(line) {
                // Cumulative for the `go`: a later line of the same counter replaces it.
                Some(Ok((name, counts))) => {
                    match outcome.counters.iter_mut().find(|(n, _)| *n == name) {
                        Some(slot) => slot.1 = counts,
                        None => outcome.counters.push((name, counts)),
                    }
                    return false;
                }
                Some(Err(why)) => {
                    bad_line.get_or_insert(why);
                    return false;
                }
                None => {}
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
        until_bestmove.map_err(|e| {
            if e.starts_with("no answer") {
                deadline.missed("bestmove")
            } else {
                e
            }
        })?;
        if let Some(why) = bad_line {
            return Err(why);
        }
        let best = best.ok_or("bestmove without a move")?;
        let legal = parse_uci_move(&record.board, &best)
            .ok()
            .filter(|&mv| record.board.is_legal(mv))
            .is_some();
        if !legal {
            return Err(format!("illegal best move '{best}'"));
        }
        outcome.best_move = Some(best);
        Ok(())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // A polite end first; `Process`'s own drop kills whatever is left.
        let _ = self.process.send("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::Counters;

    fn engine(command: &str) -> EngineSpec {
        EngineSpec {
            command: command.into(),
            options: vec![],
            name: None,
            dir: None,
            timeout_ms: None,
            program_checksum: None,
            restart: false,
        }
    }

    #[test]
    fn a_missing_or_silent_engine_is_a_failure_not_a_panic() {
        let missing = Session::start(&engine("/nonexistent/engine"));
        assert!(missing.is_err());
        let dies = Session::start(&engine("true")).err().unwrap();
        assert!(dies.contains("engine"), "crash reported: {dies}");
    }

    /// A shell engine: takes a second to start, answers at once, and prints counter lines
    /// (one of a name searchlab does not know, one repeated: the last wins).
    const SLOW: &str = "sh -c 'sleep 1; while read l; do case \"$l\" in uci) echo id name Slow; echo option name Hash type spin default 16 min 1 max 64; echo uciok;; isready) echo readyok;; go*) echo info depth 1 score cp 0 nodes 1 time 0 pv e2e4; echo info string counter killers tested 1 fired 0; echo info string counter killers tested 4 fired 2 overruled 1; echo info string counter my_probcut tested 9 fired 3; echo bestmove e2e4;; quit) exit;; esac; done'";

    #[test]
    fn time_runs_from_go_to_bestmove_not_from_start_up() {
        let slow = engine(SLOW);
        let probed = probe(&slow).unwrap();
        assert_eq!(probed.name, "Slow");
        assert_eq!(probed.options.len(), 1);
        let record = crate::harness::epd::parse_line(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;",
            1,
        )
        .unwrap();
        let mut session = Session::start(&slow).unwrap();
        for _ in 0..2 {
            let outcome = session.search(&record, &Limits::depth(1));
            assert_eq!(outcome.failure, None);
            assert_eq!(outcome.best_move.as_deref(), Some("e2e4"));
            let killers = Counters {
                tested: 4,
                fired: 2,
                overruled: 1,
            };
            assert_eq!(outcome.counters[0], ("killers".to_string(), killers));
            assert_eq!(outcome.counters[1].0, "my_probcut");
        }
        let mut out_of_range = slow.clone();
        out_of_range.options.push(("Hash".into(), "100".into()));
        assert!(probe(&out_of_range).unwrap_err().contains("range 1..64"));
    }
}
