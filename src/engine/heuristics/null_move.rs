//! `null_move` (001): pass the move and search the opponent's reply with the depth reduced by
//! `R` (001: "skip a move and see how bad it gets; the depth may be reduced"); if even then the
//! score reaches beta, the node fails high. Never twice in a row, never in check; 001 marks
//! the positions below a null move with a distinct hash key (see `engine/tt.rs`).

use super::params::heuristic_params;
use super::view::NodeView;

heuristic_params! {
    /// Parameters of `null_move`.
    pub struct Params {
        /// Try the null move.
        pub enabled: bool = false,
        /// Depth reduction `R` (001: 2; the documented variant is 3).
        pub reduction: i32 [0..=16] = 2,
    }
}

/// The null move may be tried at this node.
pub fn allowed(node: &NodeView, _params: &Params) -> bool {
    node.ply > 0 && !node.in_check && !node.after_null_move
}

/// Depth of the null-move search.
pub fn search_depth(node: &NodeView, params: &Params) -> i32 {
    node.depth - 1 - params.reduction
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node() -> NodeView {
        NodeView {
            depth: 6,
            ply: 3,
            alpha: 0,
            beta: 10,
            ..NodeView::default()
        }
    }

    #[test]
    fn allowed_at_a_quiet_inner_node() {
        assert!(allowed(&node(), &Params::default()));
        assert_eq!(search_depth(&node(), &Params::default()), 3);
    }

    #[test]
    fn never_in_check() {
        assert!(!allowed(
            &NodeView {
                in_check: true,
                ..node()
            },
            &Params::default()
        ));
    }

    #[test]
    fn never_twice_in_a_row() {
        assert!(!allowed(
            &NodeView {
                after_null_move: true,
                ..node()
            },
            &Params::default()
        ));
    }

    #[test]
    fn never_at_the_root() {
        assert!(!allowed(&NodeView { ply: 0, ..node() }, &Params::default()));
    }
}
