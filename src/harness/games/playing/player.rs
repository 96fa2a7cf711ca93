//! The two kinds of player in a match: a variant of searchlab's own search, played in-process
//! (no process per game; its transposition table and history kept across the moves of a game
//! and cleared between games, as a UCI engine's would be after `ucinewgame`), and an external
//! UCI engine, one process kept for as long as it behaves. A player that fails (a panic, an
//! engine that exits, hangs or answers nonsense) returns the reason; the game scores it.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use cozy_chess::Move;

use crate::engine::config::{Limits, SearchConfig};
use crate::engine::position::Position;
use crate::engine::score::Score;
use crate::engine::search::{SearchState, Searcher, Silent};
use crate::harness::epd;
use crate::harness::external::session::Session;
use crate::harness::external::{Deadline, EngineSpec, Process, parse_info};
use crate::harness::variant::Variant;

/// A move and what the player said about it.
#[derive(Clone, Copy, Debug)]
pub struct Reply {
    pub mv: Move,
    /// Score for the mover, centipawns (searchlab's mate scores), when given.
    pub score: Option<Score>,
    pub depth: u32,
    pub nodes: u64,
    /// From the request to the move.
    pub elapsed_ms: u64,
}

/// Why a player's move did not come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It crashed or stopped speaking UCI (the reason).
    Crash(String),
    /// It gave no move within its time (and a second of grace).
    Hang(String),
    /// It answered with a move that is not legal (the move as written).
    Illegal(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crash(why) => write!(f, "crashed: {why}"),
            Failure::Hang(why) => write!(f, "hung: {why}"),
            Failure::Illegal(mv) => write!(f, "played the illegal move '{mv}'"),
        }
    }
}

/// The players a game thread keeps from one pair to the next: an engine's process lives on
/// (restarted only after a failure, by `Player::new_game`), as `run` keeps one per worker, and
/// an in-process player keeps its allocated tables (cleared for each game). At most `capacity`
/// are kept, the least recently used dropped first (its process told `quit`).
pub struct Players {
    kept: Vec<(Variant, Player)>,
    capacity: usize,
}

impl Players {
    /// Keep at most `capacity` players (0: a fresh player for every pair).
    pub fn new(capacity: usize) -> Players {
        Players {
            kept: Vec::new(),
            capacity,
        }
    }

    /// The kept player of `variant`, or a new one.
    pub fn take(&mut self, variant: &Variant, hash_mb: usize, seed: u64) -> Player {
        match self.kept.iter().position(|(v, _)| v == variant) {
            Some(at) => self.kept.remove(at).1,
            None => Player::of(variant, hash_mb, seed),
        }
    }

    /// Keep `player` for `variant`'s next pair.
    pub fn keep(&mut self, variant: &Variant, player: Player) {
        if self.capacity == 0 {
            return;
        }
        if self.kept.len() == self.capacity {
            self.kept.remove(0);
        }
        self.kept.push((variant.clone(), player));
    }
}

/// A side of a game.
pub enum Player {
    Variant {
        /// Boxed: a configuration is large beside an engine's handle.
        config: Box<SearchConfig>,
        hash_mb: usize,
        state: Option<SearchState>,
    },
    Engine {
        spec: EngineSpec,
        session: Option<Session>,
    },
}

impl Player {
    /// The player of a variant: in-process for searchlab's own, over UCI for an engine.
    pub fn of(variant: &Variant, hash_mb: usize, seed: u64) -> Player {
        match &variant.engine {
            Some(spec) => Player::Engine {
                spec: spec.clone(),
                session: None,
            },
            None => Player::Variant {
                config: Box::new(SearchConfig {
                    seed,
                    ..variant.config.clone()
                }),
                hash_mb,
                state: None,
            },
        }
    }

