//! `quiescence_tt`: the transposition table in the quiescence search. Every quiescence node
//! (the horizon leaf included) probes the table and returns a stored score that proves the
//! node's result (a bound on the right side of the window, stored at least as deep), and
//! stores its own result with the capture that raised alpha: the horizon leaf at depth 0,
//! deeper quiescence nodes at depth −1, since the horizon leaf also searches quiet checks
//! (`quiescence_checks`) and the nodes below do not (Stockfish's two quiescence depths). Ethereal and Stockfish both do (Chess Programming Wiki, "Quiescence Search",
//! "Transposition Table"); `reports/depth-gap/` found 40% of the default's nodes in
//! quiescence, none of which the table could answer.
//!
//! By default only the horizon leaf uses the table (`max_qdepth` 0): on the bench at depth 8
//! every quiescence node probing it searched 15% fewer nodes at 14% fewer nodes a second (no
//! faster to the depth), the horizon leaf alone 14% fewer nodes at about 3% fewer a second
//! (three alternating runs on a loaded machine; the probe is a cache miss a cheap node pays).
//! `modern` sets `max_qdepth` 64, every quiescence node, as the second package's SPRT played it
//! (`reports/elo-search-package-2/`: H1 in self-play, its node 1.17 M against the default's
//! 1.37 M a second in those games); the probes below the horizon leaf are prefetched since
//! 888c9b2 (`reports/nps/`).
//!
//! A depth-0 result never takes the slot of another position's interior result (the table
//! keeps one entry a slot, and an interior result costs more to find again): that is the
//! table's rule (`tt.rs`), not this heuristic's.

use super::params::heuristic_params;
use super::view::Decision;
use crate::engine::score::Score;
use crate::engine::tt::Entry;

heuristic_params! {
    /// Parameters of `quiescence_tt`.
    pub struct Params {
        /// Probe and store the transposition table in quiescence.
        pub enabled: bool = false,
        /// The deepest quiescence ply below the horizon that probes and stores (0: the
        /// horizon leaf alone).
        pub max_qdepth: i32 [0..=64; structural] = 0,
    }
}

/// The depth a quiescence node `qdepth` plies below the horizon stores and probes at.
pub fn depth(qdepth: i32) -> i32 {
    if qdepth == 0 { 0 } else { -1 }
}

/// A node `qdepth` plies below the horizon uses the table.
pub fn uses_table(qdepth: i32, params: &Params) -> bool {
    qdepth <= params.max_qdepth
}

/// The score a quiescence node of table depth `depth` returns from the table: it applies
/// where an entry was found, and acts when the entry, at least as deep, has a bound that
/// proves the node's result within `(alpha, beta)`.
pub fn cut(
    entry: Option<Entry>,
    (alpha, beta): (Score, Score),
    depth: i32,
    ply: usize,
) -> Decision<Score> {
    let cuts = entry.filter(|e| e.cuts(depth, alpha, beta, ply));
    Decision::with(entry.is_some(), cuts.map(|e| e.score(ply)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tt::{Bound, TranspositionTable};

    fn stored(score: Score, bound: Bound, depth: i32) -> Option<Entry> {
        let mut table = TranspositionTable::new(1);
        table.store(42, depth, score, bound, None, 3);
        table.probe(42)
    }

    #[test]
    fn cuts_only_on_a_bound_that_proves_the_result() {
        let leaf = depth(0);
        assert_eq!(cut(stored(50, Bound::Lower, 0), (0, 40), leaf, 3).value(), Some(50));
        assert_eq!(cut(stored(30, Bound::Lower, 0), (0, 40), leaf, 3).value(), None);
        assert_eq!(cut(stored(-10, Bound::Upper, 0), (0, 40), leaf, 3).value(), Some(-10));
        assert_eq!(cut(stored(20, Bound::Exact, 0), (0, 40), leaf, 3).value(), Some(20));
        assert!(!cut(None, (0, 40), leaf, 3).applies());
        assert!(cut(stored(30, Bound::Lower, 0), (0, 40), leaf, 3).applies());
        let p = Params::default();
        assert!(uses_table(0, &p) && !uses_table(1, &p));
        assert!(uses_table(5, &Params { max_qdepth: 5, ..p }));
    }

    #[test]
    fn the_horizon_leaf_does_not_trust_a_result_searched_without_its_checks() {
        let below = stored(20, Bound::Exact, depth(2));
        assert_eq!(cut(below, (0, 40), depth(0), 3).value(), None);
        assert_eq!(cut(below, (0, 40), depth(1), 3).value(), Some(20));
        let leaf = stored(20, Bound::Exact, depth(0));
        assert_eq!(cut(leaf, (0, 40), depth(3), 3).value(), Some(20));
    }
}
