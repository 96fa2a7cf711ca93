//! `null_move` (001): pass the move and search the opponent's reply with the depth reduced by
//! `R` (001: "skip a move and see how bad it gets; the depth may be reduced"); if even then the
//! score reaches beta, the node fails high. Never twice in a row, never in check; 001 marks
//! the positions below a null move with a distinct hash key (see `engine/tt.rs`).
//!
//! 001 tries it wherever it is allowed, with a fixed `R`. Engines since then try it only where
//! it is likely to fail high and reduce more the more it is likely to: Ethereal 12 at a
//! null-window node whose static evaluation is at least beta, when the side to move has a piece
//! (a pawn ending is where passing is better than every move, zugzwang), with
//! `R = 4 + depth / 6 + min(3, (eval − beta) / 200)` plies below the node (Stockfish's form
//! is the same shape). Those conditions and terms are parameters here, off by default so that
//! 001's form stays 001's; `modern` sets Ethereal 12's. `reduction` counts below the child
//! (001's convention), so Ethereal's 4 is `reduction = 3`.
//!
//! What the form saved in nodes and scored in games against 001's before `modern` took it:
//! `reports/checks/README.md`.

use super::params::heuristic_params;
use super::view::NodeView;

heuristic_params! {
    /// Parameters of `null_move`.
    pub struct Params {
        /// Try the null move.
        pub enabled: bool = false,
        /// Depth reduction `R` (001: 2; the documented variant is 3).
        pub reduction: i32 [0..=16] = 2,
        /// `R` grows by one ply per this many plies of remaining depth (0: it does not).
        pub depth_divisor: i32 [0..=64; structural] = 0,
        /// `R` grows by one ply per this many centipawns the static evaluation exceeds beta
        /// by (0: it does not), up to `eval_max` plies.
        pub eval_divisor: i32 [0..=2000; structural] = 0,
        /// The most `R` grows by for the evaluation's excess over beta.
        pub eval_max: i32 [0..=16] = 3,
        /// Only where the static evaluation is at least beta.
        pub above_beta: bool = false,
        /// Only at null-window nodes (not on the principal variation).
        pub null_window_only: bool = false,
        /// Only where the side to move has a piece besides pawns and king (zugzwang).
        pub needs_pieces: bool = false,
        /// Only at a remaining depth of at least this (0 and 1: at every interior node;
        /// Ethereal 12.00's `NullMovePruningDepth` is 2).
        pub min_depth: i32 [0..=8] = 1,
        /// Not where the transposition table's entry holds an upper bound (or an exact score)
        /// below beta: a search of the node itself already fell short of beta, so passing,
        /// which is worse than the best move but in zugzwang, will not reach it (Ethereal
        /// 12.00's `!ttHit || !(ttBound & BOUND_UPPER) || ttValue >= beta`, its `search.c`).
        pub table_guard: bool = false,
    }
}

/// The null move may be tried at this node.
pub fn allowed(node: &NodeView, params: &Params) -> bool {
    node.ply > 0
        && !node.in_check
        && !node.after_null_move
        && (!params.above_beta || node.static_eval >= node.beta)
        && (!params.null_window_only || !node.pv_node)
        && (!params.needs_pieces || node.has_pieces)
        && node.depth >= params.min_depth
        && !(params.table_guard && node.table_upper.is_some_and(|upper| upper < node.beta))
}

/// Depth of the null-move search.
pub fn search_depth(node: &NodeView, params: &Params) -> i32 {
    let by_depth = if params.depth_divisor > 0 {
        node.depth / params.depth_divisor
    } else {
        0
    };
    let by_eval = if params.eval_divisor > 0 {
        ((node.static_eval - node.beta) / params.eval_divisor).clamp(0, params.eval_max)
    } else {
        0
    };
    node.depth - 1 - params.reduction - by_depth - by_eval
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
        let from_two = Params {
            min_depth: 2,
            ..Params::default()
        };
        assert!(allowed(&node(), &from_two));
        assert!(!allowed(&NodeView { depth: 1, ..node() }, &from_two));
        assert!(allowed(&NodeView { depth: 1, ..node() }, &Params::default()));
        assert_eq!(search_depth(&node(), &Params::default()), 3);
    }

    #[test]
    fn the_table_guard_leaves_out_a_node_the_table_bounds_below_beta() {
        let guard = Params {
            table_guard: true,
            ..Params::default()
        };
        let below = NodeView {
            table_upper: Some(5),
            ..node()
        };
        assert!(allowed(&below, &Params::default()), "off by default");
        assert!(!allowed(&below, &guard));
        let at_beta = NodeView {
            table_upper: Some(10),
            ..node()
        };
        assert!(allowed(&at_beta, &guard), "an upper bound at beta does not say it fails");
        assert!(allowed(&node(), &guard), "no entry, or a lower bound");
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

    /// Ethereal 12's form, as `modern` sets it.
    fn ethereal() -> Params {
        Params {
            enabled: true,
            reduction: 3,
            depth_divisor: 6,
            eval_divisor: 200,
            eval_max: 3,
            above_beta: true,
            null_window_only: true,
            needs_pieces: true,
            ..Params::default()
        }
    }

    #[test]
    fn the_reduction_grows_with_depth_and_the_evaluations_excess() {
        let p = ethereal();
        let at = |depth, static_eval| NodeView { depth, static_eval, has_pieces: true, ..node() };
        // 12 − 1 − 3 − 12/6 − 0 = 6; Ethereal: 12 − (4 + 2 + 0) = 6.
        assert_eq!(search_depth(&at(12, 10), &p), 6);
        assert_eq!(search_depth(&at(12, 10 + 450), &p), 4, "two plies for 450 cp over beta");
        assert_eq!(search_depth(&at(12, 10 + 5000), &p), 3, "at most eval_max");
    }

    #[test]
    fn the_modern_conditions() {
        let p = ethereal();
        let good = NodeView { static_eval: 10, has_pieces: true, ..node() };
        assert!(allowed(&good, &p));
        assert!(!allowed(&NodeView { static_eval: 9, ..good }, &p), "below beta");
        assert!(!allowed(&NodeView { pv_node: true, ..good }, &p), "a PV node");
        assert!(!allowed(&NodeView { has_pieces: false, ..good }, &p), "pawns only");
        assert!(allowed(&NodeView { static_eval: -500, pv_node: true, ..node() }, &Params::default()), "001 tries it anyway");
    }

    #[test]
    fn never_at_the_root() {
        assert!(!allowed(&NodeView { ply: 0, ..node() }, &Params::default()));
    }
}
