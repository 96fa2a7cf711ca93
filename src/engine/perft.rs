//! Perft: count the leaf nodes of the legal move tree, the standard check of move generation.

use cozy_chess::{Board, Move};

/// Leaves of the legal move tree of `board` at `depth` (bulk-counted at the last ply).
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += perft(&child, depth - 1);
        }
        false
    });
    nodes
}

/// Perft split by root move, in the picker's order (captures first, then quiet moves).
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    let (list, _) = super::movegen::generate_captures_first(board);
    list.as_slice()
        .iter()
        .map(|&mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_small_depths() {
        let board = Board::default();
        assert_eq!(perft(&board, 0), 1);
        assert_eq!(perft(&board, 1), 20);
        assert_eq!(perft(&board, 3), 8902);
    }

    #[test]
    fn divide_sums_to_perft() {
        let board: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            .parse()
            .unwrap();
        let split = divide(&board, 3);
        assert_eq!(split.len(), 48);
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 97862);
    }
}
