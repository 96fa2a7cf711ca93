//! `iir`: internal iterative reduction (Chess Programming Wiki, "Internal Iterative
//! Reductions"; Ed Schröder's idea, in Stockfish since 2021, Ethereal, Weiss): a node deep
//! enough that the transposition table holds no move for it is searched one ply shallower. It
//! replaces internal iterative deepening: the node is probably unimportant (no earlier search
//! reached it), and if it matters the next iteration finds it with a hash move. It needs the
//! transposition table (without one no node has a hash move, and every node would be reduced).

use super::params::heuristic_params;
use super::view::{Decision, NodeView};

heuristic_params! {
    /// Parameters of `iir`.
    pub struct Params {
        /// Reduce nodes without a hash move.
        pub enabled: bool = false,
        /// The shallowest remaining depth it applies at.
        pub min_depth: i32 [2..=32] = 4,
        /// Plies taken off.
        pub reduction: i32 [1..=4; structural] = 1,
    }
}

/// The plies taken off the node: it applies outside check from `min_depth` on, and acts
/// where the table knows no move for the node.
pub fn reduction(node: &NodeView, params: &Params) -> Decision<i32> {
    let applies = !node.in_check && node.depth >= params.min_depth;
    Decision::with(applies, (!node.has_hash_move).then_some(params.reduction))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduces_only_deep_nodes_without_a_hash_move_outside_check() {
        let p = Params::default();
        let node = |depth, has_hash_move, in_check| NodeView {
            depth,
            has_hash_move,
            in_check,
            ..NodeView::default()
        };
        assert_eq!(reduction(&node(6, false, false), &p), Decision::Acts(1));
        assert_eq!(reduction(&node(6, true, false), &p), Decision::Declines);
        assert_eq!(reduction(&node(3, false, false), &p), Decision::Inapplicable);
        assert_eq!(reduction(&node(6, false, true), &p), Decision::Inapplicable);
    }
}
