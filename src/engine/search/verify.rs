//! The reduced-depth verification shared by every 002 signal: `-search(depth-2)` with the same
//! window. A signal only proposes; the move is skipped (or the node cut) when this search
//! confirms it. It runs at most once per move, however many signals ask, and a signal it
//! contradicts is counted as `overruled`.

use super::Searcher;
use super::pruning::Bound;
use crate::engine::eval::Score;
use crate::engine::heuristics::Id;
use crate::engine::heuristics::view::NodeView;

impl Searcher {
    /// Does the verification of the move just made confirm signal `id` on `bound`?
    /// `verification` caches the score for the other signals of the same move.
    pub(super) fn verified(
        &mut self,
        id: Id,
        bound: Bound,
        node: &NodeView,
        new_depth: i32,
        verification: &mut Option<Score>,
    ) -> bool {
        let score = match *verification {
            Some(score) => score,
            None => {
                let score = -self.alphabeta(-node.beta, -node.alpha, new_depth - 1, true);
                *verification = Some(score);
                score
            }
        };
        let confirmed = match bound {
            Bound::Alpha => score <= node.alpha,
            Bound::Beta => score >= node.beta,
        };
        if !confirmed {
            self.stats.heuristics.at(id).overruled += 1;
        }
        confirmed && !self.aborted
    }
}
