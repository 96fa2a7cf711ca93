//! Negamax fail-soft alpha-beta ("alpha-beta with amortisation of failures", 001) and, with the
//! same code, full-width minimax: the minimax mode only widens every child's window to
//! (-INFINITY, INFINITY), which removes every cut-off, and claims no draws in the tree.
//!
//! The function reads as numbered steps; each heuristic is one call behind `consult`, which
//! does nothing when the heuristic is off. `selective` is false only in `main_selective`'s
//! main function, which leaves out every pruning and reduction.

use cozy_chess::{Color, Move};

use super::{DRAW, Frame, INFINITY, MATE, MATE_BOUND, MAX_PLY, Searcher};
use crate::engine::config::Algorithm;
use crate::engine::eval::Score;
use crate::engine::heuristics::view::{MoveView, NodeView};
use crate::engine::heuristics::{
    Id, check_extension, futility_move_count, gsr, killers, mate_history,
};
use crate::engine::movepick::{MovePicker, Ordering, Source};
use crate::engine::position::{LineStats, captures_weak_pawn, pawn_to_seventh};
use crate::engine::tt::{Bound, NULL_MOVE_KEY};

impl Searcher {
    /// Search the current node to `depth` within `(alpha, beta)`; the score is for the side
    /// to move, fail-soft (it may lie outside the window).
    pub(super) fn alphabeta(
        &mut self,
        mut alpha: Score,
        beta: Score,
        depth: i32,
        selective: bool,
    ) -> Score {
        let ply = self.pos.ply();
        self.pv.clear(ply);

        // Step 1. Limits: a node budget, `stop`, or the clock.
        if self.out_of_budget() {
            return DRAW;
        }

        // Step 2. The horizon: a leaf, where quiescence starts when it is on.
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.horizon(alpha, beta);
        }
        self.stats.interior += 1;
        self.note_ply();

        // Step 3. Draws by repetition, the fifty-move rule, insufficient material.
        if ply > 0 && self.claims_draws() && self.pos.is_draw() {
            return DRAW;
        }
        let mut node = self.node_view(alpha, beta, depth);

        // Step 4. Transposition table (001): a cut-off, or at least the hash move.
        let key = self.pos.board().hash()
            ^ if self.null_depth > 0 {
                NULL_MOVE_KEY
            } else {
                0
            };
        let mut hash_move = None;
        if self.on(Id::Tt) {
            let params = self.config.heuristics.tt;
            let entry = self.state.tt.probe(key);
            if params.hash_move {
                hash_move = entry.and_then(|e| e.best_move());
            }
            let cuts = |e: &crate::engine::tt::Entry| {
                ply > 0 && params.cutoffs && e.cuts(depth, alpha, beta, ply)
            };
            if self.consult(Id::Tt, selective, || entry.as_ref().is_some_and(cuts)) {
                return entry.expect("a cut-off has an entry").score(ply);
            }
        }

        // Step 5. Node pruning: futility and razoring (frontier forms), null moves.
        if ply > 0
            && let Some(score) = self.node_pruning(&node, selective)
        {
            return score;
        }

        // Step 6. GSR's crossover point for this node (002), from the seeded PRNG.
        let cross = self.crossover();

