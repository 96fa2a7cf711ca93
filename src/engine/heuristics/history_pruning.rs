//! `history_pruning`: near the leaves, a quiet move whose continuation history is bad is not
//! searched. Ethereal 12's "counter-move pruning" and "follow-up move pruning" (search.c,
//! steps 13C and 13D): at depth ≤ 3 (2 when improving) a quiet move is skipped when its history
//! after the opponent's previous move is below 0 (−1,000 when improving), or, at the same
//! depths, when its history after the side's own previous move is below −2,000 (−4,000). The
//! scores are `continuation_history`'s, whose bonus (depth², at most 1,200) and bound (16,384)
//! are on Ethereal's scale, so its limits carry over. Stockfish has the same idea with one
//! combined score (`history < -4000 · depth`).
//!
//! It leaves the node's first move alone (Ethereal waits for a searched move with a score
//! above being mated) and stays out of check. Unlike Ethereal it never skips a move that gives
//! check (asked only where it would act): `late_move_pruning` learned that a skipped quiet
//! check hides mates (WAC.001's Qg6), and a check's history says little about it.

use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};

heuristic_params! {
    /// Parameters of `history_pruning`.
    pub struct Params {
        /// Skip quiet moves with a bad continuation history near the leaves.
        pub enabled: bool = false,
        /// The deepest remaining depth it applies at, when not improving (Ethereal 12: 3).
        pub max_depth: i32 [0..=16] = 3,
        /// The same, when improving (Ethereal 12: 2).
        pub max_depth_improving: i32 [0..=16] = 2,
        /// Skip below this history after the opponent's move, when not improving (Ethereal 12: 0).
        pub counter_limit: i32 [-100000..=100000, tune -2000..=2000] = 0,
        /// The same, when improving (Ethereal 12: −1,000).
        pub counter_limit_improving: i32 [-100000..=100000] = -1000,
        /// Skip below this history after the side's own previous move, when not improving
        /// (Ethereal 12: −2,000).
        pub follow_up_limit: i32 [-100000..=100000] = -2000,
        /// The same, when improving (Ethereal 12: −4,000).
        pub follow_up_limit_improving: i32 [-100000..=100000] = -4000,
    }
}

/// Skip this quiet move: it applies to a quiet move other than the node's first that gives no
/// check (`gives_check`, asked once the rest holds), outside check, within the depth limit
/// (by `node.improving`); it acts when either continuation score is below its limit.
pub fn prunes_move(
    node: &NodeView,
    mv: &MoveView,
    gives_check: impl FnOnce() -> bool,
    params: &Params,
) -> Decision {
    let (max_depth, counter, follow_up) = if node.improving {
        (
            params.max_depth_improving,
            params.counter_limit_improving,
            params.follow_up_limit_improving,
        )
    } else {
        (
            params.max_depth,
            params.counter_limit,
            params.follow_up_limit,
        )
    };
    let applies = mv.is_late_quiet(node, max_depth, gives_check);
    let bad = mv.continuation[0] < counter || mv.continuation[1] < follow_up;
    Decision::when(applies, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prunes(depth: i32, improving: bool, continuation: [i32; 2], check: bool) -> bool {
        let node = NodeView {
            depth,
            improving,
            ..NodeView::default()
        };
        let mv = MoveView {
            quiet_index: 3,
            legal_count: 5,
            continuation,
            ..MoveView::default()
        };
        prunes_move(&node, &mv, || check, &Params::default()).acts()
    }

    #[test]
    fn ethereal_limits_by_improving() {
        assert!(prunes(3, false, [-1, 0], false));
        assert!(!prunes(3, false, [0, -2000], false));
        assert!(prunes(3, false, [0, -2001], false));
        assert!(!prunes(3, true, [-1, 0], false), "depth 3 only when not improving");
        assert!(!prunes(2, true, [-1000, -4000], false));
        assert!(prunes(2, true, [-1001, 0], false));
        assert!(prunes(2, true, [0, -4001], false));
        assert!(!prunes(4, false, [-9000, -9000], false));
    }

    #[test]
    fn never_a_check_the_first_move_or_in_check() {
        assert!(!prunes(1, false, [-9000, 0], true));
        let p = Params::default();
        let mv = MoveView {
            quiet_index: 1,
            legal_count: 1,
            continuation: [-9000, -9000],
            ..MoveView::default()
        };
        let node = NodeView {
            depth: 1,
            ..NodeView::default()
        };
        assert_eq!(prunes_move(&node, &mv, || false, &p), Decision::Inapplicable);
        let in_check = NodeView {
            in_check: true,
            ..node
        };
        let later = MoveView { legal_count: 2, ..mv };
        assert_eq!(prunes_move(&in_check, &later, || false, &p), Decision::Inapplicable);
        assert!(prunes_move(&node, &later, || false, &p).acts());
        // A quiet check is never skipped, so it is not tested either.
        assert_eq!(prunes_move(&node, &later, || true, &p), Decision::Inapplicable);
    }
}
