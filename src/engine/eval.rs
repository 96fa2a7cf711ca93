//! Static evaluation, in centipawns from the side to move.
//!
//! Two evaluations are offered because the documents use both: the full one (material plus
//! tapered piece-square tables) for the main search, and a material-only one, which is what
//! Ifrit's quiescence ("forced variant", 000) and 002's momentum series score. A third, the
//! embedded NNUE (`engine::nnue`), is today's engines' evaluation; the position keeps its
//! accumulators (`Position`), and `Terms` stays the source of material for every kind.
//!
//! Piece values and piece-square tables are Tomasz Michniewski's "Simplified Evaluation
//! Function" (chessprogramming wiki, 2000s), a published, deliberately plain table set: its
//! middlegame and endgame king tables are tapered by game phase as he describes. For the other
//! pieces his single table serves both phases, except that pawns get an endgame advancement
//! bonus of our own (`PAWN_EG_RANK`) so that passed pawns run in the endgame.

use cozy_chess::{Board, Color, Piece, Square};
use serde::{Deserialize, Serialize};

use super::score::Score;

/// Which static evaluation the search calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum EvalKind {
    /// Material plus tapered piece-square tables.
    #[default]
    Full,
    /// Material only (Ifrit's quiescence evaluation, 000).
    Material,
    /// The embedded NNUE (`engine::nnue`), trained on searchlab's own games.
    Nnue,
}

/// Material values indexed by `Piece as usize` (pawn, knight, bishop, rook, queen, king).
pub const PIECE_VALUE: [Score; 6] = [100, 320, 330, 500, 900, 0];

/// One pawn, the unit of every margin in the documents.
pub const PAWN: Score = PIECE_VALUE[0];

/// Phase weight of each piece type; 24 = all pieces on the board (pure middlegame).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_TOTAL: i32 = 24;

// Tables are written as a board is drawn, rank 8 first, from White's point of view.
#[rustfmt::skip]
const PAWN_PST: [Score; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const KNIGHT_PST: [Score; 64] = [
    -50,-40,-30,-30,-30,-30,-40,-50,
    -40,-20,  0,  0,  0,  0,-20,-40,
    -30,  0, 10, 15, 15, 10,  0,-30,
    -30,  5, 15, 20, 20, 15,  5,-30,
    -30,  0, 15, 20, 20, 15,  0,-30,
    -30,  5, 10, 15, 15, 10,  5,-30,
    -40,-20,  0,  5,  5,  0,-20,-40,
    -50,-40,-30,-30,-30,-30,-40,-50,
];
#[rustfmt::skip]
const BISHOP_PST: [Score; 64] = [
    -20,-10,-10,-10,-10,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5, 10, 10,  5,  0,-10,
    -10,  5,  5, 10, 10,  5,  5,-10,
    -10,  0, 10, 10, 10, 10,  0,-10,
    -10, 10, 10, 10, 10, 10, 10,-10,
    -10,  5,  0,  0,  0,  0,  5,-10,
    -20,-10,-10,-10,-10,-10,-10,-20,
];
#[rustfmt::skip]
const ROOK_PST: [Score; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
     5, 10, 10, 10, 10, 10, 10,  5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0,
];
#[rustfmt::skip]
const QUEEN_PST: [Score; 64] = [
    -20,-10,-10, -5, -5,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5,  5,  5,  5,  0,-10,
     -5,  0,  5,  5,  5,  5,  0, -5,
      0,  0,  5,  5,  5,  5,  0, -5,
    -10,  5,  5,  5,  5,  5,  0,-10,
    -10,  0,  5,  0,  0,  0,  0,-10,
    -20,-10,-10, -5, -5,-10,-10,-20,
];
#[rustfmt::skip]
const KING_MG_PST: [Score; 64] = [
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -20,-30,-30,-40,-40,-30,-30,-20,
    -10,-20,-20,-20,-20,-20,-20,-10,
     20, 20,  0,  0,  0,  0, 20, 20,
     20, 30, 10,  0,  0, 10, 30, 20,
];
#[rustfmt::skip]
const KING_EG_PST: [Score; 64] = [
    -50,-40,-30,-20,-20,-30,-40,-50,
    -30,-20,-10,  0,  0,-10,-20,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-30,  0,  0,  0,  0,-30,-30,
    -50,-30,-30,-30,-30,-30,-30,-50,
];
/// Endgame bonus by relative rank (1..8) for a pawn, added to `PAWN_PST` in the endgame.
const PAWN_EG_RANK: [Score; 8] = [0, 0, 5, 15, 30, 50, 80, 0];

/// Middlegame and endgame tables of each piece, indexed by `Piece as usize`.
const MG_TABLES: [&[Score; 64]; 6] = [
    &PAWN_PST,
    &KNIGHT_PST,
    &BISHOP_PST,
    &ROOK_PST,
    &QUEEN_PST,
    &KING_MG_PST,
];

/// Table index for a piece of `color` on `square` (tables are drawn rank 8 first for White).
#[inline]
fn table_index(color: Color, square: Square) -> usize {
    match color {
        Color::White => square as usize ^ 56,
        Color::Black => square as usize,
    }
}

/// Material balance from `color`'s point of view.
pub fn material(board: &Board, color: Color) -> Score {
    let mut score = 0;
    for piece in Piece::ALL {
        let ours = board.colored_pieces(color, piece).len() as Score;
        let theirs = board.colored_pieces(!color, piece).len() as Score;
        score += (ours - theirs) * PIECE_VALUE[piece as usize];
    }
    score
}

/// Game phase from 0 (bare kings and pawns) to `PHASE_TOTAL` (all pieces).
pub fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for piece in Piece::ALL {
        phase += board.pieces(piece).len() as i32 * PHASE_WEIGHT[piece as usize];
    }
    phase.min(PHASE_TOTAL)
}

