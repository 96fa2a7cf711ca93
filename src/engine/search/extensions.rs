//! Step 8c's depth of a made move: the plies it is searched deeper or shallower. The check,
//! history and singular extensions do not add up: as in Ethereal 12 (`search.c` step 14,
//! `newDepth = depth + (extension && !RootNode)`), a move any of them extends is searched one ply
//! deeper (two with singular's double extension), and each extension's `fired` counts only the
//! plies it added.

use super::Searcher;
use super::gate::Point;
use crate::engine::heuristics::view::MoveView;
use crate::engine::heuristics::{check_extension, history_extension};
use crate::engine::stats::counter;

impl Searcher {
    /// The extension of the move `view` describes, made at `ply`, in plies (negative where
    /// the negative extension acted).
    pub(super) fn extension(&mut self, view: &MoveView, ply: usize) -> i32 {
        let check = self
            .gate(counter!(CheckExtension), Point::Unaudited, |s| {
                check_extension::extension(view, &s.config.heuristics.check_extension)
            })
            .unwrap_or(0);
        let already = check.max(view.singular);
        let history = self
            .gate(counter!(HistoryExtension), Point::Unaudited, |s| {
                let params = &s.config.heuristics.history_extension;
                let pieces = || s.pos.pieces();
                history_extension::extension(view, ply == 0, already, pieces, params)
            })
            .unwrap_or(0);
        already.max(history) - view.negative_extension
    }
}