    /// Prepare a new game: tables cleared; an engine started (if it is not running) and told
    /// `ucinewgame`.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        match self {
            Player::Variant {
                config,
                hash_mb,
                state,
            } => {
                match state {
                    Some(state) => state.clear(),
                    None => *state = Some(SearchState::for_config(config, *hash_mb)),
                }
                Ok(())
            }
            Player::Engine { spec, session } => {
                if spec.restart {
                    // fastchess's restart=on: the process of the last game quits.
                    *session = None;
                }
                if session.is_none() {
                    *session = Some(Session::open(spec).map_err(Failure::Crash)?.0);
                }
                let running = session.as_mut().expect("started above");
                let outcome = running.new_game().map_err(Failure::Crash);
                if outcome.is_err() {
                    // A failed engine is started afresh for the next game.
                    *session = None;
                }
                outcome
            }
        }
    }

    /// Think about the game's current position and answer a move. `position` holds the game
    /// from its start (`fen`, then `moves` in UCI), `limits` the mover's own limits and `go`
    /// the same as a UCI `go` command (both clocks), `patience` how long to wait for an
    /// engine (`None`: its own deadline for `limits`).
    pub fn think(
        &mut self,
        position: &Position,
        fen: &str,
        moves: &[String],
        limits: Limits,
        go: &str,
        patience: Option<Deadline>,
    ) -> Result<Reply, Failure> {
        match self {
            Player::Variant {
                config,
                hash_mb,
                state,
            } => {
                let config = SearchConfig {
                    limits,
                    ..(**config).clone()
                };
                let table = state
                    .take()
                    .unwrap_or_else(|| SearchState::for_config(&config, *hash_mb));
                let start = Instant::now();
                let mut searcher = Searcher::with_state(
                    position.clone(),
                    config,
                    Arc::new(AtomicBool::new(false)),
                    table,
                )
                .map_err(Failure::Crash)?;
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    searcher.run(&mut Silent)
                }));
                let elapsed_ms = start.elapsed().as_millis() as u64;
                let result = outcome.map_err(|panic| {
                    Failure::Crash(
                        panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_else(|| "the search panicked".into()),
                    )
                })?;
                *state = Some(searcher.into_state());
                let mv = result
                    .best_move
                    .ok_or_else(|| Failure::Crash("no move in a position with moves".into()))?;
                Ok(Reply {
                    mv,
                    score: (result.depth > 0).then_some(result.score),
                    depth: result.depth,
                    nodes: result.stats.nodes(),
                    elapsed_ms,
                })
            }
            Player::Engine { spec, session } => {
                let deadline = patience.unwrap_or_else(|| spec.deadline(&limits));
                let outcome = match session.as_mut() {
                    Some(running) => ask(running.process(), position, fen, moves, go, deadline),
                    None => Err(Failure::Crash("the engine is not running".into())),
                };
                if outcome.is_err() {
                    *session = None;
                }
                outcome
            }
        }
    }
}

/// Send the position and `go`, and read the engine's reply.
fn ask(
    process: &mut Process,
    position: &Position,
    fen: &str,
    moves: &[String],
    go: &str,
    deadline: Deadline,
) -> Result<Reply, Failure> {
    let command = if moves.is_empty() {
        format!("position fen {fen}")
    } else {
        format!("position fen {fen} moves {}", moves.join(" "))
    };
    process.send(&command).map_err(Failure::Crash)?;
    process.send(go).map_err(Failure::Crash)?;
    let start = Instant::now();
    let mut last_info = None;
    let mut best = None;
    process
        .until(deadline.after, |line| {
            if let Some(info) = parse_info(line) {
                last_info = Some(info);
                return false;
            }
            let mut tokens = line.split_whitespace();
            if tokens.next() == Some("bestmove") {
                best = Some(tokens.next().unwrap_or("").to_string());
                return true;
            }
            false
        })
        .map_err(|e| {
            if e.starts_with("no answer") {
                Failure::Hang(deadline.missed("bestmove"))
            } else {
                Failure::Crash(e)
            }
        })?;
    let elapsed_ms = start.elapsed().as_millis() as u64;
    let text = best.unwrap_or_default();
    let board = position.board();
    let mv = cozy_chess::util::parse_uci_move(board, &text)
        .ok()
        .filter(|&mv| board.is_legal(mv))
        .or_else(|| epd::parse_move(board, &text).ok())
        .ok_or(Failure::Illegal(text))?;
    Ok(Reply {
        mv,
        score: last_info.as_ref().map(|i| i.score),
        depth: last_info.as_ref().map_or(0, |i| i.depth),
        nodes: last_info.as_ref().map_or(0, |i| i.nodes),
        elapsed_ms,
    })
}
