//! `pvs`: principal variation search (Chess Programming Wiki, "Principal Variation Search";
//! Marsland and Campbell 1982, Reinefeld's NegaScout 1983): the first move of a node is
//! searched with the full window; every later move with a null window around alpha, to prove
//! that it is no better; one that fails high is searched again with the full window. With good
//! ordering almost every null-window search holds, and it is much cheaper. Counted per later
//! move: `fired` when it got the null window, `overruled` when it was searched again.
//!
//! 002's nega-scout (`iid_null_window`) is its own form of the same scheme, so the two are not
//! combined (validation refuses it).

use super::params::heuristic_params;
use super::view::Decision;

heuristic_params! {
    /// Parameters of `pvs`.
    pub struct Params {
        /// Null-window search of every move after the first.
        pub enabled: bool = false,
    }
}

/// The move is searched first with a null window: it applies to every move after the first
/// while the node's window is wider than null (in a null window every search already is one),
/// and always acts there: PVS is a scheme, not a guess, and its rate to read is the re-search
/// rate, overruled / fired.
pub fn null_window(move_number: usize, alpha: i32, beta: i32) -> Decision {
    Decision::when(move_number > 1 && beta - alpha > 1, true)
}

/// A null-window score that calls for the full-window search.
pub fn research(score: i32, alpha: i32, beta: i32) -> bool {
    score > alpha && score < beta
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_moves_of_wide_windows_get_a_null_window() {
        assert!(!null_window(1, -50, 50).acts());
        assert!(null_window(2, -50, 50).acts());
        assert!(!null_window(5, 10, 11).acts(), "already a null window");
    }

    #[test]
    fn a_fail_high_inside_the_window_is_searched_again() {
        assert!(research(20, 10, 50));
        assert!(!research(10, 10, 50), "failed low");
        assert!(!research(50, 10, 50), "a cut-off needs no exact score");
    }
}
