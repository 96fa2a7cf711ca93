//! Move and score notation: UCI for the protocol, and the documents' long notation for the
//! iteration lines (`e2e4 Ng8f6 e4xd5`: piece letter, from, `x` on a capture, to, promotion).

use cozy_chess::util::{display_san_move, display_uci_move};
use cozy_chess::{Board, Move, Piece};

use super::moves::captured_piece;
use super::score::Score;
use super::score::{MATE, MATE_BOUND};

/// A move in UCI notation (`e1g1` for castling).
pub fn uci(board: &Board, mv: Move) -> String {
    display_uci_move(board, mv).to_string()
}

/// A move in standard algebraic notation (`Nf3`, `exd5`, `O-O`, `e8=Q+`).
pub fn san(board: &Board, mv: Move) -> String {
    display_san_move(board, mv).to_string()
}

const PIECE_LETTER: [&str; 6] = ["", "N", "B", "R", "Q", "K"];

/// A move in the documents' long notation: `Ng1f3`, `e4xd5`, `e7e8Q`, `O-O`.
pub fn long(board: &Board, mv: Move) -> String {
    let Some(piece) = board.piece_on(mv.from) else {
        return uci(board, mv);
    };
    // cozy-chess encodes castling as the king taking its own rook.
    if piece == Piece::King && board.colors(board.side_to_move()).has(mv.to) {
        return if mv.to.file() > mv.from.file() {
            "O-O"
        } else {
            "O-O-O"
        }
        .to_string();
    }
    let capture = if captured_piece(board, mv).is_some() {
        "x"
    } else {
        ""
    };
    let promotion = match mv.promotion {
        Some(p) => PIECE_LETTER[p as usize],
        None => "",
    };
    format!(
        "{}{}{}{}{}",
        PIECE_LETTER[piece as usize], mv.from, capture, mv.to, promotion
    )
}

/// A line of moves from `board`, each rendered by `render`, separated by spaces.
pub fn line(board: &Board, moves: &[Move], render: fn(&Board, Move) -> String) -> String {
    let mut board = board.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        out.push(render(&board, mv));
        board.play_unchecked(mv);
    }
    out.join(" ")
}

/// A score in pawns as the documents print it (`+0.26`), or `#N` / `-#N` for mates in N moves.
pub fn pawns(score: Score) -> String {
    if score.abs() >= MATE_BOUND {
        let moves = (MATE - score.abs() + 1) / 2;
        return if score > 0 {
            format!("#{moves}")
        } else {
            format!("-#{moves}")
        };
    }
    let sign = if score < 0 { "-" } else { "+" };
    format!("{sign}{}.{:02}", score.abs() / 100, score.abs() % 100)
}

/// A score as UCI gives it: `cp N` or `mate N` (N in moves, negative when mated).
pub fn uci_score(score: Score) -> String {
    if score.abs() >= MATE_BOUND {
        let moves = (MATE - score.abs() + 1) / 2;
        return if score > 0 {
            format!("mate {moves}")
        } else {
            format!("mate -{moves}")
        };
    }
    format!("cp {score}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_notation_matches_the_documents() {
        let board = Board::default();
        let moves: Vec<Move> = ["e2e4", "g8f6", "b1c3", "d7d5", "e4d5", "f6d5"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        assert_eq!(
            line(&board, &moves, long),
            "e2e4 Ng8f6 Nb1c3 d7d5 e4xd5 Nf6xd5"
        );
    }

    #[test]
    fn castling_and_promotion() {
        let board: Board = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        assert_eq!(long(&board, "e1h1".parse().unwrap()), "O-O");
        assert_eq!(long(&board, "e1a1".parse().unwrap()), "O-O-O");
        assert_eq!(uci(&board, "e1h1".parse().unwrap()), "e1g1");
        assert_eq!(long(&board, "b7a8q".parse().unwrap()), "b7xa8Q");
        assert_eq!(long(&board, "b7b8n".parse().unwrap()), "b7b8N");
    }

    #[test]
    fn scores_in_pawns_and_mates() {
        assert_eq!(pawns(26), "+0.26");
        assert_eq!(pawns(-82), "-0.82");
        assert_eq!(pawns(119), "+1.19");
        assert_eq!(pawns(MATE - 1), "#1");
        assert_eq!(pawns(-(MATE - 4)), "-#2");
        assert_eq!(uci_score(MATE - 3), "mate 2");
        assert_eq!(uci_score(-(MATE - 2)), "mate -1");
        assert_eq!(uci_score(-15), "cp -15");
    }
}
