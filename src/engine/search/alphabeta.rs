//! Negamax fail-soft alpha-beta ("alpha-beta with amortisation of failures", 001) and, with the
//! same code, full-width minimax: the minimax mode only widens every child's window to
//! (-INFINITY, INFINITY), which removes every cut-off, and claims no draws in the tree.
//!
//! The function reads as numbered steps; each heuristic is one call behind `consult`, which
//! does nothing when the heuristic is off. `selective` is false only in `main_selective`'s
//! main function, which leaves out every pruning and reduction.

use arrayvec::ArrayVec;
use cozy_chess::Move;

use super::{Frame, Searcher};
use crate::engine::config::Algorithm;
use crate::engine::heuristics::lmr::LateMove;
use crate::engine::heuristics::view::{MoveView, NodeView};
use crate::engine::heuristics::{
    Id, check_extension, futility_move_count, iir, late_move_pruning, see,
};
use crate::engine::movepick::Source;
use crate::engine::moves::{captures_weak_pawn, is_quiet, pawn_to_seventh};
use crate::engine::position::LineStats;
use crate::engine::score::{DRAW, INFINITY, MATE, MAX_PLY, Score};
use crate::engine::stats::counter;
use crate::engine::tt::{Bound, Entry, MAIN_FUNCTION_KEY, NULL_MOVE_KEY};

impl Searcher {
    /// Search the current node to `depth` within `(alpha, beta)`; the score is for the side
    /// to move, fail-soft (it may lie outside the window).
    pub(super) fn alphabeta(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: i32,
        selective: bool,
    ) -> Score {
        let score = self.search_node(alpha, beta, depth, selective);
        // An `iir` decision at this node waits for its result to be audited.
        if self.audit.is_some() {
            self.audit_pending_iir(score);
        }
        score
    }

