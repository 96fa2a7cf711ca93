//! The training data format: the `bulletformat` crate's `ChessBoard` (written by the crate; read
//! back by this module, which checks every field the crate does not), 32 bytes a position, so
//! that the data `searchlab datagen` writes trains in the community's trainers (bullet) as well
//! as in `searchlab train`. The layout, as that crate defines it (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0–7 | occupancy, `u64`, bit = square (a1 = 0), the board seen from the side to move: mirrored (square ^ 56) when Black is to move |
//! | 8–23 | one nibble per occupied square in ascending square order, low nibble first: `colour << 3 \| piece`, colour 0 = the side to move's, piece 0–5 = pawn, knight, bishop, rook, queen, king |
//! | 24–25 | score, `i16`, centipawns for the side to move |
//! | 26 | result for the side to move: 0 loss, 1 draw, 2 win |
//! | 27 | the side to move's king square (in the mirrored frame) |
//! | 28 | the other king's square, seen from the other side (mirrored again) |
//! | 29–31 | zero |

use bulletformat::{BulletFormat, ChessBoard};
use cozy_chess::{Board, Color, Piece};

use crate::engine::nnue::INPUTS;

/// Bytes a position.
pub const RECORD_BYTES: usize = 32;

/// One position of the training data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub bytes: [u8; RECORD_BYTES],
}

/// A game's result for White: 2 win, 1 draw, 0 loss.
pub type WhiteResult = u8;

impl Record {
    /// `board` with its search score (`score`, for the side to move) and the game's result for
    /// White, laid out by the `bulletformat` crate itself (`ChessBoard::from_raw`, which takes
    /// White's view and mirrors it for Black).
    pub fn new(board: &Board, score: i16, white_result: WhiteResult) -> Record {
        let stm = board.side_to_move();
        let bitboards = [
            board.colors(Color::White).0,
            board.colors(Color::Black).0,
            board.pieces(Piece::Pawn).0,
            board.pieces(Piece::Knight).0,
            board.pieces(Piece::Bishop).0,
            board.pieces(Piece::Rook).0,
            board.pieces(Piece::Queen).0,
            board.pieces(Piece::King).0,
        ];
        let white_score = if stm == Color::White { score } else { -score };
        let record = ChessBoard::from_raw(
            bitboards,
            usize::from(stm == Color::Black),
            white_score,
            f32::from(white_result) / 2.0,
        )
        .expect("a legal board has a piece on every occupied square");
        let mut bytes = [0u8; RECORD_BYTES];
        bytes.copy_from_slice(ChessBoard::as_bytes_slice(std::slice::from_ref(&record)));
        Record { bytes }
    }

    /// Why these 32 bytes are not a position of the layout, if they are not: each field is
    /// checked, so that a damaged or foreign file is refused with the record's index before
    /// training reads features out of it (a piece nibble of 6 or 7 would index past the input
    /// weights).
    pub fn invalid(&self) -> Option<String> {
        let b = &self.bytes;
        if b[29..] != [0, 0, 0] {
            return Some(format!("padding {:?}, not zero", &b[29..]));
        }
        if b[26] > 2 {
            return Some(format!("result byte {}, not 0, 1 or 2", b[26]));
        }
        let score = self.score();
        if i32::from(score).abs() > crate::engine::score::MATE {
            return Some(format!("score {score} beyond a mate score"));
        }
        let occupancy = u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
        let count = occupancy.count_ones() as usize;
        if !(2..=32).contains(&count) {
            return Some(format!("{count} occupied squares (2 to 32 in a position)"));
        }
        let mut kings = [None, None];
        let mut squares = occupancy;
        for n in 0..32 {
            let nibble = (b[8 + n / 2] >> (4 * (n & 1))) & 0xf;
            if n >= count {
                if nibble != 0 {
                    return Some(format!(
                        "piece nibble {n} is {nibble} past the {count} pieces"
                    ));
                }
                continue;
            }
            let square = squares.trailing_zeros() as u8;
            squares &= squares - 1;
            let (colour, piece) = (usize::from(nibble >> 3), nibble & 7);
            if piece > 5 {
                return Some(format!("piece {piece} on square {square} (0 to 5)"));
            }
            if piece == 0 && !(8..56).contains(&square) {
                return Some(format!("a pawn on square {square}, a first or last rank"));
            }
            if piece == 5 {
                if kings[colour].is_some() {
                    return Some(format!("two kings of colour {colour}"));
                }
                kings[colour] = Some(square);
            }
        }
        let (Some(ours), Some(theirs)) = (kings[0], kings[1]) else {
            return Some("a side without its king".into());
        };
        if b[27] != ours || b[28] != theirs ^ 56 {
            return Some(format!(
                "king squares {} and {} where the pieces put them on {ours} and {}",
                b[27],
                b[28],
                theirs ^ 56
            ));
        }
        None
    }

