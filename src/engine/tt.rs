//! The transposition table (001: Zobrist-hashed positions, "do not analyse again what we have
//! already seen"). One entry per slot, replaced when the new result is at least as deep or the
//! slot holds another position; or, with `tt.ways`, buckets of slots (`TranspositionTable`). Mate scores are stored relative to the node, so a mate found
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

/// What a stored score means (its number is its code in a table slot; 0, nothing stored, is
/// an empty slot's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// Nothing stored.
    #[default]
    None = 0,
    /// The exact score (it fell inside the window).
    Exact = 1,
    /// A lower bound (the search failed high).
    Lower = 2,
    /// An upper bound (the search failed low).
    Upper = 3,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    key: u64,
    packed_move: u16,
    score: i16,
    depth: i8,
    bound: Bound,
    /// The search that stored it (`TranspositionTable::new_search`), read only to choose
    /// what a full bucket gives up.
    generation: u8,
}

impl Entry {
    /// The entry as a table slot: the key, then the move, score, depth and bound in one word
    /// (all zero for an empty slot).
    fn pack(&self) -> [u64; 2] {
        let data = u64::from(self.packed_move)
            | u64::from(self.score as u16) << 16
            | u64::from(self.depth as u8) << 32
            | (self.bound as u64) << 40
            | u64::from(self.generation) << 48;
        [self.key, data]
    }

    /// The entry of a table slot.
    fn unpack([key, data]: [u64; 2]) -> Entry {
        Entry {
            key,
            packed_move: data as u16,
            score: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8 as i8,
            bound: match (data >> 40) as u8 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                3 => Bound::Upper,
                _ => Bound::None,
            },
            generation: (data >> 48) as u8,
        }
    }

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

/// A fixed-size table of search results. Each slot is two words (the key, then the packed
/// move, score, depth and bound), all zero when empty: a table of zeros is allocated zeroed,
/// which the system gives lazily, so a large `Hash` is ready at once and its pages are touched
/// only as the search fills them.
///
/// With `ways` above 1 the slots are read in buckets of that many, each within one cache
/// line: a position may stand in any slot of its bucket, and a new one takes the slot of the
/// same position, else an empty one, else the one whose result is worth least, the shallowest
/// after 8 plies are taken off per search since it was stored (Stockfish's and Ethereal's
/// buckets, 3 to 4 entries, replace by depth and age in this way). With `ways` 1 each position
/// has one slot, replaced as the module says.
pub struct TranspositionTable {
    slots: Vec<[u64; 2]>,
    /// Slots per bucket (1 to 4).
    ways: usize,
    /// The first slot of the first bucket: the first slot that starts a cache line.
    offset: usize,
    /// The search under way, stored with each entry.
    generation: u8,
}

