//! `static_lr` (002, the article's first listing): with two static scores at every move, `L`
//! before it and `R` after it, a move that gives no check and leaves both at or below alpha is
//! skipped. The first listing skips it outright; the verified form (default) first confirms it
//! with `-search(depth-2) <= alpha`.

use super::params::heuristic_params;
use super::view::{MoveView, NodeView};

heuristic_params! {
    /// Parameters of `static_lr`.
    pub struct Params {
        /// The static L/R signal.
        pub enabled: bool = false,
        /// Confirm with a reduced-depth search (off: the unverified first listing).
        pub verified: bool = true,
    }
}

/// The signal is consulted on a move that gives no check.
pub fn applies(mv: &MoveView) -> bool {
    !mv.gives_check
}

/// `!check && L <= alpha && R <= alpha`.
pub fn candidate(node: &NodeView, mv: &MoveView, _params: &Params) -> bool {
    applies(mv) && node.static_eval <= node.alpha && mv.eval_after <= node.alpha
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node() -> NodeView {
        NodeView {
            depth: 4,
            alpha: 10,
            beta: 20,
            static_eval: 5,
            ..NodeView::default()
        }
    }

    #[test]
    fn fires_when_both_scores_stay_below_alpha() {
        let mv = MoveView {
            eval_after: 10,
            ..MoveView::default()
        };
        assert!(candidate(&node(), &mv, &Params::default()));
    }

    #[test]
    fn not_when_l_is_above_alpha() {
        let mv = MoveView {
            eval_after: 0,
            ..MoveView::default()
        };
        assert!(!candidate(
            &NodeView {
                static_eval: 11,
                ..node()
            },
            &mv,
            &Params::default()
        ));
    }

    #[test]
    fn not_when_r_is_above_alpha() {
        let mv = MoveView {
            eval_after: 11,
            ..MoveView::default()
        };
        assert!(!candidate(&node(), &mv, &Params::default()));
    }

    #[test]
    fn not_when_the_move_gives_check() {
        let mv = MoveView {
            eval_after: 0,
            gives_check: true,
            ..MoveView::default()
        };
        assert!(!candidate(&node(), &mv, &Params::default()));
    }
}
