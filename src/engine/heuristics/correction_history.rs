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
//! With `non_pawn`, two more tables do the same per side to move for the placement of each
//! colour's pieces other than pawns (knights, bishops, rooks, queens and king), and the
//! correction adds their average to the pawn structure's: a network misjudges a piece setup
//! as it does a pawn structure (Stockfish's non-pawn correction history, 2024, which weighs
//! the two colours' tables alike; every table learns the same error).
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
        /// Also correct by each colour's pieces other than pawns (Stockfish's non-pawn
        /// correction history).
        pub non_pawn: bool = false,
    }
}

/// Fixed-point scale of an entry: 1/256 of a centipawn.
const GRAIN: i32 = 256;
/// The weights are out of this.
const WEIGHT_SCALE: i32 = 256;
/// Entries per side: a power of two (the index is the pawn key's top bits).
const BITS: u32 = 14;

/// One table: an entry per side to move and key.
type Table = [[i32; 1 << BITS]; 2];

/// The corrections per side to move and pawn structure, and per side to move and each
/// colour's pieces other than pawns (`non_pawn`).
#[derive(Clone)]
pub struct CorrectionHistory {
    pawn: Box<Table>,
    non_pawn: Box<[Table; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: Box::new([[0; 1 << BITS]; 2]),
            non_pawn: Box::new([[[0; 1 << BITS]; 2]; 2]),
        }
    }
}

/// Where a position's corrections stand: the side to move, its pawn structure's key, and the
/// keys of White's and Black's pieces other than pawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    pub side: usize,
    pub pawn: usize,
    pub non_pawn: [usize; 2],
}

/// A key of the pawn structure: the two sides' pawn bitboards, mixed by odd multipliers (any
/// fixed mixing does; collisions only share a correction).
pub fn pawn_key(white_pawns: u64, black_pawns: u64) -> usize {
    let mixed = white_pawns.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black_pawns.rotate_left(32).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (mixed >> (64 - BITS)) as usize
}

/// A key of one colour's pieces other than pawns: the knight, bishop, rook, queen and king
/// bitboards, mixed by odd multipliers.
pub fn non_pawn_key(pieces: [u64; 5]) -> usize {
    const MIX: [u64; 5] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0xD6E8_FEB8_6659_FD93,
        0xFF51_AFD7_ED55_8CCD,
    ];
    let mixed = pieces
        .iter()
        .zip(MIX)
        .enumerate()
        .fold(0u64, |acc, (i, (&bb, mix))| {
            acc ^ bb.rotate_left(13 * i as u32).wrapping_mul(mix)
        });
    (mixed >> (64 - BITS)) as usize
}

impl CorrectionHistory {
    /// Forget everything (a new game).
    pub fn clear(&mut self) {
        let tables = std::iter::once(&mut *self.pawn).chain(self.non_pawn.iter_mut());
        for table in tables {
            for side in table.iter_mut() {
                side.fill(0);
            }
        }
    }

    /// The correction of the evaluation at `keys`, centipawns: the pawn structure's, plus the
    /// average of the two colours' non-pawn tables with `non_pawn`.
    pub fn correction(&self, keys: Keys, params: &Params) -> Score {
        let mut sum = self.pawn[keys.side][keys.pawn];
        if params.non_pawn {
            sum += (self.non_pawn[0][keys.side][keys.non_pawn[0]]
                + self.non_pawn[1][keys.side][keys.non_pawn[1]])
                / 2;
        }
        sum / GRAIN
    }

    /// Learn the `error` (search score − evaluation, `teaches`) a search of `depth` found at
    /// `keys`: every table in use learns it.
    pub fn learn(&mut self, keys: Keys, depth: i32, error: Score, params: &Params) {
        let weight = ((depth + 1) * (depth + 1)).min(params.weight_max);
        let limit = params.limit * GRAIN;
        let update = |entry: &mut i32| {
            let moved = (*entry * (WEIGHT_SCALE - weight) + error * GRAIN * weight) / WEIGHT_SCALE;
            *entry = moved.clamp(-limit, limit);
        };
        update(&mut self.pawn[keys.side][keys.pawn]);
        if params.non_pawn {
            for (table, &key) in self.non_pawn.iter_mut().zip(&keys.non_pawn) {
                update(&mut table[keys.side][key]);
            }
        }
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

    fn at(side: usize, pawn: usize, non_pawn: [usize; 2]) -> Keys {
        Keys {
            side,
            pawn,
            non_pawn,
        }
    }

    #[test]
    fn a_deep_search_moves_the_entry_further_and_the_limit_holds() {
        let p = Params::default();
        let here = at(0, 7, [1, 2]);
        let mut shallow = CorrectionHistory::default();
        shallow.learn(here, 1, 40, &p);
        let mut deep = CorrectionHistory::default();
        deep.learn(here, 11, 40, &p);
        assert_eq!(shallow.correction(here, &p), 40 * 4 / 256);
        assert_eq!(deep.correction(here, &p), 40 * 128 / 256);
        let other_side = Keys { side: 1, ..here };
        assert_eq!(deep.correction(other_side, &p), 0, "the other side's entry is its own");
        for _ in 0..50 {
            deep.learn(here, 20, 900, &p);
        }
        assert_eq!(deep.correction(here, &p), p.limit);
        deep.clear();
        assert_eq!(deep.correction(here, &p), 0);
    }

    #[test]
    fn the_non_pawn_tables_add_their_average_only_when_on() {
        let off = Params::default();
        let on = Params {
            non_pawn: true,
            ..Params::default()
        };
        let mut history = CorrectionHistory::default();
        history.learn(at(0, 7, [1, 2]), 11, 40, &on);
        // Pawn 20 plus the average of two tables at 20 each.
        assert_eq!(history.correction(at(0, 7, [1, 2]), &on), 40);
        assert_eq!(history.correction(at(0, 7, [1, 2]), &off), 20);
        // Another white setup: its table holds nothing, Black's still 20.
        assert_eq!(history.correction(at(0, 7, [5, 2]), &on), 30);
        let mut pawn_only = CorrectionHistory::default();
        pawn_only.learn(at(0, 7, [1, 2]), 11, 40, &off);
        assert_eq!(pawn_only.correction(at(0, 7, [1, 2]), &on), 20, "off: only the pawn table learns");
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
    fn non_pawn_keys_stay_in_the_table_and_tell_setups_apart() {
        let start = non_pawn_key([0x42, 0x24, 0x81, 0x08, 0x10]);
        let knight_out = non_pawn_key([0x0004_0040, 0x24, 0x81, 0x08, 0x10]);
        let castled = non_pawn_key([0x42, 0x24, 0x21, 0x08, 0x40]);
        assert!(start < 1 << BITS && knight_out < 1 << BITS && castled < 1 << BITS);
        assert_ne!(start, knight_out);
        assert_ne!(start, castled);
    }

    #[test]
    fn pawn_keys_stay_in_the_table_and_tell_structures_apart() {
        let a = pawn_key(0x0000_0000_0000_ff00, 0x00ff_0000_0000_0000);
        let b = pawn_key(0x0000_0000_1000_ef00, 0x00ff_0000_0000_0000);
        assert!(a < 1 << BITS && b < 1 << BITS);
        assert_ne!(a, b);
    }
}
