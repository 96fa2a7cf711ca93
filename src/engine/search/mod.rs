//! Iterative deepening, limits, and the observers that watch it.
//!
//! `Searcher::run` searches depth 1, 2, ... with the full window until a limit is reached.
//! After each completed iteration it calls an `Observer`; the UCI printer, the `search`
//! command's table and the harness's recorders are all observers, so the search itself prints
//! nothing. An iteration cut short is discarded (its nodes count); stop and clock spare depth 1.

mod alphabeta;
mod audit;
mod clock;
mod correction;
mod extensions;
mod gate;
mod line;
mod ordering;
mod plan;
mod pruning;
mod pv;
mod quiescence;
mod reductions;
mod root;
mod root_options;
mod signals;
mod singular;
mod tables;
mod verify;
mod width;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use cozy_chess::{Board, Move};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use super::audit::{AuditState, AuditTally};
use super::config::{Algorithm, SearchConfig, SoftTime, TreeDraws};
use super::eval::EvalKind;
use super::heuristics::correction_history::CorrectionHistory;
use super::heuristics::{COUNT, Id};
use super::movepick::{MovePicker, PickerLists};
use super::position::{Periods, Position};
use super::score::{INFINITY, MATE, MAX_PLY, Score};
use super::stats::SearchStats;
use super::tt::TranspositionTable;
use super::width::{WidthCounts, WidthTally};
use clock::Clock;
use line::Line;
use plan::Plan;
use pv::PvTable;
use root_options::RootOptions;
use tables::OrderingTables;

/// How often (in nodes) the stop flag and the clock are read: at a million nodes per second
/// this is about a millisecond, well inside the 10 ms a `stop` must take.
const CHECK_EVERY_NODES: u64 = 1024;

/// One completed iteration.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IterationInfo {
    /// The iteration's number: what Ethereal 12 (`thread->depth`) and Stockfish (`rootDepth`)
    /// report, also after a fail high searched again shallower.
    pub depth: u32,
    /// The depth its last search reached: less than `depth` after a fail high searched again
    /// shallower (aspiration's `fail_high_reduction`).
    pub searched: u32,
    /// Deepest ply reached in this iteration.
    pub seldepth: u32,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Time this iteration took.
    pub iteration_time: Duration,
    /// What this iteration visited.
    pub stats: SearchStats,
    /// Nodes of all iterations so far, this one included.
    pub total_nodes: u64,
    /// Score for the side to move at the root.
    pub score: Score,
    /// Principal variation (cozy-chess moves; render with `notation`).
    #[serde(skip)]
    pub pv: Vec<Move>,
}

impl IterationInfo {
    /// Nodes per second over this iteration alone.
    pub fn iteration_nps(&self) -> u64 {
        nps(self.stats.nodes(), self.iteration_time)
    }
}

/// Nodes per second, 0 when no time could be measured.
pub fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros() as u64;
    (nodes * 1_000_000).checked_div(micros).unwrap_or(0)
}

/// Called after each completed iteration.
pub trait Observer {
    /// `root` is the board at the root, to render the PV.
    fn iteration(&mut self, root: &Board, info: &IterationInfo);

    /// With MultiPV, the iteration's `rank`-th line (2, 3, ...): its score and PV, after the
    /// first (`iteration`).
    fn line(
        &mut self,
        _root: &Board,
        _info: &IterationInfo,
        _rank: usize,
        _score: Score,
        _pv: &[Move],
    ) {
    }
}

/// An observer that ignores everything.
pub struct Silent;

impl Observer for Silent {
    fn iteration(&mut self, _root: &Board, _info: &IterationInfo) {}
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play (`None` only when the root has no legal move).
    pub best_move: Option<Move>,
    /// Score of the last completed iteration.
    pub score: Score,
    /// The last completed iteration's number (`IterationInfo::depth`, the depth UCI engines
    /// report; 0 if none completed).
    pub depth: u32,
    /// Every completed iteration, in order.
    pub iterations: Vec<IterationInfo>,
    /// Everything visited, aborted iteration included.
    pub stats: SearchStats,
    /// Wall time of the whole search, audit searches excluded.
    pub elapsed: Duration,
    /// The pruning audit, when the search was audited (`Searcher::enable_audit`).
    pub audit: Option<AuditTally>,
    /// The tree's width by remaining depth, when asked for (`Searcher::enable_width`).
    pub width: Option<WidthTally>,
}

