//! `probcut` (Buro 1995, "ProbCut: an effective selective extension of the alpha-beta
//! algorithm"; Chess Programming Wiki, "ProbCut"), in the form of Ethereal 12 (search.c, step
//! 9, "~9 elo" by its author's estimate) and Stockfish: at a null-window node deep enough, a
//! capture that holds a raised beta, `beta + margin`, in a search `depth_reduction` plies
//! shallower is taken to hold beta at the full depth, and the node returns that search's
//! score. Only captures whose static exchange alone could lift the evaluation to the raised
//! beta are tried (SEE at least `raised beta − evaluation`), best victims first, and the node
//! is not tried at all unless its evaluation plus the most any capture could win (the
//! opponent's best piece, or a queen's promotion more with a pawn on the seventh) reaches the
//! raised beta: Ethereal 12's `moveBestCaseValue`.
//!
//! Ethereal 12: depth ≥ 5 (`ProbCutDepth`), margin 100 (`ProbCutMargin`), the verification
//! at `depth − 4`, with its noisy moves (captures and promotions). Here: the same numbers with
//! the captures (promotions that capture included, quiet promotions not), and never in check
//! (the static evaluation such a node has is not one its moves can be measured against).

use cozy_chess::{Board, Piece, Rank};

use super::params::heuristic_params;
use super::see;
use super::view::NodeView;
use crate::engine::score::{MATE_BOUND, Score};

heuristic_params! {
    /// Parameters of `probcut`.
    pub struct Params {
        /// Cut a node on a capture that holds beta + margin at a reduced depth.
        pub enabled: bool = false,
        /// The shallowest remaining depth it is tried at (Ethereal 12: 5).
        pub min_depth: i32 [2..=32] = 5,
        /// How far above beta the capture must hold, centipawns (Ethereal 12: 100).
        pub margin: i32 [0..=1000] = 100,
        /// Plies less for the capture's search (Ethereal 12: 4).
        pub depth_reduction: i32 [1..=16] = 4,
    }
}

/// The raised beta the node's captures are searched against, when probcut applies: a
/// null-window node outside check at `min_depth` or deeper, no mate score near beta, whose
/// evaluation plus `best_case` (the most a capture could win, worked out only where the
/// other conditions hold) reaches the raised beta.
pub fn raised_beta(
    node: &NodeView,
    best_case: impl FnOnce() -> Score,
    params: &Params,
) -> Option<Score> {
    let rbeta = (node.beta + params.margin).min(MATE_BOUND - 1);
    let applies = !node.pv_node
        && !node.in_check
        && node.depth >= params.min_depth
        && node.beta.abs() < MATE_BOUND
        && node.static_eval + best_case() >= rbeta;
    applies.then_some(rbeta)
}

/// The remaining depth the captures are searched to.
pub fn search_depth(node: &NodeView, params: &Params) -> i32 {
    node.depth - params.depth_reduction
}

/// The least a capture's static exchange must win to be tried: what would lift the evaluation
/// to the raised beta.
pub fn exchange_threshold(node: &NodeView, rbeta: Score) -> Score {
    rbeta - node.static_eval
}

/// The most one capture of the side to move could win by exchange: the opponent's most
/// valuable piece (a pawn at least), plus a queen less a pawn when one of its pawns stands on
/// the seventh rank (Ethereal 12's `moveBestCaseValue`).
pub fn best_case(board: &Board) -> Score {
    let us = board.side_to_move();
    let theirs = board.colors(!us);
    let victim = [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight]
        .into_iter()
        .find(|&piece| !(board.pieces(piece) & theirs).is_empty())
        .map_or(see::value(Piece::Pawn), see::value);
    let seventh = Rank::Seventh.relative_to(us).bitboard();
    let promotes = !(board.colored_pieces(us, Piece::Pawn) & seventh).is_empty();
    victim
        + if promotes {
            see::value(Piece::Queen) - see::value(Piece::Pawn)
        } else {
            0
        }
}

/// The capture's score proves the node: it held the raised beta.
pub fn holds(score: Score, rbeta: Score) -> bool {
    score >= rbeta
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(depth: i32, eval: Score, beta: Score) -> NodeView {
        NodeView::null_window(depth, eval, beta)
    }

    #[test]
    fn it_applies_at_deep_null_window_nodes_whose_best_capture_could_reach_the_raised_beta() {
        let p = Params::default();
        // Beta 0, raised to 100: an evaluation of 0 needs a capture worth 100.
        assert_eq!(raised_beta(&node(5, 0, 0), || 100, &p), Some(100));
        assert_eq!(raised_beta(&node(5, 0, 0), || 99, &p), None);
        assert_eq!(raised_beta(&node(4, 0, 0), || 950, &p), None, "below min_depth");
        let pv = NodeView { alpha: -50, pv_node: true, ..node(8, 0, 0) };
        assert_eq!(raised_beta(&pv, || 950, &p), None, "a PV node");
        let check = NodeView { in_check: true, ..node(8, 0, 0) };
        assert_eq!(raised_beta(&check, || 950, &p), None, "in check");
        assert_eq!(raised_beta(&node(8, 0, MATE_BOUND), || 950, &p), None, "a mate at beta");
        assert_eq!(search_depth(&node(9, 0, 0), &p), 5);
        assert_eq!(exchange_threshold(&node(9, 30, 0), 100), 70);
        assert!(holds(100, 100) && !holds(99, 100));
    }

    #[test]
    fn the_best_case_is_the_opponents_best_piece_and_a_promotion() {
        let board = |fen: &str| fen.parse::<Board>().unwrap();
        assert_eq!(best_case(&Board::default()), 950);
        // Only pawns left to take: a pawn.
        assert_eq!(best_case(&board("4k3/pppp4/8/8/8/8/8/4K2R w - - 0 1")), 100);
        // A rook to take and a pawn on the seventh: a rook and a queen less a pawn.
        assert_eq!(
            best_case(&board("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1")),
            500 + 950 - 100
        );
        // Black's seventh is the second rank.
        assert_eq!(
            best_case(&board("4k3/8/8/8/8/8/p7/4K2N b - - 0 1")),
            320 + 950 - 100
        );
    }
}