        // Step 7. The move loop.
        let mut picker = self.picker(ply, hash_move);
        let alpha_at_entry = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut legal = 0;
        let mut quiets = 0;
        while let Some((mv, source)) = picker.next_pick() {
            legal += 1;
            node.alpha = alpha;
            let killer_candidate = killers::is_candidate(self.pos.board(), mv);

            // Step 7a. Futility move count (001): only the first N quiet moves near the leaves.
            if killer_candidate {
                quiets += 1;
                let params = self.config.heuristics.futility_move_count;
                if ply > 0
                    && self.consult(Id::FutilityMoveCount, selective, || {
                        futility_move_count::prunes_move(depth, node.in_check, quiets, &params)
                    })
                {
                    continue;
                }
            }

            // Step 7b. Make the move; extensions (001, 002).
            let mut view = self.make_move_view(mv, legal);
            let params = self.config.heuristics.check_extension;
            let extension = i32::from(self.consult(Id::CheckExtension, selective, || {
                check_extension::extension(&view, &params) > 0
            }));
            view.extended = extension > 0;
            let new_depth = depth - 1 + extension;
            self.frames[ply + 1] = Frame {
                extended: view.extended,
                entered_by_capture: view.capture,
                after_null_move: false,
            };

            // Step 7c. Move pruning (futility pre-frontier, razoring, the 002 signals), then
            // the search of the move with its reductions.
            let score = match self.move_pruning(&node, &view, new_depth, selective) {
                Some(score) => score,
                None => self.search_move(&node, &view, new_depth, cross, selective),
            };
            self.pos.unmake();
            if self.aborted {
                return DRAW;
            }

            // Step 7d. Keep the best; credit the ordering heuristic that proposed the move.
            self.credit_ordering(mv, source, score > alpha);
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, mv);
                    self.learn(mv, score, depth, killer_candidate);
                    if score >= beta {
                        self.stats.cutoffs += 1;
                        if legal == 1 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        break;
                    }
                }
            }
        }

        // Step 8. No legal move: mate or stalemate. A mate nearer the root scores higher.
        if legal == 0 {
            return if node.in_check {
                -MATE + ply as Score
            } else {
                DRAW
            };
        }
        // Every move was pruned: the node fails low.
        if best == -INFINITY {
            best = alpha;
        }

        // Step 9. Store the result (interior nodes only, 002).
        if self.on(Id::Tt) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_at_entry {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.state.tt.store(key, depth, best, bound, best_move, ply);
        }
        best
    }

    /// What the decision functions may read about the current node.
    fn node_view(&self, alpha: Score, beta: Score, depth: i32) -> NodeView {
        let ply = self.pos.ply();
        let frame = self.frames[ply];
        let side = self.pos.board().side_to_move();
        NodeView {
            depth,
            ply,
            alpha,
            beta,
            in_check: self.pos.in_check(),
            static_eval: self.pos.static_eval(),
            in_null_search: self.null_depth > 0,
            after_null_move: frame.after_null_move,
            extended: frame.extended,
            entered_by_capture: frame.entered_by_capture,
            game_plies: self.pos.game_plies_at_root(),
            material: self.pos.material(side),
            material_momentum: self.pos.material_momentum(side),
        }
    }

    /// Make `mv` and describe it for the move-level decisions.
    fn make_move_view(&mut self, mv: Move, legal_count: usize) -> MoveView {
        let board = self.pos.board();
        let mover = board.side_to_move();
        let capture = self.pos.is_capture(mv);
        let pawn_seventh = pawn_to_seventh(board, mv);
        let weak_pawn = capture && captures_weak_pawn(board, mv);
        self.pos.make(mv);
        MoveView {
            capture,
            promotion: mv.promotion.is_some(),
            gives_check: self.pos.in_check(),
            pawn_to_seventh: pawn_seventh,
            extended: false,
            legal_count,
            r: self.pos.last_entry().map_or(0, |e| e.r),
            captures_weak_pawn: weak_pawn,
            own_pawn_on_seventh: self.pos.pawn_on_seventh(mover),
            opponent_pawn_on_seventh: self.pos.pawn_on_seventh(!mover),
            line: if self.needs_line_stats {
                self.pos.line_stats(mover)
            } else {
                LineStats::default()
            },
        }
    }

    /// The move picker of this node, with the ordering heuristics that are on.
    fn picker(&self, ply: usize, hash_move: Option<Move>) -> MovePicker {
        let h = &self.config.heuristics;
        let pv_move = if self.on(Id::PvMove) {
            self.pv_move_at(ply)
        } else {
            None
        };
        let last_moved_to = self.pos.last_entry().and_then(|e| e.mv).map(|mv| mv.to);
        let ordering = Ordering {
            pv_move,
            hash_move,
            killers: self.on(Id::Killers).then(|| self.killers.at(ply)),
            mvv_lva: self.on(Id::MvvLva).then_some((&h.mvv_lva, last_moved_to)),
            history: self.on(Id::History).then_some(&self.state.history),
            mate_history: self.on(Id::MateHistory).then_some(&self.state.history),
        };
        MovePicker::with_ordering(self.pos.board(), &ordering)
    }

    /// The previous iteration's PV move at this node, when the line from the root follows
    /// that PV.
    fn pv_move_at(&self, ply: usize) -> Option<Move> {
        let line = &self.pos.line()[self.pos.game_len()..];
        let follows = self.previous_pv.len() > ply
            && line
                .iter()
                .zip(&self.previous_pv)
                .all(|(entry, &mv)| entry.mv == Some(mv));
        follows.then(|| self.previous_pv[ply])
    }

    /// Credit the ordering heuristic that put this move where it was: `tested` per move it
    /// promoted, `fired` when that move raised alpha.
    fn credit_ordering(&mut self, mv: Move, source: Source, raised_alpha: bool) {
        let credit = |stats: &mut crate::engine::stats::SearchStats, id: Id| {
            let c = stats.heuristics.at(id);
            c.tested += 1;
            c.fired += u64::from(raised_alpha);
        };
        match source {
            Source::Pv => credit(&mut self.stats, Id::PvMove),
            Source::Hash => credit(&mut self.stats, Id::Tt),
            Source::Killer => credit(&mut self.stats, Id::Killers),
            Source::Capture { sorted: true } => credit(&mut self.stats, Id::MvvLva),
            Source::Capture { sorted: false } => {}
            Source::Quiet => {
                let side = self.pos.board().side_to_move();
                if self.on[Id::History as usize] && self.state.history.history(side, mv) > 0 {
                    credit(&mut self.stats, Id::History);
                }
                if self.on[Id::MateHistory as usize] && self.state.history.mate(side, mv) > 0 {
                    credit(&mut self.stats, Id::MateHistory);
                }
            }
        }
    }

    /// A move raised alpha: killers, history and mate history learn from it.
    fn learn(&mut self, mv: Move, score: Score, depth: i32, quiet: bool) {
        let ply = self.pos.ply();
        let side: Color = self.pos.board().side_to_move();
        let h = self.config.heuristics;
        if quiet && self.on(Id::Killers) {
            self.killers.record(ply, mv, &h.killers);
        }
        if quiet && self.on(Id::History) {
            self.state.history.record(side, mv, depth, &h.history);
        }
        if score >= MATE_BOUND && self.on(Id::MateHistory) {
            let bonus = mate_history::bonus(self.draw(), &h.mate_history);
            self.state
                .history
                .record_mate(side, mv, bonus, h.history.max_hist);
        }
    }

    /// The node's GSR crossover point (one PRNG draw when a heuristic uses it).
    fn crossover(&mut self) -> usize {
        let h = &self.config.heuristics;
        let range = if self.on(Id::Gsr) {
            h.gsr.cross_range
        } else if self.on(Id::GsrSimple) {
            h.gsr_simple.cross_range
        } else if self.on(Id::IidNullWindow) {
            gsr::Params::default().cross_range
        } else {
            return usize::MAX;
        };
        gsr::crossover(self.draw(), range)
    }

    /// The window a child is searched with, from the side to move's `(alpha, beta)`. Minimax
    /// searches every child with the full window, so nothing is ever cut.
    #[inline]
    pub(super) fn child_window(&self, alpha: Score, beta: Score) -> (Score, Score) {
        match self.config.algorithm {
            Algorithm::Alphabeta => (alpha, beta),
            Algorithm::Minimax => (-INFINITY, INFINITY),
        }
    }
}
