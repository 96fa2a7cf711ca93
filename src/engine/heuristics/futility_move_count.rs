//! `futility_move_count` (001, which calls it LMR, seen in Ifrit): in the last 9 plies of
//! remaining depth, when not in check, only the first N quiet moves (after sorting) are
//! searched; N = {19, 19, 19, 19, 19, 35, 67, 131, 259} for remaining depth 1..9. 001 prints
//! the array reversed ("first 259, then 131, 67, ... down to 19" going down the tree).

use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};

heuristic_params! {
    /// Parameters of `futility_move_count`.
    pub struct Params {
        /// Search only the first N quiet moves near the leaves.
        pub enabled: bool = false,
        /// N for remaining depth 1, 2, ..., 9 (001's `FutilityMoveCount`).
        pub counts: [u32; 9] = [19, 19, 19, 19, 19, 35, 67, 131, 259],
    }
}

/// Skip this quiet move: it applies to quiet moves outside check in the last 9 plies, and
/// acts past the first N of them.
pub fn prunes_move(node: &NodeView, mv: &MoveView, params: &Params) -> Decision {
    let applies = mv.quiet_index > 0 && !node.in_check && (1..=9).contains(&node.depth);
    Decision::when(
        applies,
        applies && mv.quiet_index > params.counts[(node.depth - 1) as usize] as usize,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prunes(depth: i32, in_check: bool, quiet_index: usize, p: &Params) -> bool {
        let node = NodeView { depth, in_check, ..NodeView::default() };
        let mv = MoveView { quiet_index, ..MoveView::default() };
        prunes_move(&node, &mv, p).acts()
    }

    #[test]
    fn counts_by_remaining_depth() {
        let p = Params::default();
        assert!(!prunes(1, false, 19, &p));
        assert!(prunes(1, false, 20, &p));
        assert!(!prunes(9, false, 259, &p));
        assert!(prunes(9, false, 260, &p));
        assert!(prunes(6, false, 36, &p));
    }

    #[test]
    fn not_in_check() {
        assert!(!prunes(1, true, 100, &Params::default()));
    }

    #[test]
    fn not_beyond_the_last_nine_plies() {
        assert!(!prunes(10, false, 1000, &Params::default()));
    }
}