    fn search_node(
        &mut self,
        mut alpha: Score,
        beta: Score,
        mut depth: i32,
        selective: bool,
    ) -> Score {
        let ply = self.pos.ply();
        let entry_depth = depth;
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

        // Step 4. Transposition table (001): a cut-off, or at least the hash move. Null-move
        // subtrees and main_selective's main function each have their own key space.
        let key = self.pos.board().hash()
            ^ if self.null_depth > 0 {
                NULL_MOVE_KEY
            } else {
                0
            }
            ^ if selective { 0 } else { MAIN_FUNCTION_KEY };
        let mut hash_move = None;
        if self.on(Id::Tt) {
            let params = self.config.heuristics.tt;
            let entry = self.tt_probe(key);
            if params.hash_move {
                hash_move = entry.and_then(|e| e.best_move());
            }
            let cuts = |e: &Entry| ply > 0 && params.cutoffs && e.cuts(depth, alpha, beta, ply);
            if self.consult(counter!(Tt.cutoff), selective, |_| {
                entry.as_ref().is_some_and(cuts)
            }) {
                return entry.expect("a cut-off has an entry").score(ply);
            }
        }

        // Step 4b. Internal iterative reduction: a node the table knows no move for is
        // searched a ply shallower.
        let has_hash_move = hash_move.is_some();
        if ply > 0
            && self.consult(counter!(Iir), selective, |h| {
                iir::depth(depth, has_hash_move, node.in_check, &h.iir) < depth
            })
        {
            self.note_iir(depth, alpha, beta);
            depth = iir::depth(
                depth,
                has_hash_move,
                node.in_check,
                &self.config.heuristics.iir,
            );
            node.depth = depth;
        }
        // A node searched with a window wider than null: on the principal variation.
        let pv_node = beta - alpha > 1;

        // Step 5. Node pruning: reverse futility, futility and razoring (frontier forms),
        // null moves.
        if ply > 0
            && let Some((counter, score)) = self.node_pruning(&node, selective)
        {
            self.audit_node_cut(counter, &node, entry_depth, score);
            return score;
        }

        // Step 6. GSR's crossover point for this node (002), from the seeded PRNG.
        let cross = self.crossover();

        // Step 7. The move loop.
        let mut picker = self.picker(ply, hash_move);
        let alpha_at_entry = alpha;
        let mut best = -INFINITY;
        // The best move that was searched: only such a move may become the hash move (a
        // pruned move's score is a bound it was never searched to).
        let mut best_move = None;
        let mut best_searched = -INFINITY;
        let mut legal = 0;
        let mut quiets = 0;
        // The continuation-history contexts lmr reads each quiet move's history in.
        let contexts = if self.on(Id::Lmr) {
            self.continuation_contexts()
        } else {
            None
        };
        // The quiet moves searched so far (continuation history punishes them on a cut-off).
        let mut tried: ArrayVec<Move, 64> = ArrayVec::new();
        while let Some((mv, source)) = picker.next_pick() {
            // UCI `searchmoves`: the root searches only the moves it was given.
            if ply == 0 && !self.root_moves.is_empty() && !self.root_moves.contains(&mv) {
                continue;
            }
            legal += 1;
            node.alpha = alpha;
            let quiet = is_quiet(self.pos.board(), mv);

            // Step 7a. Move counts: futility move count (001), only the first N quiet moves
            // near the leaves; late move pruning, its modern form.
            if quiet {
                quiets += 1;
                if ply > 0
                    && self.consult(counter!(FutilityMoveCount), selective, |h| {
                        futility_move_count::prunes_move(
                            depth,
                            node.in_check,
                            quiets,
                            &h.futility_move_count,
                        )
                    })
                {
                    self.audit_skipped_move(counter!(FutilityMoveCount), &node, mv, legal);
                    continue;
                }
                if ply > 0
                    && self.consult(counter!(LateMovePruning), selective, |h| {
                        late_move_pruning::prunes_move(
                            depth,
                            node.in_check,
                            pv_node,
                            quiets,
                            &h.late_move_pruning,
                        )
                    })
                {
                    self.audit_skipped_move(counter!(LateMovePruning), &node, mv, legal);
                    continue;
                }
            }

            // Step 7a'. see, low-depth form: a capture losing more than a depth margin.
            if ply > 0
                && legal > 1
                && self.on(Id::See)
                && depth <= self.config.heuristics.see.prune_depth
                && self.pos.is_capture(mv)
            {
                let exchange = see::see(self.pos.board(), mv);
                if self.consult(counter!(See.low_depth), selective, |h| {
                    see::prunes_capture(exchange, depth, node.in_check, &h.see)
                }) {
                    self.audit_skipped_move(counter!(See.low_depth), &node, mv, legal);
                    continue;
                }
            }

            // What lmr reads about the move, taken before it is made.
            let late = LateMove {
                depth,
                number: legal,
                quiet,
                check: node.in_check,
                refutation: matches!(source, Source::Killer | Source::Counter),
                history: if quiet && self.on(Id::Lmr) {
                    self.quiet_score(mv, contexts)
                } else {
                    0
                },
                pv_node,
            };

            // Step 7b. Make the move; extensions (001, 002).
            let (view, extension) = self.enter_move(mv, legal, selective);
            let new_depth = depth - 1 + extension;

            // Step 7c. Move pruning (futility pre-frontier, razoring, the 002 signals), then
            // the search of the move with its reductions.
            let (score, searched) = match self.move_pruning(&node, &view, new_depth, selective) {
                Some((counter, score)) => {
                    self.audit_made_move(&[counter], &node, new_depth, score);
                    (score, false)
                }
                None => (
                    self.search_move(&node, &view, &late, new_depth, cross, selective),
                    true,
                ),
            };
            self.pos.unmake();
            if self.aborted {
                return DRAW;
            }

            // Step 7d. Keep the best; credit the ordering heuristic that proposed the move.
            self.credit_ordering(mv, source, score > alpha);
            if searched && score > best_searched {
                best_searched = score;
                best_move = Some(mv);
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, mv);
                    self.learn(mv, score, depth, quiet);
                    if score >= beta {
                        if quiet {
                            self.learn_cutoff(mv, depth, &tried);
                        }
                        self.stats.cutoff(legal);
                        break;
                    }
                }
            }
            if quiet && searched {
                let _ = tried.try_push(mv);
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
            self.tt_store(key, depth, best, bound, best_move, ply);
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
            in_reduced_search: self.null_depth + self.verification_depth > 0,
            after_null_move: frame.after_null_move,
            extended: frame.extended,
            entered_by_capture: frame.entered_by_capture,
            game_plies: self.pos.game_plies_at_root(),
            material: self.pos.material(side),
            material_momentum: self.pos.material_momentum(side),
        }
    }

    /// Make `mv` (the `legal_count`-th legal move of the node) with its extension; returns
    /// the move's view and the extension in plies (the child's depth is `depth - 1 +` it).
    pub(super) fn enter_move(
        &mut self,
        mv: Move,
        legal_count: usize,
        selective: bool,
    ) -> (MoveView, i32) {
        let ply = self.pos.ply();
        let mut view = self.make_move_view(mv, legal_count);
        let extension = i32::from(self.consult(counter!(CheckExtension), selective, |h| {
            check_extension::extension(&view, &h.check_extension) > 0
        }));
        view.extended = extension > 0;
        self.frames[ply + 1] = Frame {
            extended: view.extended,
            entered_by_capture: view.capture,
            after_null_move: false,
        };
        (view, extension)
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
            eval_after: self.pos.last_entry().map_or(0, |e| e.r),
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
