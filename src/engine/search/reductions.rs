//! How one move is searched once no pruning took it: `main_selective`'s two functions, the GSR
//! and late move reductions, principal variation search and the nega-scout IID scheme, or
//! simply one full-window search.
//!
//! GSR and LMR both reduce late moves. When both are on, a move is reduced by the larger of
//! the two reductions (each counted as fired when its own reduction is positive, and both
//! overruled when the reduced move beats alpha and is searched again): GSR on top of LMR then
//! measures what GSR reduces beyond LMR (earlier moves past its crossover point, and RED2's
//! deeper cut), not a double reduction.

use super::Searcher;
use crate::engine::heuristics::lmr::{self, LateMove};
use crate::engine::heuristics::view::{MoveView, NodeView};
use crate::engine::heuristics::{Id, gsr, gsr_simple, iid_null_window, main_selective, pvs};
use crate::engine::score::Score;
use crate::engine::stats::counter;

impl Searcher {
    /// Step 6 of the main search: the node's GSR crossover point (002), one draw from the
    /// seeded PRNG when a heuristic that uses it is on.
    pub(super) fn crossover(&mut self) -> usize {
        let h = &self.config.heuristics;
        let (id, range) = if self.on(Id::Gsr) {
            (Id::Gsr, h.gsr.cross_range)
        } else if self.on(Id::GsrSimple) {
            (Id::GsrSimple, h.gsr_simple.cross_range)
        } else if self.on(Id::IidNullWindow) {
            (Id::IidNullWindow, gsr::Params::default().cross_range)
        } else {
            return usize::MAX;
        };
        gsr::crossover(self.draw(id), range)
    }

    /// Step 7c-v: search the move just made at `new_depth` and return its score for the
    /// node's side.
    pub(super) fn search_move(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        late: &LateMove,
        new_depth: i32,
        cross: usize,
        selective: bool,
    ) -> Score {
        let (alpha, beta) = (node.alpha, node.beta);

        // Step R1. main_selective (002): the main function asks the selective one first and
        // searches the move again itself when the selective one dismissed it. Fired: the
        // selective search dismissed the move; overruled: the main search's own result beat
        // alpha after all.
        if !selective {
            let score = -self.alphabeta(-beta, -alpha, new_depth, true);
            let params = &self.config.heuristics.main_selective;
            let redo = main_selective::research(score, alpha, beta, params);
            self.stats.decided(counter!(MainSelective), redo);
            if !redo || self.aborted {
                return score;
            }
            let score = -self.alphabeta(-beta, -alpha, new_depth, false);
            if score > alpha && !self.aborted {
                self.stats.overruled(counter!(MainSelective));
            }
            return score;
        }

        // Step R2. GSR (002), gsr_simple and late move reductions.
        let (gsr_reduction, lmr_reduction, simple) =
            self.reductions(node, mv, late, new_depth, cross, selective);
        let reduction = gsr_reduction.max(lmr_reduction);
        let null_window = self.consult(counter!(Pvs), selective, |_| {
            pvs::null_window(late.number, alpha, beta)
        });

        // Step R3. The search itself: nega-scout with IID, gsr_simple's probe, principal
        // variation search, or one full-window search at the (reduced) depth.
        let (child_alpha, child_beta) = if null_window {
            (alpha, alpha + 1)
        } else {
            self.child_window(alpha, beta)
        };
        let mut score = if self.on(Id::IidNullWindow) {
            self.iid_null_window(node, mv, new_depth - reduction, cross)
        } else if simple {
            let probe = -self.alphabeta(-alpha - 1, -alpha, new_depth - 1, true);
            if probe > alpha {
                self.stats.overruled(counter!(GsrSimple));
                -self.alphabeta(-beta, -alpha, new_depth, true)
            } else {
                if !self.aborted {
                    self.audit_made_move(&[counter!(GsrSimple)], node, new_depth, probe);
                }
                probe
            }
        } else {
            -self.alphabeta(-child_beta, -child_alpha, new_depth - reduction, true)
        };

        // Step R4. A reduced move that beats alpha is searched again at full depth (in the
        // same window).
        if reduction > 0 && score > alpha && !self.aborted {
            if gsr_reduction > 0 {
                self.stats.overruled(counter!(Gsr));
            }
            if lmr_reduction > 0 {
                self.stats.overruled(counter!(Lmr));
            }
            score = -self.alphabeta(-child_beta, -child_alpha, new_depth, true);
        } else if reduction > 0 && !self.aborted {
            self.audit_reduction(node, new_depth, score, (gsr_reduction, lmr_reduction));
        }

        // Step R5. pvs: a null-window score inside the window is searched with the full one.
        if null_window && pvs::research(score, alpha, beta) && !self.aborted {
            self.stats.overruled(counter!(Pvs));
            score = -self.alphabeta(-beta, -alpha, new_depth, true);
        }
        score
    }

