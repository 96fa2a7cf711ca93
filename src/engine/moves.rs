//! Facts about a move on a board that the search and the decision functions ask: what it
//! captures, whether it is quiet, whether it pushes a pawn to the seventh rank or takes a
//! weak pawn.

use arrayvec::ArrayVec;
use cozy_chess::{Board, Color, File, Move, Piece, Rank, Square};

/// One piece a move put on a square or took off it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceChange {
    pub color: Color,
    pub piece: Piece,
    pub square: Square,
    /// Put on (true) or taken off (false).
    pub added: bool,
}

/// The pieces that differ between `before` and `after`, one move (or null move) apart: at
/// most four (castling moves two pieces, a promotion with a capture takes two off and puts one
/// on). Each side, piece by piece, what left a square before what arrived. The one walk of
/// the boards that the evaluation terms and the NNUE accumulator both update from.
#[inline]
pub fn piece_changes(before: &Board, after: &Board) -> ArrayVec<PieceChange, 4> {
    let mut changes = ArrayVec::new();
    for color in [Color::White, Color::Black] {
        // A side whose squares did not change lost no piece and changed no type (a
        // promotion moves the pawn's square too).
        if (before.colors(color) ^ after.colors(color)).is_empty() {
            continue;
        }
        for piece in Piece::ALL {
            let was = before.colored_pieces(color, piece);
            let now = after.colored_pieces(color, piece);
            let off = (was & !now).into_iter().map(|square| (square, false));
            let on = (now & !was).into_iter().map(|square| (square, true));
            for (square, added) in off.chain(on) {
                changes.push(PieceChange {
                    color,
                    piece,
                    square,
                    added,
                });
            }
        }
    }
    changes
}

/// The pieces `mv` changes on `board`, from the move alone (`piece_changes` of the boards
/// before and after it, in another order: the evaluation terms and the accumulator add them
/// up, so the order does not matter): the mover off its square and onto its target (as the
/// promoted piece), a captured piece off its square (en passant's behind the target), and for
/// castling, written by cozy-chess as the king taking its own rook, king and rook each off and
/// onto their castled squares (the king to the c or g file, the rook to the d or f file).
/// Reading two squares instead of walking twelve piece sets of two boards saves the most
/// frequent work of `make`.
#[inline]
pub fn move_changes(board: &Board, mv: Move) -> ArrayVec<PieceChange, 4> {
    let us = board.side_to_move();
    let change = |color, piece, square, added| PieceChange {
        color,
        piece,
        square,
        added,
    };
    let mut changes = ArrayVec::new();
    let Some(piece) = board.piece_on(mv.from) else {
        return changes;
    };
    if board.colors(us).has(mv.to) {
        let rank = mv.from.rank();
        let (king_file, rook_file) = if mv.to.file() > mv.from.file() {
            (File::G, File::F)
        } else {
            (File::C, File::D)
        };
        changes.push(change(us, Piece::King, mv.from, false));
        changes.push(change(us, Piece::Rook, mv.to, false));
        changes.push(change(us, Piece::King, Square::new(king_file, rank), true));
        changes.push(change(us, Piece::Rook, Square::new(rook_file, rank), true));
        return changes;
    }
    changes.push(change(us, piece, mv.from, false));
    if let Some(victim) = board.piece_on(mv.to) {
        changes.push(change(!us, victim, mv.to, false));
    } else if piece == Piece::Pawn && mv.from.file() != mv.to.file() {
        let behind = Square::new(mv.to.file(), mv.from.rank());
        changes.push(change(!us, Piece::Pawn, behind, false));
    }
    changes.push(change(us, mv.promotion.unwrap_or(piece), mv.to, true));
    changes
}

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

