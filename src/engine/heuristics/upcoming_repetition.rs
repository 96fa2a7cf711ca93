//! `upcoming_repetition`: an interior node (quiescence is left out; Stockfish checks there too)
//! whose side to move has a reversible move back to a position
//! that would then count as a draw by repetition is worth at least a draw to that side, so
//! its alpha is raised to the draw score before anything else (and the node returns at once
//! when that reaches beta). Marcel van Kervinck's cycle detection ("The cycle detection
//! algorithm", 2013), in Stockfish since 2018 (`Position::upcoming_repetition`): a cuckoo
//! table holds, for every move of a knight, bishop, rook, queen or king between two squares
//! of an empty board, the Zobrist difference the move makes with the side to move; the
//! current key XORed with the key of a position an odd number of plies back is looked up in
//! it, and a hit whose path is clear on the board is a move that reaches that position.
//!
//! Why it is needed here: the table's cut-offs answer a node from a result stored on another
//! path, blind to a repetition the opponent can claim on this one. In the games of
//! `reports/elo-ethereal/history/ebcc7e6/twice-the-clock/` the default shuffled its king or
//! rook into a threefold repetition while scoring itself 3 to 5 pawns up, move after move the
//! same score (the table's), in games Ethereal 12 scored as lost for itself.
//!
//! The rule is the search's own (`Position::is_repetition`): a position of the search line
//! (the root or after it) is a draw at its second occurrence, one of the game before the root
//! at its third, so a move back to a position before the root counts only where that position
//! had already occurred once before it.

use std::sync::OnceLock;

use cozy_chess::{
    BitBoard, Board, BoardBuilder, Color, Piece, Square, get_between_rays, get_bishop_rays,
    get_king_moves, get_knight_moves, get_rook_rays,
};

use super::params::heuristic_params;
use super::view::Decision;
use crate::engine::score::{DRAW, Score};

heuristic_params! {
    /// Parameters of `upcoming_repetition`.
    pub struct Params {
        /// Raise alpha to a draw where a reversible move repeats the line.
        pub enabled: bool = false,
    }
}

/// Slots of the cuckoo table (Stockfish's 8192): 3,668 moves fill it to less than half.
const SIZE: usize = 1 << 13;

/// The reversible moves of the non-pawn pieces between two squares, by the Zobrist
/// difference they make.
pub struct Cuckoo {
    keys: Vec<u64>,
    moves: Vec<Option<(Square, Square)>>,
}

fn first_slot(key: u64) -> usize {
    key as usize & (SIZE - 1)
}

fn second_slot(key: u64) -> usize {
    (key >> 16) as usize & (SIZE - 1)
}

impl Cuckoo {
    /// The table, built once: the Zobrist differences are read off the hashes of boards that
    /// differ by the move alone (the board library keeps its keys to itself).
    pub fn get() -> &'static Cuckoo {
        static TABLE: OnceLock<Cuckoo> = OnceLock::new();
        TABLE.get_or_init(Cuckoo::build)
    }

    fn build() -> Cuckoo {
        let mut table = Cuckoo {
            keys: vec![0; SIZE],
            moves: vec![None; SIZE],
        };
        for color in Color::ALL {
            for piece in [
                Piece::Knight,
                Piece::Bishop,
                Piece::Rook,
                Piece::Queen,
                Piece::King,
            ] {
                for from in Square::ALL {
                    for to in empty_board_moves(piece, from) {
                        if to > from {
                            let key = move_key(color, piece, from, to);
                            table.insert(key, (from, to));
                        }
                    }
                }
            }
        }
        table
    }

    /// Cuckoo insertion: an entry displaced from its slot moves to its other one.
    fn insert(&mut self, mut key: u64, mv: (Square, Square)) {
        let mut mv = Some(mv);
        let mut slot = first_slot(key);
        loop {
            std::mem::swap(&mut self.keys[slot], &mut key);
            std::mem::swap(&mut self.moves[slot], &mut mv);
            if mv.is_none() {
                return;
            }
            slot = if slot == first_slot(key) {
                second_slot(key)
            } else {
                first_slot(key)
            };
        }
    }

    /// The move whose Zobrist difference is `key`, if any.
    pub fn lookup(&self, key: u64) -> Option<(Square, Square)> {
        [first_slot(key), second_slot(key)]
            .into_iter()
            .find(|&slot| self.keys[slot] == key)
            .and_then(|slot| self.moves[slot])
    }

    /// The moves the table holds.
    pub fn len(&self) -> usize {
        self.moves.iter().filter(|mv| mv.is_some()).count()
    }

    /// It holds none (never, once built).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The squares `piece` reaches from `from` on an empty board.
