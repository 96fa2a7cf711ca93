//! The hidden layer of both perspectives, kept up to date move by move: a move changes two to
//! four pieces (a capture removes one, castling moves two, a promotion changes a type), so
//! `after` adds and subtracts those rows only instead of summing all the pieces again. With a
//! mirrored network a king that crosses from the d file to the e file (or back) turns its
//! perspective's board over, file for file, and every row of that perspective changes: that
//! perspective's half is then summed again (a king's step across the middle, rare beside the
//! other moves), and the other half takes the move's rows as usual.

use cozy_chess::{Board, Color, Piece};

use super::features::{HIDDEN, feature, flips};
use super::network::Network;
use crate::engine::moves::{PieceChange, piece_changes};
use crate::engine::score::Score;

/// Each perspective's hidden sums, units of `QA`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub white: [i16; HIDDEN],
    pub black: [i16; HIDDEN],
    /// Whether White's perspective, then Black's, reads the board file for file mirrored
    /// (only with a mirrored network: `features::flips`).
    pub flipped: [bool; 2],
}

impl Accumulator {
    /// The accumulator of `board`, summed from scratch.
    pub fn of(board: &Board, net: &Network) -> Accumulator {
        let flipped = Self::flipped_on(board, net);
        Accumulator {
            white: Self::half_of(board, net, Color::White, flipped[0]),
            black: Self::half_of(board, net, Color::Black, flipped[1]),
            flipped,
        }
    }

    /// One perspective's hidden sums of `board`, from scratch.
    fn half_of(board: &Board, net: &Network, side: Color, flipped: bool) -> [i16; HIDDEN] {
        let mut half = net.hidden_bias;
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for square in board.colored_pieces(color, piece) {
                    add_row(
                        &mut half,
                        net,
                        feature(side, color, piece, square, flipped),
                        true,
                    );
                }
            }
        }
        half
    }

    /// The accumulator of `after`, one move (or null move) after `before`, whose accumulator
    /// is `self`.
    #[inline]
    pub fn after(&self, net: &Network, before: &Board, after: &Board) -> Accumulator {
        let mut acc = *self;
        acc.change(net, &piece_changes(before, after), after);
        acc
    }

    /// Make `changes`, the pieces a move changed to give `after`, in place: their rows added or
    /// subtracted in each perspective, or that perspective summed again from `after` where its
    /// king crossed the middle of a mirrored network's board (the other half only changes by
    /// the moved pieces' rows).
    #[inline]
    pub fn change(&mut self, net: &Network, changes: &[PieceChange], after: &Board) {
        let now = Self::flipped_on(after, net);
        for (i, side) in [Color::White, Color::Black].into_iter().enumerate() {
            let half = match side {
                Color::White => &mut self.white,
                Color::Black => &mut self.black,
            };
            if now[i] != self.flipped[i] {
                *half = Self::half_of(after, net, side, now[i]);
                continue;
            }
            for c in changes {
                let index = feature(side, c.color, c.piece, c.square, now[i]);
                add_row(half, net, index, c.added);
            }
        }
        self.flipped = now;
    }

    /// Which perspectives of `board` read it mirrored under `net`.
    #[inline]
    fn flipped_on(board: &Board, net: &Network) -> [bool; 2] {
        [Color::White, Color::Black].map(|side| net.mirrored && flips(board.king(side)))
    }

    /// The evaluation of `board` (whose accumulator this is) for its side to move,
    /// centipawns, read by the output bucket of its number of pieces.
    #[inline]
    pub fn evaluate(&self, net: &Network, board: &Board) -> Score {
        let (us, them) = self.halves(board.side_to_move());
        net.evaluate(us, them, board.occupied().len())
    }

    /// The side to move's half and the other side's.
    #[inline]
    pub fn halves(&self, side: Color) -> (&[i16; HIDDEN], &[i16; HIDDEN]) {
        match side {
            Color::White => (&self.white, &self.black),
            Color::Black => (&self.black, &self.white),
        }
    }
}

/// Add (or subtract) the input row `index` to one perspective's sums.
#[inline]
fn add_row(half: &mut [i16; HIDDEN], net: &Network, index: usize, add: bool) {
    let row = &net.input[index];
    if add {
        half.iter_mut()
            .zip(row)
            .for_each(|(a, &w)| *a = a.wrapping_add(w));
    } else {
        half.iter_mut()
            .zip(row)
            .for_each(|(a, &w)| *a = a.wrapping_sub(w));
    }
}
