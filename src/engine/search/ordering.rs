//! The ordering heuristics' side of the search: the picker built from the ones that are on,
//! the credit each gets for the moves it placed, and what they learn when a move raises
//! alpha (into the tables `SearchState` keeps).

use cozy_chess::{Color, Move};

use super::Searcher;
use crate::engine::config::QuietOrder;
use crate::engine::heuristics::{Id, mate_history};
use crate::engine::movepick::{MovePicker, Ordering, Source};
use crate::engine::score::{MATE_BOUND, Score};
use crate::engine::stats::counter;

impl Searcher {
    /// The move picker of this node, with the ordering heuristics that are on.
    pub(super) fn picker(&self, ply: usize, hash_move: Option<Move>) -> MovePicker {
        let h = &self.config.heuristics;
        let state = &self.state;
        let side = self.pos.board().side_to_move();
        let (by_history, by_mate) = (self.on(Id::History), self.on(Id::MateHistory));
        // 002: quiet moves by `history + mate_history`, each term only when it is on.
        let quiet_key = move |mv: Move| {
            let history = if by_history {
                state.history.history(side, mv)
            } else {
                0
            };
            let mate = if by_mate {
                state.history.mate(side, mv)
            } else {
                0
            };
            history + mate
        };
        let pv_move = if self.on(Id::PvMove) {
            self.pv_move_at(ply)
        } else {
            None
        };
        let last_moved_to = self.pos.last_entry().and_then(|e| e.mv).map(|mv| mv.to);
        let ordering = Ordering {
            pv_move,
            hash_move,
            killers: self.on(Id::Killers).then(|| state.killers.at(ply)),
            mvv_lva: self.on(Id::MvvLva).then_some((&h.mvv_lva, last_moved_to)),
            quiet_key: (by_history || by_mate).then_some(&quiet_key),
            // Per position, not per visit: the same position always gets the same order.
            shuffle_quiets: (self.config.quiet_order == QuietOrder::Shuffled)
                .then(|| self.config.seed ^ self.pos.board().hash()),
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
    /// placed, `fired` when that move raised alpha.
    pub(super) fn credit_ordering(&mut self, mv: Move, source: Source, raised_alpha: bool) {
        let counter = match source {
            Source::Pv => counter!(PvMove),
            Source::Hash => counter!(Tt.hash_move),
            Source::Killer => counter!(Killers),
            Source::Capture { sorted: true } => counter!(MvvLva),
            Source::Capture { sorted: false } => return,
            Source::Quiet => {
                let side = self.pos.board().side_to_move();
                if self.on(Id::History) && self.state.history.history(side, mv) > 0 {
                    self.stats.decided(counter!(History), raised_alpha);
                }
                if self.on(Id::MateHistory) && self.state.history.mate(side, mv) > 0 {
                    self.stats.decided(counter!(MateHistory), raised_alpha);
                }
                return;
            }
        };
        self.stats.decided(counter, raised_alpha);
    }

    /// A move raised alpha: killers, history and mate history learn from it.
    pub(super) fn learn(&mut self, mv: Move, score: Score, depth: i32, quiet: bool) {
        let ply = self.pos.ply();
        let side: Color = self.pos.board().side_to_move();
        let h = &self.config.heuristics;
        if quiet && self.on(Id::Killers) {
            self.state.killers.record(ply, mv, &h.killers);
        }
        if quiet && self.on(Id::History) {
            self.state.history.record(side, mv, depth, &h.history);
        }
        if score >= MATE_BOUND && self.on(Id::MateHistory) {
            let (params, max_hist) = (h.mate_history, h.history.max_hist);
            let bonus = mate_history::bonus(self.draw(Id::MateHistory), &params);
            self.state.history.record_mate(side, mv, bonus, max_hist);
        }
    }
}