fn empty_board_moves(piece: Piece, from: Square) -> BitBoard {
    match piece {
        Piece::Knight => get_knight_moves(from),
        Piece::Bishop => get_bishop_rays(from),
        Piece::Rook => get_rook_rays(from),
        Piece::Queen => get_bishop_rays(from) | get_rook_rays(from),
        _ => get_king_moves(from),
    }
}

/// `color`'s `piece` moving between `from` and `to`, with the side to move passing to the
/// other colour: the XOR of the hashes of two legal boards that differ by that alone, the
/// kings placed where both boards are legal.
fn move_key(color: Color, piece: Piece, from: Square, to: Square) -> u64 {
    for own_king in Square::ALL {
        for other_king in Square::ALL {
            let before = board_with(color, piece, from, own_king, other_king, Color::White);
            let after = board_with(color, piece, to, own_king, other_king, Color::Black);
            if let (Some(before), Some(after)) = (before, after) {
                return before.hash() ^ after.hash();
            }
        }
    }
    unreachable!("some placement of the kings is legal for any move of one piece")
}

/// A board with `color`'s `piece` on `at` and the two kings (`color`'s on `own_king` unless the
/// piece is its king, the other colour's on `other_king`), `side` to move; `None` when that is
/// no legal board or the squares clash.
fn board_with(
    color: Color,
    piece: Piece,
    at: Square,
    own_king: Square,
    other_king: Square,
    side: Color,
) -> Option<Board> {
    let mut builder = BoardBuilder::empty();
    let mut place = |square: Square, man: (Piece, Color)| {
        let slot = builder.square_mut(square);
        let free = slot.is_none();
        *slot = Some(man);
        free
    };
    let placed = place(at, (piece, color))
        && (piece == Piece::King || place(own_king, (Piece::King, color)))
        && place(other_king, (Piece::King, !color));
    builder.side_to_move = side;
    placed.then(|| builder.build().ok()).flatten()
}

/// The side to move of `board` has a reversible move to a position that would count as a draw
/// by repetition: one of the positions `key_back(i)` plies back (odd `i` from 3 to `reach`, the
/// plies a repetition can reach: within the fifty-move count and after the last null move)
/// reached by one move of its own whose path is clear, that position lying on the search line
/// (`i <= ply`, the plies from the root) or having occurred before it once more.
pub fn cycle(board: &Board, reach: usize, ply: usize, key_back: impl Fn(usize) -> u64) -> bool {
    let table = Cuckoo::get();
    let current = board.hash();
    let occupied = board.occupied();
    (3..=reach).step_by(2).any(|back| {
        let earlier = key_back(back);
        let Some((a, b)) = table.lookup(current ^ earlier) else {
            return false;
        };
        let from = if occupied.has(a) { a } else { b };
        if !(get_between_rays(a, b) & occupied).is_empty()
            || board.color_on(from) != Some(board.side_to_move())
        {
            return false;
        }
        back <= ply || (back + 4..=reach).step_by(2).any(|further| key_back(further) == earlier)
    })
}

