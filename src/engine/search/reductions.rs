//! How one move is searched once no pruning took it: `main_selective`'s two functions, the GSR
//! and late move reductions, principal variation search and the nega-scout IID scheme, or
//! simply one full-window search.
//!
//! GSR and LMR both reduce late moves. When both are on, a move is reduced by the larger of
//! the two reductions, and only the one applied fired (and is overruled when the reduced move
//! beats alpha and is searched again); the other is tested. GSR on top of LMR then measures
//! what GSR reduces beyond LMR (earlier moves past its crossover point, and RED2's deeper
//! cut), not a double reduction.

use super::Searcher;
use super::gate::Point;
use crate::engine::heuristics::view::{Decision, MoveView, NodeView};
use crate::engine::heuristics::{Id, gsr, gsr_simple, iid_null_window, lmr, main_selective, pvs};
use crate::engine::score::Score;
use crate::engine::stats::counter;

impl Searcher {
    /// Step 7 of the main search: the node's GSR crossover point (002), one draw from the
    /// seeded PRNG of the heuristic that supplies it (`Searcher::crossover_source`).
    pub(super) fn crossover(&mut self) -> usize {
        match self.plan.crossover_source {
            Some((id, range)) => gsr::crossover(self.draw(id), range),
            None => usize::MAX,
        }
    }

    /// Step 8d: search the move just made at `new_depth` and return its score for the
    /// node's side.
    pub(super) fn search_move(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        new_depth: i32,
        cross: usize,
    ) -> Score {
        let (alpha, beta) = (node.alpha, node.beta);

        // Step R1. main_selective's main function searches the move its own way.
        if !self.line.selective {
            self.width_searched(node, mv, 0, false);
            return self.main_function_move(alpha, beta, new_depth);
        }

        // Step R2. The reductions: gsr_simple's probe, or the larger of GSR's (002) and LMR's.
        let simple = self.gate(counter!(GsrSimple), Point::Settled, |s| {
            gsr_simple::reduces(node, mv, cross, &s.config.heuristics.gsr_simple)
        });
        let gsr = self.ask(counter!(Gsr), |s| {
            gsr::reduction(node, mv, cross, &s.config.heuristics.gsr)
        });
        let lmr = self.ask(counter!(Lmr), |s| {
            lmr::reduction(node, mv, new_depth, &s.config.heuristics.lmr)
        });
        let reduced = self.reduce(
            &[(counter!(Gsr), gsr), (counter!(Lmr), lmr)],
            simple.is_none(),
        );
        let reduction = reduced.map_or(0, |(_, r)| r);
        let null_window = self
            .gate(counter!(Pvs), Point::Unaudited, |_| {
                pvs::null_window(mv.legal_count, alpha, beta)
            })
            .is_some();

        // Step R3. The search itself: nega-scout with IID, gsr_simple's probe, principal
        // variation search, or one full-window search at the (reduced) depth.
        let (child_alpha, child_beta) = if null_window {
            (alpha, alpha + 1)
        } else {
            self.child_window(alpha, beta)
        };
        let mut score = if self.on(Id::IidNullWindow) {
            self.iid_null_window(node, mv, new_depth - reduction, cross)
        } else if simple.is_some() {
            let probe = -self.alphabeta(-alpha - 1, -alpha, new_depth - 1);
            if self.settle_reduction(counter!(GsrSimple), node, new_depth, probe) {
                -self.alphabeta(-beta, -alpha, new_depth)
            } else {
                probe
            }
        } else {
            // The child's type, Stockfish's `cutNode`: a reduced late move's null-window child
            // is an expected cut node, a full-depth one the opposite of this node, a PV child
            // neither.
            let child_null = child_beta - child_alpha == 1;
            let cut = child_null && (reduction > 0 || !node.cut_node);
            self.search_child(node, (child_alpha, child_beta), new_depth - reduction, cut)
        };

        // Step R4. A reduced move that beats alpha is searched again at full depth (in the
        // same window).
        let researched = reduced
            .is_some_and(|(reducer, _)| self.settle_reduction(reducer, node, new_depth, score));
        if researched {
            let cut = child_beta - child_alpha == 1 && !node.cut_node;
            score = self.search_child(node, (child_alpha, child_beta), new_depth, cut);
        }
        self.width_searched(node, mv, reduction, researched);

        // Step R5. pvs: a null-window score inside the window is searched with the full one.
        if null_window && pvs::research(score, alpha, beta) && !self.aborted() {
            self.overrule(counter!(Pvs));
            score = self.search_child(node, (alpha, beta), new_depth, false);
        }
        score
    }

    /// Search the child just made in `window` (the node's side) to `depth`, entered as an
    /// expected cut node or not (`cut_node`, which LMR's `cut_node` term reads there).
    fn search_child(
        &mut self,
        node: &NodeView,
        (alpha, beta): (Score, Score),
        depth: i32,
        cut_node: bool,
    ) -> Score {
        self.line.frames[node.ply + 1].cut_node = cut_node;
        -self.alphabeta(-beta, -alpha, depth)
    }

    /// Step R1, main_selective (002): the main function asks the selective one first and
    /// searches the move again itself when the selective one dismissed it. Tested per move of
    /// the main function; fired: the selective search dismissed the move (at most alpha);
    /// overruled: the main search's own result beat alpha after all.
    fn main_function_move(&mut self, alpha: Score, beta: Score, new_depth: i32) -> Score {
        let score = self.in_function(true, |s| -s.alphabeta(-beta, -alpha, new_depth));
        let redo = self.gate(counter!(MainSelective), Point::Unaudited, |s| {
            let params = &s.config.heuristics.main_selective;
            Decision::when(true, main_selective::research(score, alpha, beta, params))
        });
        if redo.is_none() || self.aborted() {
            return score;
        }
        let score = -self.alphabeta(-beta, -alpha, new_depth);
        if score > alpha && !self.aborted() {
            self.overrule(counter!(MainSelective));
        }
        score
    }

    /// 002's nega-scout move search with internal iterative deepening in the null window.
    /// Counted per later move: tested when it is probed a ply shallower in the null window,
    /// fired when that shallower result stands (the move is not deepened).
    fn iid_null_window(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        next_depth: i32,
        cross: usize,
    ) -> Score {
        let (alpha, beta) = (node.alpha, node.beta);

        // Step I1. The first move (or one at the horizon): full window, preceded by a
        // shallower full-window search when there is depth for one.
        if iid_null_window::leads(mv, next_depth) {
            if next_depth > 1 {
                self.alphabeta(-beta, -alpha, next_depth - 1);
            }
            return -self.alphabeta(-beta, -alpha, next_depth);
        }

        // Step I2. A later move: null window one ply shallower, then at full depth when that
        // beat alpha or the move is forcing.
        let mut score = -self.alphabeta(-alpha - 1, -alpha, next_depth - 1);
        let probe = score;
        let at = Point::Made {
            node,
            new_depth: next_depth,
        };
        let stands = self.gate(counter!(IidNullWindow), at, |s| {
            let params = &s.config.heuristics.iid_null_window;
            let applies = iid_null_window::may_stay_shallow(node, mv, cross, params);
            Decision::with(!s.aborted() && applies, (probe <= alpha).then_some(probe))
        });
        if stands.is_none() {
            score = -self.alphabeta(-alpha - 1, -alpha, next_depth);
        }

        // Step I3. A null-window result above alpha is searched again with the full window.
        if score > alpha && beta - alpha > 1 && !self.aborted() {
            score = -self.alphabeta(-beta, -alpha, next_depth);
        }
        score
    }
}
