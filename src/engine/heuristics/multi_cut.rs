//! `multi_cut`: singular extension's verification, read the other way. Where the verification
//! finds another move that reaches `rBeta` (the table's score less a margin per ply) and
//! `rBeta` is itself at least beta, the node has two moves that hold beta: the hash move by its
//! entry and the one just found, each at a reduced depth. The node returns `rBeta` without
//! searching its moves. Ethereal 12's form (search.c, `moveIsSingular`: `multiCut = value >=
//! rBeta && rBeta >= beta`, and the node returns `MAX(ttValue − depth, −MATE)`); Stockfish's is
//! the same. The idea is Björnsson and Marsland's multi-cut ("Multi-cut alpha-beta pruning",
//! 1998): several moves failing high at a reduced depth make a cut-off at the full depth
//! likely; here the verification already searched them, so the cut costs no search of its
//! own.
//!
//! It needs `singular_extension`, whose verification search it reads: the decision is counted
//! at each node where that verification ran to its end.

use super::params::heuristic_params;
use crate::engine::heuristics::singular_extension::Verification;
use super::view::{Decision, NodeView};
use crate::engine::score::Score;

heuristic_params! {
    /// Parameters of `multi_cut`.
    pub struct Params {
        /// Cut a node whose singular verification found a second move above beta.
        pub enabled: bool = false,
    }
}

/// The node's score when another move reached `rbeta` and `rbeta` is at least beta; tested
/// wherever a verification ran (`None`: it did not, or it was cut short).
pub fn cut(node: &NodeView, verification: Option<Verification>, _params: &Params) -> Decision<Score> {
    let Some(found) = verification else {
        return Decision::Inapplicable;
    };
    let cuts = found.best_other >= found.rbeta && found.rbeta >= node.beta;
    Decision::with(true, cuts.then_some(found.rbeta))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_beta(beta: Score) -> NodeView {
        NodeView {
            depth: 10,
            ply: 3,
            alpha: beta - 1,
            beta,
            ..NodeView::default()
        }
    }

    fn found(best_other: Score, rbeta: Score) -> Option<Verification> {
        Some(Verification { best_other, rbeta })
    }

    #[test]
    fn cuts_when_another_move_holds_rbeta_at_or_above_beta() {
        let p = Params::default();
        assert_eq!(cut(&at_beta(50), found(80, 60), &p).value(), Some(60));
        assert_eq!(cut(&at_beta(60), found(60, 60), &p).value(), Some(60), "at beta");
    }

    #[test]
    fn declines_when_no_other_move_holds_rbeta() {
        // The hash move is singular: the extension's case, not this one.
        let decision = cut(&at_beta(50), found(59, 60), &Params::default());
        assert!(decision.applies());
        assert_eq!(decision.value(), None);
    }

    #[test]
    fn declines_when_rbeta_is_below_beta() {
        // Another move holds rBeta, but rBeta proves nothing about beta.
        let decision = cut(&at_beta(100), found(120, 90), &Params::default());
        assert!(decision.applies());
        assert_eq!(decision.value(), None);
    }

    #[test]
    fn untested_without_a_verification() {
        assert!(!cut(&at_beta(0), None, &Params::default()).applies());
    }
}