/// The evaluation's terms from White's point of view, kept incrementally along the line: a
/// move changes two to four squares, so `after` touches only those instead of rescoring 32
/// pieces at every node (the documents' evaluation runs at every node of the tree).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Material plus middlegame tables.
    mg: Score,
    /// Material plus endgame tables.
    eg: Score,
    /// Sum of phase weights (capped at `PHASE_TOTAL` when scoring).
    phase: i32,
    /// Material alone.
    material: Score,
}

impl Terms {
    /// The terms of `board`, counted from scratch.
    pub fn of(board: &Board) -> Terms {
        let mut terms = Terms::default();
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for square in board.colored_pieces(color, piece) {
                    terms.add(color, piece, square, 1);
                }
            }
        }
        terms
    }

    /// The terms of `after`, one move (or null move) after `before` whose terms are `self`.
    #[inline]
    pub fn after(&self, before: &Board, after: &Board) -> Terms {
        self.with(&crate::engine::moves::piece_changes(before, after))
    }

    /// The terms once `changes` are made.
    #[inline]
    pub fn with(&self, changes: &[crate::engine::moves::PieceChange]) -> Terms {
        let mut terms = *self;
        for change in changes {
            let count = if change.added { 1 } else { -1 };
            terms.add(change.color, change.piece, change.square, count);
        }
        terms
    }

    #[inline]
    fn add(&mut self, color: Color, piece: Piece, square: Square, count: Score) {
        let sign = count * if color == Color::White { 1 } else { -1 };
        let index = table_index(color, square);
        let value = PIECE_VALUE[piece as usize];
        let table = MG_TABLES[piece as usize][index];
        let eg_table = match piece {
            Piece::King => KING_EG_PST[index],
            Piece::Pawn => table + PAWN_EG_RANK[square.rank().relative_to(color) as usize],
            _ => table,
        };
        self.mg += sign * (value + table);
        self.eg += sign * (value + eg_table);
        self.material += sign * value;
        self.phase += count * PHASE_WEIGHT[piece as usize];
    }

    /// Material balance for `color`.
    #[inline]
    pub fn material(&self, color: Color) -> Score {
        if color == Color::White {
            self.material
        } else {
            -self.material
        }
    }

    /// The evaluation `kind` for `side` (the NNUE's comes from its accumulator: `kind` Nnue
    /// reads as Full here, which only material-only callers reach).
    #[inline]
    pub fn score(&self, kind: EvalKind, side: Color) -> Score {
        let white = match kind {
            EvalKind::Material => self.material,
            EvalKind::Full | EvalKind::Nnue => {
                let phase = self.phase.min(PHASE_TOTAL);
                (self.mg * phase + self.eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL
            }
        };
        if side == Color::White { white } else { -white }
    }
}

/// The static evaluation of `board` for the side to move (`nnue` with the embedded network).
pub fn evaluate(board: &Board, kind: EvalKind) -> Score {
    evaluate_with(board, kind, &super::nnue::embedded())
}

/// The static evaluation of `board` for the side to move, `nnue` with `net`.
pub fn evaluate_with(board: &Board, kind: EvalKind, net: &super::nnue::Network) -> Score {
    match kind {
        EvalKind::Nnue => super::nnue::Accumulator::of(board, net).evaluate(net, board),
        _ => Terms::of(board).score(kind, board.side_to_move()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        fen.parse().unwrap()
    }

    #[test]
    fn start_position_is_balanced() {
        let b = Board::default();
        assert_eq!(evaluate(&b, EvalKind::Full), 0);
        assert_eq!(evaluate(&b, EvalKind::Material), 0);
        assert_eq!(phase(&b), PHASE_TOTAL);
    }

    #[test]
    fn evaluation_is_symmetric_under_colour_flip() {
        // The same position with colours swapped and the board mirrored scores the same for
        // the side to move.
        let white = board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let black = board("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(
            evaluate(&white, EvalKind::Full),
            evaluate(&black, EvalKind::Full)
        );
    }

    #[test]
    fn material_counts_from_the_side_to_move() {
        // White is a knight up; Black to move sees -320.
        let b = board("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1");
        assert_eq!(evaluate(&b, EvalKind::Material), -320);
        assert_eq!(material(&b, Color::White), 320);
    }

    #[test]
    fn endgame_king_prefers_the_centre() {
        let centre = board("4k3/8/8/8/4K3/8/8/8 w - - 0 1");
        let corner = board("4k3/8/8/8/8/8/8/K7 w - - 0 1");
        assert!(evaluate(&centre, EvalKind::Full) > evaluate(&corner, EvalKind::Full));
    }

    #[test]
    fn advanced_pawn_scores_more_in_the_endgame() {
        let far = board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        let near = board("4k3/4P3/8/8/8/8/8/4K3 w - - 0 1");
        assert!(evaluate(&near, EvalKind::Full) > evaluate(&far, EvalKind::Full) + 50);
    }
}
