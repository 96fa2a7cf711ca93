//! Node accounting, kept apart as the documents count it.
//!
//! The documents' tables count different things: 000's minimax table counts leaves at the
//! horizon (equal to perft), 003's killer table counts the nodes of an alpha-beta search with
//! quiescence. So interior nodes, horizon leaves and quiescence nodes are separate counters,
//! each incremented in exactly one place of the search.

use serde::{Deserialize, Serialize};
use std::ops::AddAssign;

use super::heuristics::HeuristicCounters;

/// What one search (or one iteration) visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchStats {
    /// Nodes with remaining depth > 0 (the root included).
    pub interior: u64,
    /// Nodes reached with remaining depth 0: the horizon leaves.
    pub horizon: u64,
    /// Nodes inside the quiescence search, below the horizon leaf that started it.
    pub quiescence: u64,
    /// Deepest ply reached at node entry, quiescence included.
    pub seldepth: u32,
    /// Beta cut-offs in the main search.
    pub cutoffs: u64,
    /// Beta cut-offs caused by the first move searched: `first_move_cutoffs / cutoffs` is the
    /// standard measure of move-ordering quality.
    pub first_move_cutoffs: u64,
    /// Per heuristic: tested, fired, overruled.
    pub heuristics: HeuristicCounters,
}

impl SearchStats {
    /// Every node visited.
    pub fn nodes(&self) -> u64 {
        self.interior + self.horizon + self.quiescence
    }

    /// Share of beta cut-offs made by the first move (0 when there were none).
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.cutoffs == 0 {
            0.0
        } else {
            self.first_move_cutoffs as f64 / self.cutoffs as f64
        }
    }
}

impl AddAssign for SearchStats {
    fn add_assign(&mut self, other: Self) {
        self.interior += other.interior;
        self.horizon += other.horizon;
        self.quiescence += other.quiescence;
        self.seldepth = self.seldepth.max(other.seldepth);
        self.cutoffs += other.cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.heuristics += other.heuristics;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_sums_counts_and_keeps_the_deepest_seldepth() {
        let mut a = SearchStats {
            interior: 1,
            horizon: 2,
            quiescence: 3,
            seldepth: 7,
            cutoffs: 4,
            first_move_cutoffs: 3,
            ..SearchStats::default()
        };
        let b = SearchStats {
            interior: 10,
            horizon: 20,
            quiescence: 30,
            seldepth: 5,
            cutoffs: 6,
            first_move_cutoffs: 6,
            ..SearchStats::default()
        };
        a += b;
        assert_eq!(a.nodes(), 66);
        assert_eq!(a.seldepth, 7);
        assert_eq!(a.first_move_cutoff_rate(), 0.9);
    }
}
