//! `negative_extension`: singular extension's verification, read for the hash move itself.
//! Where the verification finds another move that reaches `rBeta` (so the hash move is not
//! singular) and the table's entry still claims the node fails high (its score at least beta),
//! the node has at least two moves that look good enough: the hash move is searched `plies`
//! shallower, so that the node's other moves, any of which may hold beta, are reached sooner.
//! Stockfish's negative extension (search.cpp since 2021: `else if (ttValue >= beta)
//! extension = -2`, after its multi-cut; later versions also reduce at cut nodes); Ethereal 12
//! has none. It is the case multi-cut leaves: multi-cut cuts where `rBeta` itself is at least
//! beta, this one where only the entry's score is.
//!
//! It needs `singular_extension`, whose verification search it reads: the decision is counted
//! at each node where that verification ran to its end, found the hash move not singular, and
//! multi-cut did not cut.

use super::params::heuristic_params;
use super::view::{Decision, NodeView};
use crate::engine::heuristics::singular_extension::Verification;

heuristic_params! {
    /// Parameters of `negative_extension`.
    pub struct Params {
        /// Search the hash move shallower where another move holds rBeta.
        pub enabled: bool = false,
        /// The plies the hash move loses (Stockfish: 2; 1 is the milder form).
        pub plies: i32 [1..=3; structural] = 1,
    }
}

/// The plies the hash move loses at `node`, given what the verification found (`None`: it did
/// not run, or was cut short). Applies where it ran and another move reached `rbeta`; acts
/// where the table's entry for the node (`node.hash_claim`) claims a score of at least beta.
pub fn plies(node: &NodeView, verification: Option<Verification>, params: &Params) -> Decision<i32> {
    let Some(found) = verification else {
        return Decision::Inapplicable;
    };
    let not_singular = found.best_other >= found.rbeta;
    let fails_high = node.hash_claim.is_some_and(|claim| claim.score >= node.beta);
    Decision::with(not_singular, fails_high.then_some(params.plies))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::heuristics::view::HashClaim;
    use crate::engine::score::Score;

    fn node(beta: Score, claimed: Score) -> NodeView {
        NodeView {
            depth: 10,
            ply: 3,
            alpha: beta - 1,
            beta,
            hash_claim: Some(HashClaim {
                depth: 9,
                lower: true,
                score: claimed,
            }),
            ..NodeView::default()
        }
    }

    fn found(best_other: Score, rbeta: Score) -> Option<Verification> {
        Some(Verification { best_other, rbeta })
    }

    #[test]
    fn reduces_when_another_move_holds_rbeta_and_the_entry_holds_beta() {
        let p = Params::default();
        // Entry 60, rBeta 50 (below beta 55): multi-cut's case is not this one.
        assert_eq!(plies(&node(55, 60), found(52, 50), &p).value(), Some(1));
        assert_eq!(plies(&node(60, 60), found(50, 50), &p).value(), Some(1), "at beta");
        let stockfish = Params {
            plies: 2,
            ..Params::default()
        };
        assert_eq!(plies(&node(55, 60), found(52, 50), &stockfish).value(), Some(2));
    }

    #[test]
    fn declines_when_the_entry_is_below_beta() {
        let decision = plies(&node(70, 60), found(52, 50), &Params::default());
        assert!(decision.applies());
        assert_eq!(decision.value(), None);
    }

    #[test]
    fn untested_when_the_hash_move_is_singular_or_nothing_was_verified() {
        let p = Params::default();
        assert!(!plies(&node(55, 60), found(49, 50), &p).applies(), "singular");
        assert!(!plies(&node(55, 60), None, &p).applies());
    }
}
