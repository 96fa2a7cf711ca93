//! `endgame_scale`: the static evaluation brought toward a draw in the endings that material
//! does not win, by Ethereal 12's two endgame terms (`evaluate.c` of Debian's
//! `ethereal-chess` 12.00+ds1): the scale factor (`evaluateScaleFactor`: bishops of opposite
//! colours alone 64/128, with one knight each 106, with one rook each 96; a lone queen against
//! several pieces 88; a king and one minor piece, and nothing else, against anything 0; a lone
//! piece each with three or more pawns more 144) and the complexity (`evaluateComplexity`:
//! `7 · pawns + 49` when pawns stand on both flanks `+ 34` in a pawn ending `− 110`, added to
//! the leading side's score, never past zero). Ethereal applies both to its endgame score,
//! weighed by the phase (`24 − 4·queens − 2·rooks − minors`, of 24); a network has one score,
//! so here it stands for both and the terms reach it by the same weight.
//!
//! Why: the network learnt from its own search's scores, in which an extra pawn in a rook
//! ending or a bishop against a pawn is worth what it is worth in the middlegame; nothing in
//! that data says such endings draw. Against Ethereal 12 at 16+0.16, where the default scored
//! itself +1.00 to +3.00 with seven men or fewer (a median +2.07), Ethereal's reply scored the
//! same position a median +0.01 for us, within two centipawns of a draw in 63.6% of those 773
//! moves, and we took 50.0% of the points from those games
//! (`reports/elo-ethereal/history/95d221f/twice-the-clock/disagreement.txt`). A search that
//! believes the ending won trades into it; scaled, it keeps the pieces that can still win.

use cozy_chess::{BitBoard, Board, Color, File, Piece};

use super::params::heuristic_params;
use super::view::Decision;
use crate::engine::score::Score;

heuristic_params! {
    /// Parameters of `endgame_scale`.
    pub struct Params {
        /// Scale the static evaluation by Ethereal 12's endgame terms.
        pub enabled: bool = false,
        /// Also add Ethereal 12's complexity term (without it, the scale factor alone).
        pub complexity: bool = true,
    }
}

/// Ethereal 12's scale factors, of `NORMAL` (`evaluate.h`).
const NORMAL: i32 = 128;
const DRAW: i32 = 0;
const OPPOSITE_BISHOPS_ONLY: i32 = 64;
const OPPOSITE_BISHOPS_ONE_KNIGHT: i32 = 106;
const OPPOSITE_BISHOPS_ONE_ROOK: i32 = 96;
const LONE_QUEEN: i32 = 88;
const LARGE_PAWN_ADVANTAGE: i32 = 144;

/// Ethereal 12's complexity terms, in centipawns (`evaluate.c`, their endgame halves).
const COMPLEXITY_PAWNS: i32 = 7;
const COMPLEXITY_BOTH_FLANKS: i32 = 49;
const COMPLEXITY_PAWN_ENDING: i32 = 34;
const COMPLEXITY_ADJUSTMENT: i32 = -110;

/// `eval` (for the side to move of `board`) scaled: it acts where the phase gives the
/// endgame a share and the scaled score differs.
pub fn scaled(board: &Board, eval: Score, params: &Params) -> Decision<Score> {
    let phase = endgame_share(board);
    if eval == 0 || phase == 0 {
        return Decision::with(true, None);
    }
    let us = board.side_to_move();
    let strong = if eval > 0 { us } else { !us };
    let factor = scale_factor(board, strong);
    let complexity = if params.complexity {
        eval.signum() * complexity(board).max(-eval.abs())
    } else {
        0
    };
    let endgame = (eval + complexity) * factor / NORMAL;
    let scaled = (eval * (256 - phase) + endgame * phase) / 256;
    Decision::with(true, (scaled != eval).then_some(scaled))
}

/// The endgame's share of the score, of 256: Ethereal 12's phase (Fruit's), 0 with every
/// piece on the board, 256 with none; never below 0 where promotions added queens.
fn endgame_share(board: &Board) -> i32 {
    let count = |piece| board.pieces(piece).len() as i32;
    let phase = 24
        - 4 * count(Piece::Queen)
        - 2 * count(Piece::Rook)
        - count(Piece::Knight)
        - count(Piece::Bishop);
    (phase.max(0) * 256 + 12) / 24
}

