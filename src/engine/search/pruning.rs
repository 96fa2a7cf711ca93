//! Pruning steps of the main search: node pruning before the move loop (one function entered
//! only when its shared preconditions hold) and move pruning after each move is made.

use super::Searcher;
use super::gate::Point;
use super::line::Frame;
use super::quiescence::ordered_quiescence_moves;
use crate::engine::config::Algorithm;
use crate::engine::heuristics::view::{Decision, MoveView, NodeView};
use crate::engine::heuristics::{
    futility, null_move, null_move_guarded, probcut, razoring, reverse_futility, see, static_lr,
};
use crate::engine::movegen::MoveList;
use crate::engine::score::Score;
use crate::engine::stats::counter;

impl Searcher {
    /// Step 6: cut the whole node before its moves, with the score returned. Never at the
    /// root, never in minimax.
    /// `entry_depth` is the depth the node was entered with (before IIR), which the audit
    /// searches a cut node again to.
    pub(super) fn node_pruning(&mut self, node: &NodeView, entry_depth: i32) -> Option<Score> {
        if self.config.algorithm == Algorithm::Minimax {
            return None;
        }
        let at = Point::Node { node, entry_depth };

        // Step 6a. Reverse futility (static null move): at a null-window node whose
        // evaluation clears beta by a depth margin.
        self.gate(counter!(ReverseFutility), at, |s| {
            reverse_futility::cut(node, &s.config.heuristics.reverse_futility)
        })
        // Step 6b. Futility, frontier form (004).
        .or_else(|| {
            self.gate(counter!(Futility.frontier), at, |s| {
                futility::frontier_cut(node, &s.config.heuristics.futility).map(|()| node.beta)
            })
        })
        // Step 6c. Razoring, node form (001).
        .or_else(|| {
            self.gate(counter!(Razoring.node), at, |s| {
                razoring::node_cut(node, &s.config.heuristics.razoring).map(|()| node.beta)
            })
        })
        // Step 6d. Null move (001): tested where allowed, fired on a fail-high.
        .or_else(|| {
            self.gate(counter!(NullMove), at, |s| {
                let params = s.config.heuristics.null_move;
                if !null_move::allowed(node, &params) {
                    return Decision::Inapplicable;
                }
                s.null_move_fails_high(node, null_move::search_depth(node, &params))
            })
        })
        // Step 6e. Guarded null move (002).
        .or_else(|| {
            self.gate(counter!(NullMoveGuarded), at, |s| {
                let params = s.config.heuristics.null_move_guarded;
                if !null_move_guarded::allowed(node, &params) {
                    return Decision::Inapplicable;
                }
                s.null_move_fails_high(node, null_move_guarded::search_depth(node, &params))
            })
        })
        // Step 6f. Probcut: a capture that holds a raised beta at a reduced depth.
        .or_else(|| {
            self.gate(counter!(Probcut), at, |s| {
                let params = s.config.heuristics.probcut;
                let best_case = || probcut::best_case(s.pos.board());
                let Some(rbeta) = probcut::raised_beta(node, best_case, &params) else {
                    return Decision::Inapplicable;
                };
                s.probcut_capture(node, rbeta, probcut::search_depth(node, &params))
            })
        })
    }

    /// Search the captures that could hold `rbeta` by exchange, best victims first, at
    /// `depth` in the null window at `rbeta`: the score of the first that holds it.
    fn probcut_capture(&mut self, node: &NodeView, rbeta: Score, depth: i32) -> Decision<Score> {
        let mut captures = MoveList::default();
        ordered_quiescence_moves(self.pos.board(), false, &mut captures);
        let threshold = probcut::exchange_threshold(node, rbeta);
        for &mv in captures.as_slice() {
            if see::below(self.pos.board(), mv, threshold) {
                continue;
            }
            self.line.frames[node.ply + 1] = Frame {
                cut_node: !node.cut_node,
                ..self.line.frames[node.ply].child(true, false, false)
            };
            self.make_prefetching(mv);
            let score = -self.alphabeta(-rbeta, -rbeta + 1, depth);
            self.pos.unmake();
            if self.aborted() {
                break;
            }
            if probcut::holds(score, rbeta) {
                return Decision::Acts(score);
            }
        }
        Decision::Declines
    }

    /// Pass, search the opponent at `depth` in the null window at beta: the node's beta when
    /// it fails high.
    fn null_move_fails_high(&mut self, node: &NodeView, depth: i32) -> Decision<Score> {
        if !self.pos.make_null() {
            return Decision::Inapplicable;
        }
        self.line.frames[node.ply + 1] = Frame {
            after_null_move: true,
            cut_node: !node.cut_node,
            ..self.line.frames[node.ply].child(false, false, false)
        };
        self.line.null_depth += 1;
        let score = -self.alphabeta(-node.beta, -node.beta + 1, depth);
        self.line.null_depth -= 1;
        self.pos.unmake();
        let fails_high = score >= node.beta && !self.aborted();
        Decision::with(true, fails_high.then_some(node.beta))
    }

    /// Step 8d: skip the move (alpha) or cut the node (beta) before searching it, with the
    /// score the node takes from it. Unverified forms first; then the 002 signals, which all
    /// share one reduced-depth verification of the move. Never at the root, never in minimax.
    pub(super) fn move_pruning(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        new_depth: i32,
    ) -> Option<Score> {
        if node.ply == 0 || self.config.algorithm == Algorithm::Minimax {
            return None;
        }
        let at = Point::Made { node, new_depth };
        let skip = |decision: Decision| decision.map(|()| node.alpha);

        // Step 8d-1. Futility, pre-frontier form (004): unverified.
        self.gate(counter!(Futility.pre_frontier), at, |s| {
            skip(futility::prunes_move(
                node,
                mv,
                &s.config.heuristics.futility,
            ))
        })
        // Step 8d-2. Razoring, move form (001): unverified.
        .or_else(|| {
            self.gate(counter!(Razoring.move), at, |s| {
                skip(razoring::prunes_move(
                    node,
                    mv,
                    &s.config.heuristics.razoring,
                ))
            })
        })
        // Step 8d-3. static_lr's first listing (002), unverified when asked for.
        .or_else(|| {
            self.gate(counter!(StaticLr), at, |s| {
                let params = s.config.heuristics.static_lr;
                let acts = static_lr::candidate(node, mv, &params);
                skip(Decision::when(
                    !params.verified && static_lr::applies(mv),
                    acts,
                ))
            })
        })
        // Step 8d-4. The verified signals need a verification shallower than the real
        // search.
        .or_else(|| {
            (node.depth >= 2)
                .then(|| self.verified_signals(node, mv, new_depth))
                .flatten()
        })
    }
}
