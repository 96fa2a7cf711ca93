//! `quiescence_checks`: the first ply of the quiescence search (the horizon leaf itself, not
//! in check) also searches the quiet moves that give check, after the captures, when neither
//! the stand pat nor a capture reached beta. Below them the search goes on as before: all
//! evasions of the check (001), then captures only, so a mate one quiet check beyond the
//! horizon is seen and the search stays bounded. Stockfish searched quiet checks at the first
//! quiescence ply from 2008 until 2024 (Chess Programming Wiki, "Quiescence Search § Checks");
//! Ethereal 12 does not. Checks that lose material by static exchange are left out, as
//! Stockfish left out every quiescence move that does.
//!
//! Why `modern` has it: a null move reduced by Ethereal 12's `R` sends the opponent's reply
//! straight into quiescence, where a captures-only search cannot see a quiet mate. In WAC.001
//! (Qg6, threatening Qh7#) Black's null move after Qg6 then failed high on a quiescence search
//! that never looked at Qh7, and `modern` played Ne8 through depth 11. With the checks it
//! finds the mate at depth 2.
//!
//! What it costs: 4% more nodes on the bench at depth 9 and about 10% fewer nodes a second.
//! In games (3 s + 0.03 s, 200 games in pairs, a check, not a committed report) `modern`
//! without it scored −6.9 Elo [−39.4, +25.4] against `modern`: no difference shown either way.

use super::params::heuristic_params;
use super::view::Decision;
use crate::engine::movegen::MoveList;

heuristic_params! {
    /// Parameters of `quiescence_checks`.
    pub struct Params {
        /// Search quiet checks at the first quiescence ply.
        pub enabled: bool = false,
        /// Leave out a check whose static exchange loses material.
        pub skip_losing: bool = true,
    }
}

/// The quiet checks this quiescence node searches (`generate` lists them, losing ones left
/// out by `skips`, asked only where the heuristic applies): the horizon leaf (`qdepth` 0)
/// outside check applies; it acts when it has a quiet check to search. The search asks once
/// the stand pat and the captures stayed below beta.
pub fn searches(
    qdepth: i32,
    in_check: bool,
    generate: impl FnOnce() -> MoveList,
) -> Decision<MoveList> {
    let applies = qdepth == 0 && !in_check;
    let checks = if applies { generate() } else { MoveList::default() };
    Decision::with(applies, (!checks.is_empty()).then_some(checks))
}

/// Leave this check out: it loses material by static exchange (`exchange`, asked only when
/// `skip_losing` is on).
pub fn skips(exchange: impl FnOnce() -> i32, params: &Params) -> bool {
    params.skip_losing && exchange() < 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_check() -> MoveList {
        let mut list = MoveList::default();
        list.push("d1h5".parse().unwrap());
        list
    }

    #[test]
    fn only_at_the_horizon_leaf_outside_check() {
        assert!(searches(0, false, one_check).acts());
        assert!(!searches(0, false, MoveList::default).acts());
        assert!(searches(0, false, MoveList::default).applies());
        assert!(!searches(1, false, one_check).applies(), "deeper quiescence plies");
        assert!(!searches(0, true, one_check).applies(), "in check: the evasions");
    }

    #[test]
    fn losing_checks_are_left_out_when_asked() {
        let p = Params::default();
        assert!(skips(|| -200, &p));
        assert!(!skips(|| 0, &p));
        assert!(!skips(|| -200, &Params { skip_losing: false, ..p }));
    }
}
