//! The ordering heuristics' side of the search: the picker built from the ones that are on,
//! the credit each gets for the moves it placed, and what they learn when a move raises
//! alpha (into the tables `SearchState` keeps).

use arrayvec::ArrayVec;
use cozy_chess::{Color, Move};

use super::Searcher;
use super::gate::Credits;
use super::tables::Contexts;
use crate::engine::config::QuietKeys;
use crate::engine::heuristics::continuation_history::{self, Key};
use crate::engine::heuristics::{Id, mate_history};
use crate::engine::movepick::{MoveKeys, MovePicker, Ordering, PickerLists, Source};
use crate::engine::score::{MATE_BOUND, Score};
use crate::engine::stats::counter;

/// The moves a node searched before a cut-off, which the history tables punish: the quiet
/// ones (history, continuation history) and the others (capture history).
#[derive(Default)]
pub(super) struct Tried {
    quiets: ArrayVec<Move, 64>,
    captures: ArrayVec<Move, 32>,
}

impl Tried {
    pub(super) fn push(&mut self, mv: Move, quiet: bool) {
        let _ = match quiet {
            true => self.quiets.try_push(mv),
            false => self.captures.try_push(mv),
        };
    }
}

/// A quiet move's ordering terms (`Searcher::quiet_terms`).
struct QuietTerms {
    history: i32,
    mate: i32,
    continuation: [i32; 2],
}

impl QuietTerms {
    fn sum(&self) -> i32 {
        self.history + self.mate + self.continuation[0] + self.continuation[1]
    }
}

