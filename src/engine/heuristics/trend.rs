//! `trend` (002, "Проверка восходящих последовательностей и тренда"): with EMAs of matching
//! periods, `A = ((ema8 - ema32) + (ema16 - ema32)) / 2`, `B = EMA(A, 3)`; the score is going
//! up when `A > B`, down when `B > A`. Alpha form: skip a move on a down trend when
//! `-search(depth-2) <= alpha`; beta form: cut on an up trend when `-search(depth-2) >= beta`.

use super::params::heuristic_params;
use super::view::{MoveView, Side};

heuristic_params! {
    /// Parameters of `trend`.
    pub struct Params {
        /// The trend signal.
        pub enabled: bool = false,
        /// `alpha` (skip on a down trend) or `beta` (cut on an up trend).
        pub side: Side = Side::Alpha,
    }
}

/// Down trend (`B > A`): alpha-side candidate.
pub fn alpha_candidate(mv: &MoveView, params: &Params) -> bool {
    params.side.alpha() && mv.line.trend_b > mv.line.trend_a
}

/// Up trend (`A > B`): beta-side candidate.
pub fn beta_candidate(mv: &MoveView, params: &Params) -> bool {
    params.side.beta() && mv.line.trend_a > mv.line.trend_b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::LineStats;

    fn mv(a: f64, b: f64) -> MoveView {
        MoveView {
            line: LineStats {
                trend_a: a,
                trend_b: b,
                ..LineStats::default()
            },
            ..MoveView::default()
        }
    }

    #[test]
    fn alpha_form_fires_on_a_down_trend() {
        let p = Params::default();
        assert!(alpha_candidate(&mv(-5.0, 2.0), &p));
        assert!(!alpha_candidate(&mv(5.0, 2.0), &p));
        assert!(!beta_candidate(&mv(5.0, 2.0), &p), "alpha side only");
    }

    #[test]
    fn beta_form_fires_on_an_up_trend() {
        let p = Params {
            side: Side::Beta,
            ..Params::default()
        };
        assert!(beta_candidate(&mv(5.0, 2.0), &p));
        assert!(!beta_candidate(&mv(-5.0, 2.0), &p));
        assert!(!alpha_candidate(&mv(-5.0, 2.0), &p), "beta side only");
    }
}