    /// Score for the side to move, centipawns.
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.bytes[24], self.bytes[25]])
    }

    /// Result for the side to move, 0 (loss), 0.5 or 1 (win).
    pub fn result(&self) -> f32 {
        f32::from(self.bytes[26]) / 2.0
    }

    /// The active inputs of both perspectives (side to move's, then the other side's), in the
    /// numbering of `engine::nnue::feature` (with `mirrored`, each perspective's squares
    /// mirrored file for file when its king stands on the e to h files, as a mirrored network
    /// reads them); `count` of each.
    pub fn features(&self, stm: &mut [u16; 32], ntm: &mut [u16; 32], mirrored: bool) -> usize {
        // The king squares are each side's own view (files as on the board), bytes 27 and 28.
        let flip = |king: u8| if mirrored && king & 7 >= 4 { 7 } else { 0 };
        let (stm_flip, ntm_flip) = (flip(self.bytes[27]), flip(self.bytes[28]));
        let mut occupancy = u64::from_le_bytes(self.bytes[..8].try_into().expect("8 bytes"));
        let mut n = 0;
        while occupancy != 0 && n < 32 {
            let square = occupancy.trailing_zeros() as usize;
            occupancy &= occupancy - 1;
            let nibble = usize::from((self.bytes[8 + n / 2] >> (4 * (n & 1))) & 0xf);
            let (colour, piece) = (nibble >> 3, nibble & 7);
            stm[n] = ((colour * 6 + piece) * 64 + (square ^ stm_flip)) as u16;
            ntm[n] = (((colour ^ 1) * 6 + piece) * 64 + (square ^ 56 ^ ntm_flip)) as u16;
            debug_assert!((stm[n] as usize) < INPUTS && (ntm[n] as usize) < INPUTS);
            n += 1;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nnue::{feature, flips};

    /// The layout of the module's table, field by field: the oracle the crate's records are
    /// held to.
    fn by_the_table(board: &Board, score: i16, white_result: WhiteResult) -> [u8; RECORD_BYTES] {
        let stm = board.side_to_move();
        let flip = |square: usize| {
            if stm == Color::Black {
                square ^ 56
            } else {
                square
            }
        };
        let mut pieces: Vec<(usize, u8)> = Vec::new();
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for square in board.colored_pieces(color, piece) {
                    let nibble = (u8::from(color != stm) << 3) | piece as u8;
                    pieces.push((flip(square as usize), nibble));
                }
            }
        }
        pieces.sort_unstable();
        let mut bytes = [0u8; RECORD_BYTES];
        let occupancy = pieces.iter().fold(0u64, |occ, &(sq, _)| occ | 1 << sq);
        bytes[..8].copy_from_slice(&occupancy.to_le_bytes());
        for (i, &(_, nibble)) in pieces.iter().enumerate() {
            bytes[8 + i / 2] |= nibble << (4 * (i & 1));
        }
        bytes[24..26].copy_from_slice(&score.to_le_bytes());
        bytes[26] = if stm == Color::White {
            white_result
        } else {
            2 - white_result
        };
        bytes[27] = flip(board.king(stm) as usize) as u8;
        bytes[28] = (flip(board.king(!stm) as usize) ^ 56) as u8;
        bytes
    }

    /// The bulletformat crate writes every position of the suites byte for byte as the table
    /// lays it out (so data written before the crate was used reads the same), for either
    /// result and a score of either sign (issue 63 item 8).
    #[test]
    fn the_crate_writes_the_table_byte_for_byte() {
        let mut checked = 0;
        for suite in ["wac.epd", "ecm.epd", "sts.epd", "openings.epd"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("suites")
                .join(suite);
            for line in std::fs::read_to_string(path).unwrap().lines() {
                let fen: Vec<&str> = line.split_whitespace().take(4).collect();
                let Ok(board) = format!("{} 0 1", fen.join(" ")).parse::<Board>() else {
                    continue;
                };
                let (score, result) = (checked as i16 % 600 - 300, (checked % 3) as u8);
                assert_eq!(
                    Record::new(&board, score, result).bytes,
                    by_the_table(&board, score, result),
                    "{line}"
                );
                checked += 1;
            }
        }
        assert!(checked > 2000, "{checked} positions");
    }

    /// The record's features are the inference's features of the same board, for either side
    /// to move, and the score and result read back from the side to move.
    #[test]
    fn records_hold_the_inference_features() {
        for (fen, white_result) in [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                2,
            ),
            (
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
                2,
            ),
            ("8/8/4k3/8/2Q5/8/8/4K3 b - - 0 1", 1),
            ("r4rk1/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R w - - 0 1", 1),
            ("r4rk1/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R b - - 0 1", 0),
        ] {
            let board: Board = fen.parse().unwrap();
            let record = Record::new(&board, -37, white_result);
            assert_eq!(record.score(), -37);
            let expected_result = if board.side_to_move() == Color::White {
                f32::from(white_result) / 2.0
            } else {
                1.0 - f32::from(white_result) / 2.0
            };
            assert_eq!(record.result(), expected_result);
            for mirrored in [false, true] {
                let (mut stm, mut ntm) = ([0u16; 32], [0u16; 32]);
                let n = record.features(&mut stm, &mut ntm, mirrored);
                let mut want_stm = Vec::new();
                let mut want_ntm = Vec::new();
                let side = board.side_to_move();
                let flipped = |side: Color| mirrored && flips(board.king(side));
                for color in [Color::White, Color::Black] {
                    for piece in Piece::ALL {
                        for square in board.colored_pieces(color, piece) {
                            want_stm
                                .push(feature(side, color, piece, square, flipped(side)) as u16);
                            want_ntm
                                .push(feature(!side, color, piece, square, flipped(!side)) as u16);
                        }
                    }
                }
                let (mut got_stm, mut got_ntm) = (stm[..n].to_vec(), ntm[..n].to_vec());
                for v in [&mut got_stm, &mut got_ntm, &mut want_stm, &mut want_ntm] {
                    v.sort_unstable();
                }
                assert_eq!(
                    (got_stm, got_ntm),
                    (want_stm, want_ntm),
                    "{fen}, mirrored {mirrored}"
                );
            }
        }
    }

    /// The start position, byte for byte as the bulletformat layout places it: sixteen pieces
    /// on ranks 1–2 and 7–8, the king squares e1 and e8 seen from each side (e1 = 4).
    #[test]
    fn the_start_position_byte_for_byte() {
        let r = Record::new(&Board::default(), 25, 1);
        assert_eq!(
            u64::from_le_bytes(r.bytes[..8].try_into().unwrap()),
            0xffff_0000_0000_ffff
        );
        // a1 rook (3), b1 knight (1): the first byte holds both, low nibble first.
        assert_eq!(r.bytes[8], 0x13);
        // The other side's pawns on a7 and b7 (colour bit set: 8), then its a8 rook (11) and
        // b8 knight (9).
        assert_eq!(r.bytes[16], 0x88);
        assert_eq!(r.bytes[20], 0x9b);
        assert_eq!((r.bytes[26], r.bytes[27], r.bytes[28]), (1, 4, 4));
        assert_eq!(&r.bytes[29..], &[0, 0, 0]);
    }

    /// Records datagen writes are valid; each kind of damage is named.
    #[test]
    fn damaged_records_say_what_is_wrong() {
        let board: Board = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4"
            .parse()
            .unwrap();
        let good = Record::new(&board, 31, 2);
        assert_eq!(good.invalid(), None);
        let damaged = |at: usize, value: u8| {
            let mut r = good;
            r.bytes[at] = value;
            r.invalid().unwrap_or_default()
        };
        assert!(damaged(8, 0x77).contains("piece 7"), "{}", damaged(8, 0x77));
        assert!(damaged(27, 200).contains("king squares"));
        assert!(damaged(26, 3).contains("result byte"));
        // More occupied squares than pieces written: the nibbles past the last piece are 0
        // (pawns of the side to move) on squares of the first rank.
        assert_ne!(damaged(0, 0xff), "");
        assert!(damaged(31, 1).contains("padding"));
    }
}
