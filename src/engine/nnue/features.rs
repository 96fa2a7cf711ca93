//! The network's inputs and its quantisation constants.

use cozy_chess::{Color, Piece, Square};

/// Neurons per perspective in the hidden layer.
pub const HIDDEN: usize = 128;
/// Input features: 2 colours × 6 piece types × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden-layer quantisation: the float 1.0 is `QA`.
pub const QA: i32 = 255;
/// Output-weight quantisation: the float 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the float output (the trainer's sigmoid scale).
pub const SCALE: i32 = 400;

/// The input index of a `color` `piece` on `square` seen from `perspective`: pieces of the
/// perspective's colour first, squares mirrored (rank 1 ↔ 8) for Black, and with `flipped`
/// mirrored file for file too (a ↔ h). The same numbering as the `bulletformat` trainers' 768
/// inputs, so nets and data carry over.
#[inline]
pub fn feature(
    perspective: Color,
    color: Color,
    piece: Piece,
    square: Square,
    flipped: bool,
) -> usize {
    let (relative, square) = if perspective == Color::White {
        (usize::from(color != Color::White), square as usize)
    } else {
        (usize::from(color != Color::Black), square as usize ^ 56)
    };
    (relative * 6 + piece as usize) * 64 + (square ^ (7 * usize::from(flipped)))
}

/// Whether a mirrored network (`Network::mirrored`) reads a perspective whose king stands on
/// `king` file for file mirrored: a king on the e to h files is seen on the a to d files, so
/// that one set of weights serves a king on either wing (the field's "horizontal mirroring",
/// Stockfish's HalfKAv2_hm and bullet's examples: a position and its mirror image are worth the
/// same without castling rights, which the inputs do not see).
#[inline]
pub fn flips(king: Square) -> bool {
    king.file() >= cozy_chess::File::E
}

/// Output buckets: the output layer has one set of weights and a bias per bucket of the
/// number of pieces on the board, so one hidden layer serves the opening, the middlegame and
/// the endgame with different readings (the field's "output buckets", as bullet's examples
/// and most engines' nets since 2022 have them; 8 buckets of 4 pieces is their usual choice).
pub const OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a board with `pieces` pieces (kings included): 2–5 pieces bucket 0,
/// …, 30–32 bucket 7.
#[inline]
pub fn output_bucket(pieces: u32) -> usize {
    (pieces.saturating_sub(2) as usize / (32 / OUTPUT_BUCKETS)).min(OUTPUT_BUCKETS - 1)
}
