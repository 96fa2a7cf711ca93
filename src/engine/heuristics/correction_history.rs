//! `correction_history` (Chess Programming Wiki, "Static Evaluation Correction History"; first
//! in Caissa, October 2023, then Stockfish, Alexandria and most engines since): the static
//! evaluation is corrected by how far the searches of earlier positions with the same pawn
//! structure found it off. A network misjudges a pawn structure the same way wherever it
//! appears, so what a search proved about one position of it says something about the next.
//!
//! The table holds, per side to move and pawn structure, an exponential moving average of
//! `search score − static evaluation`, in 1/`GRAIN` centipawns: a search of depth `d` moves it
//! by a weight of `min((d + 1)², weight_max)` out of 256 (the form the wiki shows from
//! Alexandria), and the entry stays within ±`limit` centipawns. A node's evaluation, outside
//! check, is its network's (or hand-written) score plus the entry (`node`: interior nodes,
//! whose evaluation every pruning reads; `quiescence`: the stand pat).
//!
//! What a search teaches it (the wiki's conditions, which are Stockfish's): not in check; the
//! best move none or a quiet move (a capture's score says what the capture wins, not what the
//! evaluation missed; the wiki's text says "is a capture", its Stockfish code `!capture`); a
//! lower bound only when it is above the evaluation, an upper bound only when it is below; no
//! mate score.

use super::params::heuristic_params;
use super::view::Decision;
use crate::engine::score::{MATE_BOUND, Score};

heuristic_params! {
    /// Parameters of `correction_history`.
    pub struct Params {
        /// Correct the static evaluation by the pawn structure's history.
        pub enabled: bool = false,
        /// The largest weight (out of 256) one search's result gets in the average.
        pub weight_max: i32 [1..=256] = 128,
        /// The largest correction, centipawns.
        pub limit: i32 [1..=1000] = 64,
        /// Also correct quiescence's stand pat.
        pub quiescence: bool = true,
    }
}

/// Fixed-point scale of an entry: 1/256 of a centipawn.
const GRAIN: i32 = 256;
/// The weights are out of this.
const WEIGHT_SCALE: i32 = 256;
/// Entries per side: a power of two (the index is the pawn key's top bits).
const BITS: u32 = 14;

/// The corrections per side to move and pawn structure.
#[derive(Clone)]
pub struct CorrectionHistory {
    entries: Box<[[i32; 1 << BITS]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            entries: Box::new([[0; 1 << BITS]; 2]),
        }
    }
}

/// A key of the pawn structure: the two sides' pawn bitboards, mixed by odd multipliers (any
/// fixed mixing does; collisions only share a correction).
pub fn pawn_key(white_pawns: u64, black_pawns: u64) -> usize {
    let mixed = white_pawns.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black_pawns.rotate_left(32).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (mixed >> (64 - BITS)) as usize
}

impl CorrectionHistory {
    /// Forget everything (a new game).
    pub fn clear(&mut self) {
        for side in self.entries.iter_mut() {
            side.fill(0);
        }
    }

    /// The correction of `side`'s evaluation in the structure `key`, centipawns.
    pub fn correction(&self, side: usize, key: usize) -> Score {
        self.entries[side][key] / GRAIN
    }

    /// Learn the `error` (search score − evaluation, `teaches`) a search of `depth` found in
    /// `side`'s structure `key`.
    pub fn learn(&mut self, (side, key): (usize, usize), depth: i32, error: Score, params: &Params) {
        let weight = ((depth + 1) * (depth + 1)).min(params.weight_max);
        let entry = &mut self.entries[side][key];
        let moved = (*entry * (WEIGHT_SCALE - weight) + error * GRAIN * weight) / WEIGHT_SCALE;
        *entry = moved.clamp(-params.limit * GRAIN, params.limit * GRAIN);
    }
}

/// The node's corrected evaluation: it applies outside check where its form is on, and acts
/// when the correction is not zero.
pub fn corrected(eval: Score, (in_check, form_on): (bool, bool), correction: Score) -> Decision<Score> {
    Decision::with(form_on && !in_check, (correction != 0).then_some(eval + correction))
}

/// The error a node's search result teaches, if it teaches one: outside check, with no best
/// move or a quiet one, a score that is no mate and lies on the side of the evaluation its
/// bound can prove (`lower`: at least the score; `upper`: at most).
pub fn teaches(
    (score, eval): (Score, Score),
    (lower, upper): (bool, bool),
    in_check: bool,
    best_is_capture: bool,
) -> Option<Score> {
    let unprovable = (lower && score <= eval) || (upper && score >= eval);
    (!in_check && !best_is_capture && score.abs() < MATE_BOUND && !unprovable).then(|| score - eval)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_search_moves_the_entry_further_and_the_limit_holds() {
        let p = Params::default();
        let mut shallow = CorrectionHistory::default();
        shallow.learn((0, 7), 1, 40, &p);
        let mut deep = CorrectionHistory::default();
        deep.learn((0, 7), 11, 40, &p);
        assert_eq!(shallow.correction(0, 7), 40 * 4 / 256);
        assert_eq!(deep.correction(0, 7), 40 * 128 / 256);
        assert_eq!(deep.correction(1, 7), 0, "the other side's entry is its own");
        for _ in 0..50 {
            deep.learn((0, 7), 20, 900, &p);
        }
        assert_eq!(deep.correction(0, 7), p.limit);
        deep.clear();
        assert_eq!(deep.correction(0, 7), 0);
    }

    #[test]
    fn only_bounds_that_prove_the_error_teach() {
        // A fail-high above the evaluation proves it too low; one below proves nothing.
        assert_eq!(teaches((120, 50), (true, false), false, false), Some(70));
        assert_eq!(teaches((30, 50), (true, false), false, false), None);
        assert_eq!(teaches((30, 50), (false, true), false, false), Some(-20));
        assert_eq!(teaches((80, 50), (false, true), false, false), None);
        assert_eq!(teaches((80, 50), (false, false), false, false), Some(30));
        assert_eq!(teaches((80, 50), (false, false), true, false), None, "in check");
        assert_eq!(teaches((80, 50), (false, false), false, true), None, "a capture best");
        assert_eq!(teaches((MATE_BOUND + 3, 50), (false, false), false, false), None);
    }

    #[test]
    fn corrects_outside_check_and_acts_only_when_it_changes_the_score() {
        assert_eq!(corrected(10, (false, true), 5).value(), Some(15));
        assert!(!corrected(10, (false, true), 0).acts() && corrected(10, (false, true), 0).applies());
        assert!(!corrected(10, (true, true), 5).applies());
        assert!(!corrected(10, (false, false), 5).applies(), "the form switched off");
    }

    #[test]
    fn pawn_keys_stay_in_the_table_and_tell_structures_apart() {
        let a = pawn_key(0x0000_0000_0000_ff00, 0x00ff_0000_0000_0000);
        let b = pawn_key(0x0000_0000_1000_ef00, 0x00ff_0000_0000_0000);
        assert!(a < 1 << BITS && b < 1 << BITS);
        assert_ne!(a, b);
    }
}
