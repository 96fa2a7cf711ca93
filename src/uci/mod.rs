//! The UCI front end. The search runs on its own thread, so `stop`, `isready` and `quit` are
//! answered while it thinks. A malformed or unknown command gets one `info string` line that
//! says what was wrong; nothing a GUI sends makes the engine panic or stop working.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use cozy_chess::Board;
use cozy_chess::util::parse_uci_move;

use crate::engine::config::{Algorithm, Clock, Limits, SearchConfig};
use crate::engine::eval::EvalKind;
use crate::engine::heuristics::{HeuristicsConfig, Id, REGISTRY};
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::search::{IterationInfo, Observer, SearchState, Searcher};
use crate::engine::spec;
use serde_json::Value;

/// Transposition table size limits, MiB.
const HASH_DEFAULT_MB: usize = 16;
const HASH_MAX_MB: usize = 65536;

/// Write one line to stdout and flush it (the GUI reads line by line).
fn send(line: &str) {
    let mut out = io::stdout().lock();
    // A closed pipe means the GUI is gone; there is nobody left to tell.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Prints UCI `info` lines after each iteration.
struct InfoPrinter;

impl Observer for InfoPrinter {
    fn iteration(&mut self, root: &Board, info: &IterationInfo) {
        let time_ms = info.elapsed.as_millis();
        send(&format!(
            "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
            info.depth,
            info.seldepth,
            notation::uci_score(info.score),
            info.total_nodes,
            crate::engine::search::nps(info.total_nodes, info.elapsed),
            time_ms,
            notation::line(root, &info.pv, notation::uci)
        ));
    }
}

/// A search running on its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    /// Gives back the search state (hash and history tables) for the next search.
    handle: JoinHandle<SearchState>,
}

/// The engine's state between commands.
pub struct UciEngine {
    position: Position,
    config: SearchConfig,
    hash_mb: usize,
    /// Hash and history tables kept across the searches of a game.
    state: Option<SearchState>,
    running: Option<Running>,
}

impl Default for UciEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl UciEngine {
    /// An engine at the start position with the default configuration.
    pub fn new() -> Self {
        UciEngine {
            position: Position::startpos(),
            config: SearchConfig::default(),
            hash_mb: HASH_DEFAULT_MB,
            state: None,
            running: None,
        }
    }

