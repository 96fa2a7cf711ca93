//! The principal variation of each ply, as the search finds it.

use cozy_chess::Move;

use crate::engine::score::MAX_PLY;

/// Triangular PV table: `moves[ply]` holds the best line found from `ply`.
#[derive(Clone)]
pub(super) struct PvTable {
    moves: Box<[[Option<Move>; MAX_PLY]; MAX_PLY]>,
    len: [usize; MAX_PLY],
}

impl PvTable {
    pub(super) fn new() -> Self {
        PvTable {
            moves: Box::new([[None; MAX_PLY]; MAX_PLY]),
            len: [0; MAX_PLY],
        }
    }

    pub(super) fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// `mv` is the new best move at `ply`: the PV becomes `mv` followed by the child's PV.
    pub(super) fn update(&mut self, ply: usize, mv: Move) {
        self.moves[ply][0] = Some(mv);
        let child_len = if ply + 1 < MAX_PLY {
            self.len[ply + 1]
        } else {
            0
        };
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.moves[ply][i + 1] = self.moves[ply + 1][i];
        }
        self.len[ply] = child_len.min(MAX_PLY - 1) + 1;
    }

    /// The first move of `ply`'s line, if it has one.
    pub(super) fn first(&self, ply: usize) -> Option<Move> {
        (self.len[ply] > 0).then(|| self.moves[ply][0]).flatten()
    }

    pub(super) fn line(&self, ply: usize) -> Vec<Move> {
        self.moves[ply][..self.len[ply]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }
}
