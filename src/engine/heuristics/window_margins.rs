//! `window_margins` (002, "Еще о окне вероятной оценки"): the likely window around the average
//! is known in advance: about 2% of the material in play around the local average (a minor
//! piece, MARGIN1 = knight) and 20% around the global one (MARGIN2 = queen). On material EMAs:
//! - beta cut: `ema10 - MARGIN1 > beta`, not the first legal move, `ply > 2`, material
//!   momentum `- pawn/2 > 0`, not in check, the opponent has no pawn on its 7th rank, and
//!   `-search(depth-2) >= beta`;
//! - alpha skip: `ema24 + MARGIN2 < alpha`, not the first legal move, `ply > 2`, momentum
//!   `+ pawn/2 < 0`, the move gives no check, no own pawn on the 7th, and
//!   `-search(depth-2) <= alpha`.
//!
//! 002's listing has both in one function; `side` can restrict it to one.

use super::params::heuristic_params;
use super::view::{MoveView, NodeView, Side};
use crate::engine::eval::{PAWN, PIECE_VALUE};

heuristic_params! {
    /// Parameters of `window_margins`.
    pub struct Params {
        /// The window margins signal.
        pub enabled: bool = false,
        /// `both` (002's listing), `alpha` or `beta`.
        pub side: Side = Side::Both,
        /// MARGIN1, the local window (002: a knight).
        pub margin1: i32 [0..=5000] = PIECE_VALUE[1],
        /// MARGIN2, the global window (002: a queen).
        pub margin2: i32 [0..=5000] = PIECE_VALUE[4],
    }
}

/// Beta-cut candidate.
pub fn beta_candidate(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    beta_applies(node, mv, params)
        && mv.line.material_ema10 - f64::from(params.margin1) > f64::from(node.beta)
        && mv.line.material_momentum - PAWN / 2 > 0
}

/// The beta rule is consulted on a move other than the first beyond ply 2, outside check,
/// with no opponent pawn on its seventh rank.
pub fn beta_applies(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    params.side.beta()
        && mv.legal_count > 1
        && node.ply > 2
        && !node.in_check
        && !mv.opponent_pawn_on_seventh
}

/// Alpha-skip candidate.
pub fn alpha_candidate(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    alpha_applies(node, mv, params)
        && mv.line.material_ema24 + f64::from(params.margin2) < f64::from(node.alpha)
        && mv.line.material_momentum + PAWN / 2 < 0
}

/// The alpha rule is consulted on a move other than the first beyond ply 2 that gives no
/// check, with no pawn of ours on our seventh rank.
pub fn alpha_applies(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    params.side.alpha()
        && mv.legal_count > 1
        && node.ply > 2
        && !mv.gives_check
        && !mv.own_pawn_on_seventh
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::LineStats;

    fn node() -> NodeView {
        NodeView {
            ply: 3,
            alpha: 0,
            beta: 10,
            depth: 5,
            ..NodeView::default()
        }
    }

    fn ahead() -> MoveView {
        MoveView {
            legal_count: 2,
            line: LineStats {
                material_ema10: 400.0,
                material_momentum: 100,
                ..LineStats::default()
            },
            ..MoveView::default()
        }
    }

    fn behind() -> MoveView {
        MoveView {
            legal_count: 2,
            line: LineStats {
                material_ema24: -1000.0,
                material_momentum: -100,
                ..LineStats::default()
            },
            ..MoveView::default()
        }
    }

    #[test]
    fn beta_cut_conditions() {
        let p = Params::default();
        assert!(beta_candidate(&node(), &ahead(), &p));
        assert!(!beta_candidate(
            &node(),
            &MoveView {
                legal_count: 1,
                ..ahead()
            },
            &p
        ));
        assert!(!beta_candidate(
            &NodeView { ply: 2, ..node() },
            &ahead(),
            &p
        ));
        assert!(!beta_candidate(
            &NodeView {
                in_check: true,
                ..node()
            },
            &ahead(),
            &p
        ));
        assert!(!beta_candidate(
            &node(),
            &MoveView {
                opponent_pawn_on_seventh: true,
                ..ahead()
            },
            &p
        ));
        let mut slow = ahead();
        slow.line.material_momentum = 50;
        assert!(!beta_candidate(&node(), &slow, &p));
        let mut small = ahead();
        small.line.material_ema10 = 330.0;
        assert!(!beta_candidate(&node(), &small, &p));
    }

    #[test]
    fn alpha_skip_conditions() {
        let p = Params::default();
        assert!(alpha_candidate(&node(), &behind(), &p));
        assert!(!alpha_candidate(
            &node(),
            &MoveView {
                gives_check: true,
                ..behind()
            },
            &p
        ));
        assert!(!alpha_candidate(
            &node(),
            &MoveView {
                own_pawn_on_seventh: true,
                ..behind()
            },
            &p
        ));
        assert!(!alpha_candidate(
            &node(),
            &MoveView {
                legal_count: 1,
                ..behind()
            },
            &p
        ));
        let mut steady = behind();
        steady.line.material_momentum = -50;
        assert!(!alpha_candidate(&node(), &steady, &p));
    }

    #[test]
    fn one_sided_forms() {
        let alpha = Params {
            side: Side::Alpha,
            ..Params::default()
        };
        assert!(!beta_candidate(&node(), &ahead(), &alpha));
        let beta = Params {
            side: Side::Beta,
            ..Params::default()
        };
        assert!(!alpha_candidate(&node(), &behind(), &beta));
    }
}