    /// Read commands from stdin until `quit` or end of input.
    pub fn run_stdin(&mut self) {
        let stdin = io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if !self.command(&line) {
                return;
            }
        }
        self.stop_search();
    }

    /// Carry out one command line; `false` after `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&name, args)) = tokens.split_first() else {
            return true;
        };
        let outcome = match name {
            "uci" => {
                self.identify();
                Ok(())
            }
            "isready" => {
                send("readyok");
                Ok(())
            }
            "ucinewgame" => {
                self.stop_search();
                self.position = Position::new(cozy_chess::Board::default(), self.config.eval);
                if let Some(state) = self.state.as_mut() {
                    state.clear();
                }
                Ok(())
            }
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => {
                self.stop_search();
                Ok(())
            }
            "setoption" => self.set_option(args),
            "quit" => {
                self.stop_search();
                return false;
            }
            // Accepted and ignored: no pondering, no debug output, no registration.
            "debug" | "ponderhit" | "register" => Ok(()),
            _ => Err(format!("unknown command '{name}'")),
        };
        if let Err(message) = outcome {
            send(&format!("info string {message}"));
        }
        true
    }

    fn identify(&self) {
        send(&format!("id name searchlab {}", env!("CARGO_PKG_VERSION")));
        send("id author the searchlab authors");
        send(&format!(
            "option name Hash type spin default {HASH_DEFAULT_MB} min 1 max {HASH_MAX_MB}"
        ));
        send("option name Algorithm type combo default alphabeta var alphabeta var minimax");
        send("option name Eval type combo default full var full var material");
        send("option name Seed type spin default 0 min 0 max 2147483647");
        send("option name Heuristics type string default plain");
        let defaults = HeuristicsConfig::default();
        for info in REGISTRY {
            send(&format!(
                "option name {} type check default false",
                info.name
            ));
            let params = defaults.params_json(info.id);
            for (name, value) in params.as_object().expect("params are objects") {
                if name == "enabled" {
                    continue;
                }
                let option = format!("option name {}.{name}", info.name);
                send(&match value {
                    Value::Bool(b) => format!("{option} type check default {b}"),
                    Value::Number(n) if n.is_i64() || n.is_u64() => {
                        format!("{option} type spin default {n} min -1000000 max 1000000")
                    }
                    Value::String(text) => format!("{option} type string default {text}"),
                    other => format!("{option} type string default {other}"),
                });
            }
        }
        send("uciok");
    }

    /// `position startpos|fen FEN [moves m1 m2 ...]`. On any error the position is unchanged.
    /// A running search keeps its own copy, so it is not disturbed.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args
            .iter()
            .position(|&t| t == "moves")
            .unwrap_or(args.len());
        let board = match args.first() {
            Some(&"startpos") if moves_at == 1 => Board::default(),
            Some(&"fen") if moves_at > 1 => {
                let fen = args[1..moves_at].join(" ");
                Board::from_fen(&fen, false)
                    .map_err(|e| format!("position: invalid FEN '{fen}': {e}"))?
            }
            _ => {
                return Err(
                    "position: expected 'startpos' or 'fen <FEN>', then optionally 'moves ...'"
                        .into(),
                );
            }
        };
        let mut position = Position::new(board, self.config.eval);
        for text in args.get(moves_at + 1..).unwrap_or(&[]) {
            let mv = parse_uci_move(position.board(), text)
                .ok()
                .filter(|&mv| position.board().is_legal(mv))
                .ok_or_else(|| format!("position: illegal move '{text}'"))?;
            position.make(mv);
        }
        self.position = position;
        Ok(())
    }

    /// `go` with depth, nodes, movetime, wtime/btime/winc/binc/movestogo or infinite.
    fn go(&mut self, args: &[&str]) -> Result<(), String> {
        self.stop_search();
        let limits = parse_go(args, self.position.board().side_to_move())?;
        let config = SearchConfig {
            limits,
            ..self.config
        };
        let stop = Arc::new(AtomicBool::new(false));
        let state = self
            .state
            .take()
            .unwrap_or_else(|| SearchState::new(self.hash_mb));
        let mut searcher = Searcher::with_state(self.position.clone(), config, stop.clone(), state);
        let thread_stop = stop.clone();
        let root = self.position.board().clone();
        let handle = std::thread::spawn(move || {
            let result = searcher.run(&mut InfoPrinter);
            // UCI: after `go infinite` the best move is given only once `stop` arrives.
            while limits.infinite && !thread_stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            match result.best_move {
                Some(mv) => send(&format!("bestmove {}", notation::uci(&root, mv))),
                None => send("bestmove 0000"),
            }
            searcher.into_state()
        });
        self.running = Some(Running { stop, handle });
        Ok(())
    }

    /// Stop the running search, if any, and wait until it has printed its best move.
    fn stop_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            // A search thread that panicked loses its tables; a fresh state replaces them.
            self.state = running.handle.join().ok();
        }
    }

    /// `setoption name NAME [value VALUE]`.
    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        if args.first() != Some(&"name") {
            return Err("setoption: expected 'name <NAME> [value <VALUE>]'".into());
        }
        let value_at = args
            .iter()
            .position(|&t| t == "value")
            .unwrap_or(args.len());
        let name = args[1..value_at].join(" ");
        let value = args.get(value_at + 1..).unwrap_or(&[]).join(" ");
        self.stop_search();
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb: usize = value
                    .parse()
                    .map_err(|_| format!("setoption: Hash needs a number of MiB, got '{value}'"))?;
                if !(1..=HASH_MAX_MB).contains(&mb) {
                    return Err(format!(
                        "setoption: Hash must be 1..{HASH_MAX_MB} MiB, got {mb}"
                    ));
                }
                self.hash_mb = mb;
                self.state = None;
            }
            "algorithm" => {
                self.config.algorithm = match value.as_str() {
                    "alphabeta" => Algorithm::Alphabeta,
                    "minimax" => Algorithm::Minimax,
                    _ => {
                        return Err(format!(
                            "setoption: Algorithm is alphabeta or minimax, got '{value}'"
                        ));
                    }
                }
            }
            "eval" => {
                self.config.eval = match value.as_str() {
                    "full" => EvalKind::Full,
                    "material" => EvalKind::Material,
                    _ => {
                        return Err(format!(
                            "setoption: Eval is full or material, got '{value}'"
                        ));
                    }
                };
                self.position.set_eval_kind(self.config.eval);
            }
            "seed" => {
                self.config.seed = value
                    .parse()
                    .map_err(|_| format!("setoption: Seed needs a number, got '{value}'"))?;
            }
            "heuristics" => {
                let parsed =
                    spec::parse(&value).map_err(|e| format!("setoption: Heuristics: {e}"))?;
                self.config.algorithm = parsed.algorithm;
                self.config.heuristics = parsed.heuristics;
            }
            _ => return self.set_heuristic_option(&name, &value),
        }
        Ok(())
    }

    /// `setoption name <id> value true|false` or `setoption name <id>.<param> value V`. A
    /// change that makes a combination the documents forbid is refused and undone.
    fn set_heuristic_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let (id_name, param) = match name.split_once('.') {
            Some((id, param)) => (id, Some(param)),
            None => (name, None),
        };
        let id =
            Id::from_name(id_name).ok_or_else(|| format!("setoption: unknown option '{name}'"))?;
        let mut changed = self.config;
        match param {
            None => match value {
                "true" => changed.heuristics.set_enabled(id, true),
                "false" => changed.heuristics.set_enabled(id, false),
                _ => return Err(format!("setoption: {name} is true or false, got '{value}'")),
            },
            Some(param) => changed
                .heuristics
                .set_param(id, param, value)
                .map_err(|e| format!("setoption: {e}"))?,
        }
        spec::validate(&changed)
            .map_err(|e| format!("setoption: {name} = {value} refused: {e}"))?;
        self.config = changed;
        Ok(())
    }

    /// The Hash size set by the GUI, MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }
}

