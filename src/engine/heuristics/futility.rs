//! `futility` (004, after E. Heinz; also 001): in the last two plies the static evaluation is
//! trusted within a margin of half a pawn.
//!
//! - Frontier form, at the node: not in a test search (below), `depth <= 2`, the node is not
//!   extended, the move into it was not a capture and gave no check, and
//!   `evaluate() - margin >= beta` → return beta.
//! - Pre-frontier form, in the parent after making the move: not in a test search,
//!   `depth - 1 <= 2`, the move is no capture, gives no check, is not extended, our king was
//!   not in check, and `evaluate() + margin <= alpha` → skip the move (score taken as alpha).
//!
//! **Test searches.** 004 applies futility only "if we are not making a null move (or another
//! search of reduced depth)". Both forms therefore stay off inside a null-move search and
//! inside the reduced-depth search (`depth - 2`) that verifies a 002 signal: there futility's
//! own error would compound the test's. The reduced search of a GSR move is not such a search
//! (its result is the move's score, re-searched at full depth when it beats alpha), so
//! futility applies there, as modern engines apply it inside late-move reductions.
//!
//! `razoring` (001) is the same pair of tests with four plies and a piece's margin; it calls
//! the `*_with` functions here.

use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};
use crate::engine::eval::PAWN;
use crate::engine::score::Score;

heuristic_params! {
    /// Parameters of `futility`.
    pub struct Params {
        /// Futility pruning.
        pub enabled: bool = false,
        /// The margin (004: half a pawn, "the largest positional gain").
        pub margin: i32 [0..=2000] = PAWN / 2,
        /// Applied at the last this many plies (004: 2).
        pub max_depth: i32 [0..=16] = 2,
        /// The frontier form (at the node).
        pub frontier: bool = true,
        /// The pre-frontier form (in the parent, per move).
        pub pre_frontier: bool = true,
    }
}

/// The node-form test with any depth limit and margin. It applies where the node is within
/// `max_depth` of the horizon, outside test searches, not extended, not entered by a capture
/// and not in check.
pub fn frontier_cut_with(node: &NodeView, max_depth: i32, margin: Score) -> Decision {
    let applies = !node.in_reduced_search
        && node.depth <= max_depth
        && !node.extended
        && !node.entered_by_capture
        && !node.in_check;
    Decision::when(applies, node.static_eval - margin >= node.beta)
}

/// The move-form test with any depth limit and margin (`mv.eval_after` is the evaluation after
/// the move for the mover). It applies to a quiet, unextended move that gives no check, made
/// outside check and test searches within `max_depth` of the horizon.
pub fn prunes_move_with(node: &NodeView, mv: &MoveView, max_depth: i32, margin: Score) -> Decision {
    let applies = !node.in_reduced_search
        && node.depth - 1 <= max_depth
        && !mv.capture
        && !mv.gives_check
        && !mv.extended
        && !node.in_check;
    Decision::when(applies, mv.eval_after + margin <= node.alpha)
}

/// Frontier form: return beta at this node.
pub fn frontier_cut(node: &NodeView, params: &Params) -> Decision {
    if !params.frontier {
        return Decision::Inapplicable;
    }
    frontier_cut_with(node, params.max_depth, params.margin)
}

/// Pre-frontier form: skip this move.
pub fn prunes_move(node: &NodeView, mv: &MoveView, params: &Params) -> Decision {
    if !params.pre_frontier {
        return Decision::Inapplicable;
    }
    prunes_move_with(node, mv, params.max_depth, params.margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_tested_where_it_cannot_act() {
        let p = Params::default();
        let test = NodeView {
            in_reduced_search: true,
            ..node()
        };
        assert_eq!(frontier_cut(&test, &p), Decision::Inapplicable);
        assert_eq!(prunes_move(&test, &quiet(-500), &p), Decision::Inapplicable);
        assert_eq!(prunes_move(&node(), &quiet(500), &p), Decision::Declines);
    }

    fn node() -> NodeView {
        NodeView {
            depth: 2,
            ply: 4,
            alpha: 0,
            beta: 10,
            static_eval: 100,
            ..NodeView::default()
        }
    }

    fn quiet(r: Score) -> MoveView {
        MoveView {
            eval_after: r,
            legal_count: 2,
            ..MoveView::default()
        }
    }

    #[test]
    fn frontier_fires_when_eval_minus_margin_reaches_beta() {
        let p = Params::default();
        assert!(frontier_cut(&node(), &p).acts());
        assert!(frontier_cut(
            &NodeView {
                static_eval: 60,
                ..node()
            },
            &p
        ).acts());
        assert!(!frontier_cut(
            &NodeView {
                static_eval: 59,
                ..node()
            },
            &p
        ).acts());
    }

    #[test]
    fn frontier_only_in_the_last_two_plies() {
        assert!(!frontier_cut(
            &NodeView { depth: 3, ..node() },
            &Params::default()
        ).acts());
    }

    #[test]
    fn frontier_not_in_a_null_move_search() {
        assert!(!frontier_cut(
            &NodeView {
                in_reduced_search: true,
                ..node()
            },
            &Params::default()
        ).acts());
    }

    #[test]
    fn frontier_not_at_an_extended_node() {
        assert!(!frontier_cut(
            &NodeView {
                extended: true,
                ..node()
            },
            &Params::default()
        ).acts());
    }

    #[test]
    fn frontier_not_after_a_capture() {
        assert!(!frontier_cut(
            &NodeView {
                entered_by_capture: true,
                ..node()
            },
            &Params::default()
        ).acts());
    }

    #[test]
    fn frontier_not_after_a_check() {
        assert!(!frontier_cut(
            &NodeView {
                in_check: true,
                ..node()
            },
            &Params::default()
        ).acts());
    }

    #[test]
    fn frontier_sub_toggle() {
        let p = Params {
            frontier: false,
            ..Params::default()
        };
        assert!(!frontier_cut(&node(), &p).acts());
    }

    #[test]
    fn pre_frontier_fires_when_eval_plus_margin_stays_below_alpha() {
        let p = Params::default();
        let n = NodeView { depth: 3, ..node() };
        assert!(prunes_move(&n, &quiet(-50), &p).acts());
        assert!(!prunes_move(&n, &quiet(-49), &p).acts());
        assert!(
            !prunes_move(&NodeView { depth: 4, ..n }, &quiet(-200), &p).acts(),
            "depth-1 <= 2 only"
        );
    }

    #[test]
    fn pre_frontier_not_for_captures() {
        let mv = MoveView {
            capture: true,
            ..quiet(-500)
        };
        assert!(!prunes_move(&node(), &mv, &Params::default()).acts());
    }

    #[test]
    fn pre_frontier_not_when_the_move_gives_check() {
        let mv = MoveView {
            gives_check: true,
            ..quiet(-500)
        };
        assert!(!prunes_move(&node(), &mv, &Params::default()).acts());
    }

    #[test]
    fn pre_frontier_not_for_extended_moves() {
        let mv = MoveView {
            extended: true,
            ..quiet(-500)
        };
        assert!(!prunes_move(&node(), &mv, &Params::default()).acts());
    }

    #[test]
    fn pre_frontier_not_when_our_king_is_in_check() {
        let n = NodeView {
            in_check: true,
            ..node()
        };
        assert!(!prunes_move(&n, &quiet(-500), &Params::default()).acts());
    }

    #[test]
    fn pre_frontier_not_in_a_null_move_search() {
        let n = NodeView {
            in_reduced_search: true,
            ..node()
        };
        assert!(!prunes_move(&n, &quiet(-500), &Params::default()).acts());
    }
}