/// What outlives one search within a game: the transposition table and the ordering tables
/// (history is cleared and mate history halved at each root search, as 002 prescribes). The
/// harness gives every position a fresh state; the UCI engine keeps it until `ucinewgame`.
pub struct SearchState {
    pub tt: TranspositionTable,
    /// The ordering heuristics' tables (`ordering.rs`).
    ordering: OrderingTables,
    /// `correction_history`'s corrections of the static evaluation (`correction.rs`).
    corrections: CorrectionHistory,
}

impl SearchState {
    /// A state with a transposition table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Self {
        Self::with_table(TranspositionTable::new(hash_mb))
    }

    /// A state with a transposition table of `hash_mb` MiB, or an error when the memory
    /// cannot be had.
    pub fn try_new(hash_mb: usize) -> Result<Self, String> {
        Ok(Self::with_table(TranspositionTable::try_new(hash_mb)?))
    }

    fn with_table(tt: TranspositionTable) -> Self {
        SearchState {
            tt,
            ordering: OrderingTables::default(),
            corrections: CorrectionHistory::default(),
        }
    }

    /// The state a configuration needs: a real table only when `tt` is on.
    pub fn for_config(config: &SearchConfig, hash_mb: usize) -> Self {
        Self::new(if config.heuristics.tt.enabled {
            hash_mb
        } else {
            0
        })
    }

    /// Forget everything (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.ordering.clear();
        self.corrections.clear();
    }
}

/// Default transposition table size for searches that do not set one, MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// An iteration's further MultiPV lines: each one's score and PV.
type Lines = Vec<(Score, Vec<Move>)>;

/// One search: a position, a configuration, and the state of the tree walk.
pub struct Searcher {
    pos: Position,
    config: SearchConfig,
    /// The heuristics that take part, read once from `config`.
    plan: Plan,
    /// Counters of the iteration under way.
    stats: SearchStats,
    pv: PvTable,
    /// The line from the root to the current node.
    line: Line,
    /// What the root searches: the moves, the lines, the previous PV.
    root: RootOptions,
    state: SearchState,
    /// One seeded PRNG per heuristic (GSR crossover points, mate-history bonuses), derived
    /// from (seed, id) and reset per search, so that switching one randomised heuristic on
    /// never moves another one's draws.
    streams: [Xoshiro256PlusPlus; COUNT],
    clock: Clock,
    /// The pruning audit (`audit.rs`).
    audit: AuditState,
    /// The width by remaining depth, when asked for (`width.rs`).
    width: Option<Box<WidthCounts>>,
}

impl Searcher {
    /// A search of `pos` under `config` with fresh state; setting `stop` ends it within a few
    /// milliseconds. Refused when the configuration evaluates with a network it holds no
    /// weights for (a checksum read back from a file).
    pub fn new(pos: Position, config: SearchConfig, stop: Arc<AtomicBool>) -> Result<Self, String> {
        let state = SearchState::for_config(&config, DEFAULT_HASH_MB);
        Self::with_state(pos, config, stop, state)
    }

    /// A search that continues from `state` (kept across the moves of a game).
    pub fn with_state(
        mut pos: Position,
        config: SearchConfig,
        stop: Arc<AtomicBool>,
        state: SearchState,
    ) -> Result<Self, String> {
        if config.eval == EvalKind::Nnue {
            pos.set_network(config.net.weights()?);
        }
        pos.set_eval_kind(config.eval);
        let channel = &config.heuristics.ema_channel;
        pos.set_periods(Periods {
            channel_fast: f64::from(channel.fast_period),
            channel_slow: f64::from(channel.slow_period),
            ..Periods::default()
        });
        let plan = Plan::new(&config, Self::active_signals(&config.heuristics));
        pos.set_averages(plan.needs_line_stats);
        pos.set_root();
        Ok(Searcher {
            pos,
            plan,
            streams: random_streams(config.seed),
            config,
            stats: SearchStats::default(),
            pv: PvTable::new(),
            line: Line::default(),
            root: RootOptions::default(),
            state,
            clock: Clock::new(stop),
            audit: AuditState::default(),
            width: None,
        })
    }