    /// GSR's reduction R for moves past the node's random crossover point (002), whether
    /// gsr_simple reduces the move by one in a null window, and the late move reduction; the
    /// caller applies the larger of GSR's and LMR's.
    fn reductions(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        late: &LateMove,
        new_depth: i32,
        cross: usize,
        selective: bool,
    ) -> (i32, i32, bool) {
        let mut gsr_reduction = 0;
        self.consult(counter!(Gsr), selective, |h| {
            gsr_reduction = gsr::reduction(node, mv, cross, &h.gsr);
            gsr_reduction > 0
        });
        let simple = self.consult(counter!(GsrSimple), selective, |h| {
            gsr_simple::reduces(node, mv, cross, &h.gsr_simple)
        });
        let late = LateMove {
            check: late.check || mv.gives_check,
            ..*late
        };
        let mut lmr_reduction = 0;
        self.consult(counter!(Lmr), selective, |h| {
            lmr_reduction = lmr::reduction(&late, new_depth, &h.lmr);
            lmr_reduction > 0
        });
        (gsr_reduction, lmr_reduction, simple)
    }

    /// 002's nega-scout move search with internal iterative deepening in the null window.
    /// Counted per move: `fired` when a shallower preliminary search ran, `overruled` when a
    /// null-window result forced the full-window re-search.
    fn iid_null_window(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        next_depth: i32,
        cross: usize,
    ) -> Score {
        let (alpha, beta) = (node.alpha, node.beta);
        let params = self.config.heuristics.iid_null_window;

        // Step I1. The first move (or one at the horizon): full window, preceded by a
        // shallower full-window search when there is depth for one.
        if iid_null_window::leads(mv, next_depth) {
            let shallower = next_depth > 1;
            self.stats.decided(counter!(IidNullWindow), shallower);
            if shallower {
                self.alphabeta(-beta, -alpha, next_depth - 1, true);
            }
            return -self.alphabeta(-beta, -alpha, next_depth, true);
        }

        // Step I2. A later move: null window one ply shallower, then at full depth when that
        // beat alpha or the move is forcing.
        self.stats.decided(counter!(IidNullWindow), true);
        let mut score = -self.alphabeta(-alpha - 1, -alpha, next_depth - 1, true);
        if iid_null_window::deepen(node, mv, score > alpha, cross, &params) {
            score = -self.alphabeta(-alpha - 1, -alpha, next_depth, true);
        } else if !self.aborted {
            // The move stays searched a ply shallower (its score is at most alpha).
            self.audit_made_move(&[counter!(IidNullWindow)], node, next_depth, score);
        }

        // Step I3. A null-window result above alpha is searched again with the full window.
        if score > alpha && beta - alpha > 1 && !self.aborted {
            self.stats.overruled(counter!(IidNullWindow));
            score = -self.alphabeta(-beta, -alpha, next_depth, true);
        }
        score
    }
}
