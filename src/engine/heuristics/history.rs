//! `history` (001, 002): a table `[side][from][to]`, `+= 1` whenever a quiet move raises
//! alpha, cleared at the start of each root search; quiet moves are sorted by it. The
//! depth-squared bonus is the documented variant (off by default). The table also holds 002's
//! `mate_history` (see `mate_history.rs`): both are halved together when an entry exceeds
//! `max_hist`, and the quiet-move key is their sum.
//!
//! `gravity` is the form of today's engines (Stockfish's and Ethereal's butterfly history,
//! Chess Programming Wiki "History Heuristic"): only a quiet move that cuts the node off learns,
//! with a bonus of `min(depth², max_bonus)`, and every quiet move tried before it gets the same
//! malus; each entry stays within ±`max_hist` by the update `v += b − v·|b| / max_hist` (the one
//! `continuation_history` uses), so its own updates never halve the table (002's mate history,
//! when on, still halves both), and the table is kept from one root search to the next (what a
//! position taught stays true a move later), cleared with a new game.
//! Off in `modern`: +7.4 Elo [−17.1, +32.1] in self-play (docs/heuristics.md).

use cozy_chess::{Color, Move};

use super::continuation_history::gravity;
use super::params::heuristic_params;

heuristic_params! {
    /// Parameters of `history`.
    pub struct Params {
        /// Sort quiet moves by the history table.
        pub enabled: bool = false,
        /// Add `depth * depth` instead of 1 (the documented variant).
        pub depth_squared: bool = false,
        /// 002's `MAX_HIST`: both tables are halved when an entry exceeds it (our value).
        pub max_hist: i32 [1..=1000000] = 16384,
        /// The modern form: bonus and malus on cut-offs, gravity, kept across searches.
        pub gravity: bool = false,
        /// With `gravity`: the largest bonus (a cap on `depth²`).
        pub max_bonus: i32 [1..=100000] = 1200,
    }
}

type Table = [[[i32; 64]; 64]; 2];

/// The history and mate-history tables.
#[derive(Clone)]
pub struct History {
    history: Box<Table>,
    mate: Box<Table>,
}

