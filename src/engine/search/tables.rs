//! The tables the ordering heuristics learn into (`ordering.rs` reads and updates them), kept in
//! `SearchState` across the searches of a game.

use crate::engine::heuristics::capture_history::CaptureHistory;
use crate::engine::heuristics::continuation_history::{ContinuationHistory, Key};
use crate::engine::heuristics::countermove::Countermoves;
use crate::engine::heuristics::history::{self, History};
use crate::engine::heuristics::killers::Killers;

/// The tables the ordering heuristics learn into, kept across the searches of a game (history
/// is cleared, unless in its `gravity` form, and mate history halved at each root search, as
/// 002 prescribes).
#[derive(Default)]
pub(super) struct OrderingTables {
    pub(super) killers: Killers,
    /// History and mate history.
    pub(super) history: History,
    /// The refutation of each previous move (`countermove`), kept across the searches of a
    /// game as modern engines keep it.
    pub(super) countermoves: Countermoves,
    /// Quiet moves' history after the previous two moves (`continuation_history`).
    pub(super) continuation: ContinuationHistory,
    /// Captures' history (`capture_history`), kept across the searches of a game.
    pub(super) captures: CaptureHistory,
}

/// What an audit search must put back of the ordering tables (the continuation history keeps
/// a journal of the cells it changes instead of a copy).
pub(super) struct OrderingSnapshot {
    killers: Killers,
    history: History,
    countermoves: Countermoves,
    captures: CaptureHistory,
}

/// The continuation-history contexts of a node (the moves one and two plies back).
pub(super) type Contexts = Option<[Option<Key>; 2]>;

impl OrderingTables {
    /// Forget everything (a new game).
    pub(super) fn clear(&mut self) {
        self.killers.clear();
        self.history.clear();
        self.countermoves.clear();
        self.continuation.clear();
        self.captures.clear();
    }

    /// A new root search: fresh killers, history cleared (002; kept in the `gravity` form) and
    /// mate history halved (002).
    pub(super) fn new_search(&mut self, history: &history::Params) {
        self.killers.clear();
        self.history.new_search(history);
    }

    /// Save what an audit search may change.
    pub(super) fn snapshot(&mut self) -> OrderingSnapshot {
        self.continuation.begin_journal();
        OrderingSnapshot {
            killers: self.killers.clone(),
            history: self.history.clone(),
            countermoves: self.countermoves.clone(),
            captures: self.captures.clone(),
        }
    }

    /// Put back what `snapshot` saved.
    pub(super) fn restore(&mut self, saved: OrderingSnapshot) {
        self.killers = saved.killers;
        self.history = saved.history;
        self.countermoves = saved.countermoves;
        self.captures = saved.captures;
        self.continuation.roll_back();
    }
}
