//! The transposition table (001: Zobrist-hashed positions, "do not analyse again what we have
//! already seen"). One entry per slot, replaced when the new result is at least as deep or the
//! slot holds another position. Mate scores are stored relative to the node, so a mate found
//! through a transposition keeps its distance.
//!
//! 001 asks for a distinct null-move key: positions inside a null-move subtree are stored under
//! `hash ^ NULL_MOVE_KEY`, so their results (searched with a move missing) never answer a real
//! position. 002 warns against using the table at terminal nodes: the search probes and stores
//! only at interior nodes.

use cozy_chess::{Move, Piece, Square};

use super::score::MATE_BOUND;
use super::score::Score;

/// XORed into the key of every position inside a null-move subtree (001).
pub const NULL_MOVE_KEY: u64 = 0x08d9_bc25_bebf_91b1;

/// XORed into the key of every node of `main_selective`'s main function (002), so that the
/// main function, which prunes nothing, is never answered by an entry of the selective search
/// (which would make its re-search return the selective result again).
pub const MAIN_FUNCTION_KEY: u64 = 0x5be0_cd19_137e_2179;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// Nothing stored.
    #[default]
    None,
    /// The exact score (it fell inside the window).
    Exact,
    /// A lower bound (the search failed high).
    Lower,
    /// An upper bound (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    key: u64,
    packed_move: u16,
    score: i16,
    depth: i8,
    bound: Bound,
}

impl Entry {
    /// The best move found, if any.
    pub fn best_move(&self) -> Option<Move> {
        unpack(self.packed_move)
    }

    /// Remaining depth the result was searched to.
    pub fn depth(&self) -> i32 {
        i32::from(self.depth)
    }

    /// What the score means.
    pub fn bound(&self) -> Bound {
        self.bound
    }

    /// The score, seen from a node `ply` plies from the root.
    pub fn score(&self, ply: usize) -> Score {
        let score = Score::from(self.score);
        if score >= MATE_BOUND {
            score - ply as Score
        } else if score <= -MATE_BOUND {
            score + ply as Score
        } else {
            score
        }
    }

    /// The stored result settles a node searched to `depth` within `(alpha, beta)`.
    pub fn cuts(&self, depth: i32, alpha: Score, beta: Score, ply: usize) -> bool {
        if self.depth() < depth {
            return false;
        }
        let score = self.score(ply);
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }
}

const PROMOTIONS: [Option<Piece>; 5] = [
    None,
    Some(Piece::Knight),
    Some(Piece::Bishop),
    Some(Piece::Rook),
    Some(Piece::Queen),
];

fn pack(mv: Move) -> u16 {
    let promotion = PROMOTIONS
        .iter()
        .position(|&p| p == mv.promotion)
        .unwrap_or(0) as u16;
    // 0 means "no move": a real move never has from == to.
    (mv.from as u16) | (mv.to as u16) << 6 | promotion << 12
}

fn unpack(packed: u16) -> Option<Move> {
    let from = Square::index((packed & 63) as usize);
    let to = Square::index((packed >> 6 & 63) as usize);
    if from == to {
        return None;
    }
    Some(Move {
        from,
        to,
        promotion: PROMOTIONS[(packed >> 12) as usize % PROMOTIONS.len()],
    })
}

/// A fixed-size table of search results.
pub struct TranspositionTable {
    entries: Vec<Entry>,
}

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one entry).
    pub fn new(mb: usize) -> Self {
        TranspositionTable {
            entries: vec![Entry::default(); Self::entries_in(mb)],
        }
    }

    /// How many entries `mb` MiB hold (at least one).
    fn entries_in(mb: usize) -> usize {
        (mb.saturating_mul(1024 * 1024) / std::mem::size_of::<Entry>()).max(1)
    }

    /// A table of `mb` MiB, or an error when the memory cannot be had (instead of aborting
    /// the process, as a failed allocation does).
    pub fn try_new(mb: usize) -> Result<Self, String> {
        let count = Self::entries_in(mb);
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate a {mb} MiB transposition table"))?;
        entries.resize(count, Entry::default());
        Ok(TranspositionTable { entries })
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any table size without a power-of-two mask.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[self.slot(key)];
        (entry.bound != Bound::None && entry.key == key).then_some(entry)
    }

    /// Store a result for `key` found `ply` plies from the root.
    pub fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: Score,
        bound: Bound,
        best: Option<Move>,
        ply: usize,
    ) {
        let slot = self.slot(key);
        let old = self.entries[slot];
        if old.key == key
            && old.bound != Bound::None
            && depth < old.depth()
            && bound != Bound::Exact
        {
            return;
        }
        let stored = if score >= MATE_BOUND {
            score + ply as Score
        } else if score <= -MATE_BOUND {
            score - ply as Score
        } else {
            score
        };
        // Keep the old best move when this result found none (a fail-low node).
        let packed_move = match best {
            Some(mv) => pack(mv),
            None if old.key == key => old.packed_move,
            None => 0,
        };
        self.entries[slot] = Entry {
            key,
            packed_move,
            score: stored.clamp(i16::MIN as Score, i16::MAX as Score) as i16,
            depth: depth.clamp(i8::MIN as i32, i8::MAX as i32) as i8,
            bound,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::MATE;

    #[test]
    fn moves_survive_packing() {
        for text in ["e2e4", "e7e8q", "a2a1n", "e1h1", "h7g8r", "b2b1b"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(unpack(pack(mv)), Some(mv), "{text}");
        }
        assert_eq!(unpack(0), None);
    }

    #[test]
    fn store_probe_and_bounds() {
        let mut tt = TranspositionTable::new(1);
        let mv: Move = "g1f3".parse().unwrap();
        tt.store(42, 5, 30, Bound::Lower, Some(mv), 3);
        let e = tt.probe(42).unwrap();
        assert_eq!(e.best_move(), Some(mv));
        assert!(e.cuts(5, 0, 20, 3));
        assert!(!e.cuts(5, 0, 40, 3));
        assert!(!e.cuts(6, 0, 20, 3));
        assert!(tt.probe(43).is_none());
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mut tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root, found at ply 2: 3 plies from the node.
        tt.store(7, 4, MATE - 5, Bound::Exact, None, 2);
        assert_eq!(tt.probe(7).unwrap().score(2), MATE - 5);
        // The same node reached at ply 4 is a mate 7 plies from the root.
        assert_eq!(tt.probe(7).unwrap().score(4), MATE - 7);
    }

    #[test]
    fn shallower_bounds_do_not_replace_deeper_results() {
        let mut tt = TranspositionTable::new(1);
        tt.store(9, 8, 10, Bound::Lower, None, 0);
        tt.store(9, 3, -50, Bound::Upper, None, 0);
        assert_eq!(tt.probe(9).unwrap().depth(), 8);
        tt.store(9, 3, 5, Bound::Exact, None, 0);
        assert_eq!(tt.probe(9).unwrap().depth(), 3);
    }
}
