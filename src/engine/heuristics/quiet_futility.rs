//! `quiet_futility`: futility pruning of quiet moves before they are made, far from the leaves
//! (Chess Programming Wiki, "Futility Pruning"; Ethereal 12.00, search.c steps 11A and 11B).
//! Where the static evaluation plus `margin` per ply of remaining depth is still at most alpha,
//! a quiet move is not expected to raise alpha unless its history says it has done so
//! before: up to depth 8 Ethereal skips the quiet moves once the evaluation plus 90 per ply
//! is at most alpha and the move's history (`hist + cmhist + fmhist`) is below 12,000
//! (6,000 when improving), or once the evaluation plus 90 per ply plus 256 is at most alpha
//! whatever the history.
//!
//! 004's `futility` is the same idea at the last plies only, judged on the evaluation after the
//! move (made first) within half a pawn; this form reaches eight plies from the horizon and
//! pays nothing to judge a move, so it narrows the tree where 004's cannot act. Depths 4 to 8
//! are where the default's tree is widest beside Ethereal's (`reports/depth-gap/`).
//!
//! Two differences from Ethereal 12, both this crate's conventions for quiet-move pruning:
//! each quiet move is judged by its own history (Stockfish's per-move form), where Ethereal
//! stops all the node's remaining quiet moves once one of them qualifies (and searches that
//! one); and a quiet check is never skipped (`late_move_pruning` learned that a skipped quiet
//! check hides mates). As in Ethereal it applies at PV nodes too, never in check, and never to
//! the node's first move (Ethereal waits for a searched move).

use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};

heuristic_params! {
    /// Parameters of `quiet_futility`.
    pub struct Params {
        /// Skip quiet moves whose node's evaluation is far below alpha, up to `max_depth`.
        pub enabled: bool = false,
        /// The deepest remaining depth it applies at (Ethereal 12: 8).
        pub max_depth: i32 [1..=16] = 8,
        /// The margin per ply of remaining depth, centipawns (Ethereal 12: 90).
        pub margin: i32 [0..=1000] = 90,
        /// The further margin past which the history no longer matters (Ethereal 12: 256).
        pub margin_no_history: i32 [0..=2000] = 256,
        /// A move with history below this is skipped, when not improving (Ethereal 12: 12,000).
        pub history_limit: i32 [-100000..=100000] = 12000,
        /// The same, when improving (Ethereal 12: 6,000).
        pub history_limit_improving: i32 [-100000..=100000] = 6000,
    }
}

/// Skip this quiet move: it applies to a quiet move other than the node's first that gives no
/// check (`gives_check`, asked once the rest holds), outside check, within `max_depth`; it acts
/// when the static evaluation plus `margin · depth` is at most alpha and the move's history is
/// below the limit (by `node.improving`), or when even `margin_no_history` more stays at most
/// alpha.
pub fn prunes_move(
    node: &NodeView,
    mv: &MoveView,
    gives_check: impl FnOnce() -> bool,
    params: &Params,
) -> Decision {
    let applies = mv.is_late_quiet(node, params.max_depth, gives_check);
    let limit = if node.improving {
        params.history_limit_improving
    } else {
        params.history_limit
    };
    let futile = node.static_eval + params.margin * node.depth;
    let acts = futile <= node.alpha
        && (mv.history < limit || futile + params.margin_no_history <= node.alpha);
    Decision::when(applies, acts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prunes(depth: i32, static_eval: i32, improving: bool, history: i32) -> bool {
        let node = NodeView {
            depth,
            alpha: 0,
            beta: 1,
            static_eval,
            improving,
            ..NodeView::default()
        };
        let mv = MoveView {
            quiet_index: 2,
            legal_count: 3,
            history,
            ..MoveView::default()
        };
        prunes_move(&node, &mv, || false, &Params::default()).acts()
    }

    #[test]
    fn the_margin_grows_by_ninety_a_ply() {
        assert!(prunes(1, -90, false, 0));
        assert!(!prunes(1, -89, false, 0));
        assert!(prunes(8, -720, false, 0));
        assert!(!prunes(8, -719, false, 0));
        assert!(!prunes(9, -5000, false, 0), "beyond max_depth");
    }

    #[test]
    fn good_history_spares_a_move_until_the_further_margin() {
        assert!(!prunes(2, -180, false, 12_000));
        assert!(prunes(2, -180, false, 11_999));
        assert!(!prunes(2, -180, true, 6_000), "the improving limit is lower");
        assert!(prunes(2, -180, true, 5_999));
        assert!(prunes(2, -180 - 256, false, 50_000), "past the further margin");
        assert!(!prunes(2, -180 - 255, false, 50_000));
    }

    #[test]
    fn never_the_first_move_a_capture_a_check_or_in_check() {
        let p = Params::default();
        let node = NodeView {
            depth: 3,
            static_eval: -2000,
            ..NodeView::default()
        };
        let quiet = MoveView {
            quiet_index: 2,
            legal_count: 2,
            ..MoveView::default()
        };
        assert!(prunes_move(&node, &quiet, || false, &p).acts());
        assert_eq!(
            prunes_move(&node, &quiet, || true, &p),
            Decision::Inapplicable
        );
        let first = MoveView {
            legal_count: 1,
            ..quiet
        };
        assert_eq!(
            prunes_move(&node, &first, || false, &p),
            Decision::Inapplicable
        );
        let capture = MoveView {
            quiet_index: 0,
            ..quiet
        };
        assert_eq!(
            prunes_move(&node, &capture, || false, &p),
            Decision::Inapplicable
        );
        let in_check = NodeView {
            in_check: true,
            ..node
        };
        assert_eq!(
            prunes_move(&in_check, &quiet, || false, &p),
            Decision::Inapplicable
        );
    }
}
