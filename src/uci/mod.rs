//! The UCI front end. The search runs on its own thread, so `stop`, `isready` and `quit` are
//! answered while it thinks. A malformed or unknown command gets one `info string` line that
//! says what was wrong; nothing a GUI sends makes the engine panic or stop working.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use cozy_chess::util::parse_uci_move;
use cozy_chess::{Board, Move};

mod go;
mod options;

pub use go::parse_go;
use go::split_searchmoves;

use crate::engine::config::{Limits, SearchConfig};
use crate::engine::eval::EvalKind;
use crate::engine::fen::parse_fen;
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::score::Score;
use crate::engine::search::{IterationInfo, Observer, SearchState, Searcher};
use crate::engine::stats::Counter;

/// Transposition table size limits, MiB: the maximum is what a machine of this project's size
/// (24 GiB) can hold beside everything else.
const HASH_DEFAULT_MB: usize = 16;
/// The most lines `MultiPV` asks for.
const MULTIPV_MAX: usize = 256;
const HASH_MAX_MB: usize = 8192;
/// The configuration a UCI engine plays with by default, and `bench`'s with no arguments:
/// `DEFAULT_HEURISTICS` with `DEFAULT_EVAL`: the strongest configuration in games, by the
/// reports that measured each step (`reports/elo-modern/`, `reports/elo-nnue/`, each as of
/// its commit).
pub const DEFAULT_PRESET: &str = "modern,eval=nnue";
/// The heuristics of `DEFAULT_PRESET`: the UCI option `Heuristics`'s default.
pub const DEFAULT_HEURISTICS: &str = "modern";
/// The static evaluation of `DEFAULT_PRESET`: the UCI option `Eval`'s default.
pub const DEFAULT_EVAL: EvalKind = EvalKind::Nnue;
/// The range advertised (and checked) for `Move Overhead`, ms.
const MOVE_OVERHEAD_MAX_MS: u64 = 5000;
/// The range advertised (and checked) for `Seed`.
const SEED_MAX: u64 = 2_147_483_647;

/// Write one line to stdout and flush it (the GUI reads line by line).
fn send(line: &str) {
    let mut out = io::stdout().lock();
    // A closed pipe means the GUI is gone; there is nobody left to tell.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Prints UCI `info` lines after each iteration.
struct InfoPrinter {
    /// Lines per iteration (`MultiPV`): above 1, each line names its rank.
    multipv: usize,
}

impl InfoPrinter {
    fn print(&self, root: &Board, info: &IterationInfo, rank: usize, score: Score, pv: &[Move]) {
        let time_ms = info.elapsed.as_millis();
        let multipv = if self.multipv > 1 {
            format!(" multipv {rank}")
        } else {
            String::new()
        };
        send(&format!(
            "info depth {} seldepth {}{multipv} score {} nodes {} nps {} time {} pv {}",
            info.depth,
            info.seldepth,
            notation::uci_score(score),
            info.total_nodes,
            crate::engine::search::nps(info.total_nodes, info.elapsed),
            time_ms,
            notation::line(root, pv, notation::uci)
        ));
    }
}

impl Observer for InfoPrinter {
    fn iteration(&mut self, root: &Board, info: &IterationInfo) {
        self.print(root, info, 1, info.score, &info.pv);
    }

    fn line(&mut self, root: &Board, info: &IterationInfo, rank: usize, score: Score, pv: &[Move]) {
        self.print(root, info, rank, score, pv);
    }
}

/// A search running on its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    /// `go infinite` or `go ponder` still pondering: the best move is held until `stop` (or
    /// `ponderhit`, which clears it).
    hold: Arc<AtomicBool>,
    /// `go ponder`: the limits the move is searched under once `ponderhit` arrives (its
    /// clock runs from then).
    ponder: Option<Limits>,
    /// No legal move at the root (mated or stalemated): the held answer is given at
    /// `ponderhit` as at `stop`, since there is nothing to search on.
    moveless: bool,
    /// Gives back the search state (hash and history tables) for the next search.
    handle: JoinHandle<SearchState>,
}

/// The settings the evaluation is resolved from, whatever order they arrived in.
#[derive(Clone, Copy, Debug, Default)]
struct EvalChoice {
    /// `Heuristics` was set.
    heuristics_set: bool,
    /// The `Heuristics` SPEC's `eval=`, when it names one.
    spec_eval: Option<EvalKind>,
    /// `Eval`, when it was set.
    eval_option: Option<EvalKind>,
}

impl EvalChoice {
    fn resolve(&self) -> EvalKind {
        self.spec_eval
            .or(self.eval_option)
            .unwrap_or(if self.heuristics_set {
                EvalKind::default()
            } else {
                DEFAULT_EVAL
            })
    }
}

