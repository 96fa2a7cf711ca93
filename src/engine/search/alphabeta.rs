//! Negamax fail-soft alpha-beta ("alpha-beta with amortisation of failures", 001) and, with the
//! same code, full-width minimax: the minimax mode only widens every child's window to
//! (-INFINITY, INFINITY), which removes every cut-off, and claims no draws in the tree.
//!
//! The node reads as numbered steps; each decision of a heuristic is one call through the gate
//! (`gate.rs`), which does nothing when the heuristic is off, or when the line is in
//! `main_selective`'s main function (`Line::selective`), which leaves out every pruning and
//! reduction.

use std::ops::ControlFlow;

use cozy_chess::Move;

use super::Searcher;
use super::gate::{Credits, Point};
use super::ordering::Tried;
use super::tables::Contexts;
use crate::engine::config::Algorithm;
use crate::engine::heuristics::view::{HashClaim, MoveView, NodeView};
use crate::engine::heuristics::{
    Id, futility_move_count, history_pruning, iir, late_move_pruning, quiet_futility, see, tt,
    upcoming_repetition,
};
use crate::engine::movepick::{PickerLists, Source};
use crate::engine::moves::{captures_weak_pawn, gives_check, is_quiet, pawn_to_seventh};
use crate::engine::position::LineStats;
use crate::engine::score::{DRAW, INFINITY, MATE, MAX_PLY, Score};
use crate::engine::stats::counter;
use crate::engine::tt::{Bound, MAIN_FUNCTION_KEY, NULL_MOVE_KEY};

