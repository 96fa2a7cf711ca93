//! The horizon and the quiescence search.
//!
//! With `quiescence` off the horizon returns the static evaluation (000's "without quiescence"
//! column: the PV may end in a capture nobody answers, the horizon effect). With it on, Ifrit's
//! forced variant (000): stand pat, captures in MVV/LVA order, fail-soft; in check, all
//! evasions (001). `momentum`'s quiescence form filters captures below quiescence depth 2.

use super::{DRAW, MATE, MAX_PLY, Searcher};
use crate::engine::eval::{EvalKind, Score};
use crate::engine::heuristics::{Id, momentum};
use crate::engine::movepick::quiescence_moves;

impl Searcher {
    /// A leaf at the horizon. Every call is one horizon leaf, so in minimax mode their count
    /// equals perft at the search depth.
    pub(super) fn horizon(&mut self, alpha: Score, beta: Score) -> Score {
        self.stats.horizon += 1;
        let ply = self.note_ply();
        if self.claims_draws() && self.pos.is_draw() {
            return DRAW;
        }
        if self.on(Id::Quiescence) {
            self.stats.heuristics.at(Id::Quiescence).tested += 1;
            return self.quiescence(alpha, beta, 0);
        }
        // A side in check with no legal move is mated, even at the horizon. Only checked
        // when in check, where it is cheap (the generator stops at the first move).
        if self.pos.in_check() && !self.pos.board().generate_moves(|_| true) {
            return -MATE + ply as Score;
        }
        self.pos.static_eval()
    }

    /// Ifrit's forced variant from the current node, `qdepth` plies below the horizon.
    fn quiescence(&mut self, mut alpha: Score, beta: Score, qdepth: i32) -> Score {
        let ply = self.pos.ply();
        self.pv.clear(ply);
        if qdepth > 0 {
            if self.out_of_budget() {
                return DRAW;
            }
            self.stats.quiescence += 1;
            self.note_ply();
        }
        let params = self.config.heuristics.quiescence;
        let in_check = self.pos.in_check();
        let evasions = in_check && params.evasions;
        let mut best = -super::INFINITY;
        if !evasions {
            let stand_pat = match params.eval {
                EvalKind::Material => self.pos.material(self.pos.board().side_to_move()),
                EvalKind::Full => self.pos.static_eval(),
            };
            if stand_pat >= beta || ply >= MAX_PLY - 1 {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let moves = quiescence_moves(self.pos.board(), evasions);
        if moves.is_empty() {
            return if evasions { -MATE + ply as Score } else { best };
        }
        if qdepth == 0 {
            // Fired: the horizon had captures (or evasions) to search.
            self.stats.heuristics.at(Id::Quiescence).fired += 1;
        }
        let mover = self.pos.board().side_to_move();
        for &mv in moves.as_slice() {
            self.pos.make(mv);
            // momentum, quiescence form (002's quies_see): only exchanges and good captures.
            let skip = self.on(Id::Momentum) && {
                let mom = self.pos.material_momentum(mover);
                let p = self.config.heuristics.momentum;
                self.consult(Id::Momentum, true, || {
                    momentum::quiescence_skip(qdepth, in_check, mom, &p)
                })
            };
            if skip {
                self.pos.unmake();
                continue;
            }
            // Quiescence is alpha-beta in every mode: Ifrit's forced variant cuts on the window
            // its stand pat raised, even below a full-width minimax (000).
            let score = -self.quiescence(-beta, -alpha, qdepth + 1);
            self.pos.unmake();
            if self.aborted {
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
