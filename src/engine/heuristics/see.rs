//! `see`: static exchange evaluation (Chess Programming Wiki, "Static Exchange Evaluation" and
//! "SEE - The Swap Algorithm"): the material a capture wins once every piece that attacks its
//! square has joined the exchange, least valuable first, each side free to stop when going on
//! would lose. X-rays are found by recomputing the sliders' attacks as pieces leave the board;
//! pins are ignored, as in every engine's SEE. A king never captures onto a square the other
//! side still attacks.
//!
//! Used three ways, counted apart:
//! - `order`: captures that lose material (SEE < 0) are tried after the killers and the
//!   countermove instead of before them (the modern picker's "bad captures" stage:
//!   Stockfish, Ethereal, Weiss);
//! - `quiescence`: a losing capture is not searched in quiescence (outside check);
//! - `low_depth`: near the leaves a capture whose SEE is below `-capture_margin · depth` is
//!   not searched (outside check, never the first move): Ethereal's and Stockfish's SEE
//!   pruning of noisy moves, here with a linear margin (Ethereal 12.00's is quadratic,
//!   `SEENoisyMargin` −18 · depth², up to depth 9: search.h and search.c);
//! - `quiet`: near the leaves a quiet move whose SEE (what the opponent wins by taking the
//!   moved piece) is below `-quiet_margin · depth` is not searched (outside check, never the
//!   first move, never a check): Ethereal 12's SEE pruning of quiet moves (depth ≤ 9, margin
//!   80 per ply: 12.00's `SEEQuietMargin` is −80 in search.h; later versions use 64); off by
//!   default (`quiet_depth` 0).

use cozy_chess::{BitBoard, Board, Color, Move, Piece, Square};

use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};
use crate::engine::moves::captured_piece;
use crate::engine::score::Score;

heuristic_params! {
    /// Parameters of `see`.
    pub struct Params {
        /// Static exchange evaluation for ordering and pruning captures.
        pub enabled: bool = false,
        /// Try losing captures after the killers and the countermove.
        pub order: bool = true,
        /// Skip losing captures in quiescence (outside check).
        pub quiescence: bool = true,
        /// Skip captures losing more than `capture_margin · depth` at depths up to this.
        pub prune_depth: i32 [0..=16] = 6,
        /// The margin of the low-depth pruning, centipawns per ply.
        pub capture_margin: i32 [0..=1000] = 100,
        /// When above 0, the low-depth pruning's margin is this many centipawns per ply
        /// squared instead of `capture_margin` per ply (Ethereal 12.00: 18 up to depth 9,
        /// `SEENoisyMargin` in its search.h): stricter than the linear margin near the leaves,
        /// where a losing capture rarely pays, looser further up, where the search has room
        /// to find what the exchange misses.
        pub capture_quadratic: i32 [0..=200; structural] = 0,
        /// Skip quiet moves losing more than `quiet_margin · depth` at depths up to this (0:
        /// never; Ethereal 12: 9).
        pub quiet_depth: i32 [0..=16; structural] = 0,
        /// The margin of the quiet form, centipawns per ply (Ethereal 12.00: 80).
        pub quiet_margin: i32 [0..=1000] = 64,
    }
}

/// Material values of the exchange (pawn 100; the king's is a bound no exchange reaches).
pub fn value(piece: Piece) -> Score {
    match piece {
        Piece::Pawn => 100,
        Piece::Knight => 320,
        Piece::Bishop => 330,
        Piece::Rook => 500,
        Piece::Queen => 950,
        Piece::King => 20_000,
    }
}

/// Every piece of either colour attacking `square` on a board occupied by `occupied`.
fn attackers(board: &Board, square: Square, occupied: BitBoard) -> BitBoard {
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let pawns = board.pieces(Piece::Pawn);
    (cozy_chess::get_rook_moves(square, occupied) & rooks)
        | (cozy_chess::get_bishop_moves(square, occupied) & bishops)
        | (cozy_chess::get_knight_moves(square) & board.pieces(Piece::Knight))
        | (cozy_chess::get_king_moves(square) & board.pieces(Piece::King))
        | (cozy_chess::get_pawn_attacks(square, Color::White) & pawns & board.colors(Color::Black))
        | (cozy_chess::get_pawn_attacks(square, Color::Black) & pawns & board.colors(Color::White))
}

/// The least valuable of `side`'s pieces among `set`.
fn least_valuable(board: &Board, set: BitBoard, side: Color) -> Option<(Square, Piece)> {
    let ours = set & board.colors(side);
    Piece::ALL.iter().find_map(|&piece| {
        (ours & board.pieces(piece))
            .into_iter()
            .next()
            .map(|square| (square, piece))
    })
}

