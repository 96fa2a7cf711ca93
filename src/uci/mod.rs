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

use crate::engine::fen::parse_fen;

use crate::engine::config::{Algorithm, Clock, Limits, SearchConfig};
use crate::engine::eval::EvalKind;
use crate::engine::heuristics::{HeuristicsConfig, Id, REGISTRY};
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::search::{IterationInfo, Observer, SearchState, Searcher};
use crate::engine::spec;
use serde_json::Value;

/// Transposition table size limits, MiB: the maximum is what a machine of this project's size
/// (24 GiB) can hold beside everything else.
const HASH_DEFAULT_MB: usize = 16;
const HASH_MAX_MB: usize = 8192;
/// The range advertised (and checked) for `Seed` and for integer heuristic parameters.
const SEED_MAX: u64 = 2_147_483_647;
const PARAM_MIN: i64 = -1_000_000;
const PARAM_MAX: i64 = 1_000_000;

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
    /// `go infinite`: it ends only on `stop`.
    infinite: bool,
    /// Gives back the search state (hash and history tables) for the next search.
    handle: JoinHandle<SearchState>,
}

/// The engine's state between commands.
pub struct UciEngine {
    position: Position,
    /// Why the last `position` command was refused; until a valid one arrives, `go` searches
    /// nothing (it answers `bestmove 0000`) rather than a position the GUI did not send.
    refused_position: Option<String>,
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
            refused_position: None,
            config: SearchConfig::default(),
            hash_mb: HASH_DEFAULT_MB,
            state: None,
            running: None,
        }
    }

    /// Read commands from stdin until `quit` or end of input. A line that is not UTF-8 is
    /// skipped with an `info string`. At the end of input a search with a limit (depth, nodes,
    /// time) finishes and prints its move before the engine exits; an infinite one is stopped.
    pub fn run_stdin(&mut self) {
        let mut stdin = io::stdin().lock();
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match stdin.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            match std::str::from_utf8(&bytes) {
                Ok(line) => {
                    if !self.command(line) {
                        return;
                    }
                }
                Err(_) => send("info string skipped a line that is not UTF-8"),
            }
        }
        self.finish_search();
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
                self.refused_position = None;
                if let Some(state) = self.state.as_mut() {
                    state.clear();
                }
                Ok(())
            }
            "position" => {
                let outcome = self.set_position(args);
                self.refused_position = outcome.as_ref().err().cloned();
                outcome
            }
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
        send(&format!(
            "option name Seed type spin default 0 min 0 max {SEED_MAX}"
        ));
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
                let range = HeuristicsConfig::param_ranges(info.id)
                    .iter()
                    .find(|(param, _, _)| param == name)
                    .map(|(_, low, high)| (*low as i64, *high as i64));
                send(&match value {
                    Value::Bool(b) => format!("{option} type check default {b}"),
                    Value::Number(n) if n.is_i64() || n.is_u64() => {
                        let (low, high) = range.unwrap_or((PARAM_MIN, PARAM_MAX));
                        format!("{option} type spin default {n} min {low} max {high}")
                    }
                    Value::String(text) => format!("{option} type string default {text}"),
                    other => format!("{option} type string default {other}"),
                });
            }
        }
        send("uciok");
    }

    /// `position startpos|fen FEN [moves m1 m2 ...]`. On any error the position is unchanged
    /// and `go` refuses to search until a valid `position` arrives. A running search keeps its
    /// own copy, so it is not disturbed.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args
            .iter()
            .position(|&t| t == "moves")
            .unwrap_or(args.len());
        let board = match args.first() {
            Some(&"startpos") if moves_at == 1 => Board::default(),
            Some(&"fen") if moves_at > 1 => {
                let fen = args[1..moves_at].join(" ");
                parse_fen(&fen).map_err(|e| format!("position: invalid FEN '{fen}': {e}"))?
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
        if let Some(reason) = &self.refused_position {
            send(&format!(
                "info string go: no position to search, the last 'position' was refused ({reason})"
            ));
            send("bestmove 0000");
            return Ok(());
        }
        let (args, searchmoves) = split_searchmoves(args);
        let board = self.position.board();
        let mut root_moves = Vec::new();
        for text in &searchmoves {
            match parse_uci_move(board, text)
                .ok()
                .filter(|&mv| board.is_legal(mv))
            {
                Some(mv) => root_moves.push(mv),
                None => send(&format!(
                    "info string go: searchmoves: '{text}' is not legal here, ignored"
                )),
            }
        }
        if !searchmoves.is_empty() && root_moves.is_empty() {
            send("info string go: no legal move among searchmoves");
            send("bestmove 0000");
            return Ok(());
        }
        let limits = match parse_go(&args, self.position.board().side_to_move()) {
            Ok(limits) => limits,
            Err(e) => {
                // A GUI waits for a best move after every `go`.
                send(&format!("info string {e}"));
                send("bestmove 0000");
                return Ok(());
            }
        };
        // Checkmate or stalemate at the root: one line and no move.
        if !self.position.board().generate_moves(|_| true) {
            let score = if self.position.in_check() {
                "mate 0"
            } else {
                "cp 0"
            };
            send(&format!("info depth 0 score {score}"));
            send("bestmove 0000");
            return Ok(());
        }
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
        searcher.restrict_root_moves(root_moves);
        let thread_stop = stop.clone();
        let root = self.position.board().clone();
        let hash_mb = self.hash_mb;
        let handle = std::thread::spawn(move || {
            // A failed search must not leave the GUI without a move: it is reported, the
            // first legal move is played, and a fresh state replaces the lost tables.
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
                let result = searcher.run(&mut InfoPrinter);
                (result.best_move, searcher.into_state())
            }));
            // UCI: after `go infinite` the best move is given only once `stop` arrives.
            while limits.infinite && !thread_stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let (best_move, state) = match outcome {
                Ok(done) => done,
                Err(panic) => {
                    let why = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "unknown cause".into());
                    send(&format!("info string search failed: {why}"));
                    let fallback = crate::engine::movepick::MovePicker::new(&root).next_move();
                    (fallback, SearchState::new(hash_mb.min(HASH_DEFAULT_MB)))
                }
            };
            match best_move {
                Some(mv) => send(&format!("bestmove {}", notation::uci(&root, mv))),
                None => send("bestmove 0000"),
            }
            state
        });
        self.running = Some(Running {
            stop,
            infinite: limits.infinite,
            handle,
        });
        Ok(())
    }

    /// Let a running search with a limit finish (stopping an infinite one) and wait for its
    /// best move.
    fn finish_search(&mut self) {
        if let Some(running) = self.running.take() {
            if running.infinite {
                running.stop.store(true, Ordering::Relaxed);
            }
            self.state = running.handle.join().ok();
        }
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
                // Allocate now, so that a size the machine cannot give is refused here and
                // the previous table stays.
                let state = SearchState::try_new(mb).map_err(|e| {
                    format!("setoption: Hash {mb}: {e}; keeping {} MiB", self.hash_mb)
                })?;
                self.hash_mb = mb;
                self.state = Some(state);
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
                    .ok()
                    .filter(|seed| *seed <= SEED_MAX)
                    .ok_or_else(|| format!("setoption: Seed is 0..{SEED_MAX}, got '{value}'"))?;
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
            Some(param) => {
                // Integer parameters are spin options: the advertised range is checked.
                if let Ok(number) = value.parse::<i64>()
                    && !(PARAM_MIN..=PARAM_MAX).contains(&number)
                {
                    return Err(format!(
                        "setoption: {name} is {PARAM_MIN}..{PARAM_MAX}, got {number}"
                    ));
                }
                changed
                    .heuristics
                    .set_param(id, param, value)
                    .map_err(|e| format!("setoption: {e}"))?
            }
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

/// Take `searchmoves m1 m2 ...` out of the arguments of `go`: the moves run up to the next
/// `go` keyword or the end.
fn split_searchmoves<'a>(args: &[&'a str]) -> (Vec<&'a str>, Vec<&'a str>) {
    const KEYWORDS: &[&str] = &[
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "infinite",
        "ponder",
        "mate",
    ];
    let mut rest = Vec::new();
    let mut moves = Vec::new();
    let mut in_moves = false;
    for &token in args {
        if token == "searchmoves" {
            in_moves = true;
        } else if in_moves && !KEYWORDS.contains(&token) {
            moves.push(token);
        } else {
            in_moves = false;
            rest.push(token);
        }
    }
    (rest, moves)
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
            "mate" => limits.mate = Some(number()?.clamp(1, 63) as u32),
            "searchmoves" => return Err("go: 'searchmoves' needs moves".into()),
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
