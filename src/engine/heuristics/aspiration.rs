//! `aspiration`: aspiration windows at the root (Chess Programming Wiki, "Aspiration
//! Windows"): from `min_depth` on, each iteration is searched with a window of `±window`
//! centipawns around the previous iteration's score instead of the full window; a result
//! outside it is searched again with that side of the window widened, the margin multiplied by
//! `growth` each time (Stockfish, Ethereal and Weiss widen the same way). Counted per
//! iteration: `fired` when it was searched with a narrow window, `overruled` when that
//! iteration had to be searched again (once, however many re-searches it took).
//!
//! Ethereal 12 (`aspirationWindow` in its `search.c`) re-searches in two ways of its own, each a
//! toggle here: after a fail high the next search is a ply shallower (`fail_high_reduction`:
//! a move that beats the window at this depth is found sooner a ply less deep, and the
//! iteration's result is taken from there), and after a fail low beta comes down to the middle
//! of the failed window (`fail_low_pull`: a score below the window is evidence that the value
//! lies below its middle too, so the narrower window costs less to search).

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
        /// With a value, the first margin grows with the previous score's square:
        /// `window + score² / score_divisor` (Stockfish 16's `10 + avg² / 15335` in its
        /// internal units, `search.cpp`; about 4,700 in centipawns at its 328 units a pawn),
        /// so a large score, which moves more from one iteration to the next, gets a wider
        /// window. 0: the margin is `window` whatever the score.
        pub score_divisor: i32 [0..=1000000; structural] = 0,
        /// The factor a margin grows by after each failure on its side.
        pub growth: i32 [2..=8; structural] = 2,
        /// Each fail high searches again a ply shallower (down to one ply), a fail low at the
        /// iteration's own depth (Ethereal 12.00's `depth - 1`, searched at least a ply deep,
        /// `search.c`; ours keeps the depth after a mate score).
        pub fail_high_reduction: bool = false,
        /// The most plies `fail_high_reduction` takes off one iteration. Ethereal 12 has no
        /// bound, and with none a score that jumps (WAC.132: +3.35, then a mate in three from
        /// depth 6) fails high at every depth the widened window still lies under, so one
        /// iteration after another finished at depth 4 with the shallow score, and the mate came
        /// at iteration 13 instead of 6 (`tests/mates.rs`, issue 25).
        pub fail_high_max: u32 [1..=64; structural] = 64,
        /// A fail low moves beta to the middle of the failed window (Ethereal 12's
        /// `beta = (alpha + beta) / 2`) as alpha widens.
        pub fail_low_pull: bool = false,
    }
}

/// The first window of iteration `depth` given the previous score. It applies from
/// `min_depth` on when the score is no mate, and always acts there: a scheme, whose rate to
/// read is the re-search rate, overruled / fired.
pub fn window(depth: u32, previous: Score, params: &Params) -> Decision<(Score, Score)> {
    let applies = depth >= params.min_depth && previous.abs() < MATE_BOUND;
    let margin = first_margin(previous, params);
    let narrow = (
        (previous - margin).max(-INFINITY),
        (previous + margin).min(INFINITY),
    );
    Decision::with(applies, Some(narrow))
}

/// The first margin on each side around `previous`: `window`, and with `score_divisor` the
/// score's square over it added.
pub fn first_margin(previous: Score, params: &Params) -> Score {
    if params.score_divisor == 0 || previous.abs() >= MATE_BOUND {
        return params.window;
    }
    let square = i64::from(previous) * i64::from(previous);
    params.window + (square / i64::from(params.score_divisor)).min(4000) as Score
}

/// The window after `score` fell outside `(alpha, beta)`: the failed side moved out by
/// `margin`, which grows by `growth` (returned with the new window), and with `fail_low_pull`
/// a fail low's beta brought to the failed window's middle. A margin past a pawn count no
/// position reaches opens that side fully.
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
        let high = if params.fail_low_pull { alpha + (beta - alpha) / 2 } else { beta };
        (low, high.max(low + 1))
    } else {
        let high = if margin > 4000 { INFINITY } else { open(score + margin) };
        (alpha, high)
    };
    (window, next)
}

/// The depth of the next search of an iteration of `depth` after `score` failed on one side,
/// the search before having been `searched` deep: with `fail_high_reduction`, a ply less after
/// a fail high (at least one ply, at most `fail_high_max` plies below `depth`, and not for a
/// mate score), the iteration's own after a fail low; otherwise always the iteration's own.
pub fn research_depth(depth: i32, searched: i32, failed_high: bool, score: Score, params: &Params) -> i32 {
    if !params.fail_high_reduction || !failed_high {
        return depth;
    }
    if score.abs() >= MATE_BOUND {
        return searched;
    }
    let floor = depth.saturating_sub(params.fail_high_max as i32).max(1);
    (searched - 1).max(floor)
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

    #[test]
    fn the_first_margin_grows_with_the_score_s_square_only_with_a_divisor() {
        let p = Params::default();
        assert_eq!(first_margin(400, &p), 25, "no divisor: the window");
        let p = Params { window: 18, score_divisor: 4700, ..Params::default() };
        assert_eq!(first_margin(0, &p), 18);
        assert_eq!(first_margin(100, &p), 18 + 2, "10,000 / 4,700");
        assert_eq!(first_margin(-300, &p), 18 + 19, "both signs alike");
        assert_eq!(window(5, 300, &p), Decision::Acts((263, 337)));
    }

    #[test]
    fn ethereal_s_two_re_searches_only_with_their_toggles() {
        let p = Params::default();
        assert_eq!(widen(0, (5, 55), 25, &p).0, (-25, 55), "beta stays without the pull");
        assert_eq!(research_depth(9, 9, true, 90, &p), 9, "no reduction without the toggle");
        let p = Params { fail_high_reduction: true, fail_low_pull: true, ..Params::default() };
        assert_eq!(widen(0, (5, 55), 25, &p).0, (-25, 30), "beta to the failed window's middle");
        assert_eq!(widen(90, (5, 55), 25, &p).0, (5, 115), "a fail high keeps alpha");
        assert_eq!(research_depth(9, 9, true, 90, &p), 8, "a fail high: a ply less");
        assert_eq!(research_depth(9, 7, true, 90, &p), 6, "again after another");
        assert_eq!(research_depth(9, 7, false, -90, &p), 9, "a fail low: the iteration's depth");
        assert_eq!(research_depth(9, 1, true, 90, &p), 1, "never below one ply");
        assert_eq!(research_depth(9, 7, true, MATE_BOUND + 2, &p), 7, "not for a mate");
        let p = Params { fail_high_max: 2, ..p };
        assert_eq!(research_depth(9, 8, true, 90, &p), 7, "within the bound");
        assert_eq!(research_depth(9, 7, true, 90, &p), 7, "no further than two plies");
    }
}
