//! `capture_history` (Chess Programming Wiki, "History Heuristic"; Stockfish since 2018, Weiss,
//! Berserk; not in Ethereal 12.00, whose picker orders captures by MVV/LVA alone): the history
//! of a capture, indexed by the side, the moving piece, the destination and the captured piece.
//! A capture that cuts a node off gets a bonus of `depth²` (at most `max_bonus`) and every
//! capture searched before it at that node the same malus, so are they when a quiet move cuts
//! (a capture tried first that did not refute the move is one the position does not want);
//! each score is kept within ±`limit` by the gravity update of `continuation_history`. The main
//! search's picker orders captures by `scale ×` their MVV/LVA key plus this score: one victim
//! class of MVV/LVA (16 points) is `16 · scale` (6,144 at the default 384), so a well-proven
//! capture of a lesser piece can overtake an unproven one of a greater, as in Stockfish, whose
//! key `7 · value(victim) + history` puts the pawn-to-knight step (4,011) at about 0.4 of its
//! history's bound (10,692), where ours is 0.375 of 16,384. The tables are kept across the
//! searches of a game. Quiescence keeps its MVV/LVA order (000: it always sorts by it).

use cozy_chess::{Board, Move};

use super::continuation_history::gravity;
use super::params::heuristic_params;
use crate::engine::moves::captured_piece;

heuristic_params! {
    /// Parameters of `capture_history`.
    pub struct Params {
        /// Order the main search's captures by MVV/LVA and their history.
        pub enabled: bool = false,
        /// The bound of every score.
        pub limit: i32 [1..=1000000] = 16384,
        /// The largest bonus (a cap on `depth²`).
        pub max_bonus: i32 [1..=100000] = 1200,
        /// The weight of the MVV/LVA key beside the history score.
        pub scale: i32 [1..=100000] = 384,
    }
}

/// `[side][moving piece][destination][captured piece]`.
const CELLS: usize = 2 * 6 * 64 * 6;

/// The capture history table.
#[derive(Clone)]
pub struct CaptureHistory {
    table: Box<[i32]>,
}

impl Default for CaptureHistory {
    fn default() -> Self {
        CaptureHistory {
            table: vec![0; CELLS].into_boxed_slice(),
        }
    }
}

/// The bonus of a cut-off at remaining `depth`.
pub fn bonus(depth: i32, params: &Params) -> i32 {
    (depth * depth).min(params.max_bonus)
}

impl CaptureHistory {
    /// The cell of `mv` on `board`, when it captures (en passant included; a quiet promotion
    /// or castling has none).
    fn cell(board: &Board, mv: Move) -> Option<usize> {
        let victim = captured_piece(board, mv)?;
        let piece = board.piece_on(mv.from)?;
        let side = board.side_to_move() as usize;
        Some(((side * 6 + piece as usize) * 64 + mv.to as usize) * 6 + victim as usize)
    }

    /// The score of capture `mv` on `board` (0 for a move that captures nothing).
    pub fn score(&self, board: &Board, mv: Move) -> i32 {
        Self::cell(board, mv).map_or(0, |cell| self.table[cell])
    }

    /// A move cut the node off at `depth`: `cut` (when it is a capture) gets the bonus and
    /// each of `tried` (the captures searched before it) the malus.
    pub fn record_cutoff(
        &mut self,
        board: &Board,
        cut: Option<Move>,
        tried: &[Move],
        depth: i32,
        params: &Params,
    ) {
        let bonus = bonus(depth, params);
        for &mv in tried.iter().filter(|&&mv| Some(mv) != cut) {
            self.add(board, mv, -bonus, params);
        }
        if let Some(mv) = cut {
            self.add(board, mv, bonus, params);
        }
    }

    fn add(&mut self, board: &Board, mv: Move, bonus: i32, params: &Params) {
        if let Some(cell) = Self::cell(board, mv) {
            self.table[cell] = gravity(self.table[cell], bonus, params.limit);
        }
    }

    /// The ordering key of capture `mv` whose MVV/LVA key is `mvv_lva`.
    pub fn key(&self, board: &Board, mv: Move, mvv_lva: i32, params: &Params) -> i32 {
        mvv_lva * params.scale + self.score(board, mv)
    }

    /// Forget everything (a new game).
    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cutting_capture_gains_and_the_captures_before_it_lose() {
        let p = Params::default();
        let mut h = CaptureHistory::default();
        // The knight on d5 can take either pawn.
        let board: Board = "3qk3/2p1p3/8/3N4/8/8/8/3QK3 w - - 0 1".parse().unwrap();
        let (nc7, ne7): (Move, Move) = ("d5c7".parse().unwrap(), "d5e7".parse().unwrap());
        h.record_cutoff(&board, Some(nc7), &[ne7, nc7], 5, &p);
        assert_eq!(h.score(&board, nc7), 25);
        assert_eq!(h.score(&board, ne7), -25);
        // A quiet move's cut-off punishes the captures tried and rewards nothing.
        let quiet: Move = "e1f2".parse().unwrap();
        h.record_cutoff(&board, Some(quiet), &[nc7], 2, &p);
        assert_eq!(h.score(&board, nc7), 21);
        assert_eq!(h.score(&board, quiet), 0, "a quiet move has no cell");
        // The other side's captures of the same pieces are their own cells.
        let black: Board = "3qk3/2p1p3/8/3N4/8/8/8/3QK3 b - - 0 1".parse().unwrap();
        assert_eq!(h.score(&black, "d8d5".parse().unwrap()), 0);
        for _ in 0..500 {
            h.record_cutoff(&board, Some(ne7), &[], 40, &p);
        }
        assert!((15000..=16384).contains(&h.score(&board, ne7)));
        assert_eq!(h.key(&board, ne7, 10, &p), 10 * 384 + h.score(&board, ne7));
        h.clear();
        assert_eq!(h.score(&board, ne7), 0);
    }

    #[test]
    fn en_passant_is_a_capture_of_a_pawn() {
        let p = Params::default();
        let mut h = CaptureHistory::default();
        let board: Board = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1".parse().unwrap();
        let ep: Move = "e5d6".parse().unwrap();
        h.record_cutoff(&board, Some(ep), &[], 3, &p);
        assert_eq!(h.score(&board, ep), 9);
    }
}
