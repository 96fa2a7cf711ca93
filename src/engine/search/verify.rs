//! The reduced-depth verification shared by every 002 signal: `-search(depth-2)` with the same
//! window. A signal only proposes; the move is skipped (or the node cut) when this search
//! confirms it. It runs at most once per move, however many signals ask, and a signal it
//! contradicts is counted as `overruled`.

use super::Searcher;
use crate::engine::heuristics::Side;
use crate::engine::heuristics::view::NodeView;
use crate::engine::score::Score;
use crate::engine::stats::Counter;

impl Searcher {
    /// Does the verification of the move just made confirm the signal counted by `counter`
    /// on `side`? `verification` caches the score for the other signals of the same move.
    pub(super) fn verified(
        &mut self,
        counter: Counter,
        side: Side,
        node: &NodeView,
        new_depth: i32,
        verification: &mut Option<Score>,
    ) -> bool {
        let score = match *verification {
            Some(score) => score,
            None => {
                self.line.verification_depth += 1;
                let score = -self.alphabeta(-node.beta, -node.alpha, new_depth - 1);
                self.line.verification_depth -= 1;
                *verification = Some(score);
                score
            }
        };
        let confirmed = match side {
            Side::Alpha => score <= node.alpha,
            Side::Beta => score >= node.beta,
            // A table entry plays one bound; "both" would need both confirmed.
            Side::Both => score <= node.alpha && score >= node.beta,
        };
        if !confirmed {
            self.overrule(counter);
        }
        confirmed && !self.aborted()
    }
}
