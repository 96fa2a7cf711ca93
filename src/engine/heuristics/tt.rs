//! `tt` (001): the transposition table (`engine/tt.rs`) with the hash move searched first.
//! Stored results cut the search when deep enough and their bound allows; 002's warning is
//! followed: nothing is stored or probed at horizon or quiescence nodes. The root never takes a
//! cut-off from the table, so it always returns a move.
//!
//! With `score_as_eval`, a stored score also stands in for the static evaluation of the node's
//! pruning decisions where the entry's bound says the node's value lies beyond the evaluation
//! on the score's side: a lower bound above it, an upper bound below it, or an exact score
//! (Stockfish's search: "ttValue can be used as a better position evaluation"). A searched score knows what the evaluation
//! cannot see, so reverse futility, the null move, futility and probcut judge the node by it.
//! The evaluation two plies up that `improving` compares with stays the network's own.

use super::params::heuristic_params;
use super::view::{Decision, NodeView};
use crate::engine::score::{MATE_BOUND, Score};
use crate::engine::tt::{Bound, Entry};

heuristic_params! {
    /// Parameters of `tt`.
    pub struct Params {
        /// Probe and store the transposition table.
        pub enabled: bool = false,
        /// Use stored scores for cut-offs (off: the table only orders moves).
        pub cutoffs: bool = true,
        /// Take cut-offs at PV nodes too (off: only at null-window nodes, as Ethereal 12 and
        /// Stockfish do: a PV node's score and line are then its own search's, not a stored
        /// result reached by another path, whose line is cut short and whose score may rest on
        /// a repetition this path does not have).
        pub pv_cutoffs: bool = true,
        /// Search the stored best move first.
        pub hash_move: bool = true,
        /// Slots per bucket, each bucket within one cache line (1: one slot per position, the
        /// table of 001; Stockfish and Ethereal use 3 to 4, replaced by depth and age).
        pub ways: usize [1..=4; structural] = 1,
        /// A stored score that bounds the node's value beyond its static evaluation replaces
        /// that evaluation in the node's pruning decisions (Stockfish's).
        pub score_as_eval: bool = false,
    }
}

/// The stored score that ends the node at `ply` with the window `(alpha, beta)` and the
/// remaining `depth`: applies below the root (which must return a move) to a node with an
/// entry, at a PV node only with `pv_cutoffs`; fires when the entry is deep enough and its
/// bound settles the window.
pub fn cutoff(ply: usize, (alpha, beta): (Score, Score), depth: i32, entry: Option<Entry>, params: &Params) -> Decision<Score> {
    let pv_node = beta - alpha > 1;
    let applies = ply > 0 && params.cutoffs && (params.pv_cutoffs || !pv_node) && entry.is_some();
    let cuts = entry.filter(|e| e.cuts(depth, alpha, beta, ply));
    Decision::with(applies, cuts.map(|e| e.score(ply)))
}

/// The evaluation the node's pruning decisions read, when the table's entry (its score seen
/// from the node, and its bound) gives a better one than the static evaluation: applies at a
/// node outside check whose entry holds a score short of a mate; fires when the bound puts the
/// node's value on the score's side of the evaluation.
pub fn eval_from_score(node: &NodeView, stored: Option<(Score, Bound)>, params: &Params) -> Decision<Score> {
    let Some((score, bound)) = stored.filter(|_| params.score_as_eval && !node.in_check) else {
        return Decision::Inapplicable;
    };
    if score.abs() >= MATE_BOUND || bound == Bound::None {
        return Decision::Inapplicable;
    }
    let beyond = match bound {
        Bound::Exact => score != node.static_eval,
        Bound::Lower => score > node.static_eval,
        Bound::Upper => score < node.static_eval,
        Bound::None => false,
    };
    Decision::with(true, beyond.then_some(score))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(static_eval: Score, stored: Option<(Score, Bound)>, on: bool) -> Option<Score> {
        let node = NodeView::null_window(6, static_eval, 0);
        let params = Params { score_as_eval: on, ..Params::default() };
        eval_from_score(&node, stored, &params).value()
    }

    #[test]
    fn pv_nodes_take_cut_offs_only_with_pv_cutoffs() {
        let mut table = crate::engine::tt::TranspositionTable::new(1);
        table.store(42, 5, 30, Bound::Exact, None, 3);
        let entry = table.probe(42);
        let p = Params::default();
        assert_eq!(cutoff(3, (0, 1), 5, entry, &p), Decision::Acts(30), "a null window");
        assert_eq!(cutoff(3, (0, 50), 5, entry, &p), Decision::Acts(30), "a PV node, by default");
        assert_eq!(cutoff(0, (0, 1), 5, entry, &p), Decision::Inapplicable, "never at the root");
        assert_eq!(cutoff(3, (0, 1), 6, entry, &p), Decision::Declines, "not deep enough");
        let p = Params { pv_cutoffs: false, ..Params::default() };
        assert_eq!(cutoff(3, (0, 1), 5, entry, &p), Decision::Acts(30), "a null window still");
        assert_eq!(cutoff(3, (0, 50), 5, entry, &p), Decision::Inapplicable, "not a PV node");
    }

    #[test]
    fn a_bound_beyond_the_evaluation_replaces_it() {
        assert_eq!(eval(20, Some((80, Bound::Lower)), true), Some(80), "a lower bound above");
        assert_eq!(eval(20, Some((-40, Bound::Upper)), true), Some(-40), "an upper bound below");
        assert_eq!(eval(20, Some((-40, Bound::Exact)), true), Some(-40), "an exact score");
        assert_eq!(eval(20, Some((90, Bound::Exact)), true), Some(90));
    }

    #[test]
    fn a_bound_on_the_wrong_side_says_nothing() {
        assert_eq!(eval(20, Some((-40, Bound::Lower)), true), None, "a lower bound below");
        assert_eq!(eval(20, Some((80, Bound::Upper)), true), None, "an upper bound above");
        assert_eq!(eval(20, Some((20, Bound::Exact)), true), None, "the same value");
    }

    #[test]
    fn off_by_default_and_never_a_mate_or_in_check() {
        assert_eq!(eval(20, Some((80, Bound::Lower)), false), None);
        assert!(!Params::default().score_as_eval);
        assert_eq!(eval(20, Some((MATE_BOUND + 3, Bound::Lower)), true), None);
        assert_eq!(eval(20, None, true), None);
        let node = NodeView { in_check: true, ..NodeView::null_window(6, 20, 0) };
        let params = Params { score_as_eval: true, ..Params::default() };
        assert!(matches!(eval_from_score(&node, Some((80, Bound::Lower)), &params), Decision::Inapplicable));
    }
}
