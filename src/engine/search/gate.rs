//! The one gate every decision of every heuristic passes through.
//!
//! A decision point of the search names the counter it is counted under (`counter!(Lmr)`,
//! `counter!(Futility.frontier)`), where it stands (`Point`: what the audit needs to search it
//! again), and asks the heuristic's decision function, which answers with a `Decision`. The
//! gate:
//! 1. returns nothing when the heuristic is off, when `main_selective`'s main function leaves
//!    selective heuristics out, or when an audit searches this very decision again without it;
//! 2. counts `tested` when the heuristic's own preconditions held (it could have acted);
//! 3. counts `fired` when it acts;
//! 4. offers a decision that acted to the audit (`search/audit.rs`), which samples it.
//!
//! Every counter of the search is written here and nowhere else (`count`, `reduce`,
//! `overrule`, `settle_*`, `placed`, `proved`).
//!
//! What the gate cannot know at once is settled here too, by the one helper for each kind:
//! a reduction is undone (`overruled`) when the reduced move beats alpha and is searched again,
//! and audited when it stood (`settle_reduction`, `settle_node_reduction`); an ordering
//! heuristic is `tested` for each move it placed that was searched, and `fired` when that move
//! ends as the node's best (`placed`, `proved`).

use arrayvec::ArrayVec;
use cozy_chess::Move;

use super::Searcher;
use crate::engine::heuristics::view::{Decision, MoveView, NodeView};
use crate::engine::score::Score;
use crate::engine::stats::Counter;

/// Where a decision stands, for its audit.
#[derive(Clone, Copy)]
pub(super) enum Point<'a> {
    /// Cut the node before its moves (claim: the decision's score, else beta); `entry_depth`
    /// is the depth the node was entered with.
    Node {
        node: &'a NodeView,
        entry_depth: i32,
    },
    /// Skip a move before it is made (claim: alpha); `before` is what it shows unmade.
    Unmade {
        node: &'a NodeView,
        mv: Move,
        before: &'a MoveView,
    },
    /// Skip the move just made, or cut the node on it (claim: the decision's score, else
    /// alpha); `new_depth` is the depth the move would have been searched to.
    Made { node: &'a NodeView, new_depth: i32 },
    /// Leave a capture out of the quiescence search (`mv`: not made yet; `None`: it is on the
    /// board; claim: alpha).
    Capture {
        window: (Score, Score),
        qdepth: i32,
        mv: Option<Move>,
    },
    /// Settled once its result is known (`settle_reduction`, `settle_node_reduction`).
    Settled,
    /// Not audited: extensions and the shape of the search (PVS, aspiration), which search
    /// more, or re-search themselves.
    Unaudited,
}

/// What a decision's value says of the score it claims.
pub(super) trait Claim {
    /// The score claimed, when the value is one.
    fn claim(&self) -> Option<Score>;
}

impl Claim for () {
    fn claim(&self) -> Option<Score> {
        None
    }
}

impl Claim for (Score, Score) {
    fn claim(&self) -> Option<Score> {
        None
    }
}

/// The moves a decision adds to a node's search (`quiescence_checks`) claim no score.
impl Claim for crate::engine::movegen::MoveList {
    fn claim(&self) -> Option<Score> {
        None
    }
}

impl Claim for Score {
    fn claim(&self) -> Option<Score> {
        Some(*self)
    }
}

/// The ordering counters that placed one move (history, mate history and continuation history
/// may all have scored one quiet move).
pub(super) type Credits = ArrayVec<Counter, 4>;

impl Searcher {
    /// The gate: ask the decision `counter` counts (see the module's steps) and return what it
    /// decided when it acts.
    #[inline]
    pub(super) fn gate<T: Claim>(
        &mut self,
        counter: Counter,
        at: Point,
        decide: impl FnOnce(&mut Self) -> Decision<T>,
    ) -> Option<T> {
        let decision = self.ask(counter, decide);
        self.count(counter, at, decision)
    }

    /// Step 1 of the gate: the decision, `Inapplicable` when the heuristic is off, left out by
    /// `main_selective`'s main function, or left out by an audit at this node.
    #[inline]
    pub(super) fn ask<T>(
        &mut self,
        counter: Counter,
        decide: impl FnOnce(&mut Self) -> Decision<T>,
    ) -> Decision<T> {
        let id = counter.id();
        if !self.plan.on(id)
            || (!self.line.selective && id.kind().is_selective())
            || self.suppresses(counter)
        {
            return Decision::Inapplicable;
        }
        decide(self)
    }

    /// Steps 2-4 of the gate: count the decision and offer it to the audit when it acts.
    #[inline]
    pub(super) fn count<T: Claim>(
        &mut self,
        counter: Counter,
        at: Point,
        decision: Decision<T>,
    ) -> Option<T> {
        if !decision.applies() {
            return None;
        }
        let value = decision.value();
        self.stats.decided(counter, value.is_some());
        if self.width.is_some() {
            self.width_decision(counter, &at, value.is_some());
        }
        if let Some(value) = &value {
            self.offer_audit(counter, at, value.claim());
        }
        value
    }

