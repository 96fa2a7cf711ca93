//! `reverse_futility` (static null move pruning; Chess Programming Wiki, "Reverse Futility
//! Pruning"): near the leaves, a node whose static evaluation exceeds beta by a margin that
//! grows with the remaining depth is assumed to fail high, and returns its evaluation less the
//! margin. Stockfish, Ethereal (up to depth 8; margin 85·depth in Ethereal 12, 65–75 later),
//! Weiss and most engines since 2010 do it; it is futility pruning (004) seen from beta. Not in
//! check, not at a PV node, not with a mate score in the window, not inside a null-move or
//! verification search.
//!
//! The margin is Ethereal 12's 85, not the later 65–75. The static evaluation cannot see a
//! threat, and the margin is all that stands for it: with 70, `modern` with the network missed
//! WAC.001's mate in two at depth 8. Qg6 (threatening Qh7#) was the root's last quiet move,
//! reduced by three plies, and the reply's node at depth 4 was cut on Black's evaluation of
//! +1.13 against beta −1.95 (1.13 − 4 · 0.70 ≥ −1.95). With 85 the node is searched and the
//! mate found at depth 8, for 1% more nodes on the bench at depth 8 (under `full` and `nnue`).
//! What the change and the other repair tried scored in games: `reports/checks/README.md`.

use super::params::heuristic_params;
use super::view::{Decision, NodeView};
use crate::engine::score::{MATE_BOUND, Score};

heuristic_params! {
    /// Parameters of `reverse_futility`.
    pub struct Params {
        /// Static null move pruning near the leaves.
        pub enabled: bool = false,
        /// The deepest remaining depth it applies at.
        pub max_depth: i32 [1..=16] = 8,
        /// The margin per ply of remaining depth, centipawns.
        pub margin: i32 [0..=1000] = 85,
    }
}

/// The score the node returns when it is pruned. It applies at a null-window node outside
/// check and test searches, within `max_depth`, with no mate score at beta.
pub fn cut(node: &NodeView, params: &Params) -> Decision<Score> {
    let applies = !node.in_check
        && !node.pv_node
        && !node.in_reduced_search
        && node.depth <= params.max_depth
        && node.beta.abs() < MATE_BOUND;
    let margin = params.margin * node.depth;
    let score = node.static_eval - margin;
    Decision::with(applies, (score >= node.beta).then_some(score))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(depth: i32, eval: Score, beta: Score) -> NodeView {
        NodeView::null_window(depth, eval, beta)
    }

    #[test]
    fn prunes_when_the_evaluation_clears_beta_by_the_depth_margin() {
        let p = Params::default();
        assert_eq!(cut(&NodeView { pv_node: false, ..node(2, 180, 0) }, &p).value(), Some(10));
        assert_eq!(cut(&NodeView { pv_node: false, ..node(3, 180, 0) }, &p).value(), None);
        assert_eq!(cut(&NodeView { pv_node: false, ..node(9, 5000, 0) }, &p).value(), None, "beyond max_depth");
    }

    #[test]
    fn not_in_check_at_pv_nodes_near_mates_or_in_test_searches() {
        let p = Params::default();
        let checked = NodeView { in_check: true, ..node(1, 500, 0) };
        assert_eq!(cut(&checked, &p).value(), None);
        assert_eq!(cut(&NodeView { pv_node: true, ..node(1, 500, 0) }, &p).value(), None);
        assert_eq!(cut(&NodeView { pv_node: false, ..node(1, MATE_BOUND + 500, MATE_BOUND) }, &p).value(), None);
        let test = NodeView { in_reduced_search: true, ..node(1, 500, 0) };
        assert_eq!(cut(&test, &p).value(), None);
    }
}
