//! `mate_history` (002, "Игра на мат"): a second `[side][from][to]` table for moves whose score
//! went beyond the mate bound, with a random bonus `20 + rand() % 7` from the search's seeded
//! PRNG; halved (not cleared) at every root search, so it keeps an average of the game's
//! mating attacks. Quiet moves sort by `history + mate_history`. The table lives beside the
//! history table (`history.rs`), which halves both when an entry exceeds `max_hist`.

use super::params::heuristic_params;

heuristic_params! {
    /// Parameters of `mate_history`.
    pub struct Params {
        /// Keep and use the mate-history table.
        pub enabled: bool = false,
        /// Fixed part of the bonus (002: 20).
        pub bonus_base: i32 [0..=10000] = 20,
        /// Random part: `rand() % bonus_random` (002: 7).
        pub bonus_random: u32 [1..=10000] = 7,
    }
}

/// The bonus for a mating move, from one PRNG draw.
pub fn bonus(draw: u32, params: &Params) -> i32 {
    params.bonus_base + (draw % params.bonus_random.max(1)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bonus_is_twenty_to_twenty_six() {
        let p = Params::default();
        let bonuses: Vec<i32> = (0..100).map(|d| bonus(d, &p)).collect();
        assert_eq!(*bonuses.iter().min().unwrap(), 20);
        assert_eq!(*bonuses.iter().max().unwrap(), 26);
    }
}
