//! What a configuration switches on, read once when a search is set up: the search then asks
//! this plan, never the configuration, which heuristics take part (the gate asks `on`; the
//! picker and the ordering tables ask `ordering`).

use crate::engine::config::{QuietOrder, SearchConfig};
use crate::engine::heuristics::{COUNT, Id, Info, REGISTRY};

/// The heuristics a search runs with, and what they make it compute.
pub(super) struct Plan {
    /// Which heuristics are on, indexed by `Id`.
    on: [bool; COUNT],
    /// A heuristic that is on reads the line series, so they are computed per move.
    pub needs_line_stats: bool,
    /// A heuristic that is on reads a quiet move's history, so the move loop computes it.
    pub needs_history: bool,
    /// The heuristic whose stream and range give each node's GSR crossover point (registry
    /// `crossover`: the first by priority that is on), with the range.
    pub crossover_source: Option<(Id, u32)>,
    /// The entries of the 002 signal table this configuration consults (`signals.rs`).
    pub signals: Vec<usize>,
    /// The ordering heuristics that take part.
    pub ordering: OrderingPlan,
}

/// The ordering heuristics a search runs with: what the picker is built from and which
/// tables learn.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct OrderingPlan {
    pub pv_move: bool,
    pub killers: bool,
    pub mvv_lva: bool,
    pub history: bool,
    pub mate_history: bool,
    pub countermove: bool,
    pub continuation_history: bool,
    pub capture_history: bool,
    /// `see` orders losing captures after the quiet moves (`see.order`).
    pub see_order: bool,
    /// Quiet moves the ordering does not sort are shuffled (`quiet_order=shuffled`).
    pub shuffled_quiets: bool,
}

impl OrderingPlan {
    /// Quiet moves are sorted by a score: history or mate history (002), or the continuation
    /// histories.
    pub fn scores_quiets(&self) -> bool {
        self.history || self.mate_history || self.continuation_history
    }
}

impl Plan {
    /// The plan of `config`, which consults the 002 signal table's entries `signals`
    /// (`Searcher::active_signals`).
    pub fn new(config: &SearchConfig, signals: Vec<usize>) -> Self {
        let h = &config.heuristics;
        let mut on = [false; COUNT];
        for id in Id::all() {
            on[id as usize] = h.enabled(id);
        }
        let reads = |needs: fn(&Info) -> bool| {
            REGISTRY
                .iter()
                .any(|info| needs(info) && on[info.id as usize])
        };
        let crossover_source = REGISTRY
            .iter()
            .filter(|info| on[info.id as usize])
            .filter_map(|info| info.crossover.map(|(rank, range)| (rank, info.id, range)))
            .min_by_key(|&(rank, _, _)| rank)
            .map(|(_, id, range)| (id, range(h)));
        let is = |id: Id| on[id as usize];
        Plan {
            on,
            needs_line_stats: reads(|info| info.reads_line),
            needs_history: reads(|info| info.reads_history),
            crossover_source,
            signals,
            ordering: OrderingPlan {
                pv_move: is(Id::PvMove),
                killers: is(Id::Killers),
                mvv_lva: is(Id::MvvLva),
                history: is(Id::History),
                mate_history: is(Id::MateHistory),
                countermove: is(Id::Countermove),
                continuation_history: is(Id::ContinuationHistory),
                capture_history: is(Id::CaptureHistory),
                see_order: is(Id::See) && h.see.order,
                shuffled_quiets: config.quiet_order == QuietOrder::Shuffled,
            },
        }
    }

    /// The heuristic is switched on.
    #[inline]
    pub fn on(&self, id: Id) -> bool {
        self.on[id as usize]
    }
}