/// `mv` gives check on `board`. A plain move (a capture included) is judged from the squares:
/// the moved piece attacks the king from its new square, or one of our sliders sees the king
/// once the move has opened the line. Castling, en passant and promotions, where more than one
/// square changes or the piece does, are played on a copy.
pub fn gives_check(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    let Some(piece) = board.piece_on(mv.from) else {
        return false;
    };
    let castling = board.colors(us).has(mv.to);
    let en_passant =
        piece == Piece::Pawn && mv.from.file() != mv.to.file() && board.piece_on(mv.to).is_none();
    if castling || en_passant || mv.promotion.is_some() {
        let mut after = board.clone();
        after.play_unchecked(mv);
        return !after.checkers().is_empty();
    }
    let king = board.king(!us);
    let occupied = (board.occupied() ^ mv.from.bitboard()) | mv.to.bitboard();
    let diagonal = cozy_chess::get_bishop_moves(king, occupied);
    let straight = cozy_chess::get_rook_moves(king, occupied);
    let direct = match piece {
        Piece::Pawn => cozy_chess::get_pawn_attacks(king, !us).has(mv.to),
        Piece::Knight => cozy_chess::get_knight_moves(king).has(mv.to),
        Piece::Bishop => diagonal.has(mv.to),
        Piece::Rook => straight.has(mv.to),
        Piece::Queen => (diagonal | straight).has(mv.to),
        Piece::King => false,
    };
    let others = board.colors(us) & !mv.from.bitboard();
    let queens = board.pieces(Piece::Queen);
    let bishops = (board.pieces(Piece::Bishop) | queens) & others;
    let rooks = (board.pieces(Piece::Rook) | queens) & others;
    direct || !(diagonal & bishops).is_empty() || !(straight & rooks).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let text = include_str!("../../suites/perft.epd");
        let mut checks = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let board: Board = line.split(';').next().unwrap().trim().parse().unwrap();
            check_all(&board, &mut checks);
        }
        assert!(checks > 20, "positions with checking moves: {checks}");
    }

    /// `move_changes` gives the pieces `piece_changes` finds on the two boards (as a set: the
    /// order differs), for every move of the perft positions and of their children (castling
    /// both ways, en passant, promotions with and without a capture among them).
    #[test]
    fn move_changes_agree_with_the_boards() {
        let key = |c: &PieceChange| (c.color as u8, c.piece as u8, c.square as u8, c.added);
        let sorted = |mut v: Vec<PieceChange>| {
            v.sort_by_key(key);
            v
        };
        let text = include_str!("../../suites/perft.epd");
        let mut kinds = [0usize; 4];
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let start: Board = line.split(';').next().unwrap().trim().parse().unwrap();
            let mut boards = vec![start.clone()];
            start.generate_moves(|moves| {
                for mv in moves {
                    let mut child = start.clone();
                    child.play_unchecked(mv);
                    boards.push(child);
                }
                false
            });
            for board in &boards {
                board.generate_moves(|moves| {
                    for mv in moves {
                        let mut after = board.clone();
                        after.play_unchecked(mv);
                        let want = sorted(piece_changes(board, &after).to_vec());
                        let got = move_changes(board, mv).to_vec();
                        // A castling king or rook that ends where it stood changes nothing.
                        let got: Vec<_> = got
                            .iter()
                            .filter(|c| {
                                !got.iter()
                                    .any(|d| key(d) == (key(c).0, key(c).1, key(c).2, !c.added))
                            })
                            .copied()
                            .collect();
                        assert_eq!(sorted(got), want, "{mv} in {board}");
                        kinds[want.len() - 1] += 1;
                    }
                    false
                });
            }
        }
        assert!(
            kinds[1] > 0 && kinds[2] > 0 && kinds[3] > 0,
            "kinds of move: {kinds:?}"
        );
    }

    fn check_all(board: &Board, checks: &mut usize) {
        let mut visit = |board: &Board| {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut after = board.clone();
                    after.play_unchecked(mv);
                    let played = !after.checkers().is_empty();
                    assert_eq!(gives_check(board, mv), played, "{board} {mv}");
                    *checks += usize::from(played);
                }
                false
            });
        };
        visit(board);
        // And one ply on, for more discovered checks.
        board.generate_moves(|moves| {
            for mv in moves {
                let mut after = board.clone();
                after.play_unchecked(mv);
                visit(&after);
            }
            false
        });
    }

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
