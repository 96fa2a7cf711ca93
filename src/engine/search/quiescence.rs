//! The horizon and the quiescence search.
//!
//! With `quiescence` off the horizon returns the static evaluation (000's "without quiescence"
//! column: the PV may end in a capture nobody answers, the horizon effect). With it on, Ifrit's
//! forced variant (000): stand pat, captures in MVV/LVA order, fail-soft; in check, all
//! evasions (001). `momentum`'s quiescence form filters captures below quiescence depth 2;
//! `see` leaves out captures that lose material; `delta_pruning` returns the stand pat where no
//! capture can reach alpha and leaves out captures that cannot; `quiescence_checks` adds the
//! horizon leaf's quiet checks.

use super::Searcher;
use super::gate::Point;
use crate::engine::config::{LeafEval, TreeDraws};
use crate::engine::eval::{self, EvalKind};
use crate::engine::heuristics::view::Decision;
use crate::engine::heuristics::{
    Id, delta_pruning, momentum, mvv_lva, quiescence_checks, quiescence_tt, see,
};
use crate::engine::movegen::{MAX_MOVES, MoveList, quiescence_moves_into, quiet_checks};
use crate::engine::moves::captured_piece;
use crate::engine::score::Score;
use crate::engine::score::{DRAW, INFINITY, MATE, MAX_PLY};
use crate::engine::stats::counter;
use crate::engine::tt::Bound;
use arrayvec::ArrayVec;
use cozy_chess::Piece;

