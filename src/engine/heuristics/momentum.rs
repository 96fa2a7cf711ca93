//! `momentum` (002, "Моментум"): the fifth momentum of the side's score along the line,
//! `static_score[side][ply] - static_score[side][max(0, ply-5)]`, on the material series
//! unless `use_eval` is set. > 0: the move is good; a capture with momentum > pawn/2 is a good
//! capture; |momentum| < pawn/2 an exchange.
//!
//! - Quiescence form (`quies_see`): below quiescence depth 2, only exchanges and good captures
//!   are searched: a capture with `momentum < pawn/2` is skipped (never when in check).
//! - Main-search form: `momentum5 < 0 && -search(depth-2) <= alpha` → skip the move.

use super::params::heuristic_params;
use super::view::{Decision, MoveView};
use crate::engine::eval::PAWN;
use crate::engine::score::Score;

heuristic_params! {
    /// Parameters of `momentum`.
    pub struct Params {
        /// Use momentum.
        pub enabled: bool = false,
        /// The quiescence form (002's `quies_see`).
        pub quiescence_form: bool = true,
        /// The main-search form (verified by a reduced search).
        pub main_form: bool = true,
        /// Quiescence depth beyond which captures are filtered (002: `depth > 2`).
        pub quiescence_min_depth: i32 [0..=127] = 2,
        /// A capture below this momentum is skipped in quiescence (002: pawn/2).
        pub good_capture: i32 [0..=2000] = PAWN / 2,
        /// Use the full static evaluation series instead of material.
        pub use_eval: bool = false,
    }
}

/// The momentum the parameters ask for, from the mover's series.
pub fn momentum(mv: &MoveView, params: &Params) -> Score {
    if params.use_eval {
        mv.line.eval_momentum
    } else {
        mv.line.material_momentum
    }
}

/// Quiescence form: skip this capture at quiescence depth `qdepth`. It applies outside check
/// beyond `quiescence_min_depth`, and acts on a capture whose momentum is below `good_capture`.
pub fn quiescence_skip(qdepth: i32, in_check: bool, momentum: Score, params: &Params) -> Decision {
    let applies = params.quiescence_form && !in_check && qdepth > params.quiescence_min_depth;
    Decision::when(applies, momentum < params.good_capture)
}

/// Main form: the move is a candidate for a verified skip.
pub fn main_candidate(mv: &MoveView, params: &Params) -> bool {
    params.main_form && momentum(mv, params) < 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::LineStats;

    #[test]
    fn quiescence_keeps_exchanges_and_good_captures_only_deep() {
        let p = Params::default();
        assert!(quiescence_skip(3, false, 49, &p).acts());
        assert!(
            !quiescence_skip(3, false, 50, &p).acts(),
            "a good capture is searched"
        );
        assert!(
            !quiescence_skip(2, false, -300, &p).acts(),
            "shallow captures are all searched"
        );
        assert!(!quiescence_skip(3, true, -300, &p).acts(), "no skip in check");
        let off = Params {
            quiescence_form: false,
            ..p
        };
        assert!(!quiescence_skip(3, false, -300, &off).acts());
    }

    #[test]
    fn main_form_needs_falling_momentum() {
        let p = Params::default();
        let falling = MoveView {
            line: LineStats {
                material_momentum: -100,
                eval_momentum: 20,
                ..LineStats::default()
            },
            ..MoveView::default()
        };
        assert!(main_candidate(&falling, &p));
        assert!(!main_candidate(
            &falling,
            &Params {
                use_eval: true,
                ..p
            }
        ));
        assert!(
            !main_candidate(&MoveView::default(), &p),
            "zero momentum is not falling"
        );
    }
}
