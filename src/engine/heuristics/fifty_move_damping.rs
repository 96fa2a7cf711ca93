//! `fifty_move_damping`: the static evaluation brought toward a draw as the fifty-move count
//! grows, multiplied by `(plies − count) / plies`, where the count is the plies since the last
//! capture or pawn move (Stockfish's `evaluate`, "Damp down the evaluation linearly when
//! shuffling": `(100 − rule50) / 100` under its hand-written evaluation, `(200 − rule50) / 200`
//! or near it under its networks; Obsidian's and other network engines' `(200 −
//! halfMoveClock) / 200`).
//!
//! Why: a side that has moved its pieces back and forth for many moves without a capture or a
//! pawn move has found no way to make progress, and the rule draws the game if it never does.
//! A network scores the position as if the count did not exist, so a search that sees only the
//! same few pieces shuffle finds the same lead at every depth and has no reason to prefer the
//! move that resets the count. Damped, the lead shrinks with every quiet ply, and a capture or
//! a pawn move, which restores the full score, becomes worth playing. Against Ethereal 12 at
//! 16+0.16 the default shuffled into 13 threefold repetitions in 200 games while scoring
//! itself one to five pawns up move after move with the score unchanged
//! (`reports/elo-ethereal/history/cc04d5b/twice-the-clock/repetitions.txt`), and its leads of
//! six moves at +1.00 or more ended 38 won, 47 drawn and 24 lost.
//!
//! It reads the evaluation before `correction_history` corrects it, and the correction learns
//! against the damped value (Stockfish's order: its correction is added to the damped score).

use super::params::heuristic_params;
use super::view::Decision;
use crate::engine::score::Score;

heuristic_params! {
    /// Parameters of `fifty_move_damping`.
    pub struct Params {
        /// Damp the static evaluation by the fifty-move count.
        pub enabled: bool = false,
        /// The count, in plies, at which the damped evaluation would reach zero (the rule
        /// draws at 100, where 200 leaves half of it).
        pub plies: i32 [100..=1000] = 200,
    }
}

/// `eval` damped at the fifty-move count `clock`: every reading of an evaluation applies, and
/// it acts where the count is above zero and the damped score differs (a score of zero, or one
/// too small for the factor to change it, is left as it is).
pub fn damped(eval: Score, clock: u32, params: &Params) -> Decision<Score> {
    let clock = (clock.min(params.plies as u32)) as Score;
    // Truncation toward zero keeps the damping symmetric between the two sides.
    let damped = eval * (params.plies - clock) / params.plies;
    Decision::with(true, (damped != eval).then_some(damped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on() -> Params {
        Params {
            enabled: true,
            ..Params::default()
        }
    }

    #[test]
    fn a_fresh_count_leaves_the_evaluation_alone() {
        assert!(matches!(damped(250, 0, &on()), Decision::Declines));
        assert!(matches!(damped(0, 60, &on()), Decision::Declines));
    }

    #[test]
    fn the_evaluation_falls_linearly_with_the_count() {
        assert_eq!(damped(300, 20, &on()).value(), Some(270));
        assert_eq!(damped(300, 100, &on()).value(), Some(150));
        assert_eq!(damped(-300, 100, &on()).value(), Some(-150));
        let plies_100 = Params {
            plies: 100,
            ..on()
        };
        assert_eq!(damped(300, 50, &plies_100).value(), Some(150));
    }

    #[test]
    fn both_sides_are_damped_alike_and_never_past_zero() {
        for eval in [-901, -77, -1, 1, 77, 901] {
            for clock in [1, 37, 99, 150, 400] {
                let d = damped(eval, clock, &on()).value().unwrap_or(eval);
                let mirrored = damped(-eval, clock, &on()).value().unwrap_or(-eval);
                assert_eq!(d, -mirrored, "{eval} at {clock}");
                assert!(d.abs() <= eval.abs() && d * eval >= 0, "{eval} at {clock}: {d}");
            }
        }
        assert_eq!(damped(500, 400, &on()).value(), Some(0), "the count past plies");
    }
}
