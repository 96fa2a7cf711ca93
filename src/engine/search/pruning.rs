//! Pruning steps of the main search: node pruning before the move loop (one function entered
//! only when its shared preconditions hold) and move pruning after each move is made.

use super::{Frame, Searcher};
use crate::engine::config::Algorithm;
use crate::engine::heuristics::view::{MoveView, NodeView};
use crate::engine::heuristics::{
    Id, futility, null_move, null_move_guarded, razoring, reverse_futility, static_lr,
};
use crate::engine::score::Score;
use crate::engine::stats::{Counter, counter};

impl Searcher {
    /// Step 5: cut the whole node before its moves, with the score returned and the decision
    /// that cut. Never at the root, never in minimax.
    pub(super) fn node_pruning(
        &mut self,
        node: &NodeView,
        selective: bool,
    ) -> Option<(Counter, Score)> {
        if self.config.algorithm == Algorithm::Minimax || !selective {
            return None;
        }
        // Step 5a. Reverse futility (static null move): at a null-window node whose
        // evaluation clears beta by a depth margin.
        let mut cut = None;
        if self.consult(counter!(ReverseFutility), selective, |h| {
            cut = reverse_futility::cut(node, node.beta - node.alpha > 1, &h.reverse_futility);
            cut.is_some()
        }) {
            return cut.map(|score| (counter!(ReverseFutility), score));
        }

        // Step 5b. Futility, frontier form (004).
        if self.consult(counter!(Futility.frontier), selective, |h| {
            futility::frontier_cut(node, &h.futility)
        }) {
            return Some((counter!(Futility.frontier), node.beta));
        }

        // Step 5c. Razoring, node form (001).
        if self.consult(counter!(Razoring.node), selective, |h| {
            razoring::node_cut(node, &h.razoring)
        }) {
            return Some((counter!(Razoring.node), node.beta));
        }

        // Step 5d. Null move (001): tested when allowed and tried, fired on a fail-high.
        let h = &self.config.heuristics;
        if self.on(Id::NullMove)
            && !self.suppresses(counter!(NullMove))
            && null_move::allowed(node, &h.null_move)
        {
            let depth = null_move::search_depth(node, &h.null_move);
            if self.null_move_fails_high(counter!(NullMove), node, depth) {
                return Some((counter!(NullMove), node.beta));
            }
        }

        // Step 5e. Guarded null move (002).
        let h = &self.config.heuristics;
        if self.on(Id::NullMoveGuarded)
            && !self.suppresses(counter!(NullMoveGuarded))
            && null_move_guarded::allowed(node, &h.null_move_guarded)
        {
            let depth = null_move_guarded::search_depth(node, &h.null_move_guarded);
            if self.null_move_fails_high(counter!(NullMoveGuarded), node, depth) {
                return Some((counter!(NullMoveGuarded), node.beta));
            }
        }
        None
    }

    /// Pass, search the opponent at `depth` in the null window at beta, and count the try.
    fn null_move_fails_high(&mut self, counter: Counter, node: &NodeView, depth: i32) -> bool {
        if !self.pos.make_null() {
            return false;
        }
        self.frames[node.ply + 1] = Frame {
            after_null_move: true,
            ..Frame::default()
        };
        self.null_depth += 1;
        let score = -self.alphabeta(-node.beta, -node.beta + 1, depth, true);
        self.null_depth -= 1;
        self.pos.unmake();
        let fails_high = score >= node.beta && !self.aborted;
        self.stats.decided(counter, fails_high);
        fails_high
    }

    /// Step 7c: skip the move (alpha) or cut the node (beta) before searching it, with the
    /// decision that did. Unverified forms first; then the 002 signals, which all share one
    /// reduced-depth verification of the move. Never at the root, never in minimax.
    pub(super) fn move_pruning(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        new_depth: i32,
        selective: bool,
    ) -> Option<(Counter, Score)> {
        if node.ply == 0 || !selective || self.config.algorithm == Algorithm::Minimax {
            return None;
        }
        let skip = |counter| Some((counter, node.alpha));

        // Step 7c-i. Futility, pre-frontier form (004): unverified.
        if self.consult(counter!(Futility.pre_frontier), selective, |h| {
            futility::prunes_move(node, mv, &h.futility)
        }) {
            return skip(counter!(Futility.pre_frontier));
        }

        // Step 7c-ii. Razoring, move form (001): unverified.
        if self.consult(counter!(Razoring.move), selective, |h| {
            razoring::prunes_move(node, mv, &h.razoring)
        }) {
            return skip(counter!(Razoring.move));
        }

        // Step 7c-iii. static_lr's first listing (002), unverified when asked for.
        if !self.config.heuristics.static_lr.verified
            && self.consult(counter!(StaticLr), selective, |h| {
                static_lr::candidate(node, mv, &h.static_lr)
            })
        {
            return skip(counter!(StaticLr));
        }

        // Step 7c-iv. The verified signals need a verification shallower than the real
        // search.
        if node.depth < 2 {
            return None;
        }
        self.verified_signals(node, mv, new_depth, selective)
    }
}