/// What the move loop of one node has found so far.
struct Best {
    /// The best score, fail-soft.
    score: Score,
    /// The best move that was searched: only such a move may become the hash move (a pruned
    /// move's score is a bound it was never searched to).
    mv: Option<Move>,
    searched_score: Score,
    /// The ordering heuristics that placed the move that last raised alpha.
    credits: Credits,
    /// The moves searched so far (the history tables punish them on a cut-off).
    tried: Tried,
}

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

        // Step 2. The horizon: a leaf, where quiescence starts when it is on.
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.horizon(alpha, beta);
        }
        self.stats.interior += 1;
        self.note_ply();

        // Step 3. Draws by repetition, the fifty-move rule, insufficient material; and the
        // floor of a node whose side to move can go back to a repetition.
        let floor = match self.draws(ply, alpha, beta) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(floor) => floor,
        };
        alpha = alpha.max(floor);

        // Step 4. Transposition table (001): a cut-off, or at least the hash move.
        let key = self.table_key();
        let entry = self.on(Id::Tt).then(|| self.tt_probe(key)).flatten();
        let params = self.config.heuristics.tt;
        let cut = self.gate(counter!(Tt.cutoff), Point::Unaudited, |_| {
            tt::cutoff(ply, (alpha, beta), depth, entry, &params)
        });
        if self.on(Id::Tt)
            && let Some(width) = self.width()
        {
            width.probe(depth, entry.is_some(), cut.is_some());
        }
        if let Some(score) = cut {
            return score.max(floor);
        }
        let hash_move = entry
            .filter(|_| params.hash_move)
            .and_then(|e| e.best_move());
        let claim = entry.filter(|_| hash_move.is_some()).map(|e| HashClaim {
            depth: e.depth(),
            lower: matches!(e.bound(), Bound::Lower | Bound::Exact),
            score: e.score(ply),
        });
        let mut node = self.node_view(alpha, beta, depth, claim);
        node.table_upper = entry
            .filter(|e| matches!(e.bound(), Bound::Upper | Bound::Exact))
            .map(|e| e.score(ply));
        self.line.frames[ply].static_eval = (!node.in_check).then_some(node.static_eval);
        node.static_eval = self.eval_for_pruning(&node, entry.map(|e| (e.score(ply), e.bound())));

        // Step 5. Internal iterative reduction: a node the table knows no move for is
        // searched shallower.
        let reduced = (ply > 0)
            .then(|| {
                self.gate(counter!(Iir), Point::Settled, |s| {
                    iir::reduction(&node, &s.config.heuristics.iir)
                })
            })
            .flatten();
        node.depth -= reduced.unwrap_or(0);
        if let Some(width) = self.width() {
            width.node(node.depth);
        }

        // Steps 6-10: node pruning, the moves, the result.
        let (counted_depth, cut_node) = (node.depth, node.cut_node);
        let score = self.expand(node, depth, key, hash_move);

        // Step 11. A reduced node's result is offered to the audit.
        if reduced.is_some() {
            self.settle_node_reduction(counter!(Iir), (alpha, beta), depth, score);
        }
        let score = score.max(floor);
        self.width_result(counted_depth, cut_node, score >= beta);
        score
    }

    /// The current node's transposition-table key: null-move subtrees and main_selective's
    /// main function each have their own key space.
    pub(super) fn table_key(&self) -> u64 {
        self.pos.board().hash() ^ self.table_key_modifier()
    }

    /// What the line's state adds to a board's hash in its table key.
    fn table_key_modifier(&self) -> u64 {
        (if self.line.null_depth > 0 {
            NULL_MOVE_KEY
        } else {
            0
        }) ^ if self.line.selective {
            0
        } else {
            MAIN_FUNCTION_KEY
        }
    }

    /// Make `mv`, prefetching the child's table slot as soon as its board is known.
    pub(super) fn make_prefetching(&mut self, mv: Move) {
        let modifier = self.table_key_modifier();
        let tt = &self.state.tt;
        self.pos
            .make_then(mv, |board| tt.prefetch(board.hash() ^ modifier));
    }

    /// Run `search` with the nodes below in the selective function (`selective`) or in
    /// `main_selective`'s main one, and return to the caller's function after it.
    pub(super) fn in_function<T>(
        &mut self,
        selective: bool,
        search: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let outer = std::mem::replace(&mut self.line.selective, selective);
        let result = search(self);
        self.line.selective = outer;
        result
    }

    /// Steps 6-10 of a node whose view is `node` (entered at `entry_depth`): node pruning, the
    /// move loop, mate and stalemate, the store.
    fn expand(
        &mut self,
        mut node: NodeView,
        entry_depth: i32,
        key: u64,
        hash_move: Option<Move>,
    ) -> Score {
        let (ply, alpha_at_entry) = (node.ply, node.alpha);

        // Step 6. Node pruning: reverse futility, futility and razoring (frontier forms),
        // null moves.
        if ply > 0
            && let Some(score) = self.node_pruning(&node, entry_depth)
        {
            return score;
        }

        // Step 7. GSR's crossover point for this node (002), from the seeded PRNG; the hash
        // move singular when no other move comes near it, or the node cut when another move
        // holds a bound at or above beta too (`singular.rs`).
        let cross = self.crossover();
        let hash_depth = match self.singular_or_cut(&node, entry_depth, hash_move) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(hash_depth) => hash_depth,
        };

        // Step 8. The move loop (`visit`: each move's own steps).
        let mut lists = PickerLists::default();
        let mut picker = self.picker(ply, hash_move, &mut lists);
        let contexts = self.continuation_contexts();
        self.key_quiets(&mut picker, contexts);
        let mut best = Best {
            score: -INFINITY,
            mv: None,
            searched_score: -INFINITY,
            credits: Credits::new(),
            tried: Tried::default(),
        };
        let (mut legal, mut quiets) = (0, 0);
        while let Some((mv, source)) = self.next_pick(&mut picker, contexts) {
            // UCI `searchmoves`: the root searches only the moves it was given; a further
            // MultiPV line leaves out the better lines' moves.
            if ply == 0 && !self.root.searches(&mv) {
                continue;
            }
            legal += 1;
            let quiet = is_quiet(self.pos.board(), mv);
            quiets += usize::from(quiet);
            let mut before = self.move_before(mv, source, legal, quiet.then_some(quiets), contexts);
            hash_depth.mark(mv, &mut before);
            let nodes_before = (ply == 0).then(|| self.stats.nodes());
            let visited = self.visit(&node, (mv, source), before, cross);
            // The clock reads where the root's nodes went (`soft_time=nodes`).
            if let Some(nodes_before) = nodes_before {
                self.root.spent(mv, self.stats.nodes() - nodes_before);
            }
            let Some((score, credits)) = visited else {
                continue;
            };
            if self.aborted() {
                return DRAW;
            }
            // Step 8f. Keep the best; a move that raises alpha teaches the ordering tables.
            if self.keep(&mut node, &mut best, (mv, quiet), score, credits, legal) {
                break;
            }
        }

        // Steps 9-10. Mate or stalemate, or the store.
        self.conclude(&node, alpha_at_entry, legal, best, key)
    }

    /// Step 8f: the `legal`-th move (`mv`, quiet or not) scored `score` (`credits`: the
    /// ordering heuristics that placed it; `None`: pruned, not searched). Keep the best; a move
    /// that raises alpha teaches the ordering tables. True on a cut-off.
    fn keep(
        &mut self,
        node: &mut NodeView,
        best: &mut Best,
        (mv, quiet): (Move, bool),
        score: Score,
        credits: Option<Credits>,
        legal: usize,
    ) -> bool {
        if credits.is_some() && score > best.searched_score {
            best.searched_score = score;
            best.mv = Some(mv);
        }
        if score > node.alpha {
            best.credits = credits.clone().unwrap_or_default();
        }
        if score > best.score {
            best.score = score;
            if score > node.alpha {
                node.alpha = score;
                self.pv.update(node.ply, mv);
                self.learn(mv, score, node.depth, quiet);
                if score >= node.beta {
                    self.learn_cutoff((mv, quiet), node.depth, &best.tried);
                    self.stats.cutoff(legal);
                    if let Some(width) = self.width() {
                        width.cutoff(node.depth, legal);
                    }
                    return true;
                }
            }
        }
        if credits.is_some() {
            best.tried.push(mv, quiet);
        }
        false
    }

    /// Step 9: no legal move is mate or stalemate (a mate nearer the root scores higher);
    /// every move pruned fails low. Step 10: the ordering heuristics that placed the move that
    /// last raised alpha were right, and the result is stored (interior nodes only, 002).
    fn conclude(
        &mut self,
        node: &NodeView,
        alpha_at_entry: Score,
        legal: usize,
        mut best: Best,
        key: u64,
    ) -> Score {
        if legal == 0 {
            return if node.in_check {
                -MATE + node.ply as Score
            } else {
                DRAW
            };
        }
        if best.score == -INFINITY {
            best.score = node.alpha;
        }
        if best.score > alpha_at_entry {
            self.proved(&best.credits);
        }
        // A MultiPV line searched without the better lines' moves is no result of the root.
        if node.ply == 0 && !self.root.excluded.is_empty() {
            return best.score;
        }
        let bound = if best.score >= node.beta {
            Bound::Lower
        } else if best.score > alpha_at_entry {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt_store(key, node.depth, best.score, bound, best.mv, node.ply);
        self.learn_correction(node, (best.score, bound), best.mv);
        best.score
    }

    /// One move of the loop: the score it gives the node and the ordering heuristics that
    /// placed it (`None` for the credits: pruned, not searched), or `None`: skipped unseen.
    fn visit(
        &mut self,
        node: &NodeView,
        (mv, source): (Move, Source),
        before: MoveView,
        cross: usize,
    ) -> Option<(Score, Option<Credits>)> {
        // Step 8a. Quiet moves skipped before they are made: futility move count (001), only
        // the first N quiet moves near the leaves; quiet futility, an evaluation far below
        // alpha up to depth 8; late move pruning, its modern form; history pruning, a bad
        // continuation history near the leaves.
        if node.ply > 0 && self.skips_late_quiet(node, mv, &before) {
            return None;
        }

        // Step 8b. see, low-depth forms: a capture, or a quiet move, losing more than a depth
        // margin.
        if node.ply > 0 && self.skips_losing_exchange(node, mv, &before) {
            return None;
        }

        // Step 8c. Make the move; extensions (001, 002).
        let (view, extension) = self.enter_move(mv, before);
        let new_depth = node.depth - 1 + extension;

        // Step 8d. Move pruning (futility pre-frontier, razoring, the 002 signals), or the
        // search of the move with its reductions.
        let (score, searched) = match self.move_pruning(node, &view, new_depth) {
            Some(score) => (score, false),
            None => (self.search_move(node, &view, new_depth, cross), true),
        };

        // Step 8e. Unmake; a searched move counts for the ordering heuristics that placed it.
        self.pos.unmake();
        let credits = (searched && !self.aborted()).then(|| {
            let credits = self.credits(mv, source);
            self.placed(&credits);
            credits
        });
        Some((score, credits))
    }

    /// Step 8a's gates, in order (Ethereal 12's: futility, then late move pruning, then
    /// history pruning): the first that acts skips the move. Whether the move gives
    /// check is worked out once, by the first gate that asks.
    fn skips_late_quiet(&mut self, node: &NodeView, mv: Move, before: &MoveView) -> bool {
        let at = Point::Unmade { node, mv, before };
        let checks = std::cell::OnceCell::new();
        self.gate(counter!(FutilityMoveCount), at, |s| {
            futility_move_count::prunes_move(node, before, &s.config.heuristics.futility_move_count)
        })
        .is_some()
            || self
                .gate(counter!(QuietFutility), at, |s| {
                    let gives_check = || *checks.get_or_init(|| gives_check(s.pos.board(), mv));
                    quiet_futility::prunes_move(
                        node,
                        before,
                        gives_check,
                        &s.config.heuristics.quiet_futility,
                    )
                })
                .is_some()
            || self
                .gate(counter!(LateMovePruning), at, |s| {
                    let gives_check = || *checks.get_or_init(|| gives_check(s.pos.board(), mv));
                    late_move_pruning::prunes_move(
                        node,
                        before,
                        gives_check,
                        &s.config.heuristics.late_move_pruning,
                    )
                })
                .is_some()
            || self
                .gate(counter!(HistoryPruning), at, |s| {
                    let gives_check = || *checks.get_or_init(|| gives_check(s.pos.board(), mv));
                    history_pruning::prunes_move(
                        node,
                        before,
                        gives_check,
                        &s.config.heuristics.history_pruning,
                    )
                })
                .is_some()
    }

    /// Step 8b's gates: see's low-depth form for captures, then its quiet form.
    fn skips_losing_exchange(&mut self, node: &NodeView, mv: Move, before: &MoveView) -> bool {
        let at = Point::Unmade { node, mv, before };
        self.gate(counter!(See.low_depth), at, |s| {
            let board = s.pos.board();
            see::prunes_capture(
                node,
                before,
                |threshold| see::below(board, mv, threshold),
                &s.config.heuristics.see,
            )
        })
        .or_else(|| {
            self.gate(counter!(See.quiet), at, |s| {
                let board = s.pos.board();
                see::prunes_quiet(
                    node,
                    before,
                    |threshold| see::below(board, mv, threshold),
                    || gives_check(board, mv),
                    &s.config.heuristics.see,
                )
            })
        })
        .is_some()
    }

    /// What the node's `legal`-th move (its `quiet`-th quiet one) shows before it is made.
    fn move_before(
        &self,
        mv: Move,
        source: Source,
        legal: usize,
        quiet: Option<usize>,
        contexts: Contexts,
    ) -> MoveView {
        let (history, continuation) = match quiet {
            Some(_) if self.plan.needs_history => self.quiet_score(mv, contexts),
            _ => (0, [0; 2]),
        };
        MoveView {
            quiet_index: quiet.unwrap_or(0),
            refutation: matches!(source, Source::Killer | Source::Counter),
            history,
            continuation,
            capture: self.pos.is_capture(mv),
            promotion: mv.promotion.is_some(),
            king_move: mv.from == self.pos.board().king(self.pos.board().side_to_move()),
            legal_count: legal,
            ..MoveView::default()
        }
    }

    /// What the decision functions may read about the current node.
    fn node_view(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: i32,
        hash_claim: Option<HashClaim>,
    ) -> NodeView {
        let ply = self.pos.ply();
        let frame = self.line.frames[ply];
        let side = self.pos.board().side_to_move();
        let in_check = self.pos.in_check();
        let eval = self.pos.static_eval();
        let static_eval = self.corrected_eval(eval, in_check, false);
        // Ethereal's and Stockfish's test: better than two plies ago, when neither is in check.
        let improving = !in_check
            && ply >= 2
            && self.line.frames[ply - 2]
                .static_eval
                .is_some_and(|before| static_eval > before);
        NodeView {
            depth,
            ply,
            alpha,
            beta,
            in_check,
            static_eval,
            improving,
            in_reduced_search: self.line.null_depth + self.line.verification_depth > 0,
            after_null_move: frame.after_null_move,
            extended: frame.extended,
            double_extensions: u32::from(frame.double_extensions),
            entered_by_capture: frame.entered_by_capture,
            game_plies: self.pos.game_plies_at_root(),
            material: self.pos.material(side),
            material_momentum: self.pos.material_momentum(side),
            pv_node: beta - alpha > 1,
            cut_node: frame.cut_node && beta - alpha == 1,
            has_hash_move: hash_claim.is_some(),
            hash_claim,
            has_pieces: self.pos.has_pieces(side),
            table_upper: None,
        }
    }

    /// The evaluation the node's pruning decisions read: the static one, or the table's score
    /// where `tt.score_as_eval` finds it the better (`heuristics/tt.rs`). The frame keeps the
    /// static one, which `improving` compares with two plies down.
    fn eval_for_pruning(&mut self, node: &NodeView, stored: Option<(Score, Bound)>) -> Score {
        let searched = self.gate(counter!(Tt.eval), Point::Unaudited, |s| {
            tt::eval_from_score(node, stored, &s.config.heuristics.tt)
        });
        searched.unwrap_or(node.static_eval)
    }

    /// Step 3: `Break` with the draw score at a drawn node; else `Continue` with the node's
    /// floor. A node whose side to move has a reversible move back to a repetition is worth at
    /// least a draw to it (`upcoming_repetition`), which a stored result of another path would
    /// not know: no score it returns, the table's included, lies below that floor, and it
    /// returns at once where the floor reaches beta. Elsewhere the floor is `-INFINITY`.
    fn draws(&mut self, ply: usize, alpha: Score, beta: Score) -> ControlFlow<Score, Score> {
        if ply == 0 || !self.claims_draws() {
            return ControlFlow::Continue(-INFINITY);
        }
        if self.pos.is_draw() {
            return ControlFlow::Break(self.draw_score());
        }
        let floor = self.gate(counter!(UpcomingRepetition), Point::Unaudited, |s| {
            let pos = &s.pos;
            let reach = pos.repetition_reach();
            upcoming_repetition::draw_floor(alpha, reach, || {
                upcoming_repetition::cycle(pos.board(), reach, ply, |back| pos.key_back(back))
            })
        });
        match floor {
            Some(draw) if draw >= beta => ControlFlow::Break(draw),
            Some(draw) => ControlFlow::Continue(draw),
            None => ControlFlow::Continue(-INFINITY),
        }
    }

    /// Make `mv` (described by `before`) with its extension; returns the move's whole view
    /// and the extension in plies (the child's depth is `depth - 1 +` it).
    pub(super) fn enter_move(&mut self, mv: Move, before: MoveView) -> (MoveView, i32) {
        let ply = self.pos.ply();
        let mut view = self.make_move_view(mv, before);
        let extension = self.extension(&view, ply);
        view.extended = extension > 0;
        self.line.frames[ply + 1] =
            self.line.frames[ply].child(view.capture, view.extended, extension >= 2);
        (view, extension)
    }

    /// Make `mv` and complete its view for the decisions taken after it is made.
    fn make_move_view(&mut self, mv: Move, before: MoveView) -> MoveView {
        let board = self.pos.board();
        let mover = board.side_to_move();
        let pawn_seventh = pawn_to_seventh(board, mv);
        let weak_pawn = before.capture && captures_weak_pawn(board, mv);
        self.make_prefetching(mv);
        MoveView {
            gives_check: self.pos.in_check(),
            pawn_to_seventh: pawn_seventh,
            extended: false,
            eval_after: self.pos.last_entry().map_or(0, |e| e.r),
            captures_weak_pawn: weak_pawn,
            own_pawn_on_seventh: self.pos.pawn_on_seventh(mover),
            opponent_pawn_on_seventh: self.pos.pawn_on_seventh(!mover),
            line: if self.plan.needs_line_stats {
                self.pos.line_stats(mover)
            } else {
                LineStats::default()
            },
            ..before
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