/// The node's floor: applies where a draw would raise alpha and a repetition can be reached
/// (`reach` of at least 3 plies), acts with the draw score when `cycle` finds a move to one.
pub fn draw_floor(alpha: Score, reach: usize, cycle: impl FnOnce() -> bool) -> Decision<Score> {
    if alpha >= DRAW || reach < 3 {
        return Decision::Inapplicable;
    }
    Decision::with(true, cycle().then_some(DRAW))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_every_reversible_move_of_the_pieces() {
        // Stockfish's count of the same moves (position.cpp asserts it).
        assert_eq!(Cuckoo::get().len(), 3668);
    }

    #[test]
    fn a_moves_key_is_the_hash_difference_it_makes() {
        let before: Board = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        let after: Board = "4k3/8/8/8/8/8/8/3RK3 b - - 1 1".parse().unwrap();
        let found = Cuckoo::get().lookup(before.hash() ^ after.hash());
        assert_eq!(found, Some((Square::A1, Square::D1)));
    }

    use crate::engine::eval::EvalKind;
    use crate::engine::position::Position;
    use cozy_chess::util::parse_uci_move;

    fn after(fen: &str, moves: &str, root_after: usize) -> Position {
        let mut pos = Position::new(fen.parse().unwrap(), EvalKind::Material);
        for (index, text) in moves.split_whitespace().enumerate() {
            if index == root_after {
                pos.set_root();
            }
            pos.make(parse_uci_move(pos.board(), text).unwrap());
        }
        if root_after == moves.split_whitespace().count() {
            pos.set_root();
        }
        pos
    }

    fn finds(pos: &Position) -> bool {
        let reach = pos.repetition_reach();
        cycle(pos.board(), reach, pos.ply(), |back| pos.key_back(back))
    }

    /// Whether some legal move leads to a position the search scores as a draw by repetition.
    fn brute_force(pos: &mut Position) -> bool {
        let mut moves = Vec::new();
        pos.board().generate_moves(|list| {
            moves.extend(list);
            false
        });
        moves.into_iter().any(|mv| {
            pos.make(mv);
            let repeats = pos.is_repetition();
            pos.unmake();
            repeats
        })
    }

    #[test]
    fn a_rook_back_home_along_a_clear_path_and_not_through_a_piece() {
        // Black's rook goes a8-a6-c6-c8 while White's king walks h1-g1-f1-g1-h1 (so no
        // position between comes back); Black to move can play Rc8-a8 back to the root's
        // position, unless a knight stands on b8.
        let moves = "h1g1 a8a6 g1f1 a6c6 f1g1 c6c8 g1h1";
        let mut open = after("r3k3/8/8/8/8/8/8/7K w - - 0 1", moves, 0);
        assert!(finds(&open), "Rc8-a8 repeats the root");
        assert!(brute_force(&mut open));
        let mut blocked = after("rn2k3/8/8/8/8/8/8/7K w - - 0 1", moves, 0);
        assert!(!finds(&blocked), "the knight on b8 blocks the way back");
        assert!(!brute_force(&mut blocked));
    }

    #[test]
    fn before_the_root_a_position_counts_at_its_third_occurrence() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        // In the search: Nf6-g8 goes back to the root, its second occurrence.
        assert!(finds(&after(start, "g1f3 g8f6 f3g1", 0)));
        // The same moves played before the root: the start position would occur twice.
        assert!(!finds(&after(start, "g1f3 g8f6 f3g1", 3)));
        // Once more around: Nf6-g8 would make its third occurrence.
        assert!(finds(&after(start, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1", 7)));
    }

    #[test]
    fn agrees_with_trying_every_move_on_shuffling_games() {
        // Random games among pieces that can shuffle, the root set a third of the way in:
        // the cycle test and a brute-force try of every legal move agree at every position.
        let fens = [
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "1n2k1n1/3q4/8/8/8/8/3Q4/1N2K1N1 w - - 0 1",
            "4k3/2b1r3/8/8/8/8/2B1R3/4K3 w - - 0 1",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let (mut positions, mut cycles) = (0, 0);
        for fen in fens {
            for game in 0..12 {
                let mut pos = Position::new(fen.parse().unwrap(), EvalKind::Material);
                for ply in 0..60 {
                    if ply == 20 + game {
                        pos.set_root();
                    }
                    let mut moves = Vec::new();
                    pos.board().generate_moves(|list| {
                        moves.extend(list.into_iter().filter(|mv| {
                            pos.board().color_on(mv.to).is_none()
                        }));
                        false
                    });
                    if moves.is_empty() {
                        break;
                    }
                    let expected = brute_force(&mut pos);
                    assert_eq!(finds(&pos), expected, "{fen}, game {game}, ply {ply}");
                    positions += 1;
                    cycles += usize::from(expected);
                    // Few distinct moves, so that positions come back.
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let choice = (state % moves.len().min(4) as u64) as usize;
                    pos.make(moves[choice]);
                }
            }
        }
        assert!(cycles > 50 && positions > 1000, "{cycles} cycles in {positions} positions");
    }

    #[test]
    fn the_floor_applies_below_a_draw_only() {
        assert_eq!(draw_floor(-10, 5, || true).value(), Some(DRAW));
        assert!(!draw_floor(-10, 5, || false).acts());
        assert!(draw_floor(-10, 5, || false).applies());
        assert!(!draw_floor(0, 5, || true).applies(), "alpha already at a draw");
        assert!(!draw_floor(-10, 2, || true).applies(), "no repetition within reach");
    }
}