/// The exchange value of `mv` for the side making it, centipawns: what it captures (and
/// promotes to) minus what it then loses, both sides capturing back least valuable first and
/// stopping when that pays. A quiet move scores what the opponent wins by taking the piece.
pub fn see(board: &Board, mv: Move) -> Score {
    let us = board.side_to_move();
    let Some(mut attacker) = board.piece_on(mv.from) else {
        return 0;
    };
    let to = mv.to;
    let mut occupied = board.occupied() ^ mv.from.bitboard();
    let mut gain = [0 as Score; 40];
    gain[0] = captured_piece(board, mv).map_or(0, value);
    let en_passant = attacker == Piece::Pawn
        && mv.from.file() != to.file()
        && board.piece_on(to).is_none();
    if en_passant {
        // En passant: the captured pawn leaves its own square.
        let behind = Square::new(to.file(), mv.from.rank());
        occupied ^= behind.bitboard();
    }
    if let Some(promotion) = mv.promotion {
        gain[0] += value(promotion) - value(Piece::Pawn);
        attacker = promotion;
    }
    // The piece standing on `to`, which the next capture takes.
    let mut on_square = value(attacker);
    let mut side = !us;
    let mut depth = 0;
    loop {
        let all = attackers(board, to, occupied) & occupied;
        let Some((square, piece)) = least_valuable(board, all, side) else {
            break;
        };
        // A king may not capture onto a square the other side still attacks.
        if piece == Piece::King && !(all & board.colors(!side)).is_empty() {
            break;
        }
        depth += 1;
        gain[depth] = on_square - gain[depth - 1];
        occupied ^= square.bitboard();
        on_square = value(piece);
        side = !side;
        if depth + 1 >= gain.len() {
            break;
        }
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

/// Whether the exchange value of `mv` is below `threshold`: `see(board, mv) < threshold`,
/// answered without the exchange where its bounds settle it. The mover ends with at most what
/// it takes (and promotes to), and at least that less the piece it moved, since it may stop
/// once that piece is taken (Ethereal's SEE tests a threshold with these two exits first). Near
/// the leaves most quiet moves and many captures are settled so: a pawn's move can never lose
/// more than `quiet_margin · depth` from depth 2.
pub fn below(board: &Board, mv: Move, threshold: Score) -> bool {
    let Some(mover) = board.piece_on(mv.from) else {
        return see(board, mv) < threshold;
    };
    let promotion = mv.promotion.map_or(0, |p| value(p) - value(Piece::Pawn));
    let best = captured_piece(board, mv).map_or(0, value) + promotion;
    if best < threshold {
        return true;
    }
    let worst = best - value(mv.promotion.unwrap_or(mover));
    if worst >= threshold {
        return false;
    }
    see(board, mv) < threshold
}

/// The capture loses material: it is tried after the killers and the countermove.
pub fn losing(board: &Board, mv: Move) -> bool {
    below(board, mv, 0)
}

/// Low-depth form: skip this capture (`below` says whether its SEE is below a threshold, asked
/// only where the form applies: a capture other than the node's first move, outside check, at
/// depths up to `prune_depth`). It acts when the exchange loses more than
/// `capture_margin · depth` (or `capture_quadratic · depth²`).
pub fn prunes_capture(
    node: &NodeView,
    mv: &MoveView,
    below: impl FnOnce(Score) -> bool,
    params: &Params,
) -> Decision {
    let applies =
        mv.capture && mv.legal_count > 1 && !node.in_check && node.depth <= params.prune_depth;
    let margin = if params.capture_quadratic > 0 {
        params.capture_quadratic * node.depth * node.depth
    } else {
        params.capture_margin * node.depth
    };
    Decision::when(applies, applies && below(-margin))
}

/// Quiet form: skip this quiet move (`below` says whether its SEE is below a threshold and
/// `gives_check` whether it checks, each asked only where needed). It applies to a quiet move other than the node's
/// first that gives no check (a quiet check that hangs a piece is how sacrificial mates
/// begin), outside check, at depths up to `quiet_depth`; it acts when the exchange loses more
/// than `quiet_margin · depth`.
pub fn prunes_quiet(
    node: &NodeView,
    mv: &MoveView,
    below: impl FnOnce(Score) -> bool,
    gives_check: impl FnOnce() -> bool,
    params: &Params,
) -> Decision {
    let applies = mv.is_late_quiet(node, params.quiet_depth, gives_check);
    Decision::when(applies, applies && below(-params.quiet_margin * node.depth))
}

/// Quiescence form: leave this capture out (`losing` says whether its exchange loses). It
/// applies to every capture searched outside check.
pub fn skips_in_quiescence(
    in_check: bool,
    losing: impl FnOnce() -> bool,
    params: &Params,
) -> Decision {
    let applies = params.quiescence && !in_check;
    Decision::when(applies, applies && losing())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prunes(exchange: Score, depth: i32, in_check: bool, p: &Params) -> bool {
        let node = NodeView { depth, in_check, ..NodeView::default() };
        let mv = MoveView { capture: true, legal_count: 2, ..MoveView::default() };
        prunes_capture(&node, &mv, |threshold| exchange < threshold, p).acts()
    }

    fn board(fen: &str) -> Board {
        fen.parse().unwrap()
    }

    fn mv(board: &Board, text: &str) -> Move {
        crate::harness::epd::parse_move(board, text).unwrap()
    }

    /// The CPW page's two examples: Rxe5 wins a pawn; Nxe5 loses a knight for a pawn.
    #[test]
    fn the_wiki_examples() {
        let b = board("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1");
        assert_eq!(see(&b, mv(&b, "Rxe5")), 100);
        let b = board("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1");
        assert_eq!(see(&b, mv(&b, "Nxe5")), 100 - 320);
    }

    #[test]
    fn an_undefended_piece_is_won_whole_and_a_defended_one_traded() {
        let b = board("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1");
        assert_eq!(see(&b, mv(&b, "Qxd5")), 950);
        let b = board("4k3/4p3/3q4/8/8/8/8/3QK3 w - - 0 1");
        // Qxd6 exd6: a queen for a queen.
        assert_eq!(see(&b, mv(&b, "Qxd6")), 0);
        // A pawn takes a defended knight: wins knight minus pawn.
        let b = board("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(see(&b, mv(&b, "exd5")), 320 - 100);
    }

    /// `below` is `see < threshold` for every legal move of positions rich in exchanges, at
    /// every threshold from a queen down to a queen up (its two early exits change no answer).
    #[test]
    fn below_answers_as_the_exchange_does() {
        let fens = [
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R b KQkq - 0 5",
            "3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1",
            "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            let b = board(fen);
            let mut moves = Vec::new();
            b.generate_moves(|list| {
                moves.extend(list);
                false
            });
            for &m in &moves {
                for threshold in (-1000..=1000).step_by(10) {
                    assert_eq!(below(&b, m, threshold), see(&b, m) < threshold, "{fen} {m} {threshold}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn x_rays_join_the_exchange() {
        // Rooks doubled on the d-file against one defender: Rxd5 Rxd5 Rxd5 wins the pawn.
        let b = board("3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1");
        assert_eq!(see(&b, mv(&b, "Rxd5")), 100);
    }

    #[test]
    fn the_king_does_not_capture_into_an_attack() {
        // Kxd5 would be illegal with the rook behind; the queen's capture Qxd5 loses her for
        // a pawn when the king cannot recapture... here the king can recapture alone.
        let b = board("8/8/4k3/3p4/8/8/8/3QK3 w - - 0 1");
        assert_eq!(see(&b, mv(&b, "Qxd5+")), 100 - 950);
        let b = board("3r4/8/4k3/3p4/8/8/8/3QK3 w - - 0 1");
        assert_eq!(see(&b, mv(&b, "Qxd5+")), 100 - 950);
    }

    #[test]
    fn en_passant_and_promotions() {
        let b = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(see(&b, mv(&b, "exd6")), 100);
        let b = board("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        // a8=Q Nxa8... the knight does not reach a8; axb8=Q wins a knight and promotes.
        assert_eq!(see(&b, mv(&b, "axb8=Q+")), 320 + 950 - 100);
    }

    #[test]
    fn low_depth_pruning_by_margin() {
        let p = Params::default();
        assert!(prunes(-220, 2, false, &p));
        assert!(!prunes(-200, 2, false, &p));
        assert!(!prunes(-900, 2, true, &p), "not in check");
        assert!(!prunes(-900, 7, false, &p), "not beyond prune_depth");
    }

    #[test]
    fn low_depth_pruning_by_a_quadratic_margin() {
        let p = Params { capture_quadratic: 18, prune_depth: 9, ..Params::default() };
        // 18 · 1² = 18 at depth 1: every capture losing more than that; 18 · 9² = 1458 at 9.
        assert!(prunes(-19, 1, false, &p));
        assert!(!prunes(-18, 1, false, &p));
        assert!(!prunes(-500, 6, false, &p), "648 at depth 6: looser than 100 a ply");
        assert!(prunes(-1459, 9, false, &p));
        assert!(!prunes(-1459, 10, false, &p), "not beyond prune_depth");
    }
}
