//! `razoring` (001): "almost the same as futility pruning, but for the last four plies, with
//! the bound set at the value of an acceptable loss of pieces". The same two tests as
//! `futility` (node form returns beta, move form skips the move), with four plies and a
//! margin of a minor piece.

use super::futility;
use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};

heuristic_params! {
    /// Parameters of `razoring`.
    pub struct Params {
        /// Razoring.
        pub enabled: bool = false,
        /// The margin: an acceptable loss (default a minor piece).
        pub margin: i32 [0..=5000] = 300,
        /// Applied at the last this many plies (001: 4).
        pub max_depth: i32 [0..=16] = 4,
        /// Return beta at a node whose evaluation minus the margin reaches beta.
        pub node_form: bool = true,
        /// Skip a move whose evaluation after it plus the margin stays at or below alpha.
        pub move_form: bool = true,
    }
}

/// Node form: return beta.
pub fn node_cut(node: &NodeView, params: &Params) -> Decision {
    if !params.node_form {
        return Decision::Inapplicable;
    }
    futility::frontier_cut_with(node, params.max_depth, params.margin)
}

/// Move form: skip the move.
pub fn prunes_move(node: &NodeView, mv: &MoveView, params: &Params) -> Decision {
    if !params.move_form {
        return Decision::Inapplicable;
    }
    futility::prunes_move_with(node, mv, params.max_depth, params.margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(depth: i32) -> NodeView {
        NodeView {
            depth,
            ply: 3,
            alpha: 0,
            beta: 10,
            static_eval: 310,
            ..NodeView::default()
        }
    }

    #[test]
    fn node_form_reaches_four_plies_with_a_piece_margin() {
        let p = Params::default();
        assert!(node_cut(&node(4), &p).acts());
        assert!(!node_cut(&node(5), &p).acts());
        assert!(!node_cut(
            &NodeView {
                static_eval: 309,
                ..node(4)
            },
            &p
        ).acts());
        assert!(!node_cut(
            &NodeView {
                in_check: true,
                ..node(4)
            },
            &p
        ).acts());
    }

    #[test]
    fn move_form_skips_moves_a_piece_below_alpha() {
        let p = Params::default();
        let mv = MoveView {
            eval_after: -300,
            ..MoveView::default()
        };
        assert!(prunes_move(&node(5), &mv, &p).acts());
        assert!(!prunes_move(&node(6), &mv, &p).acts());
        assert!(!prunes_move(&node(5), &MoveView { eval_after: -299, ..mv }, &p).acts());
        assert!(!prunes_move(
            &node(5),
            &MoveView {
                gives_check: true,
                ..mv
            },
            &p
        ).acts());
    }
}
