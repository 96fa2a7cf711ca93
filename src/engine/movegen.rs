//! Move generation beyond cozy-chess's legal moves: a stack list of moves, the captures (first,
//! or only), the quiescence search's moves and the quiet checks. The picker (`movepick.rs`)
//! orders what is generated here; heuristics that generate moves (`quiescence_checks`) use this
//! module, below the picker.

use arrayvec::ArrayVec;
use cozy_chess::{BitBoard, Board, Move, Piece, PieceMoves, Square};

use super::moves::gives_check;

/// More than the most legal moves any chess position has (218).
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves that lives on the stack. `ArrayVec` leaves the unused slots
/// uninitialised: filling 256 slots at every quiescence node cost more than generating.
#[derive(Clone, Default)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    /// Append a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// No moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// The moves, to be put in order (the picker sorts and shuffles them in place).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }
}

/// Destination squares that make a pawn or piece move a capture (the en passant square counts
/// for pawns).
#[inline]
pub fn capture_targets(board: &Board, piece: Piece) -> BitBoard {
    let mut targets = board.colors(!board.side_to_move());
    if piece == Piece::Pawn
        && let Some(file) = board.en_passant()
    {
        let rank = cozy_chess::Rank::Sixth.relative_to(board.side_to_move());
        targets |= Square::new(file, rank).bitboard();
    }
    targets
}

/// Generate the legal moves of `board`, captures first, each group in generation order
/// (pawns, knights, bishops, rooks, queens, king; squares in ascending order). Returns the list
/// and the number of captures at its front.
pub fn generate_captures_first(board: &Board) -> (MoveList, usize) {
    let mut list = MoveList::default();
    let captures = generate_captures_first_into(board, &mut list);
    (list, captures)
}

/// `generate_captures_first` into `list` (empty), returning the number of captures: the list
/// is filled where it lies, never moved (a list is 256 moves, copied whole when moved).
pub fn generate_captures_first_into(board: &Board, list: &mut MoveList) -> usize {
    let mut groups: [Option<PieceMoves>; 20] = [None; 20];
    let mut group_count = 0;
    board.generate_moves(|moves| {
        groups[group_count] = Some(moves);
        group_count += 1;
        false
    });
    for group in groups[..group_count].iter().flatten() {
        let mut captures = *group;
        captures.to &= capture_targets(board, group.piece);
        for mv in captures {
            list.push(mv);
        }
    }
    let captures = list.len();
    for group in groups[..group_count].iter().flatten() {
        let mut quiets = *group;
        quiets.to &= !capture_targets(board, group.piece);
        for mv in quiets {
            list.push(mv);
        }
    }
    captures
}

/// The pieces of the side to move that attack an enemy piece (or, for pawns, the en-passant
/// square), ignoring pins and checks: only they can have a legal capture.
fn capturing_pieces(board: &Board) -> BitBoard {
    let us = board.side_to_move();
    let theirs = board.colors(!us);
    let occupied = board.occupied();
    let mut pawn_targets = theirs;
    if let Some(file) = board.en_passant() {
        pawn_targets |= Square::new(file, cozy_chess::Rank::Sixth.relative_to(us)).bitboard();
    }
    // Piece type by piece type: a square's piece is never looked up.
    let ours_of = |piece| board.colored_pieces(us, piece);
    let mut capturers = BitBoard::EMPTY;
    let mut add = |from: BitBoard, attacks: &dyn Fn(Square) -> BitBoard| {
        for square in from {
            if !attacks(square).is_empty() {
                capturers |= square.bitboard();
            }
        }
    };
    add(ours_of(Piece::Pawn), &|sq| {
        cozy_chess::get_pawn_attacks(sq, us) & pawn_targets
    });
    add(ours_of(Piece::Knight), &|sq| {
        cozy_chess::get_knight_moves(sq) & theirs
    });
    let queens = ours_of(Piece::Queen);
    add(ours_of(Piece::Bishop) | queens, &|sq| {
        cozy_chess::get_bishop_moves(sq, occupied) & theirs
    });
    add(ours_of(Piece::Rook) | queens, &|sq| {
        cozy_chess::get_rook_moves(sq, occupied) & theirs
    });
    add(ours_of(Piece::King), &|sq| {
        cozy_chess::get_king_moves(sq) & theirs
    });
    capturers
}