impl Searcher {
    /// The move picker of this node, with the ordering heuristics that are on (its quiet moves
    /// keyed by `key_quiets`), its moves in `lists`.
    pub(super) fn picker<'a>(
        &self,
        ply: usize,
        hash_move: Option<Move>,
        lists: &'a mut PickerLists,
    ) -> MovePicker<'a> {
        let plan = self.plan.ordering;
        let last_moved_to = self.pos.last_entry().and_then(|e| e.mv).map(|mv| mv.to);
        let ordering = Ordering {
            pv_move: plan.pv_move.then(|| self.pv_move_at(ply)).flatten(),
            hash_move,
            killers: plan.killers.then(|| self.state.ordering.killers.at(ply)),
            mvv_lva: plan
                .mvv_lva
                .then_some((&self.config.heuristics.mvv_lva, last_moved_to)),
            scores_quiets: plan.scores_quiets(),
            // Per position, not per visit: the same position always gets the same order.
            shuffle_quiets: plan
                .shuffled_quiets
                .then(|| self.config.seed ^ self.pos.board().hash()),
            counter: self.countermove(),
            see_order: plan.see_order,
        };
        MovePicker::with_ordering(self.pos.board(), &ordering, lists)
    }

    /// Key the quiet moves of `picker` now, as the ordering tables stand at the node's start
    /// (the documents' pickers order every move before the first is searched), when they are
    /// sorted at all and `quiet_keys=entry`; with `quiet_keys=reached` the picker keys them
    /// when it reaches them.
    pub(super) fn key_quiets(&self, picker: &mut MovePicker, contexts: Contexts) {
        if self.plan.ordering.scores_quiets() && self.config.quiet_keys == QuietKeys::Entry {
            picker.key_quiets_now(self.pos.board(), &|mv| self.quiet_terms(mv, contexts).sum());
        }
    }

    /// The next move of `picker` at the current node, quiet moves keyed by their ordering
    /// terms in `contexts` (the node's `continuation_contexts`): 002 sorts them by
    /// `history + mate_history`, each term only when it is on; the continuation histories add
    /// theirs. Captures are keyed by MVV/LVA, with their history when `capture_history` is on.
    pub(super) fn next_pick(
        &self,
        picker: &mut MovePicker,
        contexts: Contexts,
    ) -> Option<(Move, Source)> {
        let board = self.pos.board();
        let params = &self.config.heuristics.capture_history;
        let captures = &self.state.ordering.captures;
        let capture = |mv, mvv_lva| captures.key(board, mv, mvv_lva, params);
        let keys = MoveKeys {
            quiet: &|mv| self.quiet_terms(mv, contexts).sum(),
            capture: self
                .plan
                .ordering
                .capture_history
                .then_some(&capture as &dyn Fn(Move, i32) -> i32),
        };
        picker.next_pick(board, &keys)
    }

    /// The refutation of the opponent's last move (`countermove` on), if one is known.
    fn countermove(&self) -> Option<Move> {
        if !self.plan.ordering.countermove {
            return None;
        }
        let (piece, to) = self.pos.moved(1)?;
        let side = self.pos.board().side_to_move();
        self.state.ordering.countermoves.get(side, piece, to)
    }

    /// The contexts of the continuation histories (the moves one and two plies back), when
    /// `continuation_history` is on.
    pub(super) fn continuation_contexts(&self) -> Contexts {
        self.plan
            .ordering
            .continuation_history
            .then(|| [1, 2].map(|back| self.pos.moved(back).map(|(piece, to)| Key { piece, to })))
    }

    /// A quiet move's ordering terms, each 0 when its heuristic is off: history, mate
    /// history and the two continuation histories after `contexts` (the node's
    /// `continuation_contexts`, read once per node by the caller). The one place a quiet
    /// move is scored: the picker sorts by their sum, the credits name the terms above 0.
    fn quiet_terms(&self, mv: Move, contexts: Contexts) -> QuietTerms {
        let side = self.pos.board().side_to_move();
        let tables = &self.state.ordering;
        let continuation = match (contexts, self.pos.board().piece_on(mv.from)) {
            (Some(contexts), Some(piece)) => tables
                .continuation
                .scores(contexts, Key { piece, to: mv.to }),
            _ => [0; 2],
        };
        QuietTerms {
            history: if self.plan.ordering.history {
                tables.history.history(side, mv)
            } else {
                0
            },
            mate: if self.plan.ordering.mate_history {
                tables.history.mate(side, mv)
            } else {
                0
            },
            continuation,
        }
    }

    /// A quiet move's score as `lmr` reads "good history" (history and the continuation
    /// histories, mate history left out), and the two continuation scores apart, which
    /// `history_pruning` reads.
    pub(super) fn quiet_score(&self, mv: Move, contexts: Contexts) -> (i32, [i32; 2]) {
        let terms = self.quiet_terms(mv, contexts);
        (terms.sum() - terms.mate, terms.continuation)
    }

    /// The previous iteration's PV move at this node, when the line from the root follows
    /// that PV.
    fn pv_move_at(&self, ply: usize) -> Option<Move> {
        let line = &self.pos.line()[self.pos.game_len()..];
        let follows = self.root.previous_pv.len() > ply
            && line
                .iter()
                .zip(&self.root.previous_pv)
                .all(|(entry, &mv)| entry.mv == Some(mv));
        follows.then(|| self.root.previous_pv[ply])
    }

    /// The ordering heuristics that put this move where it was (`gate.rs` counts them: tested
    /// when the move is searched, fired when it ends as the node's best).
    pub(super) fn credits(&self, mv: Move, source: Source) -> Credits {
        let mut credits = Credits::new();
        match source {
            Source::Pv => credits.push(counter!(PvMove)),
            Source::Hash => credits.push(counter!(Tt.hash_move)),
            Source::Killer => credits.push(counter!(Killers)),
            Source::Counter => credits.push(counter!(Countermove)),
            Source::Capture { sorted, losing } => {
                if losing {
                    credits.push(counter!(See.order));
                }
                if sorted {
                    credits.push(counter!(MvvLva));
                }
                let board = self.pos.board();
                if self.plan.ordering.capture_history
                    && self.state.ordering.captures.score(board, mv) > 0
                {
                    credits.push(counter!(CaptureHistory));
                }
            }
            Source::Quiet => {
                let terms = self.quiet_terms(mv, self.continuation_contexts());
                if terms.history > 0 {
                    credits.push(counter!(History));
                }
                if terms.mate > 0 {
                    credits.push(counter!(MateHistory));
                }
                if terms.continuation.iter().sum::<i32>() > 0 {
                    credits.push(counter!(ContinuationHistory));
                }
            }
        }
        credits
    }

    /// `mv` (quiet or not) cut the node off after the moves `tried`: the tables of its kind
    /// learn from it, and capture history punishes the captures tried whatever cut.
    pub(super) fn learn_cutoff(&mut self, (mv, quiet): (Move, bool), depth: i32, tried: &Tried) {
        if quiet {
            self.learn_quiet_cutoff(mv, depth, &tried.quiets);
        }
        if self.plan.ordering.capture_history {
            let params = self.config.heuristics.capture_history;
            let cut = (!quiet).then_some(mv);
            let board = self.pos.board();
            let captures = &mut self.state.ordering.captures;
            captures.record_cutoff(board, cut, &tried.captures, depth, &params);
        }
    }

    /// A quiet move cut the node off: the countermove table keeps it as the refutation of the
    /// previous move, and history in its `gravity` form and the continuation histories reward
    /// it and punish the quiet moves tried before it (`tried`).
    fn learn_quiet_cutoff(&mut self, mv: Move, depth: i32, tried: &[Move]) {
        let side: Color = self.pos.board().side_to_move();
        let plan = self.plan.ordering;
        if plan.history {
            let params = self.config.heuristics.history;
            self.state
                .ordering
                .history
                .record_cutoff(side, mv, tried, depth, &params);
        }
        if plan.countermove
            && let Some((piece, to)) = self.pos.moved(1)
        {
            self.state.ordering.countermoves.record(side, piece, to, mv);
        }
        let params = self.config.heuristics.continuation_history;
        if let Some(contexts) = self.continuation_contexts()
            // `tried` holds the quiet moves searched before `mv` (it joins them after this).
            && continuation_history::learns(depth, tried.len(), &params)
        {
            let bonus = continuation_history::bonus(depth, &params);
            let board = self.pos.board();
            let key = |m: Move| board.piece_on(m.from).map(|piece| Key { piece, to: m.to });
            let rewarded = key(mv);
            let punished: Vec<Key> = tried
                .iter()
                .filter(|&&m| m != mv)
                .filter_map(|&m| key(m))
                .collect();
            if let Some(k) = rewarded {
                self.state
                    .ordering
                    .continuation
                    .update(contexts, k, bonus, &params);
            }
            for k in punished {
                self.state
                    .ordering
                    .continuation
                    .update(contexts, k, -bonus, &params);
            }
        }
    }

    /// A move raised alpha: killers, history and mate history learn from it.
    pub(super) fn learn(&mut self, mv: Move, score: Score, depth: i32, quiet: bool) {
        let ply = self.pos.ply();
        let side: Color = self.pos.board().side_to_move();
        let h = &self.config.heuristics;
        let plan = self.plan.ordering;
        if quiet && plan.killers {
            self.state.ordering.killers.record(ply, mv, &h.killers);
        }
        if quiet && plan.history {
            self.state
                .ordering
                .history
                .record(side, mv, depth, &h.history);
        }
        if score >= MATE_BOUND && plan.mate_history {
            let (params, max_hist) = (h.mate_history, h.history.max_hist);
            let bonus = mate_history::bonus(self.draw(Id::MateHistory), &params);
            self.state
                .ordering
                .history
                .record_mate(side, mv, bonus, max_hist);
        }
    }
}
