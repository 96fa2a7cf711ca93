//! `aspiration`: aspiration windows at the root (Chess Programming Wiki, "Aspiration
//! Windows"): from `min_depth` on, each iteration is searched with a window of `±window`
//! centipawns around the previous iteration's score instead of the full window; a result
//! outside it is searched again with that side of the window widened, the margin multiplied by
//! `growth` each time (Stockfish, Ethereal and Weiss widen the same way; Ethereal starts at
//! depth 4 with a 10 cp window). Counted per iteration: `fired` when it was searched with a
//! narrow window, `overruled` once per re-search.

use super::params::heuristic_params;
use super::view::Decision;
use crate::engine::score::{INFINITY, MATE_BOUND, Score};

heuristic_params! {
    /// Parameters of `aspiration`.
    pub struct Params {
        /// Narrow root windows around the previous score.
        pub enabled: bool = false,
        /// The first iteration searched with a narrow window.
        pub min_depth: u32 [2..=64] = 5,
        /// The first margin on each side, centipawns.
        pub window: i32 [1..=1000] = 25,
        /// The factor a margin grows by after each failure on its side.
        pub growth: i32 [2..=8; structural] = 2,
    }
}

/// The first window of iteration `depth` given the previous score. It applies from
/// `min_depth` on when the score is no mate, and always acts there: a scheme, whose rate to
/// read is the re-search rate, overruled / fired.
pub fn window(depth: u32, previous: Score, params: &Params) -> Decision<(Score, Score)> {
    let applies = depth >= params.min_depth && previous.abs() < MATE_BOUND;
    let narrow = (
        (previous - params.window).max(-INFINITY),
        (previous + params.window).min(INFINITY),
    );
    Decision::with(applies, Some(narrow))
}

/// The window after `score` fell outside `(alpha, beta)`: the failed side moved out by
/// `margin`, which grows by `growth` (returned with the new window). A margin past a pawn
/// count no position reaches opens that side fully.
pub fn widen(
    score: Score,
    (alpha, beta): (Score, Score),
    margin: Score,
    params: &Params,
) -> ((Score, Score), Score) {
    let next = margin.saturating_mul(params.growth);
    let open = |bound: Score| bound.clamp(-INFINITY, INFINITY);
    let window = if score <= alpha {
        let low = if margin > 4000 { -INFINITY } else { open(score - margin) };
        (low, beta)
    } else {
        let high = if margin > 4000 { INFINITY } else { open(score + margin) };
        (alpha, high)
    };
    (window, next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_from_min_depth_and_full_for_mates() {
        let p = Params::default();
        assert_eq!(window(4, 30, &p), Decision::Inapplicable);
        assert_eq!(window(5, 30, &p), Decision::Acts((5, 55)));
        assert_eq!(window(9, MATE_BOUND + 3, &p), Decision::Inapplicable);
    }

    #[test]
    fn the_failed_side_widens_and_the_margin_grows() {
        let p = Params::default();
        let (w, m) = widen(0, (5, 55), 25, &p);
        assert_eq!((w, m), ((-25, 55), 50));
        let (w, m) = widen(90, (5, 55), 50, &p);
        assert_eq!((w, m), ((5, 140), 100));
        let (w, _) = widen(90, (5, 55), 5000, &p);
        assert_eq!(w, (5, INFINITY));
    }
}