/// Ethereal 12's `evaluateScaleFactor`, `strong` the side the score favours.
fn scale_factor(board: &Board, strong: Color) -> i32 {
    let white = board.colors(Color::White);
    let black = board.colors(Color::Black);
    let [pawns, knights, bishops, rooks, queens] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
    ]
    .map(|piece| board.pieces(piece));
    let minors = knights | bishops;
    let pieces = minors | rooks;
    let (strong_men, weak_men) = (board.colors(strong), board.colors(!strong));
    let one = |set: BitBoard| set.len() == 1;
    let opposite_bishops = one(white & bishops)
        && one(black & bishops)
        && one(bishops & BitBoard::LIGHT_SQUARES);
    if opposite_bishops {
        if (rooks | queens).is_empty() && one(white & knights) && one(black & knights) {
            return OPPOSITE_BISHOPS_ONE_KNIGHT;
        }
        if (knights | queens).is_empty() && one(white & rooks) && one(black & rooks) {
            return OPPOSITE_BISHOPS_ONE_ROOK;
        }
        if (knights | rooks | queens).is_empty() {
            return OPPOSITE_BISHOPS_ONLY;
        }
    }
    if one(queens) && pieces.len() >= 2 && pieces == (weak_men & pieces) {
        return LONE_QUEEN;
    }
    if !(strong_men & minors).is_empty() && strong_men.len() == 2 {
        return DRAW;
    }
    let pawn_lead = (strong_men & pawns).len() as i32 - (weak_men & pawns).len() as i32;
    if queens.is_empty()
        && (pieces & white).len() <= 1
        && (pieces & black).len() <= 1
        && pawn_lead > 2
    {
        return LARGE_PAWN_ADVANTAGE;
    }
    NORMAL
}

/// Ethereal 12's `evaluateComplexity` before its sign and bound: how likely the leading side
/// is to convert, from the pawns, their flanks and whether only pawns are left.
fn complexity(board: &Board) -> i32 {
    let pawns = board.pieces(Piece::Pawn);
    let left = File::A.bitboard() | File::B.bitboard() | File::C.bitboard() | File::D.bitboard();
    let both_flanks = !(pawns & left).is_empty() && !(pawns & !left).is_empty();
    let pawn_ending = (board.occupied() & !pawns & !board.pieces(Piece::King)).is_empty();
    COMPLEXITY_PAWNS * pawns.len() as i32
        + COMPLEXITY_BOTH_FLANKS * i32::from(both_flanks)
        + COMPLEXITY_PAWN_ENDING * i32::from(pawn_ending)
        + COMPLEXITY_ADJUSTMENT
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both terms, as `endgame_scale` alone switches them on.
    const ON: Params = Params {
        enabled: true,
        complexity: true,
    };

    fn scale(fen: &str, eval: Score) -> Score {
        let board: Board = fen.parse().unwrap();
        scaled(&board, eval, &ON).value().unwrap_or(eval)
    }

    #[test]
    fn the_start_position_is_left_alone() {
        let start = Board::default();
        assert!(matches!(scaled(&start, 35, &ON), Decision::Declines));
    }

    #[test]
    fn a_bishop_against_a_pawn_is_a_draw() {
        // White's bishop cannot mate, whatever the network says of it.
        // The factor zeroes the endgame's share; the bishop leaves the middlegame 11 of 256.
        assert_eq!(scale("k7/8/8/8/8/3Bp3/4K3/8 b - - 0 1", -230), -230 * 11 / 256);
        assert_eq!(scale("k7/8/8/8/8/3Bp3/4K3/8 w - - 0 1", 230), 230 * 11 / 256);
    }

    #[test]
    fn the_weaker_side_is_never_made_the_stronger() {
        // A knight against a pawn ending: the score may fall to zero, never past it.
        for eval in [-600, -150, -1, 1, 150, 600] {
            let s = scale("8/8/5k2/4p3/4K3/5N2/8/8 b - - 0 1", eval);
            assert!(s * eval >= 0 && s.abs() <= eval.abs(), "{eval}: {s}");
        }
    }

    #[test]
    fn opposite_bishops_halve_an_extra_pawn() {
        // One bishop each on squares of different colours; the complexity term off, so the
        // factor alone: 64 of 128 on the endgame's share (two bishops left: 22 of 24).
        let fen = "8/2B4p/4k2K/4p3/8/4P3/8/1b6 w - - 0 1";
        let board: Board = fen.parse().unwrap();
        let plain = Params {
            complexity: false,
            ..ON
        };
        let s = scaled(&board, 200, &plain).value().unwrap();
        let phase = (22 * 256 + 12) / 24;
        assert_eq!(s, (200 * (256 - phase) + 100 * phase) / 256);
    }

    #[test]
    fn both_sides_are_scaled_alike() {
        for (fen, mirrored) in [
            (
                "8/8/r5k1/5p2/5P1K/4P3/8/3R4 b - - 0 1",
                "3r4/8/4p3/5p1k/5P2/R5K1/8/8 w - - 0 1",
            ),
            (
                "8/2B4p/4k2K/4p3/8/4P3/8/1b6 w - - 0 1",
                "1B6/8/4p3/8/4P3/4K2k/2b4P/8 b - - 0 1",
            ),
        ] {
            for eval in [-400, -90, 90, 400] {
                assert_eq!(scale(fen, eval), scale(mirrored, eval), "{fen} {eval}");
            }
        }
    }
}
