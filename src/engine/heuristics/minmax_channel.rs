//! `minmax_channel` (002, "Минимум и максимум за период"): the highest and lowest of the
//! side's scores over the last 5 plies bound the likely score. Alpha form:
//! `MaxScore(5) + pawn/2 < alpha && momentum + pawn/2 < 0` (material falling), verified by
//! `-search(depth-2) <= alpha` → alpha. Beta form: `MinScore(5) - pawn/2 > beta && momentum +
//! pawn/2 > 0`, verified `>= beta` → beta. 002 notes the extremes are better taken on the full
//! evaluation than on material; we use the full evaluation series.

use super::params::heuristic_params;
use super::view::{MoveView, NodeView, Side};
use crate::engine::eval::PAWN;

heuristic_params! {
    /// Parameters of `minmax_channel`.
    pub struct Params {
        /// The min/max channel signal.
        pub enabled: bool = false,
        /// `alpha` or `beta` form.
        pub side: Side = Side::Alpha,
        /// The margin around the extremes (002: pawn/2).
        pub margin: i32 [0..=2000] = PAWN / 2,
    }
}

/// Alpha form candidate.
pub fn alpha_candidate(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    params.side.alpha()
        && mv.line.max_eval5 + params.margin < node.alpha
        && mv.line.material_momentum + params.margin < 0
}

/// Beta form candidate.
pub fn beta_candidate(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    params.side.beta()
        && mv.line.min_eval5 - params.margin > node.beta
        && mv.line.material_momentum + params.margin > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::LineStats;

    fn node() -> NodeView {
        NodeView {
            alpha: 0,
            beta: 10,
            depth: 4,
            ..NodeView::default()
        }
    }

    fn mv(max: i32, min: i32, momentum: i32) -> MoveView {
        MoveView {
            line: LineStats {
                max_eval5: max,
                min_eval5: min,
                material_momentum: momentum,
                ..LineStats::default()
            },
            ..MoveView::default()
        }
    }

    #[test]
    fn alpha_form_needs_the_channel_below_alpha_and_falling_material() {
        let p = Params::default();
        assert!(alpha_candidate(&node(), &mv(-51, -200, -51), &p));
        assert!(
            !alpha_candidate(&node(), &mv(-50, -200, -51), &p),
            "max too high"
        );
        assert!(
            !alpha_candidate(&node(), &mv(-51, -200, -50), &p),
            "material not falling"
        );
    }

    #[test]
    fn beta_form_needs_the_channel_above_beta_and_rising_material() {
        let p = Params {
            side: Side::Beta,
            ..Params::default()
        };
        assert!(beta_candidate(&node(), &mv(300, 61, 0), &p));
        assert!(!beta_candidate(&node(), &mv(300, 60, 0), &p), "min too low");
        assert!(
            !beta_candidate(&node(), &mv(300, 61, -50), &p),
            "material not rising"
        );
        assert!(
            !alpha_candidate(&node(), &mv(-100, -200, -100), &p),
            "beta side only"
        );
    }
}
