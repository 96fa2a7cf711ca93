//! Facts about a move on a board that the search and the decision functions ask: what it
//! captures, whether it is quiet, whether it pushes a pawn to the seventh rank or takes a
//! weak pawn.

use cozy_chess::{Board, Move, Piece, Rank};

/// The move is a pawn move to the mover's seventh rank (002: "pawn to the 7th").
#[inline]
pub fn pawn_to_seventh(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::Pawn)
        && mv.to.rank() == Rank::Seventh.relative_to(board.side_to_move())
}

/// The move captures a weak pawn: one no pawn of its own side defends and none stands beside
/// it (002: "не защищена пешкой и рядом нет пешки").
pub fn captures_weak_pawn(board: &Board, mv: Move) -> bool {
    if captured_piece(board, mv) != Some(Piece::Pawn)
        || !board.colors(!board.side_to_move()).has(mv.to)
    {
        return false;
    }
    let owner = !board.side_to_move();
    let pawns = board.colored_pieces(owner, Piece::Pawn);
    let defenders = cozy_chess::get_pawn_attacks(mv.to, !owner) & pawns;
    let beside = mv.to.file().adjacent() & mv.to.rank().bitboard() & pawns;
    defenders.is_empty() && beside.is_empty()
}

/// A quiet move in the documents' sense: no capture, no promotion, not castling. Only these
/// become killers (003: "never a capture, promotion or other special move"), enter history,
/// and are counted by `futility_move_count`.
pub fn is_quiet(board: &Board, mv: Move) -> bool {
    let castling = board.colors(board.side_to_move()).has(mv.to);
    captured_piece(board, mv).is_none() && mv.promotion.is_none() && !castling
}

/// The piece a move captures on `board`, en passant included.
#[inline]
pub fn captured_piece(board: &Board, mv: Move) -> Option<Piece> {
    let them = !board.side_to_move();
    if board.colors(them).has(mv.to) {
        return board.piece_on(mv.to);
    }
    if board.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file() {
        return Some(Piece::Pawn);
    }
    None
}

/// `mv` gives check on `board` (played on a copy: for the few moves a decision asks about).
pub fn gives_check(board: &Board, mv: Move) -> bool {
    let mut after = board.clone();
    after.play_unchecked(mv);
    !after.checkers().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_moves_are_quiet() {
        let board: Board = "r3k2r/1P6/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1"
            .parse()
            .unwrap();
        assert!(is_quiet(&board, "a1a5".parse().unwrap()));
        assert!(!is_quiet(&board, "e4d5".parse().unwrap()), "capture");
        assert!(!is_quiet(&board, "b7b8q".parse().unwrap()), "promotion");
        assert!(!is_quiet(&board, "e1h1".parse().unwrap()), "castling");
    }

    #[test]
    fn weak_pawns_and_pawns_to_the_seventh() {
        let board: Board = "4k3/1P6/8/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
        assert!(captures_weak_pawn(&board, "e4d5".parse().unwrap()));
        assert!(pawn_to_seventh(
            &"4k3/8/1P6/8/8/8/8/4K3 w - - 0 1".parse().unwrap(),
            "b6b7".parse().unwrap()
        ));
        let defended: Board = "4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
        assert!(!captures_weak_pawn(&defended, "e4d5".parse().unwrap()));
        assert_eq!(
            captured_piece(&board, "e4d5".parse().unwrap()),
            Some(Piece::Pawn)
        );
        assert_eq!(captured_piece(&board, "e4e5".parse().unwrap()), None);
    }
}
