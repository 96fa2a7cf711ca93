//! `continuation_history` (Chess Programming Wiki, "History Heuristic § Continuation
//! History"; Stockfish since 2017, Ethereal's "counter-move history" and "follow-up history",
//! Weiss): the history of a quiet move in the context of the move one ply earlier (the
//! opponent's) and two plies earlier (the side's own), indexed by both moves' pieces and
//! destination squares. Quiet moves are ordered by the sum of their plain history (when
//! `history` is on) and these two scores. On a cut-off by a quiet move, that move gets a bonus
//! of `depth²` and the quiet moves tried before it the same malus, each score kept within
//! ±`limit` by the "gravity" update `v += b − v·|b| / limit` (Stockfish's and Ethereal's form).
//!
//! `scale` multiplies the bonus. Ethereal 12's update (`history.c`) is
//! `v += 32·δ − v·|δ| / 512` with `δ = min(depth², 400)`: the same gravity with a bonus of
//! `32 · min(depth², 400)` and the same bound 16,384, so its scores move 32 times as far per
//! cut-off as ours at `scale` 1. The thresholds `history_pruning`, `quiet_futility`, `lmr`'s
//! history terms and `history_extension` took from Ethereal 12 (−1,000 to −4,000, 12,000, 5,000,
//! 10,000) are on its scale; at `scale` 1 the default's continuation scores stay within a few
//! hundred (`reports/elo-history-scale/`), so those thresholds are almost never reached.

use super::params::heuristic_params;
use cozy_chess::{Piece, Square};

heuristic_params! {
    /// Parameters of `continuation_history`.
    pub struct Params {
        /// Order quiet moves by their history after the previous two moves.
        pub enabled: bool = false,
        /// The bound of every score (named `limit`: a UCI option named `….max` reads as the
        /// keyword `max` to UCI parsers).
        #[serde(alias = "max")]
        pub limit: i32 [1..=1000000] = 16384,
        /// The largest bonus (a cap on `depth²`, before `scale`).
        pub max_bonus: i32 [1..=100000] = 1200,
        /// The factor of every bonus and malus (Ethereal 12: 32, with `max_bonus` 400). It sets
        /// the unit every history threshold is read in, so it is chosen with them, not tuned
        /// alone.
        pub scale: i32 [1..=256; structural] = 1,
        /// A cut-off by the first quiet move tried (no quiet before it to punish) updates the
        /// tables only at this remaining depth or deeper (Ethereal 12, `history.c`: "if the
        /// 1st quiet move failed-high below depth 4, we don't update history tables": 4).
        /// 0: every cut-off updates them (the rule off: a form, so not stepped by SPSA).
        pub first_quiet_min_depth: i32 [0..=16; structural] = 0,
    }
}

/// A move's context key: its piece and destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub piece: Piece,
    pub to: Square,
}

impl Key {
    fn index(self) -> usize {
        self.piece as usize * 64 + self.to as usize
    }
}

const CELLS: usize = 6 * 64 * 6 * 64;

/// Two tables: after the opponent's move (one ply back) and after the side's own previous move
/// (two plies back).
#[derive(Clone)]
pub struct ContinuationHistory {
    tables: [Box<[i32]>; 2],
    /// While an audit search runs (`search/audit.rs`): every cell it changes, with its old
    /// value, so that the tables can be put back as the main search left them without
    /// copying 1.2 MB per audit.
    journal: Option<Vec<(usize, usize, i32)>>,
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory {
            tables: [
                vec![0; CELLS].into_boxed_slice(),
                vec![0; CELLS].into_boxed_slice(),
            ],
            journal: None,
        }
    }
}

/// The bonus of a cut-off at remaining `depth`: `scale · min(depth², max_bonus)`, never past
/// `limit` (a bonus beyond the bound would let gravity overshoot it).
pub fn bonus(depth: i32, params: &Params) -> i32 {
    (depth * depth)
        .min(params.max_bonus)
        .saturating_mul(params.scale)
        .min(params.limit)
}

/// Whether a quiet cut-off at remaining `depth`, after `punished` quiet moves tried before it,
/// updates the tables. Without the rule, the first quiet move's cut-offs at the last plies,
/// most of an ending's nodes, only ever add: the scores of its few king and pawn moves reach
/// `history_extension`'s 10,000 in most contexts (`reports/depth-gap/`).
pub fn learns(depth: i32, punished: usize, params: &Params) -> bool {
    punished > 0 || depth >= params.first_quiet_min_depth
}

/// The gravity update: `v + b − v·|b| / max`, which keeps `v` within `±max`.
pub fn gravity(value: i32, bonus: i32, max: i32) -> i32 {
    let v = i64::from(value);
    let b = i64::from(bonus);
    (v + b - v * b.abs() / i64::from(max)) as i32
}

impl ContinuationHistory {
    fn cell(context: Key, mv: Key) -> usize {
        context.index() * 384 + mv.index()
    }

    /// The move's score after `contexts` (one and two plies back; absent ones score 0).
    pub fn score(&self, contexts: [Option<Key>; 2], mv: Key) -> i32 {
        self.scores(contexts, mv).iter().sum()
    }