/// Slots in one cache line: a bucket never spans two.
const LINE_SLOTS: usize = 64 / std::mem::size_of::<[u64; 2]>();

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one entry).
    pub fn new(mb: usize) -> Self {
        TranspositionTable::from_slots(vec![[0; 2]; Self::entries_in(mb)])
    }

    fn from_slots(slots: Vec<[u64; 2]>) -> Self {
        // The address decides which slot starts a cache line; a slot is 16 bytes and the
        // allocation at least 8-aligned, so a line starts within the first four slots.
        let misalignment = slots.as_ptr() as usize % 64;
        let offset = (64 - misalignment) % 64 / std::mem::size_of::<[u64; 2]>();
        TranspositionTable {
            slots,
            ways: 1,
            offset: offset.min(LINE_SLOTS - 1),
            generation: 0,
        }
    }

    /// Begin a search: read the table in buckets of `ways` slots (1 to 4) and count a search
    /// more for the age of what is stored from now on.
    pub fn new_search(&mut self, ways: usize) {
        self.ways = ways.clamp(1, LINE_SLOTS);
        self.generation = self.generation.wrapping_add(1);
    }

    /// How many entries `mb` MiB hold (at least one).
    fn entries_in(mb: usize) -> usize {
        (mb.saturating_mul(1024 * 1024) / std::mem::size_of::<[u64; 2]>()).max(1)
    }

    /// A table of `mb` MiB, or an error when the memory cannot be had (instead of aborting
    /// the process, as a failed allocation does): the reservation is tried first.
    pub fn try_new(mb: usize) -> Result<Self, String> {
        let count = Self::entries_in(mb);
        let mut probe: Vec<[u64; 2]> = Vec::new();
        probe
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate a {mb} MiB transposition table"))?;
        drop(probe);
        Ok(Self::new(mb))
    }

    /// Forget everything: a fresh zeroed table (as quick as a new one, whatever its size).
    pub fn clear(&mut self) {
        let (count, ways, generation) = (self.slots.len(), self.ways, self.generation);
        self.slots = Vec::new();
        *self = TranspositionTable {
            ways,
            generation,
            ..TranspositionTable::from_slots(vec![[0; 2]; count])
        };
    }

    /// The slots `key` may stand in: one, or its bucket of `ways`.
    #[inline]
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        // Multiply-shift maps the key onto any table size without a power-of-two mask.
        let spread = |count: usize| ((u128::from(key) * count as u128) >> 64) as usize;
        let buckets = self.slots.len().saturating_sub(self.offset) / self.ways;
        if self.ways == 1 || buckets == 0 {
            let slot = spread(self.slots.len());
            return slot..slot + 1;
        }
        let start = self.offset + spread(buckets) * self.ways;
        start..start + self.ways
    }

    /// Ask the processor to bring `key`'s slot into its cache. A probe issued a few hundred
    /// instructions later (once `make` has updated the network's accumulator and evaluated)
    /// then finds the slot there instead of waiting on memory: in a profile of `bench` the
    /// probe's load was a third of `alphabeta`'s own time (Stockfish and Ethereal prefetch the
    /// child's entry as soon as its key is known, for the same reason).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const [u64; 2] = &self.slots[self.bucket(key).start];
            // SAFETY: a prefetch is a hint; it changes no state a program can see, cannot
            // fault, and the pointer is to an element of `slots` besides.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.bucket(key)]
            .iter()
            .map(|&slot| Entry::unpack(slot))
            .find(|entry| entry.bound != Bound::None && entry.key == key)
    }

    /// The slot a result for `key` goes to: its own, else an empty one, else the one worth
    /// least (the shallowest once 8 plies are taken off per search of age).
    fn victim(&self, key: u64) -> (usize, Entry) {
        let bucket = self.bucket(key);
        let entries = bucket.clone().map(|i| (i, Entry::unpack(self.slots[i])));
        let worth = |entry: &Entry| {
            let age = i32::from(self.generation.wrapping_sub(entry.generation));
            entry.depth() - 8 * age
        };
        let mine = |entry: &Entry| entry.bound != Bound::None && entry.key == key;
        entries
            .clone()
            .find(|(_, e)| mine(e))
            .or_else(|| entries.clone().find(|(_, e)| e.bound == Bound::None))
            .or_else(|| entries.min_by_key(|(_, e)| worth(e)))
            .unwrap_or((bucket.start, Entry::unpack(self.slots[bucket.start])))
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
        let (slot, old) = self.victim(key);
        if old.key == key
            && old.bound != Bound::None
            && depth < old.depth()
            && bound != Bound::Exact
        {
            return;
        }
        // A quiescence result (depth 0) never takes another position's interior result's
        // slot: the interior one cost a search to find.
        if old.key != key && old.bound != Bound::None && depth <= 0 && old.depth() > 0 {
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
        self.slots[slot] = Entry {
            key,
            packed_move,
            score: stored.clamp(i16::MIN as Score, i16::MAX as Score) as i16,
            depth: depth.clamp(i8::MIN as i32, i8::MAX as i32) as i8,
            bound,
            generation: self.generation,
        }
        .pack();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiescence_result_never_takes_an_interior_results_slot() {
        // One slot: every key shares it.
        let mut table = TranspositionTable::from_slots(vec![[0; 2]; 1]);
        table.store(1, 5, 10, Bound::Exact, None, 0);
        table.store(2, 0, 20, Bound::Exact, None, 0);
        assert!(table.probe(1).is_some() && table.probe(2).is_none());
        table.store(2, 1, 20, Bound::Lower, None, 0);
        assert!(
            table.probe(2).is_some(),
            "an interior result takes any slot"
        );
        table.store(3, 0, 30, Bound::Upper, None, 0);
        assert!(table.probe(2).is_some());
        table.store(4, 0, 40, Bound::Exact, None, 0);
        table.store(2, 0, 50, Bound::Exact, None, 0);
        assert_eq!(
            table.probe(2).map(|e| e.score(0)),
            Some(50),
            "its own key, exact"
        );
        table.store(5, 0, 60, Bound::Exact, None, 0);
        assert_eq!(
            table.probe(5).map(|e| e.score(0)),
            Some(60),
            "a depth-0 slot is anyone's"
        );
    }

    #[test]
    fn a_bucket_gives_up_its_shallowest_result_and_ages_the_older_searches() {
        let mut table = TranspositionTable::from_slots(vec![[0; 2]; 8]);
        table.new_search(4);
        // Small keys share the first bucket (multiply-shift maps them to its start).
        assert!((1..=7).all(|key| table.bucket(key) == table.bucket(1)));
        for (key, depth) in [(1, 5), (2, 3), (3, 7), (4, 6)] {
            table.store(key, depth, 0, Bound::Exact, None, 0);
        }
        assert!(
            (1..=4).all(|key| table.probe(key).is_some()),
            "four ways, four positions"
        );
        table.store(5, 4, 0, Bound::Exact, None, 0);
        assert!(table.probe(2).is_none(), "the shallowest gave way");
        assert!(table.probe(5).is_some());
        // A search later what was stored before is worth 8 plies less: depths 5, 7, 6, 4 are
        // worth -3, -1, -2, -4 against a new result's 1.
        table.new_search(4);
        table.store(6, 1, 0, Bound::Exact, None, 0);
        assert!(table.probe(5).is_none() && table.probe(6).is_some());
        table.store(7, 1, 0, Bound::Exact, None, 0);
        assert!(table.probe(1).is_none() && table.probe(7).is_some());
        assert!(table.probe(3).is_some() && table.probe(6).is_some());
        // Its own slot first: a deeper result for a stored position replaces it in place.
        table.store(7, 9, 5, Bound::Exact, None, 0);
        assert_eq!(
            table.probe(7).map(|e| (e.depth(), e.score(0))),
            Some((9, 5))
        );
        assert!([3, 4, 6].iter().all(|&key| table.probe(key).is_some()));
    }

    #[test]
    fn a_slot_holds_every_field_and_an_empty_slot_is_zero() {
        assert_eq!(Entry::default().pack(), [0, 0]);
        for bound in [Bound::None, Bound::Exact, Bound::Lower, Bound::Upper] {
            let entry = Entry {
                key: 0xdead_beef_0123_4567,
                packed_move: 0xfedc,
                score: -31_000,
                depth: -7,
                bound,
                generation: 0xa5,
            };
            let back = Entry::unpack(entry.pack());
            assert_eq!(back.generation, entry.generation);
            assert_eq!(
                (
                    back.key,
                    back.packed_move,
                    back.score,
                    back.depth,
                    back.bound
                ),
                (
                    entry.key,
                    entry.packed_move,
                    entry.score,
                    entry.depth,
                    entry.bound
                )
            );
        }
    }
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