    /// Search only these root moves (UCI `go searchmoves`); an empty list means every move.
    pub fn restrict_root_moves(&mut self, moves: Vec<Move>) {
        self.root.moves = moves;
    }

    /// Search `lines` lines per iteration, the best first (UCI `MultiPV`; 1: the usual search).
    pub fn set_multipv(&mut self, lines: usize) {
        self.root.multipv = lines.max(1);
    }

    /// With MultiPV, the iteration's further lines: each a full-window search of the root
    /// without the first moves of the better lines, until `multipv` lines or no move is left.
    fn other_lines(&mut self, depth: u32, first: &[Move]) -> Lines {
        let mut lines = Vec::new();
        let Some(&best) = first.first() else {
            return lines;
        };
        self.root.excluded = vec![best];
        while lines.len() + 1 < self.root.multipv && !self.aborted() {
            let score = self.alphabeta(-INFINITY, INFINITY, depth as i32);
            let line = self.pv.line(0);
            match line.first() {
                Some(&mv) if !self.aborted() => {
                    self.root.excluded.push(mv);
                    lines.push((score, line));
                }
                _ => break,
            }
        }
        self.root.excluded.clear();
        lines
    }

    /// Give back the state for the next search of the game.
    pub fn into_state(self) -> SearchState {
        self.state
    }

    /// The heuristic is switched on.
    #[inline]
    fn on(&self, id: Id) -> bool {
        self.plan.on(id)
    }

    /// One draw from heuristic `id`'s stream.
    #[inline]
    fn draw(&mut self, id: Id) -> u32 {
        self.streams[id as usize].next_u32()
    }

    /// Iterative deepening until a limit; `observer` sees every completed iteration.
    pub fn run(&mut self, observer: &mut dyn Observer) -> SearchResult {
        let limits = self.config.limits;
        let (soft, hard) = limits.time_budget_scaled(self.config.clock_shares());
        self.begin(hard);
        let root = self.pos.board().clone();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut result = SearchResult::default();
        // Iterations in a row that kept the best move (time management).
        let mut stable = 0u32;

        for depth in 1..=max_depth {
            let Some((info, lines)) = self.iteration(depth, &mut result) else {
                break;
            };
            observer.iteration(&root, &info);
            for (rank, (score, line)) in lines.iter().enumerate() {
                observer.line(&root, &info, rank + 2, *score, line);
            }
            let (best, score) = (info.pv.first().copied(), info.score);
            stable = if best == result.best_move && depth > 1 {
                stable + 1
            } else {
                0
            };
            let drop = if depth > 1 { result.score - score } else { 0 };
            result.best_move = best;
            result.score = score;
            result.depth = info.depth;
            result.iterations.push(info);
            // No new iteration once half the soft budget, scaled by how settled the search
            // is, is spent: the next iteration would likely overrun it.
            let settled = match (self.config.soft_time, best) {
                (SoftTime::Nodes, Some(best)) => {
                    soft_scale(stable, drop) * nodes_scale(self.root.share(best))
                }
                _ => soft_scale(stable, drop),
            };
            if soft.is_some_and(|soft| {
                self.clock.start.elapsed().as_secs_f64() >= soft.as_secs_f64() * settled / 2.0
            }) {
                break;
            }
            // `go mate N`: a mate in N moves or fewer is proved.
            if limits
                .mate
                .is_some_and(|moves| score > MATE - 2 * moves as Score)
            {
                break;
            }
        }
        if result.best_move.is_none() {
            result.best_move = self.fallback_move(&root);
        }
        result.elapsed = self.clock.start.elapsed();
        result.audit = self.audit.auditor.as_ref().map(|a| a.tally.clone());
        result.width = self.width.as_ref().map(|w| w.tally());
        result
    }