    /// The move's two scores: after the opponent's previous move (Ethereal's counter-move
    /// history) and after the side's own (its follow-up history).
    pub fn scores(&self, contexts: [Option<Key>; 2], mv: Key) -> [i32; 2] {
        let mut scores = [0; 2];
        for ((context, table), score) in contexts.iter().zip(&self.tables).zip(&mut scores) {
            if let Some(context) = context {
                *score = table[Self::cell(*context, mv)];
            }
        }
        scores
    }

    /// Add `bonus` (negative for a malus) to the move's score in each context.
    pub fn update(&mut self, contexts: [Option<Key>; 2], mv: Key, bonus: i32, params: &Params) {
        for (index, (context, table)) in contexts.iter().zip(self.tables.iter_mut()).enumerate() {
            if let Some(context) = context {
                let at = Self::cell(*context, mv);
                if let Some(journal) = &mut self.journal {
                    journal.push((index, at, table[at]));
                }
                table[at] = gravity(table[at], bonus, params.limit);
            }
        }
    }

    /// Start writing down every change (an audit search begins).
    pub fn begin_journal(&mut self) {
        self.journal = Some(Vec::new());
    }

    /// Undo every change since `begin_journal` and stop writing them down.
    pub fn roll_back(&mut self) {
        if let Some(journal) = self.journal.take() {
            for (index, at, old) in journal.into_iter().rev() {
                self.tables[index][at] = old;
            }
        }
    }

    pub fn clear(&mut self) {
        for table in &mut self.tables {
            table.fill(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_scores_bounded() {
        let mut v = 0;
        for _ in 0..1000 {
            v = gravity(v, 1200, 16384);
        }
        assert!((15001..=16384).contains(&v), "{v}");
        for _ in 0..1000 {
            v = gravity(v, -1200, 16384);
        }
        assert!((-16384..-15000).contains(&v), "{v}");
    }

    #[test]
    fn scores_are_per_context_and_add_up() {
        let p = Params::default();
        let mut h = ContinuationHistory::default();
        let e4 = Key { piece: Piece::Pawn, to: Square::E4 };
        let f3 = Key { piece: Piece::Knight, to: Square::F3 };
        let c6 = Key { piece: Piece::Knight, to: Square::C6 };
        h.update([Some(e4), Some(f3)], c6, bonus(4, &p), &p);
        assert_eq!(h.score([Some(e4), None], c6), 16);
        assert_eq!(h.score([Some(e4), Some(f3)], c6), 32);
        assert_eq!(h.scores([None, Some(f3)], c6), [0, 16]);
        assert_eq!(h.score([Some(f3), None], c6), 0);
        assert_eq!(bonus(100, &p), 1200);
        h.clear();
        assert_eq!(h.score([Some(e4), Some(f3)], c6), 0);
    }

    #[test]
    fn scale_32_is_ethereal_12s_update() {
        // history.c: entry += 32 * delta - entry * abs(delta) / 512, delta = ±min(d², 400).
        let p = Params { scale: 32, max_bonus: 400, ..Params::default() };
        let ethereal = |entry: i32, delta: i32| entry + 32 * delta - entry * delta.abs() / 512;
        let (mut ours, mut theirs) = (0, 0);
        for (i, depth) in [3, 7, 1, 12, 25, 5, 9, 2, 30, 4].iter().cycle().take(200).enumerate() {
            let sign = if i % 3 == 2 { -1 } else { 1 };
            ours = gravity(ours, sign * bonus(*depth, &p), p.limit);
            theirs = ethereal(theirs, sign * (depth * depth).min(400));
            assert_eq!(ours, theirs, "update {i}");
        }
        assert_eq!(bonus(4, &p), 512);
        assert_eq!(bonus(100, &p), 12800);
        let beyond = Params { scale: 64, ..Params::default() };
        assert_eq!(bonus(100, &beyond), 16384, "a bonus never passes the bound");
    }

    #[test]
    fn a_first_quiet_cut_off_learns_only_from_first_quiet_min_depth() {
        let every = Params::default();
        assert!(learns(1, 0, &every), "0: every cut-off learns");
        let ethereal = Params { first_quiet_min_depth: 4, ..every };
        assert!(!learns(3, 0, &ethereal), "Ethereal 12: depth <= 3 returns");
        assert!(learns(4, 0, &ethereal));
        assert!(learns(1, 1, &ethereal), "a quiet tried before it: bonus and malus");
    }

    #[test]
    fn a_journal_rolls_every_change_back() {
        let p = Params::default();
        let mut h = ContinuationHistory::default();
        let e4 = Key { piece: Piece::Pawn, to: Square::E4 };
        let c6 = Key { piece: Piece::Knight, to: Square::C6 };
        h.update([Some(e4), None], c6, 100, &p);
        h.begin_journal();
        h.update([Some(e4), Some(e4)], c6, 500, &p);
        h.update([Some(e4), None], c6, -50, &p);
        h.roll_back();
        assert_eq!(h.score([Some(e4), Some(e4)], c6), 100);
        h.update([Some(e4), None], c6, 1, &p);
        h.roll_back();
        assert_eq!(h.score([Some(e4), None], c6), 101, "no journal: nothing to roll back");
    }
}
