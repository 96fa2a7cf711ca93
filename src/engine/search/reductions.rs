//! How one move is searched once no pruning took it: `main_selective`'s two functions, the GSR
//! reductions and the nega-scout IID scheme, or simply one full-window search.

use super::Searcher;
use crate::engine::eval::Score;
use crate::engine::heuristics::view::{MoveView, NodeView};
use crate::engine::heuristics::{Id, gsr, gsr_simple, iid_null_window, main_selective};

impl Searcher {
    /// Search the move just made at `new_depth` and return its score for the node's side.
    pub(super) fn search_move(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        new_depth: i32,
        cross: usize,
        selective: bool,
    ) -> Score {
        let (alpha, beta) = (node.alpha, node.beta);
        let h = self.config.heuristics;

        // main_selective (002): the main function asks the selective one first.
        if !selective {
            let score = -self.alphabeta(-beta, -alpha, new_depth, true);
            let redo = main_selective::research(score, alpha, beta, &h.main_selective);
            let counters = self.stats.heuristics.at(Id::MainSelective);
            counters.tested += 1;
            if !redo || self.aborted {
                counters.fired += 1;
                return score;
            }
            counters.overruled += 1;
            return -self.alphabeta(-beta, -alpha, new_depth, false);
        }

        // GSR (002): a reduction R for moves past the node's random crossover point.
        let mut reduction = 0;
        self.consult(Id::Gsr, selective, || {
            reduction = gsr::reduction(node, mv, cross, &h.gsr);
            reduction > 0
        });
        let simple = self.consult(Id::GsrSimple, selective, || {
            gsr_simple::reduces(node, mv, cross, &h.gsr_simple)
        });

        let mut score = if self.on(Id::IidNullWindow) {
            self.iid_null_window(node, mv, new_depth - reduction, cross)
        } else if simple {
            let probe = -self.alphabeta(-alpha - 1, -alpha, new_depth - 1, true);
            if probe > alpha {
                self.stats.heuristics.at(Id::GsrSimple).overruled += 1;
                -self.alphabeta(-beta, -alpha, new_depth, true)
            } else {
                probe
            }
        } else {
            let (child_alpha, child_beta) = self.child_window(alpha, beta);
            -self.alphabeta(-child_beta, -child_alpha, new_depth - reduction, true)
        };
        if reduction > 0 && score > alpha && !self.aborted {
            self.stats.heuristics.at(Id::Gsr).overruled += 1;
            score = -self.alphabeta(-beta, -alpha, new_depth, true);
        }
        score
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
        self.stats.heuristics.at(Id::IidNullWindow).tested += 1;
        if iid_null_window::leads(mv, next_depth) {
            if next_depth > 1 {
                self.stats.heuristics.at(Id::IidNullWindow).fired += 1;
                self.alphabeta(-beta, -alpha, next_depth - 1, true);
            }
            return -self.alphabeta(-beta, -alpha, next_depth, true);
        }
        self.stats.heuristics.at(Id::IidNullWindow).fired += 1;
        let mut score = -self.alphabeta(-alpha - 1, -alpha, next_depth - 1, true);
        if iid_null_window::deepen(node, mv, score > alpha, cross, &params) {
            score = -self.alphabeta(-alpha - 1, -alpha, next_depth, true);
        }
        if score > alpha && beta - alpha > 1 && !self.aborted {
            self.stats.heuristics.at(Id::IidNullWindow).overruled += 1;
            score = -self.alphabeta(-beta, -alpha, next_depth, true);
        }
        score
    }
}