    /// Set up a search whose clock stops at `hard_deadline`: every search starts from the
    /// same random state and fresh killers; history is cleared (but for its gravity form) and
    /// mate history halved (002); with main_selective the root is the main function's.
    fn begin(&mut self, hard_deadline: Option<Duration>) {
        self.clock.restart(hard_deadline);
        self.streams = random_streams(self.config.seed);
        if let Some(auditor) = &mut self.audit.auditor {
            auditor.reset(self.config.seed);
        }
        self.state
            .ordering
            .new_search(&self.config.heuristics.history);
        self.state.tt.new_search(self.config.heuristics.tt.ways);
        self.root.previous_pv.clear();
        self.root.clear_spent();
        self.line.selective = !self.on(Id::MainSelective);
    }

    /// Search the root to `depth` (its further MultiPV lines too): the iteration and those
    /// lines, or `None` when a limit cut it short (its counters still join `result`'s).
    fn iteration(
        &mut self,
        depth: u32,
        result: &mut SearchResult,
    ) -> Option<(IterationInfo, Lines)> {
        self.clock.first_iteration = depth == 1;
        self.stats = SearchStats::default();
        let iteration_start = Instant::now();
        let audit_time_before = self.audit_time();
        let (score, searched) = self.root_search(depth, result.score);
        let pv = self.pv.line(0);
        let lines = self.other_lines(depth, &pv);
        result.stats += self.stats;
        if self.aborted() {
            return None;
        }
        self.clock.nodes_before += self.stats.nodes();
        let info = IterationInfo {
            depth,
            searched,
            seldepth: self.stats.seldepth,
            elapsed: self.clock.start.elapsed(),
            iteration_time: iteration_start
                .elapsed()
                .saturating_sub(self.audit_time() - audit_time_before),
            stats: self.stats,
            total_nodes: self.clock.nodes_before,
            score,
            pv,
        };
        self.root.previous_pv.clone_from(&info.pv);
        Some((info, lines))
    }

    /// The move when a node budget cut depth 1 short: its partial PV, else an allowed legal
    /// move.
    fn fallback_move(&self, root: &Board) -> Option<Move> {
        let allowed = |mv: &Move| self.root.allows(mv);
        self.pv.line(0).first().copied().or_else(|| {
            let mut lists = PickerLists::default();
            let mut picker = MovePicker::new(root, &mut lists);
            std::iter::from_fn(|| picker.next_move(root)).find(allowed)
        })
    }

    /// Time spent in audit searches so far.
    fn audit_time(&self) -> Duration {
        self.audit
            .auditor
            .as_ref()
            .map_or(Duration::ZERO, |auditor| auditor.time)
    }

    /// Count a node and decide whether the search must stop: a node budget, the stop flag or
    /// the hard deadline.
    #[inline]
    pub(super) fn out_of_budget(&mut self) -> bool {
        let clock = &mut self.clock;
        if clock.aborted {
            return true;
        }
        let nodes = clock.nodes_before + self.stats.nodes();
        // Audit searches spend no budget (their nodes are rolled back after them).
        if !self.audit.searching
            && self
                .config
                .limits
                .nodes
                .is_some_and(|budget| nodes >= budget)
        {
            clock.aborted = true;
        } else if nodes.is_multiple_of(CHECK_EVERY_NODES) && !clock.first_iteration {
            clock.aborted = clock.stop.load(Ordering::Relaxed)
                || clock
                    .hard_deadline
                    .is_some_and(|hard| clock.start.elapsed() >= hard);
        }
        clock.aborted
    }

    /// A limit was reached: the search is being cut short.
    #[inline]
    pub(super) fn aborted(&self) -> bool {
        self.clock.aborted
    }