/// The engine's state between commands.
pub struct UciEngine {
    position: Position,
    /// Why the last `position` command was refused; until a valid one arrives, `go` searches
    /// nothing (it answers `bestmove 0000`) rather than a position the GUI did not send.
    refused_position: Option<String>,
    config: SearchConfig,
    /// What decides the evaluation (`docs/uci.md`, "One SPEC, one engine"): the `Heuristics`
    /// SPEC's own `eval=` first, then `Eval` when it was set, then `full` (what every SPEC
    /// means without `eval=`) once a `Heuristics` was set, else the default's `nnue`.
    chosen: EvalChoice,
    hash_mb: usize,
    /// Time kept in hand per move for the GUI's and the pipes' latency (`Move Overhead`), ms.
    move_overhead_ms: u64,
    /// Hash and history tables kept across the searches of a game.
    state: Option<SearchState>,
    /// Lines per iteration (`MultiPV`).
    multipv: usize,
    /// Print the counters protocol's lines before each `bestmove` (`CounterInfo`).
    counter_info: bool,
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
        let config = Self::default_config();
        UciEngine {
            position: Position::new(Board::default(), config.eval),
            refused_position: None,
            config,
            chosen: EvalChoice::default(),
            hash_mb: HASH_DEFAULT_MB,
            move_overhead_ms: crate::engine::config::MOVE_OVERHEAD_MS,
            state: None,
            multipv: 1,
            counter_info: false,
            running: None,
        }
    }

    /// The engine's configuration until a GUI sets another: the strongest preset
    /// (`DEFAULT_PRESET`), not the harness's `plain` baseline.
    pub fn default_config() -> SearchConfig {
        crate::engine::spec::parse(DEFAULT_PRESET).expect("the default preset is valid")
    }

    /// Read commands from stdin until `quit` or end of input. A line that is not UTF-8 is
    /// skipped with an `info string`. End of input is `quit` (as Stockfish reads it): a running
    /// search is stopped and prints its best move, and the engine exits; a search whose parent
    /// has gone away must not run on (`go depth 60`, `go mate 2` without a mate, `go infinite`).
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
                self.position = Position::new(Board::default(), self.config.eval);
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
            "ponderhit" => {
                self.ponderhit();
                Ok(())
            }
            // Accepted and ignored: no debug output, no registration.
            "debug" | "register" => Ok(()),
            _ => Err(format!("unknown command '{name}'")),
        };
        if let Err(message) = outcome {
            // A megabyte command line is not echoed whole.
            send(&format!(
                "info string {}",
                crate::harness::format::clip(&message, 300)
            ));
        }
        true
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
        let ponder = args.contains(&"ponder");
        let args: Vec<&str> = args.into_iter().filter(|&a| a != "ponder").collect();
        let Some(root_moves) = self.root_moves(&searchmoves) else {
            send("info string go: no legal move among searchmoves");
            send("bestmove 0000");
            return Ok(());
        };
        let limits = match parse_go(&args, self.position.board().side_to_move()) {
            Ok(mut limits) => {
                if let Some(clock) = limits.clock.as_mut() {
                    clock.overhead_ms = self.move_overhead_ms;
                }
                limits
            }
            Err(e) => {
                // A GUI waits for a best move after every `go`.
                send(&format!("info string {e}"));
                send("bestmove 0000");
                return Ok(());
            }
        };
        // Checkmate or stalemate at the root: one line and no move.
        if !self.position.board().generate_moves(|_| true) {
            self.answer_without_move(limits.infinite || ponder);
            return Ok(());
        }
        if ponder {
            // Ponder without a limit of time: the clock applies from `ponderhit`. A depth or
            // node limit still bounds the search.
            let pondering = Limits {
                infinite: true,
                clock: None,
                movetime_ms: None,
                ..limits
            };
            self.spawn_search(pondering, root_moves);
            if let Some(running) = self.running.as_mut() {
                running.ponder = Some(limits);
            }
        } else {
            self.spawn_search(limits, root_moves);
        }
        Ok(())
    }

    /// The legal moves of `go searchmoves` (the illegal ones are ignored with a line that
    /// says so): an empty list when none was given, `None` when none of those given is legal.
    fn root_moves(&self, searchmoves: &[&str]) -> Option<Vec<Move>> {
        let board = self.position.board();
        let mut root_moves = Vec::new();
        for text in searchmoves {
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
        (searchmoves.is_empty() || !root_moves.is_empty()).then_some(root_moves)
    }

    /// `go` where the side to move is mated or stalemated: one line and no move, at once or,
    /// for an infinite or pondering search (`held`), only after `stop` or `ponderhit` as UCI
    /// asks.
    fn answer_without_move(&mut self, held: bool) {
        let score = if self.position.in_check() {
            "mate 0"
        } else {
            "cp 0"
        };
        send(&format!("info depth 0 score {score}"));
        if !held {
            send("bestmove 0000");
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let hold = Arc::new(AtomicBool::new(true));
        let (thread_stop, thread_hold) = (stop.clone(), hold.clone());
        let state = self
            .state
            .take()
            .unwrap_or_else(|| SearchState::new(self.hash_mb));
        let handle = std::thread::spawn(move || {
            wait_while_held(&thread_stop, &thread_hold);
            send("bestmove 0000");
            state
        });
        self.running = Some(Running {
            stop,
            hold,
            ponder: None,
            moveless: true,
            handle,
        });
    }

    /// `ponderhit`: the move pondered on was played. The search goes on, now under the
    /// clock of the `go ponder` command (from this moment: its time for one move, the soft
    /// budget, or its movetime), and gives its best move when that time is up or it
    /// finishes.
    fn ponderhit(&mut self) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        if running.moveless {
            // Stockfish answers a ponderhit in a mated position at once.
            running.hold.store(false, Ordering::Relaxed);
            return;
        }
        let Some(limits) = running.ponder.take() else {
            return;
        };
        running.hold.store(false, Ordering::Relaxed);
        let (soft, hard) = limits.time_budget_scaled(self.config.clock_shares());
        let Some(budget) = soft.or(hard) else {
            // No time limit given with `go ponder` (a depth or node limit, or none): the
            // search ends by its own limit, or at `stop`.
            if limits.depth.is_none() && limits.nodes.is_none() && limits.mate.is_none() {
                running.hold.store(true, Ordering::Relaxed);
            }
            return;
        };
        let stop = running.stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(budget);
            stop.store(true, Ordering::Relaxed);
        });
    }

    /// Start the search on its own thread; it prints its best move when it ends.
    fn spawn_search(&mut self, limits: Limits, root_moves: Vec<cozy_chess::Move>) {
        let config = SearchConfig {
            limits,
            ..self.config.clone()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let state = self
            .state
            .take()
            .unwrap_or_else(|| SearchState::new(self.hash_mb));
        let mut searcher =
            match Searcher::with_state(self.position.clone(), config, stop.clone(), state) {
                Ok(searcher) => searcher,
                Err(why) => {
                    // The GUI still gets a move: the first legal one, as after a failed search.
                    send(&format!("info string search refused: {why}"));
                    let root = self.position.board();
                    let mut lists = crate::engine::movepick::PickerLists::default();
                    match crate::engine::movepick::MovePicker::new(root, &mut lists).next_move(root)
                    {
                        Some(mv) => send(&format!("bestmove {}", notation::uci(root, mv))),
                        None => send("bestmove 0000"),
                    }
                    return;
                }
            };
        searcher.restrict_root_moves(root_moves);
        searcher.set_multipv(self.multipv);
        let (multipv, counter_info) = (self.multipv, self.counter_info);
        let thread_stop = stop.clone();
        let hold = Arc::new(AtomicBool::new(limits.infinite));
        let thread_hold = hold.clone();
        let root = self.position.board().clone();
        let hash_mb = self.hash_mb;
        let handle = std::thread::spawn(move || {
            // A failed search must not leave the GUI without a move: it is reported, the
            // first legal move is played, and a fresh state replaces the lost tables.
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
                let result = searcher.run(&mut InfoPrinter { multipv });
                if counter_info {
                    // The same counters, under the same names, as a results file's record.
                    for counter in Counter::all() {
                        let counts = result.stats.heuristics.get(counter);
                        send(&crate::engine::counter_lines::line(&counter.key(), counts));
                    }
                }
                (result.best_move, searcher.into_state())
            }));
            // UCI: after `go infinite` (or `go ponder`, until `ponderhit`) the best move is
            // given only once `stop` arrives.
            wait_while_held(&thread_stop, &thread_hold);
            let (best_move, state) = match outcome {
                Ok(done) => done,
                Err(panic) => {
                    let why = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "unknown cause".into());
                    send(&format!("info string search failed: {why}"));
                    let mut lists = crate::engine::movepick::PickerLists::default();
                    let fallback = crate::engine::movepick::MovePicker::new(&root, &mut lists)
                        .next_move(&root);
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
            hold,
            ponder: None,
            moveless: false,
            handle,
        });
    }

    /// Stop the running search, if any, and wait until it has printed its best move.
    fn stop_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            // A search thread that panicked loses its tables; a fresh state replaces them.
            self.state = running.handle.join().ok();
        }
    }

    /// The Hash size set by the GUI, MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }
}

/// Wait while the best move is held (`go infinite`, `go ponder` before `ponderhit`) and no
/// `stop` came.
fn wait_while_held(stop: &AtomicBool, hold: &AtomicBool) {
    while hold.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests;