/// Parse the arguments of `go` into limits for the side to move `us`.
pub fn parse_go(args: &[&str], us: cozy_chess::Color) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) = (None, None, 0, 0, None);
    let mut iter = args.iter();
    while let Some(&key) = iter.next() {
        let mut number = || -> Result<u64, String> {
            let text = iter
                .next()
                .ok_or_else(|| format!("go: '{key}' needs a value"))?;
            // Some GUIs send negative clock times when flagging; treat them as zero.
            if let Ok(n) = text.parse::<i64>() {
                return Ok(n.max(0) as u64);
            }
            Err(format!("go: bad value '{text}' for '{key}'"))
        };
        match key {
            "depth" => limits.depth = Some(number()?.clamp(1, 127) as u32),
            "nodes" => limits.nodes = Some(number()?.max(1)),
            "movetime" => limits.movetime_ms = Some(number()?),
            "wtime" => wtime = Some(number()?),
            "btime" => btime = Some(number()?),
            "winc" => winc = number()?,
            "binc" => binc = number()?,
            "movestogo" => movestogo = Some(number()?.clamp(1, 1000) as u32),
            "infinite" => limits.infinite = true,
            "ponder" => {}
            "mate" | "searchmoves" => return Err(format!("go: '{key}' is not supported")),
            _ => return Err(format!("go: unknown parameter '{key}'")),
        }
    }
    let (time, inc) = match us {
        cozy_chess::Color::White => (wtime, winc),
        cozy_chess::Color::Black => (btime, binc),
    };
    if let Some(time_ms) = time {
        limits.clock = Some(Clock {
            time_ms,
            inc_ms: inc,
            movestogo,
        });
    }
    Ok(limits)
}

#[cfg(test)]
mod tests;
