//! `late_move_pruning` (move count pruning; Chess Programming Wiki, "Futility Pruning § Move
//! Count Based Pruning"): at a shallow non-PV node outside check, once `base + depth²` quiet
//! moves have been tried, the remaining quiet moves are skipped. The quadratic count is
//! Weiss's and Ethereal's form (Stockfish's is `(3 + depth²) / 2` when not improving).
//!
//! 001's `FutilityMoveCount` (here `futility_move_count`) is the same idea a decade earlier:
//! a fixed table over the last 9 plies (19 moves up to depth 5, then 35, 67, 131, 259) applied
//! at every node, PV nodes included. The modern form prunes far earlier near the leaves (4
//! quiet moves at depth 1, 7 at depth 2, 12 at 3), only at null-window nodes, and stops at
//! `max_depth`.

use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};

heuristic_params! {
    /// Parameters of `late_move_pruning`.
    pub struct Params {
        /// Skip late quiet moves at shallow non-PV nodes.
        pub enabled: bool = false,
        /// The deepest remaining depth it applies at.
        pub max_depth: i32 [1..=16] = 8,
        /// The count's constant term: `base + depth²` quiet moves are tried.
        pub base: u32 [0..=1000] = 3,
    }
}

/// Skip this quiet move: it applies to quiet moves that give no check (`gives_check`, asked
/// once the rest holds) at a null-window node outside check within `max_depth`, and acts once
/// `base + depth²` quiet moves were tried. A quiet check is never skipped: it is a forcing
/// move, and skipping it hides mates (WAC.001's Qg6 line, found at depth 8 only with this
/// pruning off).
pub fn prunes_move(
    node: &NodeView,
    mv: &MoveView,
    gives_check: impl FnOnce() -> bool,
    params: &Params,
) -> Decision {
    let applies = mv.quiet_index > 0
        && !node.in_check
        && !node.pv_node
        && (1..=params.max_depth).contains(&node.depth)
        && !gives_check();
    let count = params.base as usize + (node.depth * node.depth).max(0) as usize;
    Decision::when(applies, mv.quiet_index > count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_check_is_never_skipped() {
        let node = NodeView {
            depth: 1,
            ..NodeView::default()
        };
        let mv = MoveView {
            quiet_index: 50,
            ..MoveView::default()
        };
        let p = Params::default();
        assert!(prunes_move(&node, &mv, || false, &p).acts());
        assert_eq!(prunes_move(&node, &mv, || true, &p), Decision::Inapplicable);
    }

    fn prunes(depth: i32, in_check: bool, pv_node: bool, quiet_index: usize, p: &Params) -> bool {
        let node = NodeView { depth, in_check, pv_node, ..NodeView::default() };
        let mv = MoveView { quiet_index, ..MoveView::default() };
        prunes_move(&node, &mv, || false, p).acts()
    }

    #[test]
    fn counts_grow_with_the_square_of_the_depth() {
        let p = Params::default();
        assert!(!prunes(1, false, false, 4, &p));
        assert!(prunes(1, false, false, 5, &p));
        assert!(!prunes(3, false, false, 12, &p));
        assert!(prunes(3, false, false, 13, &p));
        assert!(prunes(8, false, false, 68, &p));
    }

    #[test]
    fn not_in_check_at_pv_nodes_or_beyond_max_depth() {
        let p = Params::default();
        assert!(!prunes(1, true, false, 50, &p));
        assert!(!prunes(1, false, true, 50, &p));
        assert!(!prunes(9, false, false, 500, &p));
    }
}
