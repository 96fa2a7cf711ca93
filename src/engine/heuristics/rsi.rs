//! `rsi` (002, "Динамический моментум. Индекс относительной силы"): per side, EMAs (period 5)
//! of the positive score increments `up` and `down` (x100); `rsi = 100*up/(up+down)`. 002
//! derives three flags: `exchange = capture && ply > 5 && |rsi-50| <= 5`, `rising = rsi > 55`,
//! `over = rsi > 80` ("too high, probably a mistaken line") and leaves the action open. Our
//! action, stated here as the document does not give one: a move that gives no check and
//! leaves `R <= alpha` is a candidate for the verified skip `-search(depth-2) <= alpha` unless
//! it is an exchange or the score is rising; an over-bought (`over`) line is a candidate even
//! when rising.

use super::params::heuristic_params;
use super::view::{MoveView, NodeView};

heuristic_params! {
    /// Parameters of `rsi`.
    pub struct Params {
        /// The RSI signal.
        pub enabled: bool = false,
        /// Exchange band around 50 (002: 5).
        pub exchange_band: f64 [0.0..=50.0] = 5.0,
        /// Rising above this RSI (002: 55).
        pub rising: f64 [0.0..=100.0] = 55.0,
        /// Over-bought above this RSI (002: 80).
        pub over: f64 [0.0..=100.0] = 80.0,
        /// The flags apply beyond this ply (002: `ply > 5`).
        pub min_ply: u32 [0..=127] = 5,
    }
}

/// 002's `recapture` flag.
pub fn exchange(mv: &MoveView, params: &Params) -> bool {
    mv.capture && (mv.line.rsi - 50.0).abs() <= params.exchange_band
}

/// Candidate for a verified skip.
pub fn candidate(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    let rsi = mv.line.rsi;
    applies(node, mv, params)
        && mv.eval_after <= node.alpha
        && (rsi <= params.rising || rsi > params.over)
}

/// The signal is consulted beyond `min_ply` on a move that gives no check and is no exchange.
pub fn applies(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    node.ply + 1 > params.min_ply as usize && !mv.gives_check && !exchange(mv, params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::LineStats;

    fn node() -> NodeView {
        NodeView {
            ply: 6,
            alpha: 0,
            beta: 10,
            depth: 4,
            ..NodeView::default()
        }
    }

    fn mv(rsi: f64) -> MoveView {
        MoveView {
            eval_after: -10,
            line: LineStats {
                rsi,
                ..LineStats::default()
            },
            ..MoveView::default()
        }
    }

    #[test]
    fn falling_rsi_below_alpha_is_a_candidate() {
        assert!(candidate(&node(), &mv(30.0), &Params::default()));
    }

    #[test]
    fn exchanges_are_not_candidates() {
        let capture = MoveView {
            capture: true,
            ..mv(52.0)
        };
        assert!(exchange(&capture, &Params::default()));
        assert!(!candidate(&node(), &capture, &Params::default()));
        assert!(
            candidate(&node(), &mv(52.0), &Params::default()),
            "a quiet move is no exchange"
        );
    }

    #[test]
    fn rising_is_kept_but_over_bought_is_a_candidate() {
        assert!(!candidate(&node(), &mv(60.0), &Params::default()));
        assert!(candidate(&node(), &mv(85.0), &Params::default()));
    }

    #[test]
    fn not_in_the_first_plies_nor_for_checks_nor_above_alpha() {
        assert!(!candidate(
            &NodeView { ply: 4, ..node() },
            &mv(30.0),
            &Params::default()
        ));
        assert!(!candidate(
            &node(),
            &MoveView {
                gives_check: true,
                ..mv(30.0)
            },
            &Params::default()
        ));
        assert!(!candidate(
            &node(),
            &MoveView { eval_after: 1, ..mv(30.0) },
            &Params::default()
        ));
    }
}
