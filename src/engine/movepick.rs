//! The move picker: a list of stages walked in order, each yielding its moves once.
//!
//! With no ordering heuristic on, the picker reproduces the documents' baseline: captures first,
//! in generation order, then the quiet moves in generation order (003: "the generator is made
//! so that captures always come first"). The heuristics issue adds stages (hash move, sorted
//! captures, killers, history-sorted quiets) to the stage list; no stage ever yields a move that
//! an earlier stage yielded.

use cozy_chess::{BitBoard, Board, Move, Piece, PieceMoves, Square};

/// More than the most legal moves any chess position has (218).
pub const MAX_MOVES: usize = 256;

const NO_MOVE: Move = Move {
    from: Square::A1,
    to: Square::A1,
    promotion: None,
};

/// A fixed-capacity list of moves that lives on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [NO_MOVE; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// Append a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// No moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

/// Destination squares that make a pawn or piece move a capture (the en passant square counts
/// for pawns).
#[inline]
fn capture_targets(board: &Board, piece: Piece) -> BitBoard {
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
    let mut groups: [Option<PieceMoves>; 20] = [None; 20];
    let mut group_count = 0;
    board.generate_moves(|moves| {
        groups[group_count] = Some(moves);
        group_count += 1;
        false
    });
    let mut list = MoveList::default();
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
    (list, captures)
}

/// Generate only the legal captures of `board` (en passant included), in generation order.
pub fn generate_captures(board: &Board) -> MoveList {
    let mut list = MoveList::default();
    board.generate_moves(|mut moves| {
        moves.to &= capture_targets(board, moves.piece);
        for mv in moves {
            list.push(mv);
        }
        false
    });
    list
}

/// The picker's stages, walked in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Captures (en passant and capture-promotions included).
    Captures,
    /// Every other move: quiet moves, quiet promotions, castling.
    Quiets,
    /// Nothing left.
    Done,
}

/// Yields the legal moves of one node, stage by stage.
pub struct MovePicker {
    list: MoveList,
    captures: usize,
    index: usize,
    stage: Stage,
}

impl MovePicker {
    /// A picker over every legal move of `board`.
    pub fn new(board: &Board) -> Self {
        let (list, captures) = generate_captures_first(board);
        MovePicker {
            list,
            captures,
            index: 0,
            stage: Stage::Captures,
        }
    }

    /// Number of legal moves at this node.
    pub fn legal_count(&self) -> usize {
        self.list.len()
    }

    /// Number of captures at this node.
    pub fn capture_count(&self) -> usize {
        self.captures
    }

    /// The stage of the move most recently returned.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The next move, or `None` when every move has been yielded.
    pub fn next_move(&mut self) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Captures => {
                    if self.index < self.captures {
                        self.index += 1;
                        return Some(self.list.moves[self.index - 1]);
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.index < self.list.len() {
                        self.index += 1;
                        return Some(self.list.moves[self.index - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::captured_piece;
    use std::collections::HashSet;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    fn all_moves(board: &Board) -> HashSet<Move> {
        let mut set = HashSet::new();
        board.generate_moves(|moves| {
            set.extend(moves);
            false
        });
        set
    }

    #[test]
    fn picker_yields_every_legal_move_once_captures_first() {
        for fen in [
            KIWIPETE,
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            let board: Board = fen.parse().unwrap();
            let mut picker = MovePicker::new(&board);
            let mut seen = Vec::new();
            let mut in_quiets = false;
            while let Some(mv) = picker.next_move() {
                let capture = captured_piece(&board, mv).is_some();
                if in_quiets {
                    assert!(!capture, "capture {mv} after a quiet move in {fen}");
                }
                in_quiets |= !capture;
                seen.push(mv);
            }
            let unique: HashSet<Move> = seen.iter().copied().collect();
            assert_eq!(
                unique.len(),
                seen.len(),
                "a move was yielded twice in {fen}"
            );
            assert_eq!(unique, all_moves(&board), "moves differ in {fen}");
        }
    }

    #[test]
    fn en_passant_counts_as_a_capture() {
        let board: Board = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
            .parse()
            .unwrap();
        let captures = generate_captures(&board);
        let ep: Move = "e5f6".parse().unwrap();
        assert!(captures.as_slice().contains(&ep));
        assert_eq!(captures.len(), 1);
    }

    #[test]
    fn start_position_has_no_captures() {
        let picker = MovePicker::new(&Board::default());
        assert_eq!(picker.capture_count(), 0);
        assert_eq!(picker.legal_count(), 20);
    }
}
