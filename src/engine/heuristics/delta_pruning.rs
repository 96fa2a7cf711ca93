//! `delta_pruning`: the quiescence search leaves out what cannot bring the score up to alpha.
//! Ethereal 12's quiescence search (search.c, `qsearch`, steps 6 and 7; Chess Programming
//! Wiki, "Delta Pruning"), counted as two forms:
//! - `node`: a node whose stand pat is below alpha returns it when even the best capture on
//!   the board (the opponent's most valuable piece, plus a queen's promotion when a pawn of
//!   the side to move stands on the seventh) cannot cover the distance, or the distance is
//!   more than `node_margin` (Ethereal's `QSDeltaMargin`, 150);
//! - `capture`: a capture whose static exchange is below `alpha − stand pat − capture_margin`
//!   (Ethereal's `QSSeeMargin`, 110) is left out. Ethereal also leaves out even exchanges
//!   (its threshold is at least 1); here the static exchange's own quiescence form decides
//!   those.
//!
//! Outside check only: a node in check has no stand pat and searches every evasion.

use cozy_chess::{Board, Piece, Rank};

use super::params::heuristic_params;
use super::view::Decision;
use crate::engine::eval::PIECE_VALUE;
use crate::engine::score::Score;

heuristic_params! {
    /// Parameters of `delta_pruning`.
    pub struct Params {
        /// Leave out of quiescence what cannot reach alpha.
        pub enabled: bool = false,
        /// The node form's least margin, centipawns (Ethereal 12: 150).
        pub node_margin: i32 [0..=5000] = 150,
        /// The capture form's margin, centipawns (Ethereal 12: 110).
        pub capture_margin: i32 [0..=5000] = 110,
    }
}

/// The most a capture here could gain: the opponent's most valuable piece (not the king),
/// plus a queen's promotion when a pawn of the side to move stands on its seventh rank, at the
/// hand-written evaluation's material values.
pub fn best_case(board: &Board) -> Score {
    let us = board.side_to_move();
    let best_victim = [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight, Piece::Pawn]
        .into_iter()
        .find(|&piece| !board.colored_pieces(!us, piece).is_empty())
        .map_or(0, |piece| PIECE_VALUE[piece as usize]);
    let seventh = Rank::Seventh.relative_to(us).bitboard();
    let promotes = !(board.colored_pieces(us, Piece::Pawn) & seventh).is_empty();
    let promotion = PIECE_VALUE[Piece::Queen as usize] - PIECE_VALUE[Piece::Pawn as usize];
    best_victim + if promotes { promotion } else { 0 }
}

/// Node form: return the stand pat. It applies where there is one (`stand_pat`, none in check)
/// and it is below `alpha`; it acts when the distance exceeds both the margin and the best
/// case (`best_case`, asked only then).
pub fn cuts_node(
    stand_pat: Option<Score>,
    alpha: Score,
    best_case: impl FnOnce() -> Score,
    params: &Params,
) -> Decision<Score> {
    let Some(stand_pat) = stand_pat.filter(|&s| s < alpha) else {
        return Decision::Inapplicable;
    };
    let distance = alpha - stand_pat;
    let cuts = distance > params.node_margin && distance > best_case();
    Decision::with(true, cuts.then_some(stand_pat))
}

/// Capture form: leave this capture out. It applies where there is a stand pat and the
/// threshold `alpha − stand pat − capture_margin` is positive; it acts when the capture's
/// exchange (`exchange`, asked only then) is below the threshold.
pub fn skips_capture(
    stand_pat: Option<Score>,
    alpha: Score,
    exchange: impl FnOnce() -> Score,
    params: &Params,
) -> Decision {
    let threshold = stand_pat.map(|s| alpha - s - params.capture_margin);
    let applies = threshold.is_some_and(|t| t > 0);
    Decision::when(applies, applies && threshold.is_some_and(|t| exchange() < t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_returns_its_stand_pat_only_beyond_both_margins() {
        let p = Params::default();
        assert_eq!(cuts_node(None, 0, || 0, &p), Decision::Inapplicable, "in check");
        assert_eq!(cuts_node(Some(10), 10, || 0, &p), Decision::Inapplicable);
        assert_eq!(cuts_node(Some(-200), 0, || 100, &p), Decision::Acts(-200));
        assert_eq!(cuts_node(Some(-140), 0, || 100, &p), Decision::Declines, "within 150");
        assert_eq!(cuts_node(Some(-850), 0, || 900, &p), Decision::Declines, "a queen");
    }

    #[test]
    fn a_capture_is_left_out_below_the_threshold() {
        let p = Params::default();
        assert_eq!(skips_capture(None, 500, || 0, &p), Decision::Inapplicable);
        assert_eq!(skips_capture(Some(0), 110, || 0, &p), Decision::Inapplicable);
        assert!(skips_capture(Some(0), 400, || 100, &p).acts());
        assert!(!skips_capture(Some(0), 400, || 320, &p).acts());
    }

    #[test]
    fn the_best_case_counts_the_best_victim_and_a_promotion() {
        let start = Board::default();
        assert_eq!(best_case(&start), 900);
        let promoting: Board = "4k3/P7/8/8/8/8/8/4K2r w - - 0 1".parse().unwrap();
        assert_eq!(best_case(&promoting), 500 + 800);
        let bare: Board = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        assert_eq!(best_case(&bare), 0);
    }
}