impl Default for History {
    fn default() -> Self {
        History {
            history: Box::new([[[0; 64]; 64]; 2]),
            mate: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

fn halve(table: &mut Table) {
    table.iter_mut().flatten().flatten().for_each(|v| *v /= 2);
}

impl History {
    /// A root search begins: history is cleared (kept in the `gravity` form), mate history
    /// halved (002: "an EMA of mating attacks over the game").
    pub fn new_search(&mut self, params: &Params) {
        if !params.gravity {
            self.history
                .iter_mut()
                .flatten()
                .flatten()
                .for_each(|v| *v = 0);
        }
        halve(&mut self.mate);
    }

    /// Forget both tables (a new game).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    fn add(&mut self, mate: bool, side: Color, mv: Move, bonus: i32, max_hist: i32) {
        let table = if mate {
            &mut self.mate
        } else {
            &mut self.history
        };
        let entry = &mut table[side as usize][mv.from as usize][mv.to as usize];
        *entry += bonus;
        if *entry > max_hist {
            halve(&mut self.history);
            halve(&mut self.mate);
        }
    }

    /// A quiet move raised alpha at `depth` (the documents' form; `gravity` learns only from
    /// cut-offs, in `record_cutoff`).
    pub fn record(&mut self, side: Color, mv: Move, depth: i32, params: &Params) {
        if params.gravity {
            return;
        }
        let bonus = if params.depth_squared {
            depth * depth
        } else {
            1
        };
        self.add(false, side, mv, bonus, params.max_hist);
    }

    /// The `gravity` form: quiet `mv` cut the node off at `depth` after the quiet moves
    /// `tried` (which may include `mv`) failed to.
    pub fn record_cutoff(&mut self, side: Color, mv: Move, tried: &[Move], depth: i32, params: &Params) {
        if !params.gravity {
            return;
        }
        let bonus = (depth * depth).min(params.max_bonus);
        let table = &mut self.history[side as usize];
        for &m in tried.iter().filter(|&&m| m != mv) {
            let entry = &mut table[m.from as usize][m.to as usize];
            *entry = gravity(*entry, -bonus, params.max_hist);
        }
        let entry = &mut table[mv.from as usize][mv.to as usize];
        *entry = gravity(*entry, bonus, params.max_hist);
    }

    /// A move's score went beyond the mate bound: 002's mate-history bonus.
    pub fn record_mate(&mut self, side: Color, mv: Move, bonus: i32, max_hist: i32) {
        self.add(true, side, mv, bonus, max_hist);
    }

    /// The history entry of a move.
    pub fn history(&self, side: Color, mv: Move) -> i32 {
        self.history[side as usize][mv.from as usize][mv.to as usize]
    }

    /// The mate-history entry of a move.
    pub fn mate(&self, side: Color, mv: Move) -> i32 {
        self.mate[side as usize][mv.from as usize][mv.to as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_clear_and_halve() {
        let p = Params {
            enabled: true,
            max_hist: 100,
            ..Params::default()
        };
        let mut h = History::default();
        let mv: Move = "e2e4".parse().unwrap();
        h.record(Color::White, mv, 5, &p);
        h.record(Color::White, mv, 5, &p);
        assert_eq!(h.history(Color::White, mv), 2);
        assert_eq!(h.history(Color::Black, mv), 0);
        let sq = Params {
            depth_squared: true,
            ..p
        };
        h.record(Color::White, mv, 3, &sq);
        assert_eq!(h.history(Color::White, mv), 11);
        h.record_mate(Color::White, mv, 24, p.max_hist);
        h.new_search(&p);
        assert_eq!(
            h.history(Color::White, mv),
            0,
            "history cleared per root search"
        );
        assert_eq!(
            h.mate(Color::White, mv),
            12,
            "mate history halved per root search"
        );
    }

    #[test]
    fn the_gravity_form_rewards_the_cutoff_and_punishes_the_moves_before_it() {
        let p = Params {
            enabled: true,
            gravity: true,
            max_hist: 1000,
            max_bonus: 400,
            ..Params::default()
        };
        let mut h = History::default();
        let (cut, before): (Move, Move) = ("g1f3".parse().unwrap(), "a2a3".parse().unwrap());
        h.record(Color::White, cut, 5, &p);
        assert_eq!(h.history(Color::White, cut), 0, "raising alpha teaches nothing");
        h.record_cutoff(Color::White, cut, &[before, cut], 5, &p);
        assert_eq!(h.history(Color::White, cut), 25);
        assert_eq!(h.history(Color::White, before), -25);
        for _ in 0..200 {
            h.record_cutoff(Color::White, cut, &[before], 30, &p);
        }
        let (high, low) = (h.history(Color::White, cut), h.history(Color::White, before));
        assert!((901..=1000).contains(&high), "bounded by max_hist: {high}");
        assert!((-1000..-900).contains(&low), "bounded below too: {low}");
        h.new_search(&p);
        assert_eq!(h.history(Color::White, cut), high, "kept across root searches");
        let documents = Params { gravity: false, ..p };
        h.record_cutoff(Color::White, cut, &[before], 5, &documents);
        assert_eq!(h.history(Color::White, cut), high, "the documents' form ignores cut-offs");
    }

    #[test]
    fn exceeding_max_hist_halves_both_tables() {
        let p = Params {
            enabled: true,
            max_hist: 10,
            ..Params::default()
        };
        let mut h = History::default();
        let a: Move = "e2e4".parse().unwrap();
        let b: Move = "d2d4".parse().unwrap();
        h.record_mate(Color::White, b, 8, p.max_hist);
        for _ in 0..11 {
            h.record(Color::White, a, 1, &p);
        }
        assert_eq!(h.history(Color::White, a), 5);
        assert_eq!(h.mate(Color::White, b), 4);
    }
}
