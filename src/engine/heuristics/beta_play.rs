//! `beta_play` (002, "Игра на beta пределе"): when the move gives no check and both static
//! scores are at or above beta (`L >= beta`, `R >= beta`) and a selective (reduced) search
//! confirms `>= beta`, the node is cut with beta.

use super::params::heuristic_params;
use super::view::{MoveView, NodeView};

heuristic_params! {
    /// Parameters of `beta_play`.
    pub struct Params {
        /// Play at the beta bound.
        pub enabled: bool = false,
    }
}

/// `!check && L >= beta && R >= beta`: a candidate for a verified beta cut.
pub fn candidate(node: &NodeView, mv: &MoveView, _params: &Params) -> bool {
    applies(mv) && node.static_eval >= node.beta && mv.eval_after >= node.beta
}

/// The signal is consulted on a move that gives no check.
pub fn applies(mv: &MoveView) -> bool {
    !mv.gives_check
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node() -> NodeView {
        NodeView {
            depth: 4,
            alpha: 10,
            beta: 20,
            static_eval: 25,
            ..NodeView::default()
        }
    }

    #[test]
    fn fires_when_both_scores_reach_beta() {
        assert!(candidate(
            &node(),
            &MoveView {
                eval_after: 20,
                ..MoveView::default()
            },
            &Params::default()
        ));
    }

    #[test]
    fn not_when_l_is_below_beta() {
        let mv = MoveView {
            eval_after: 30,
            ..MoveView::default()
        };
        assert!(!candidate(
            &NodeView {
                static_eval: 19,
                ..node()
            },
            &mv,
            &Params::default()
        ));
    }

    #[test]
    fn not_when_r_is_below_beta() {
        assert!(!candidate(
            &node(),
            &MoveView {
                eval_after: 19,
                ..MoveView::default()
            },
            &Params::default()
        ));
    }

    #[test]
    fn not_when_the_move_gives_check() {
        let mv = MoveView {
            eval_after: 30,
            gives_check: true,
            ..MoveView::default()
        };
        assert!(!candidate(&node(), &mv, &Params::default()));
    }
}
