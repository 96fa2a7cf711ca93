//! `countermove` (Chess Programming Wiki, "Countermove Heuristic"; Jos Uiterwijk 1992): the
//! quiet move that last refuted the opponent's previous move, indexed by that move's piece and
//! destination square, is tried right after the killers. Stockfish, Ethereal and Weiss keep
//! the same [piece][to] table per side.

use cozy_chess::{Color, Move, Piece, Square};

use super::params::heuristic_params;

heuristic_params! {
    /// Parameters of `countermove`.
    pub struct Params {
        /// Try the refutation of the previous move after the killers.
        pub enabled: bool = false,
    }
}

/// `[side to move][previous move's piece][previous move's destination]` → the refutation.
#[derive(Clone)]
pub struct Countermoves {
    table: Box<[[[Option<Move>; 64]; 6]; 2]>,
}

impl Default for Countermoves {
    fn default() -> Self {
        Countermoves {
            table: Box::new([[[None; 64]; 6]; 2]),
        }
    }
}

impl Countermoves {
    /// `mv`, a quiet move of `side`, refuted the opponent's `previous` (its piece `piece`).
    pub fn record(&mut self, side: Color, piece: Piece, previous_to: Square, mv: Move) {
        self.table[side as usize][piece as usize][previous_to as usize] = Some(mv);
    }

    /// The refutation of the opponent's last move, if one is known.
    pub fn get(&self, side: Color, piece: Piece, previous_to: Square) -> Option<Move> {
        self.table[side as usize][piece as usize][previous_to as usize]
    }

    pub fn clear(&mut self) {
        for side in self.table.iter_mut() {
            for piece in side.iter_mut() {
                piece.fill(None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_refutation_is_kept_per_side_piece_and_square() {
        let mut table = Countermoves::default();
        let refutation: Move = "d7d5".parse().unwrap();
        table.record(Color::Black, Piece::Pawn, Square::E4, refutation);
        assert_eq!(table.get(Color::Black, Piece::Pawn, Square::E4), Some(refutation));
        assert_eq!(table.get(Color::White, Piece::Pawn, Square::E4), None);
        assert_eq!(table.get(Color::Black, Piece::Knight, Square::E4), None);
        let later: Move = "e7e5".parse().unwrap();
        table.record(Color::Black, Piece::Pawn, Square::E4, later);
        assert_eq!(table.get(Color::Black, Piece::Pawn, Square::E4), Some(later));
        table.clear();
        assert_eq!(table.get(Color::Black, Piece::Pawn, Square::E4), None);
    }
}
