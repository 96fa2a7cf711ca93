//! `reverse_futility` (static null move pruning; Chess Programming Wiki, "Reverse Futility
//! Pruning"): near the leaves, a node whose static evaluation exceeds beta by a margin that
//! grows with the remaining depth is assumed to fail high, and returns its evaluation less the
//! margin. Stockfish, Ethereal (margin 65·depth up to depth 8), Weiss and most engines since
//! 2010 do it; it is futility pruning (004) seen from beta. Not in check, not at a PV node,
//! not with a mate score in the window, not inside a null-move or verification search.

use super::params::heuristic_params;
use super::view::NodeView;
use crate::engine::score::{MATE_BOUND, Score};

heuristic_params! {
    /// Parameters of `reverse_futility`.
    pub struct Params {
        /// Static null move pruning near the leaves.
        pub enabled: bool = false,
        /// The deepest remaining depth it applies at.
        pub max_depth: i32 [1..=16] = 8,
        /// The margin per ply of remaining depth, centipawns.
        pub margin: i32 [0..=1000] = 70,
    }
}

/// The score the node returns when it is pruned (`None`: it is searched). `pv_node`: the
/// node's window is wider than null.
pub fn cut(node: &NodeView, pv_node: bool, params: &Params) -> Option<Score> {
    if node.in_check
        || pv_node
        || node.in_reduced_search
        || node.depth > params.max_depth
        || node.beta.abs() >= MATE_BOUND
    {
        return None;
    }
    let margin = params.margin * node.depth;
    (node.static_eval - margin >= node.beta).then_some(node.static_eval - margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(depth: i32, eval: Score, beta: Score) -> NodeView {
        NodeView {
            depth,
            ply: 3,
            alpha: beta - 1,
            beta,
            static_eval: eval,
            ..NodeView::default()
        }
    }

    #[test]
    fn prunes_when_the_evaluation_clears_beta_by_the_depth_margin() {
        let p = Params::default();
        assert_eq!(cut(&node(2, 150, 0), false, &p), Some(10));
        assert_eq!(cut(&node(3, 150, 0), false, &p), None);
        assert_eq!(cut(&node(9, 5000, 0), false, &p), None, "beyond max_depth");
    }

    #[test]
    fn not_in_check_at_pv_nodes_near_mates_or_in_test_searches() {
        let p = Params::default();
        let checked = NodeView { in_check: true, ..node(1, 500, 0) };
        assert_eq!(cut(&checked, false, &p), None);
        assert_eq!(cut(&node(1, 500, 0), true, &p), None);
        assert_eq!(cut(&node(1, MATE_BOUND + 500, MATE_BOUND), false, &p), None);
        let test = NodeView { in_reduced_search: true, ..node(1, 500, 0) };
        assert_eq!(cut(&test, false, &p), None);
    }
}
