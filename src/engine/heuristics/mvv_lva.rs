//! `mvv_lva` (000, 001): captures ordered most-valuable-victim first, least-valuable-attacker
//! first among equal victims. 001 also moves forward every "non-simple" capture (en passant,
//! capture-promotion: any move whose type is not `MOVE_TYPE_SIMPLY`) and the capture of the
//! piece the opponent moved last; both are sub-toggles, off by default.

use cozy_chess::{Board, Move, Piece, Square};

use super::params::heuristic_params;
use crate::engine::moves::captured_piece;

heuristic_params! {
    /// Parameters of `mvv_lva`.
    pub struct Params {
        /// Order captures by MVV/LVA.
        pub enabled: bool = false,
        /// 001: en passant and capture-promotions before every other capture.
        pub special_first: bool = false,
        /// 001: the capture of the piece the opponent moved last before the other captures.
        pub last_moved_first: bool = false,
    }
}

/// Order key of a capture of `victim` by `attacker`: higher is searched first.
#[inline]
pub fn base_key(victim: Piece, attacker: Piece) -> i32 {
    (victim as i32 + 1) * 16 - attacker as i32
}

/// Order key of the capture `mv` on `board`; `last_moved_to` is where the opponent's last move
/// landed.
pub fn capture_key(board: &Board, mv: Move, last_moved_to: Option<Square>, params: &Params) -> i32 {
    let victim = captured_piece(board, mv).unwrap_or(Piece::Pawn);
    let attacker = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
    let mut key = base_key(victim, attacker);
    let special = mv.promotion.is_some() || !board.colors(!board.side_to_move()).has(mv.to);
    if params.special_first && special {
        key += 1000;
    }
    if params.last_moved_first && last_moved_to == Some(mv.to) {
        key += 500;
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_valuable_victim_then_least_valuable_attacker() {
        assert!(base_key(Piece::Queen, Piece::King) > base_key(Piece::Rook, Piece::Pawn));
        assert!(base_key(Piece::Rook, Piece::Pawn) > base_key(Piece::Rook, Piece::Queen));
    }

    #[test]
    fn centurion_extras_move_special_and_recaptures_forward() {
        // White: pawn b7 can take a8 rook with promotion; queen d1 can take the d8 rook.
        let board: Board = "r2rk3/1P6/8/8/8/8/8/3QK3 w - - 0 1".parse().unwrap();
        let promo: Move = "b7a8q".parse().unwrap();
        let plain: Move = "d1d8".parse().unwrap();
        let off = Params::default();
        let on = Params {
            special_first: true,
            last_moved_first: true,
            ..off
        };
        // Same victim: the pawn is the cheaper attacker already.
        assert!(capture_key(&board, promo, None, &off) > capture_key(&board, plain, None, &off));
        assert!(
            capture_key(&board, promo, None, &on) >= capture_key(&board, promo, None, &off) + 1000
        );
        let d8 = Some(Square::D8);
        assert_eq!(
            capture_key(&board, plain, d8, &on),
            capture_key(&board, plain, None, &off) + 500
        );
    }
}
