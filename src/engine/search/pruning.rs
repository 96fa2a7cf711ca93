//! Pruning steps of the main search: node pruning before the move loop (one function entered
//! only when its shared preconditions hold) and move pruning after each move is made.

use super::{Frame, Searcher};
use crate::engine::config::Algorithm;
use crate::engine::eval::Score;
use crate::engine::heuristics::view::{MoveView, NodeView};
use crate::engine::heuristics::{
    Id, beta_play, channel_breakout, ema_channel, futility, minmax_channel, momentum, null_move,
    null_move_guarded, razoring, rsi, static_lr, trend, window_margins,
};

/// Which bound a verified signal plays on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Bound {
    /// Skip the move when the verification stays at or below alpha.
    Alpha,
    /// Cut the node with beta when the verification reaches beta.
    Beta,
}

impl Searcher {
    /// Step 5: cut the whole node before its moves. Never at the root, never in minimax.
    pub(super) fn node_pruning(&mut self, node: &NodeView, selective: bool) -> Option<Score> {
        if self.config.algorithm == Algorithm::Minimax || !selective {
            return None;
        }
        let h = self.config.heuristics;

        // Step 5a. Futility, frontier form (004).
        if self.consult(Id::Futility, selective, || {
            futility::frontier_cut(node, &h.futility)
        }) {
            return Some(node.beta);
        }

        // Step 5b. Razoring, node form (001).
        if self.consult(Id::Razoring, selective, || {
            razoring::node_cut(node, &h.razoring)
        }) {
            return Some(node.beta);
        }

        // Step 5c. Null move (001): tested when tried, fired on a fail-high.
        if self.on(Id::NullMove) && null_move::allowed(node, &h.null_move) {
            let depth = null_move::search_depth(node, &h.null_move);
            if self.null_move_fails_high(Id::NullMove, node, depth) {
                return Some(node.beta);
            }
        }

        // Step 5d. Guarded null move (002).
        if self.on(Id::NullMoveGuarded) && null_move_guarded::allowed(node, &h.null_move_guarded) {
            let depth = null_move_guarded::search_depth(node, &h.null_move_guarded);
            if self.null_move_fails_high(Id::NullMoveGuarded, node, depth) {
                return Some(node.beta);
            }
        }
        None
    }

    /// Pass, search the opponent at `depth` in the null window at beta, and count the try.
    fn null_move_fails_high(&mut self, id: Id, node: &NodeView, depth: i32) -> bool {
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
        let counters = self.stats.heuristics.at(id);
        counters.tested += 1;
        counters.fired += u64::from(fails_high);
        fails_high
    }

    /// Step 7c: skip the move (`Some(alpha)`) or cut the node (`Some(beta)`) before searching
    /// it. Unverified forms first; then the 002 signals, which all share one reduced-depth
    /// verification of the move (`verify.rs`). Never at the root, never in minimax.
    pub(super) fn move_pruning(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        new_depth: i32,
        selective: bool,
    ) -> Option<Score> {
        if node.ply == 0 || !selective || self.config.algorithm == Algorithm::Minimax {
            return None;
        }
        let h = self.config.heuristics;
        let skip = Some(node.alpha);
        let cut = Some(node.beta);

        // Futility, pre-frontier form (004), and razoring's move form (001): unverified.
        if self.consult(Id::Futility, selective, || {
            futility::prunes_move(node, mv, &h.futility)
        }) {
            return skip;
        }
        if self.consult(Id::Razoring, selective, || {
            razoring::prunes_move(node, mv, &h.razoring)
        }) {
            return skip;
        }
        if !h.static_lr.verified
            && self.consult(Id::StaticLr, selective, || {
                static_lr::candidate(node, mv, &h.static_lr)
            })
        {
            return skip;
        }

        // The verified signals need a verification shallower than the real search.
        if node.depth < 2 {
            return None;
        }
        let mut verification = None;
        let alpha_signals: [(Id, bool); 8] = [
            (
                Id::StaticLr,
                h.static_lr.verified && static_lr::candidate(node, mv, &h.static_lr),
            ),
            (Id::Momentum, momentum::main_candidate(mv, &h.momentum)),
            (
                Id::EmaChannel,
                ema_channel::alpha_candidate(node, mv, &h.ema_channel),
            ),
            (Id::Trend, trend::alpha_candidate(mv, &h.trend)),
            (
                Id::MinmaxChannel,
                minmax_channel::alpha_candidate(node, mv, &h.minmax_channel),
            ),
            (Id::Rsi, rsi::candidate(node, mv, &h.rsi)),
            (
                Id::ChannelBreakout,
                channel_breakout::candidate(node, mv, &h.channel_breakout),
            ),
            (
                Id::WindowMargins,
                window_margins::alpha_candidate(node, mv, &h.window_margins),
            ),
        ];
        for (id, candidate) in alpha_signals {
            if self.consult(id, selective, || candidate)
                && self.verified(id, Bound::Alpha, node, new_depth, &mut verification)
            {
                return skip;
            }
        }
        let beta_signals: [(Id, bool); 5] = [
            (Id::BetaPlay, beta_play::candidate(node, mv, &h.beta_play)),
            (
                Id::EmaChannel,
                ema_channel::beta_candidate(node, mv, &h.ema_channel),
            ),
            (Id::Trend, trend::beta_candidate(mv, &h.trend)),
            (
                Id::MinmaxChannel,
                minmax_channel::beta_candidate(node, mv, &h.minmax_channel),
            ),
            (
                Id::WindowMargins,
                window_margins::beta_candidate(node, mv, &h.window_margins),
            ),
        ];
        for (id, candidate) in beta_signals {
            if self.on(id)
                && candidate
                && self.consult(id, selective, || true)
                && self.verified(id, Bound::Beta, node, new_depth, &mut verification)
            {
                return cut;
            }
        }
        None
    }
}