    /// The reductions several heuristics propose for one move: the largest is applied (the
    /// first of the largest on a tie) and only it fired; `applied: false` when another scheme
    /// searches the move instead, so none fired. Each that applied is tested.
    pub(super) fn reduce(
        &mut self,
        proposals: &[(Counter, Decision<i32>)],
        applied: bool,
    ) -> Option<(Counter, i32)> {
        let winner = applied_reduction(proposals).filter(|_| applied);
        for &(counter, decision) in proposals {
            let fired = winner.is_some_and(|(c, _)| c == counter);
            let decision = if fired {
                decision
            } else {
                decision.and_declines()
            };
            self.count(counter, Point::Settled, decision);
        }
        winner
    }

    /// Offer a decision that acted to the audit, which samples it. The test inlined, the
    /// audit's work out of line (`audits`).
    #[inline]
    pub(super) fn offer_audit(&mut self, counter: Counter, at: Point, claim: Option<Score>) {
        if self.audits() {
            self.audit_offered(counter, at, claim);
        }
    }

    #[cold]
    #[inline(never)]
    fn audit_offered(&mut self, counter: Counter, at: Point, claim: Option<Score>) {
        match at {
            Point::Node { node, entry_depth } => {
                self.audit_node(counter, node, entry_depth, claim.unwrap_or(node.beta));
            }
            Point::Unmade { node, mv, before } => {
                self.audit_unmade_move(counter, node, mv, *before);
            }
            Point::Made { node, new_depth } => {
                let claim = claim.unwrap_or(node.alpha);
                self.audit_made_move(&[counter], node, new_depth, claim);
            }
            Point::Capture { window, qdepth, mv } => {
                self.audit_capture(counter, window, qdepth, mv);
            }
            Point::Settled | Point::Unaudited => {}
        }
    }

    /// A move searched reduced by `reducer` (the reduction applied) returned `score`: undone
    /// (overruled) when it beats alpha, so the move is searched again at full depth (true);
    /// else offered to the audit as it stood.
    pub(super) fn settle_reduction(
        &mut self,
        reducer: Counter,
        node: &NodeView,
        new_depth: i32,
        score: Score,
    ) -> bool {
        if self.aborted() {
            return false;
        }
        if score > node.alpha {
            self.overrule(reducer);
            return true;
        }
        if self.audits() {
            self.audit_made_move(&[reducer], node, new_depth, score);
        }
        false
    }

    /// A node searched reduced by `reducer` (IIR) returned `score` in `window`: offered to the
    /// audit, which searches it again at `entry_depth`.
    pub(super) fn settle_node_reduction(
        &mut self,
        reducer: Counter,
        window: (Score, Score),
        entry_depth: i32,
        score: Score,
    ) {
        if !self.aborted() && self.audits() {
            self.audit_node_reduction(reducer, window, entry_depth, score);
        }
    }

    /// A decision that acted was undone: a verification or a re-search contradicted it (a
    /// signal's proposal refuted, a reduction searched again, an aspiration window widened,
    /// a PVS null window re-searched in full).
    pub(super) fn overrule(&mut self, counter: Counter) {
        self.stats.overruled(counter);
    }

    /// A move placed by `credits` is searched: each is `tested` (one count per move it placed).
    pub(super) fn placed(&mut self, credits: &Credits) {
        for &counter in credits {
            self.stats.decided(counter, false);
        }
    }

    /// The move placed by `credits` ended as the node's best: each `fired`.
    pub(super) fn proved(&mut self, credits: &Credits) {
        for &counter in credits {
            self.stats.proved(counter);
        }
    }
}

/// The reduction applied among `proposals`: the largest, the first of the largest on a tie.
fn applied_reduction(proposals: &[(Counter, Decision<i32>)]) -> Option<(Counter, i32)> {
    proposals
        .iter()
        .filter_map(|&(counter, decision)| decision.value().map(|r| (counter, r)))
        .reduce(|best, next| if next.1 > best.1 { next } else { best })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::counter;

    #[test]
    fn only_the_larger_reduction_is_applied() {
        let (gsr, lmr) = (counter!(Gsr), counter!(Lmr));
        let pick = |a, b| applied_reduction(&[(gsr, a), (lmr, b)]);
        assert_eq!(pick(Decision::Acts(1), Decision::Acts(2)), Some((lmr, 2)));
        assert_eq!(pick(Decision::Acts(2), Decision::Acts(2)), Some((gsr, 2)));
        assert_eq!(pick(Decision::Declines, Decision::Acts(1)), Some((lmr, 1)));
        assert_eq!(pick(Decision::Inapplicable, Decision::Declines), None);
    }
}
