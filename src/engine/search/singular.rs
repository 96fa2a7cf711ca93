//! Step 7 of a node: singular extension's verification search, and what multi-cut and the
//! negative extension read from it. The hash move is singular when none of the node's other
//! moves, searched at about half the depth in a null window below the table's score, reaches
//! that window; when one does and the window is at or above beta, the node has two moves that
//! hold beta and multi-cut cuts it (Ethereal 12, search.c `moveIsSingular`); when one does and
//! only the table's score is at or above beta, the hash move is searched shallower (Stockfish).

use std::ops::ControlFlow;

use cozy_chess::Move;

use super::Searcher;
use super::gate::Point;
use super::line::Frame;
use crate::engine::heuristics::view::{Decision, MoveView, NodeView};
use crate::engine::heuristics::{multi_cut, negative_extension, singular_extension};
use crate::engine::movepick::PickerLists;
use crate::engine::moves::is_quiet;
use crate::engine::score::{INFINITY, Score};
use crate::engine::stats::counter;

/// Step 7's verdict on the hash move's depth, which the move loop marks on its view.
#[derive(Clone, Copy, Default)]
pub(super) struct HashMoveDepth {
    hash_move: Option<Move>,
    /// Searched this many plies deeper (singular).
    singular: i32,
    /// Searched this many plies shallower.
    negative_extension: i32,
}

impl HashMoveDepth {
    /// Mark `mv`'s view with the verdict when it is the hash move.
    pub fn mark(&self, mv: Move, before: &mut MoveView) {
        if self.hash_move == Some(mv) {
            before.singular = self.singular;
            before.negative_extension = self.negative_extension;
        }
    }
}

impl Searcher {
    /// Step 7 of a node whose view is `node` (entered at `entry_depth`): `Break` with the
    /// node's score when multi_cut cuts it, else `Continue` with the hash move's depth:
    /// extended when it is singular, shallower when the negative extension acts.
    pub(super) fn singular_or_cut(
        &mut self,
        node: &NodeView,
        entry_depth: i32,
        hash_move: Option<Move>,
    ) -> ControlFlow<Score, HashMoveDepth> {
        let mut verification = None;
        let singular = hash_move.map_or(0, |mv| self.singular_plies(node, mv, &mut verification));
        let at = Point::Node { node, entry_depth };
        if let Some(score) = self.gate(counter!(MultiCut), at, |s| {
            multi_cut::cut(node, verification, &s.config.heuristics.multi_cut)
        }) {
            return ControlFlow::Break(score);
        }
        let negative = self.gate(counter!(NegativeExtension), Point::Unaudited, |s| {
            negative_extension::plies(node, verification, &s.config.heuristics.negative_extension)
        });
        ControlFlow::Continue(HashMoveDepth {
            hash_move,
            singular,
            negative_extension: negative.unwrap_or(0),
        })
    }

    /// Step 7's singular extension: where it applies, the node's other moves are searched
    /// at about half the depth in a null window below the entry's score; `hash_move` is
    /// singular when none reaches it, and extended by the plies returned (0: not singular).
    /// What a verification that ran to its end found is kept in `verification` (multi_cut
    /// and negative_extension read it).
    fn singular_plies(
        &mut self,
        node: &NodeView,
        hash_move: Move,
        verification: &mut Option<singular_extension::Verification>,
    ) -> i32 {
        self.gate(counter!(SingularExtension), Point::Unaudited, |s| {
            let params = s.config.heuristics.singular_extension;
            let Some(rbeta) = singular_extension::verification_beta(node, &params) else {
                return Decision::Inapplicable;
            };
            let depth = singular_extension::verification_depth(node.depth);
            let bound_and_depth = (rbeta, depth);
            let best_other = s.best_other_move(node.ply, hash_move, bound_and_depth, &params);
            if s.aborted() {
                return Decision::Declines;
            }
            *verification = Some(singular_extension::Verification { best_other, rbeta });
            let plies = singular_extension::extension(node, best_other, rbeta, &params);
            Decision::with(true, (plies > 0).then_some(plies))
        })
        .unwrap_or(0)
    }

    /// The best score of the moves other than `hash_move` at `depth` in the null window at
    /// `rbeta`, stopping at the first that reaches it; after `quiet_limit` quiet moves the
    /// other quiet moves are left out (Ethereal 12).
    fn best_other_move(
        &mut self,
        ply: usize,
        hash_move: Move,
        (rbeta, depth): (Score, i32),
        params: &singular_extension::Params,
    ) -> Score {
        let mut lists = PickerLists::default();
        let mut picker = self.picker(ply, Some(hash_move), &mut lists);
        let contexts = self.continuation_contexts();
        self.key_quiets(&mut picker, contexts);
        let (mut best, mut quiets) = (-INFINITY, 0);
        while let Some((mv, _)) = self.next_pick(&mut picker, contexts) {
            let quiet = is_quiet(self.pos.board(), mv);
            if mv == hash_move || (quiet && quiets >= params.quiet_limit) {
                continue;
            }
            quiets += u32::from(quiet);
            // Each is searched at full depth in a null window, as a child of this node's type
            // (Stockfish's singular search keeps the node's `cutNode`).
            self.line.frames[ply + 1] = Frame {
                cut_node: !self.line.frames[ply].cut_node,
                ..self.line.frames[ply].child(self.pos.is_capture(mv), false, false)
            };
            self.make_prefetching(mv);
            let score = -self.alphabeta(-rbeta, -rbeta + 1, depth);
            self.pos.unmake();
            if self.aborted() {
                break;
            }
            best = best.max(score);
            if score >= rbeta {
                break;
            }
        }
        best
    }
}