    /// Whether draws by repetition and the fifty-move rule are claimed inside the tree.
    /// Full-width minimax does not claim them, so that its leaves equal perft (000), nor do
    /// 003's presets (`tree_draws=ignored`).
    #[inline]
    fn claims_draws(&self) -> bool {
        self.config.algorithm != Algorithm::Minimax && self.config.tree_draws != TreeDraws::Ignored
    }

    #[inline]
    fn note_ply(&mut self) -> usize {
        let ply = self.pos.ply();
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        ply
    }
}

/// How much of the clock's soft budget an iteration asks for, as engines of the field scale
/// it (Stockfish's best-move changes, Ethereal's PV stability): a best move unchanged for
/// several iterations needs less time, one that just changed or a falling score more. The
/// hard limit still bounds every search.
pub fn soft_scale(stable_iterations: u32, score_drop: Score) -> f64 {
    const STABILITY: [f64; 5] = [1.8, 1.3, 1.0, 0.85, 0.7];
    let stability = STABILITY[(stable_iterations as usize).min(STABILITY.len() - 1)];
    let falling = match score_drop {
        d if d > 50 => 1.4,
        d if d > 20 => 1.15,
        _ => 1.0,
    };
    stability * falling
}

/// `soft_time=nodes`'s factor on the soft budget from the `share` of the root's nodes the best
/// move took: a later Ethereal's `nodes_factor`, `max(0.5, 2 · (1 − share) + 0.4)` (not in
/// 12.00's time.c, whose `terminateTimeManagment` reads the best move's changes only), divided
/// by `NODES_SCALE_MEAN` so that the budget is moved from
/// settled moves to contested ones rather than cut: where the best move took most of the
/// nodes the move is settled, where it took few the search is still choosing.
pub fn nodes_scale(share: f64) -> f64 {
    (2.0 * (1.0 - share) + 0.4).max(0.5) / NODES_SCALE_MEAN
}

/// The mean of Ethereal 12's factor where the decision is taken: 0.985 over the 1,307
/// iterations of depth 12 or more in four games at 3+0.03 under `modern,eval=nnue` with
/// `tt.pv_cutoffs=false` (the best move's median share 0.78), so 1. With the table's cut-offs
/// at PV nodes (the default) the share says little: the best move's subtree is often answered
/// by the table at once, and its median share in the same games was 0.10.
const NODES_SCALE_MEAN: f64 = 1.0;

/// The random stream of every heuristic for `seed`: xoshiro256++ seeded (through SplitMix64)
/// with the seed mixed with the heuristic's index.
fn random_streams(seed: u64) -> [Xoshiro256PlusPlus; COUNT] {
    std::array::from_fn(|index| {
        Xoshiro256PlusPlus::seed_from_u64(
            seed ^ 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(index as u64 + 1),
        )
    })
}

/// Search `pos` under `config` with no way to stop it but its limits.
pub fn search(
    pos: Position,
    config: SearchConfig,
    observer: &mut dyn Observer,
) -> Result<SearchResult, String> {
    search_audited(pos, config, None, observer)
}

/// `search`, auditing each pruning or reduction decision with probability `audit` when given
/// (the main search's nodes and result are the same either way).
pub fn search_audited(
    pos: Position,
    config: SearchConfig,
    audit: Option<f64>,
    observer: &mut dyn Observer,
) -> Result<SearchResult, String> {
    search_instrumented(
        pos,
        config,
        Instruments {
            audit,
            width: false,
        },
        observer,
    )
}

/// What a search records beside its result: the pruning audit's rate, the width by depth.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Instruments {
    pub audit: Option<f64>,
    pub width: bool,
}

/// `search` with its instruments (neither changes the main search's nodes or result).
pub fn search_instrumented(
    pos: Position,
    config: SearchConfig,
    instruments: Instruments,
    observer: &mut dyn Observer,
) -> Result<SearchResult, String> {
    let mut searcher = Searcher::new(pos, config, Arc::new(AtomicBool::new(false)))?;
    if let Some(rate) = instruments.audit {
        searcher.enable_audit(rate);
    }
    if instruments.width {
        searcher.enable_width();
    }
    Ok(searcher.run(observer))
}

#[cfg(test)]
mod tests;
