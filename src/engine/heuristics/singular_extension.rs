//! `singular_extension`: a hash move that is much better than every other move is searched a
//! ply deeper. Ethereal 12's form (search.c, `singularity()`): at depth ≥ 8, not at the root,
//! when the table's entry for the node holds its move with a lower bound (or an exact score)
//! from at most two plies shallower, the node's other moves are searched at `depth / 2 − 1` in
//! a null window at `rBeta = ttValue − depth`; when none reaches `rBeta`, the hash move is
//! "singular" and extended. Ethereal stops trying quiet moves after six; so does this.
//! Hsu, Anantharaman, Campbell and Nowatzyk introduced the idea in Deep Thought (1990); the
//! tested-on-a-reduced-search form is Stockfish's and Ethereal's.
//!
//! With `double_limit` above 0, a hash move whose best rival stays `double_margin` or more below
//! `rBeta`, at a node off the PV, is searched two plies deeper, as long as the line to the node
//! holds fewer than `double_limit` such double extensions (Stockfish's double extension, 2021:
//! a margin of 25 and at most 10 a line then; the limit keeps a line of forced moves from
//! growing without end). Ethereal 12 extends by one ply only.
//!
//! The decision is counted once per node where the preconditions hold (before the verification
//! search is paid for), and it fires when the hash move is extended. The verification search's
//! nodes are the search's own and are counted as such.

use super::params::heuristic_params;
use super::view::NodeView;
use crate::engine::score::{MATE, Score};

heuristic_params! {
    /// Parameters of `singular_extension`.
    pub struct Params {
        /// Extend a hash move no other move comes near.
        pub enabled: bool = false,
        /// The shallowest remaining depth it applies at (Ethereal 12: 8).
        pub min_depth: i32 [1..=127] = 8,
        /// The entry may be this many plies shallower than the node (Ethereal 12: 2).
        pub entry_depth_margin: i32 [0..=127] = 2,
        /// `rBeta` lies this many centipawns per ply of depth below the entry's score
        /// (Ethereal 12: 1).
        pub margin_per_ply: i32 [0..=1000] = 1,
        /// Quiet moves tried in the verification before the rest are left out (Ethereal 12: 6).
        pub quiet_limit: u32 [0..=256] = 6,
        /// Double extensions one line may hold (0: none, Ethereal 12; Stockfish 2021: 10).
        pub double_limit: u32 [0..=64; structural] = 0,
        /// How far below `rBeta` the best other move must stay for a double extension,
        /// centipawns (Stockfish 2021: 25).
        pub double_margin: i32 [0..=1000] = 25,
    }
}

/// What singular extension's verification found: the best score of the moves other than the
/// hash move (`best_other`, searched in the null window at `rbeta`) and `rbeta` itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verification {
    pub best_other: Score,
    pub rbeta: Score,
}

/// The bound the other moves are searched against (`rBeta`), where it applies: a node other
/// than the root, deep enough, whose table entry (`node.hash_claim`) names the hash move with a
/// lower bound or an exact score from at most `entry_depth_margin` plies shallower.
pub fn verification_beta(node: &NodeView, params: &Params) -> Option<Score> {
    let claim = node.hash_claim?;
    let applies = node.ply > 0
        && node.depth >= params.min_depth
        && claim.lower
        && claim.depth >= node.depth - params.entry_depth_margin;
    applies.then(|| (claim.score - params.margin_per_ply * node.depth).max(-MATE))
}

/// The depth the other moves are searched to (Ethereal 12: `depth / 2 − 1`).
pub fn verification_depth(depth: i32) -> i32 {
    depth / 2 - 1
}

/// The plies the hash move is extended by at `node`: 1 when it is singular (the best of the
/// other moves, `best_other`, stayed below `rbeta`), 2 when that best also stayed
/// `double_margin` below it at a node off the PV whose line holds fewer than `double_limit`
/// double extensions; 0 when it is not singular.
pub fn extension(node: &NodeView, best_other: Score, rbeta: Score, params: &Params) -> i32 {
    if best_other >= rbeta {
        return 0;
    }
    let double = !node.pv_node
        && node.double_extensions < params.double_limit
        && best_other < rbeta - params.double_margin;
    1 + i32::from(double)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::heuristics::view::HashClaim;

    fn node(depth: i32, claim: Option<HashClaim>) -> NodeView {
        NodeView {
            depth,
            ply: 3,
            hash_claim: claim,
            ..NodeView::default()
        }
    }

    const CLAIM: HashClaim = HashClaim {
        depth: 8,
        lower: true,
        score: 100,
    };

    #[test]
    fn ethereal_conditions() {
        let p = Params::default();
        assert_eq!(verification_beta(&node(10, Some(CLAIM)), &p), Some(90));
        assert_eq!(verification_beta(&node(8, Some(CLAIM)), &p), Some(92));
        assert_eq!(verification_beta(&node(7, Some(CLAIM)), &p), None, "too shallow");
        assert_eq!(verification_beta(&node(11, Some(CLAIM)), &p), None, "entry too shallow");
        let upper = HashClaim {
            lower: false,
            ..CLAIM
        };
        assert_eq!(verification_beta(&node(9, Some(upper)), &p), None, "an upper bound");
        assert_eq!(verification_beta(&node(9, None), &p), None, "no hash move");
        let root = NodeView {
            ply: 0,
            ..node(9, Some(CLAIM))
        };
        assert_eq!(verification_beta(&root, &p), None, "never at the root");
    }

    #[test]
    fn singular_when_every_other_move_stays_below() {
        let (at, p) = (node(10, Some(CLAIM)), Params::default());
        assert_eq!(extension(&at, 89, 90, &p), 1);
        assert_eq!(extension(&at, 90, 90, &p), 0);
        assert_eq!(extension(&at, -500, 90, &p), 1, "no double extension by default");
        assert_eq!(verification_depth(8), 3);
        assert_eq!(verification_depth(13), 5);
        let mated = HashClaim {
            score: -MATE + 3,
            ..CLAIM
        };
        let rbeta = verification_beta(&node(9, Some(mated)), &Params::default());
        assert_eq!(rbeta, Some(-MATE));
    }

    #[test]
    fn twice_when_far_below_off_the_pv_within_the_lines_limit() {
        let p = Params {
            double_limit: 10,
            ..Params::default()
        };
        let at = node(10, Some(CLAIM));
        assert_eq!(extension(&at, 64, 90, &p), 2, "26 below rBeta");
        assert_eq!(extension(&at, 65, 90, &p), 1, "25 below: not more than the margin");
        let pv = NodeView {
            pv_node: true,
            ..at
        };
        assert_eq!(extension(&pv, 0, 90, &p), 1, "never at a PV node");
        let full = NodeView {
            double_extensions: 10,
            ..at
        };
        assert_eq!(extension(&full, 0, 90, &p), 1, "the line holds its limit");
    }
}