/// Generate only the legal captures of `board` (en passant included), in generation order
/// (the order `generate_captures_first` puts them in). Only pieces that attack something can
/// capture: a pseudo-attack test picks them out first, so the quiet moves are never written out.
pub fn generate_captures(board: &Board) -> MoveList {
    let mut list = MoveList::default();
    generate_captures_into(board, &mut |mv| list.push(mv));
    list
}

/// `generate_captures`, each move handed to `push`.
pub fn generate_captures_into(board: &Board, push: &mut dyn FnMut(Move)) {
    let capturers = capturing_pieces(board);
    if !capturers.is_empty() {
        board.generate_moves_for(capturers, |mut moves| {
            moves.to &= capture_targets(board, moves.piece);
            moves.into_iter().for_each(&mut *push);
            false
        });
    }
}

/// Generate only the legal moves of `board` that capture nothing (quiet moves, quiet
/// promotions, castling), in generation order (the order `generate_captures_first` puts them
/// in after the captures).
pub fn generate_quiets(board: &Board) -> MoveList {
    let mut list = MoveList::default();
    generate_quiets_into(board, &mut |mv| list.push(mv));
    list
}

/// `generate_quiets`, each move handed to `push`.
pub fn generate_quiets_into(board: &Board, push: &mut dyn FnMut(Move)) {
    board.generate_moves(|mut moves| {
        moves.to &= !capture_targets(board, moves.piece);
        moves.into_iter().for_each(&mut *push);
        false
    });
}

/// The quiescence search's moves: the captures of `board`, or when `evasions` every legal
/// move, captures first; with the number of captures at the front (the caller orders them).
pub fn quiescence_moves_into(board: &Board, evasions: bool, list: &mut MoveList) -> usize {
    if evasions {
        generate_captures_first_into(board, list)
    } else {
        generate_captures_into(board, &mut |mv| list.push(mv));
        list.len()
    }
}

/// The quiet moves of `board` that give check and that `keep` accepts, in generation order:
/// no capture, en passant, promotion or castling. A direct check goes to a square the piece
/// attacks the king from; a discovered one moves a piece of ours that alone stands between one
/// of our sliders and the king (confirmed by playing it, as such moves are few). Only the
/// pieces that can check are generated: all but the king, and the king when it discovers.
/// Only called outside check.
pub fn quiet_checks(board: &Board, mut keep: impl FnMut(Move) -> bool) -> MoveList {
    let us = board.side_to_move();
    let king = board.king(!us);
    let occupied = board.occupied();
    let diagonal = cozy_chess::get_bishop_moves(king, occupied);
    let straight = cozy_chess::get_rook_moves(king, occupied);
    let checks_from = |piece: Piece| match piece {
        Piece::Pawn => cozy_chess::get_pawn_attacks(king, !us),
        Piece::Knight => cozy_chess::get_knight_moves(king),
        Piece::Bishop => diagonal,
        Piece::Rook => straight,
        Piece::Queen => diagonal | straight,
        Piece::King => BitBoard::EMPTY,
    };
    let discoverers = discovered_check_blockers(board, king);
    let movers = (board.colors(us) & !board.pieces(Piece::King)) | discoverers;
    let mut list = MoveList::default();
    board.generate_moves_for(movers, |mut moves| {
        moves.to &= !occupied;
        let discovering = discoverers.has(moves.from);
        let direct = checks_from(moves.piece);
        for mv in moves {
            let en_passant = moves.piece == Piece::Pawn && mv.from.file() != mv.to.file();
            if mv.promotion.is_some() || en_passant {
                continue;
            }
            let check = direct.has(mv.to) || (discovering && gives_check(board, mv));
            if check && keep(mv) {
                list.push(mv);
            }
        }
        false
    });
    list
}

/// The side to move's pieces that alone stand between one of its sliders and the other
/// side's king on `king`: moving one off the line may give a discovered check.
fn discovered_check_blockers(board: &Board, king: Square) -> BitBoard {
    let us = board.side_to_move();
    let ours = board.colors(us);
    let occupied = board.occupied();
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let sliders = ours
        & ((cozy_chess::get_bishop_rays(king) & bishops)
            | (cozy_chess::get_rook_rays(king) & rooks));
    let mut blockers = BitBoard::EMPTY;
    for slider in sliders {
        let between = cozy_chess::get_between_rays(slider, king) & occupied;
        if between.len() == 1 && !(between & ours).is_empty() {
            blockers |= between;
        }
    }
    blockers
}