/// The quiescence moves of `board` into `list` (every evasion when `evasions`), the captures
/// first in MVV/LVA order: quiescence always sorts them (000). Each capture's key is computed
/// once and the captures, a handful, are sorted by insertion, the highest key first and the
/// earlier move first among equals: the order of a stable sort, so the node counts are those
/// of one. The list is filled where the node holds it, never moved (it is 256 moves long).
pub(super) fn ordered_quiescence_moves(
    board: &cozy_chess::Board,
    evasions: bool,
    list: &mut MoveList,
) {
    let captures = quiescence_moves_into(board, evasions, list);
    let moves = &mut list.as_mut_slice()[..captures];
    let mut keys: ArrayVec<i32, MAX_MOVES> = ArrayVec::new();
    for &mv in moves.iter() {
        let victim = captured_piece(board, mv).unwrap_or(Piece::Pawn);
        let attacker = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
        keys.push(mvv_lva::base_key(victim, attacker));
    }
    for i in 1..moves.len() {
        let (mv, key) = (moves[i], keys[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < key {
            moves[j] = moves[j - 1];
            keys[j] = keys[j - 1];
            j -= 1;
        }
        moves[j] = mv;
        keys[j] = key;
    }
}

impl Searcher {
    /// The score of a node drawn by repetition, the fifty-move rule or bare kings: `DRAW`, or
    /// with `tree_draws=jittered` one unit either side of it by the second bit of the nodes
    /// this search has counted over all its iterations, as Ethereal 12.00's per-search count
    /// (the same configuration gives the same count, so the same scores).
    #[inline]
    pub(super) fn draw_score(&self) -> Score {
        match self.config.tree_draws {
            TreeDraws::Jittered => {
                let nodes = self.clock.nodes_before + self.stats.nodes();
                DRAW + 1 - (nodes & 2) as Score
            }
            _ => DRAW,
        }
    }

    /// A leaf at the horizon. Every call is one horizon leaf, so in minimax mode their count
    /// equals perft at the search depth.
    pub(super) fn horizon(&mut self, alpha: Score, beta: Score) -> Score {
        self.stats.horizon += 1;
        let ply = self.note_ply();
        if self.claims_draws() && self.pos.is_draw() {
            return self.draw_score();
        }
        if self.on(Id::Quiescence) {
            return self.quiescence(alpha, beta);
        }
        // A side in check with no legal move is mated, even at the horizon. Only checked
        // when in check, where it is cheap (the generator stops at the first move).
        if self.pos.in_check() && !self.pos.board().generate_moves(|_| true) {
            return -MATE + ply as Score;
        }
        self.leaf_eval(EvalKind::Full)
    }

    /// A leaf's evaluation for the side to move: the search's own (`Full`) or material only,
    /// read from the incremental terms or, with `leaf_eval=scratch`, computed from the board
    /// (the same score at a different cost).
    fn leaf_eval(&self, kind: EvalKind) -> Score {
        let board = self.pos.board();
        match (self.config.leaf_eval, kind) {
            (LeafEval::Incremental, EvalKind::Full | EvalKind::Nnue) => self.pos.static_eval(),
            (LeafEval::Incremental, EvalKind::Material) => self.pos.material(board.side_to_move()),
            (LeafEval::Scratch, EvalKind::Full | EvalKind::Nnue) => {
                self.pos.evaluate_from_scratch()
            }
            (LeafEval::Scratch, EvalKind::Material) => eval::evaluate(board, EvalKind::Material),
        }
    }

    /// The quiescence search of a horizon leaf (counted at its step Q3). There is one
    /// quiescence search: `main_selective`'s main function reaches the selective one's, whose
    /// captures its filters leave out as they do everywhere.
    fn quiescence(&mut self, alpha: Score, beta: Score) -> Score {
        self.in_function(true, |s| s.forced_variant(alpha, beta, 0))
    }

    /// Ifrit's forced variant from the current node, `qdepth` plies below the horizon.
    pub(super) fn forced_variant(&mut self, alpha: Score, beta: Score, qdepth: i32) -> Score {
        let ply = self.pos.ply();
        self.pv.clear(ply);

        // Step Q1. Limits and node accounting (the horizon leaf itself is counted there).
        if qdepth > 0 {
            if self.out_of_budget() {
                return DRAW;
            }
            self.stats.quiescence += 1;
            self.note_ply();
        }

        // Step Q1b. The transposition table (quiescence_tt): a stored bound that proves the
        // result; else the node is searched and its result stored.
        // The key is computed only where the table is used: quiescence is 40% of the nodes.
        let params = self.config.heuristics.quiescence_tt;
        let uses_table = self.on(Id::QuiescenceTt) && quiescence_tt::uses_table(qdepth, &params);
        let (key, depth) = (
            uses_table.then(|| self.table_key()),
            quiescence_tt::depth(qdepth),
        );
        if let Some(score) = self.gate(counter!(QuiescenceTt), Point::Unaudited, |s| match key {
            Some(key) => quiescence_tt::cut(s.tt_probe(key), (alpha, beta), depth, ply),
            None => Decision::Inapplicable,
        }) {
            return score;
        }
        let score = self.forced_moves(alpha, beta, qdepth);
        if let Some(key) = key.filter(|_| !self.aborted()) {
            let bound = if score >= beta {
                Bound::Lower
            } else if score > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let best = self.pv.first(ply).filter(|_| score > alpha);
            self.tt_store(key, depth, score, bound, best, ply);
        }
        score
    }

    /// Steps Q2-Q6 of a quiescence node: the stand pat, the captures, the horizon's checks.
    fn forced_moves(&mut self, mut alpha: Score, beta: Score, qdepth: i32) -> Score {
        let ply = self.pos.ply();

        // Step Q2. Stand pat, unless in check with evasions on; delta pruning's node form.
        let in_check = self.pos.in_check();
        let evasions = in_check && self.config.heuristics.quiescence.evasions;
        let stand_pat = match self.stand_pat(alpha, beta, evasions) {
            Ok(stand_pat) => stand_pat,
            Err(score) => return score,
        };
        let mut best = stand_pat.unwrap_or(-INFINITY);
        alpha = alpha.max(best);

        // Step Q3. Captures (all evasions in check); none left in check: mate.
        let mut moves = MoveList::default();
        ordered_quiescence_moves(self.pos.board(), evasions, &mut moves);
        if moves.is_empty() && evasions {
            return -MATE + ply as Score;
        }
        // The horizon leaf's quiescence is tested where the stand pat left it to search, and
        // fired when it had captures (or evasions) to search.
        if qdepth == 0 {
            let has_moves = !moves.is_empty();
            self.gate(counter!(Quiescence), Point::Unaudited, |_| {
                Decision::when(true, has_moves)
            });
        }
        for (index, &mv) in moves.as_slice().iter().enumerate() {
            // Step Q4. Captures left out by see or momentum; the others are made.
            let stand_pat = stand_pat.filter(|_| !in_check);
            if !self.enter_capture(mv, (alpha, beta), qdepth, stand_pat) {
                continue;
            }
            // Step Q5. Quiescence is alpha-beta in every mode: Ifrit's forced variant cuts on
            // the window its stand pat raised, even below a full-width minimax (000).
            if self.forced_move(mv, qdepth, beta, (&mut alpha, &mut best), index + 1) {
                return if self.aborted() { DRAW } else { best };
            }
        }

        // Step Q6. The horizon leaf's quiet checks that do not lose material
        // (quiescence_checks), once neither the stand pat nor a capture reached beta; they
        // follow the captures in the node's move order.
        let checks = self.horizon_checks(qdepth, in_check);
        for (index, &mv) in checks.iter().flat_map(MoveList::as_slice).enumerate() {
            self.make_forced(mv, qdepth);
            let number = moves.len() + index + 1;
            if self.forced_move(mv, qdepth, beta, (&mut alpha, &mut best), number) {
                return if self.aborted() { DRAW } else { best };
            }
        }
        best
    }

    /// Step Q2: the stand pat (`None` in check with evasions on, where every evasion is
    /// searched), or `Err` with the node's score when it ends here: the stand pat reaches
    /// beta, the deepest ply, or `delta_pruning`'s node form (no capture can reach alpha).
    fn stand_pat(
        &mut self,
        alpha: Score,
        beta: Score,
        evasions: bool,
    ) -> Result<Option<Score>, Score> {
        let ply = self.pos.ply();
        // At the deepest ply there is no room for another move, evasions included.
        if evasions {
            return if ply >= MAX_PLY - 1 {
                Err(self.leaf_eval(EvalKind::Full))
            } else {
                Ok(None)
            };
        }
        let in_check = self.pos.in_check();
        let eval = self.leaf_eval(self.config.heuristics.quiescence.eval);
        let stand_pat = self.corrected_eval(eval, in_check, true);
        if stand_pat >= beta || ply >= MAX_PLY - 1 {
            return Err(stand_pat);
        }
        match self.gate(counter!(DeltaPruning.node), Point::Unaudited, |s| {
            let board = s.pos.board();
            delta_pruning::cuts_node(
                Some(stand_pat).filter(|_| !in_check),
                alpha,
                || delta_pruning::best_case(board),
                &s.config.heuristics.delta_pruning,
            )
        }) {
            Some(score) => Err(score),
            None => Ok(Some(stand_pat)),
        }
    }

    /// Step Q6's moves: the quiet checks `quiescence_checks` adds at this node, if any.
    fn horizon_checks(&mut self, qdepth: i32, in_check: bool) -> Option<MoveList> {
        self.gate(counter!(QuiescenceChecks), Point::Unaudited, |s| {
            let params = &s.config.heuristics.quiescence_checks;
            let board = s.pos.board();
            quiescence_checks::searches(qdepth, in_check, || {
                quiet_checks(board, |mv| {
                    !quiescence_checks::skips(|| see::see(board, mv), params)
                })
            })
        })
    }

    /// Make `mv` at a quiescence node `qdepth` plies below the horizon, prefetching the child's
    /// table slot where the child probes the table (`quiescence_tt`). Without it every probe
    /// below the horizon leaf waits on memory: with `max_qdepth` 64 the default searched 1.21 M
    /// nodes a second in games against its 1.36 M without the table
    /// (`reports/elo-quiescence-tt/speed-by-pair.txt`), where the main search's probes are
    /// prefetched since 35a1624. A prefetch is a hint, so the tree, and every node count,
    /// stays the same (`reports/nps/`, 888c9b2: 3% more nodes a second on bench).
    fn make_forced(&mut self, mv: cozy_chess::Move, qdepth: i32) {
        let params = &self.config.heuristics.quiescence_tt;
        if self.on(Id::QuiescenceTt) && quiescence_tt::uses_table(qdepth + 1, params) {
            self.make_prefetching(mv);
        } else {
            self.pos.make(mv);
        }
    }

    /// Steps Q5 and Q6: search the move just made (`mv`, the `number`-th of the node's move
    /// order, counting the moves left out) below this quiescence node, take it back, and raise
    /// `best` and `alpha` with its score. True when the node is done: a cut-off, or the search
    /// was stopped.
    fn forced_move(
        &mut self,
        mv: cozy_chess::Move,
        qdepth: i32,
        beta: Score,
        (alpha, best): (&mut Score, &mut Score),
        number: usize,
    ) -> bool {
        let score = -self.forced_variant(-beta, -*alpha, qdepth + 1);
        self.pos.unmake();
        if self.aborted() {
            return true;
        }
        if score > *best {
            *best = score;
            if score > *alpha {
                *alpha = score;
                self.pv.update(self.pos.ply(), mv);
                if score >= beta {
                    self.stats.quiescence_cutoff(number);
                    return true;
                }
            }
        }
        false
    }

    /// Step Q4 of the quiescence search: make capture `mv` unless `see` (a capture that loses
    /// material, outside check), `delta_pruning` (a capture that cannot reach alpha from the
    /// stand pat; none in check) or `momentum` (002's quies_see: only exchanges and good
    /// captures) leaves it out; true when it is made.
    fn enter_capture(
        &mut self,
        mv: cozy_chess::Move,
        window: (Score, Score),
        qdepth: i32,
        stand_pat: Option<Score>,
    ) -> bool {
        let in_check = self.pos.in_check();
        let mover = self.pos.board().side_to_move();
        let at = Point::Capture {
            window,
            qdepth,
            mv: Some(mv),
        };
        if self
            .gate(counter!(See.quiescence), at, |s| {
                let board = s.pos.board();
                see::skips_in_quiescence(
                    in_check,
                    || see::losing(board, mv),
                    &s.config.heuristics.see,
                )
            })
            .or_else(|| {
                self.gate(counter!(DeltaPruning.capture), at, |s| {
                    let board = s.pos.board();
                    delta_pruning::skips_capture(
                        stand_pat,
                        window.0,
                        || see::see(board, mv),
                        &s.config.heuristics.delta_pruning,
                    )
                })
            })
            .is_some()
        {
            return false;
        }
        self.make_forced(mv, qdepth);
        let momentum = self.pos.material_momentum(mover);
        let at = Point::Capture {
            window,
            qdepth,
            mv: None,
        };
        if self
            .gate(counter!(Momentum.quiescence), at, |s| {
                momentum::quiescence_skip(qdepth, in_check, momentum, &s.config.heuristics.momentum)
            })
            .is_some()
        {
            self.pos.unmake();
            return false;
        }
        true
    }
}
