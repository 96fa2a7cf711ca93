//! `main_selective` (002, "Эмуляция субъектности" and the channel-breakout listing): two search
//! functions. The main one prunes and reduces nothing; per move it calls the selective one
//! (every pruning and reduction heuristic on) and searches the move again with itself when the
//! selective result is `<= alpha` (or `< beta`, the other listing), so a move the selective
//! search dismissed is looked at once more in full.

use super::params::heuristic_params;
use crate::engine::score::Score;

heuristic_params! {
    /// Parameters of `main_selective`.
    pub struct Params {
        /// Split the search into a main and a selective function.
        pub enabled: bool = false,
        /// Re-search with the main function whenever the selective result is below beta
        /// (002's channel-breakout listing) instead of only when it is `<= alpha`.
        pub research_below_beta: bool = false,
    }
}

/// The main function searches the move again itself.
pub fn research(selective: Score, alpha: Score, beta: Score, params: &Params) -> bool {
    if params.research_below_beta {
        selective < beta
    } else {
        selective <= alpha
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn re_search_when_the_selective_search_fails_low() {
        let p = Params::default();
        assert!(research(0, 0, 10, &p));
        assert!(!research(5, 0, 10, &p));
        let below_beta = Params {
            research_below_beta: true,
            ..p
        };
        assert!(research(5, 0, 10, &below_beta));
        assert!(!research(10, 0, 10, &below_beta));
    }
}
