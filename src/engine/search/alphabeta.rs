//! Negamax fail-soft alpha-beta ("alpha-beta with amortisation of failures", 001) and, with the
//! same code, full-width minimax: the minimax mode only widens every child's window to
//! (-INFINITY, INFINITY), which removes every cut-off, and claims no draws in the tree.
//!
//! The function reads as numbered steps; each heuristic of the heuristics issue becomes one
//! step, a call behind one helper.

use cozy_chess::Move;

use super::{DRAW, INFINITY, MATE, MAX_PLY, Searcher};
use crate::engine::config::Algorithm;
use crate::engine::eval::Score;
use crate::engine::movepick::MovePicker;

impl Searcher {
    /// Search the current node to `depth` within `(alpha, beta)`; the score is for the side
    /// to move, fail-soft (it may lie outside the window).
    pub(super) fn alphabeta(&mut self, mut alpha: Score, beta: Score, depth: i32) -> Score {
        let ply = self.pos.ply();
        self.pv.clear(ply);

        // Step 1. Limits: a node budget, `stop`, or the clock.
        if self.out_of_budget() {
            return DRAW;
        }

        // Step 2. The horizon: a leaf (quiescence, when on, starts there).
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.horizon(alpha, beta);
        }
        self.stats.interior += 1;
        self.note_ply();

        // Step 3. Draws by repetition, the fifty-move rule, insufficient material.
        if ply > 0 && self.claims_draws() && self.pos.is_draw() {
            return DRAW;
        }
        let in_check = self.pos.in_check();

        // Step 4. The move loop, in the picker's order.
        let mut picker = MovePicker::new(self.pos.board());
        let mut best = -INFINITY;
        let mut searched = 0;
        while let Some(mv) = picker.next_move() {
            let new_depth = depth - 1 + self.extension(mv);
            let (child_alpha, child_beta) = self.child_window(alpha, beta);
            self.pos.make(mv);
            let score = -self.alphabeta(-child_beta, -child_alpha, new_depth);
            self.pos.unmake();
            searched += 1;
            if self.aborted {
                return DRAW;
            }

            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, mv);
                    if score >= beta {
                        self.stats.cutoffs += 1;
                        if searched == 1 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        break;
                    }
                }
            }
        }

        // Step 5. No legal move: mate or stalemate. A mate nearer the root scores higher.
        if searched == 0 {
            return if in_check { -MATE + ply as Score } else { DRAW };
        }
        best
    }

    /// The window a child is searched with, from the side to move's `(alpha, beta)`. Minimax
    /// searches every child with the full window, so nothing is ever cut.
    #[inline]
    fn child_window(&self, alpha: Score, beta: Score) -> (Score, Score) {
        match self.config.algorithm {
            Algorithm::Alphabeta => (alpha, beta),
            Algorithm::Minimax => (-INFINITY, INFINITY),
        }
    }

    /// How many plies a move is extended: the extension hook. No extension is on in the
    /// baseline; `check_extension` (001) plugs in here.
    #[inline]
    fn extension(&self, _mv: Move) -> i32 {
        0
    }
}
