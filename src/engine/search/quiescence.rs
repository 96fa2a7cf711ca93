//! The horizon: what a leaf of the full-width search returns.
//!
//! In the baseline the horizon returns the static evaluation (000's "without quiescence"
//! column: the PV may end in a capture nobody answers, the horizon effect). The heuristics
//! issue's `quiescence` (000, 001: captures only, MVV/LVA, all evasions in check) is searched
//! from here instead when it is on.

use super::{DRAW, MATE, Searcher};
use crate::engine::eval::Score;

impl Searcher {
    /// A leaf at the horizon. Every call is one horizon leaf, so in minimax mode their count
    /// equals perft at the search depth.
    pub(super) fn horizon(&mut self, _alpha: Score, _beta: Score) -> Score {
        self.stats.horizon += 1;
        let ply = self.note_ply();
        if self.claims_draws() && self.pos.is_draw() {
            return DRAW;
        }
        // A side in check with no legal move is mated, even at the horizon. Only checked
        // when in check, where it is cheap (the generator stops at the first move).
        if self.pos.in_check() && !self.pos.board().generate_moves(|_| true) {
            return -MATE + ply as Score;
        }
        self.pos.static_eval()
    }
}
