//! `history_extension` (Ethereal 12, `search.c` step 14: "search an additional ply … when an
//! early move has excellent continuation history"): a quiet move among the node's first
//! `max_quiet_index` quiet ones whose counter-move and follow-up histories are both at least
//! `limit` is searched a ply deeper, outside the root. Ethereal 12 extends by one ply whatever
//! the reason (check, this, singular), so the search takes the largest extension, not the sum.
//!
//! `min_pieces` keeps it out of the endings of few pieces: there the same few king and pawn
//! moves recur, their histories reach `limit` in most contexts, and the lines through a
//! node's first quiet moves keep their depth (at 230 ms, the default reached 15.20 plies with
//! it and 20.58 without on 263 such positions of its games, `reports/depth-gap/`).
//!
//! Its `limit` (10,000) is on Ethereal 12's history scale, `continuation_history.scale=32,
//! continuation_history.max_bonus=400`; at `scale` 1 the continuation scores seldom reach it.

use super::params::heuristic_params;
use super::view::{Decision, MoveView};

heuristic_params! {
    /// Parameters of `history_extension`.
    pub struct Params {
        /// Extend early quiet moves with a good continuation history.
        pub enabled: bool = false,
        /// The last quiet move (1-based, by the order the node reaches them) that may be
        /// extended (Ethereal 12: `quietsSeen <= 4`).
        pub max_quiet_index: usize [1..=64] = 4,
        /// Both continuation scores must be at least this (Ethereal 12: 10,000).
        pub limit: i32 [-100000..=100000] = 10000,
        /// Only where the board after the move holds at least this many pieces besides the
        /// kings and pawns (0: everywhere, as Ethereal 12; the rule off, a form SPSA does not
        /// step).
        pub min_pieces: u32 [0..=14; structural] = 0,
    }
}

/// Plies the move is extended by: it applies to an early quiet move outside the root whose two
/// continuation scores reach `limit`, made on a board left with `pieces()` pieces besides
/// kings and pawns, at least `min_pieces` (counted only for such a move); it acts unless
/// another extension (`already` plies) extends it, so that `fired` counts the plies this
/// heuristic added.
pub fn extension(
    mv: &MoveView,
    at_root: bool,
    already: i32,
    pieces: impl FnOnce() -> u32,
    params: &Params,
) -> Decision<i32> {
    let applies = !at_root
        && (1..=params.max_quiet_index).contains(&mv.quiet_index)
        && mv.continuation.iter().all(|&score| score >= params.limit)
        && pieces() >= params.min_pieces;
    Decision::with(applies, (already == 0).then_some(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(index: usize, continuation: [i32; 2]) -> MoveView {
        MoveView { quiet_index: index, continuation, ..MoveView::default() }
    }

    #[test]
    fn an_early_quiet_with_both_histories_good_extends() {
        let p = Params::default();
        assert_eq!(extension(&quiet(1, [10000, 12000]), false, 0, || 0, &p).value(), Some(1));
        assert_eq!(extension(&quiet(4, [16000, 10000]), false, 0, || 0, &p).value(), Some(1));
    }

    #[test]
    fn late_quiets_captures_one_bad_history_and_the_root_do_not() {
        let p = Params::default();
        let no = Decision::Inapplicable;
        assert_eq!(extension(&quiet(5, [16000, 16000]), false, 0, || 0, &p), no);
        assert_eq!(extension(&quiet(0, [16000, 16000]), false, 0, || 0, &p), no, "a capture");
        assert_eq!(extension(&quiet(2, [16000, 9999]), false, 0, || 0, &p), no);
        assert_eq!(extension(&quiet(2, [16000, 16000]), true, 0, || 0, &p), no, "the root");
        let wider = Params { max_quiet_index: 5, limit: 9999, ..p };
        assert_eq!(extension(&quiet(5, [9999, 9999]), false, 0, || 0, &wider).value(), Some(1));
    }

    #[test]
    fn min_pieces_keeps_it_out_of_the_endings_of_few_pieces() {
        let p = Params { min_pieces: 2, ..Params::default() };
        let good = quiet(1, [16000, 16000]);
        assert_eq!(extension(&good, false, 0, || 1, &p), Decision::Inapplicable, "one piece");
        assert_eq!(extension(&good, false, 0, || 2, &p).value(), Some(1));
        let everywhere = Params::default();
        assert_eq!(extension(&good, false, 0, || 0, &everywhere).value(), Some(1), "pawns only");
    }

    #[test]
    fn a_move_already_extended_is_the_other_extension_s() {
        let p = Params::default();
        assert_eq!(extension(&quiet(1, [16000, 16000]), false, 1, || 0, &p), Decision::Declines);
    }
}
