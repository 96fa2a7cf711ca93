//! `iir`: internal iterative reduction (Chess Programming Wiki, "Internal Iterative
//! Reductions"; Ed Schröder's idea, in Stockfish since 2021, Ethereal, Weiss): a node deep
//! enough that the transposition table holds no move for it is searched one ply shallower. It
//! replaces internal iterative deepening: the node is probably unimportant (no earlier search
//! reached it), and if it matters the next iteration finds it with a hash move. It needs the
//! transposition table (without one no node has a hash move, and every node would be reduced).

use super::params::heuristic_params;

heuristic_params! {
    /// Parameters of `iir`.
    pub struct Params {
        /// Reduce nodes without a hash move.
        pub enabled: bool = false,
        /// The shallowest remaining depth it applies at.
        pub min_depth: i32 [2..=32] = 4,
        /// Plies taken off.
        pub reduction: i32 [1..=4] = 1,
    }
}

/// The depth the node is searched to.
pub fn depth(depth: i32, has_hash_move: bool, in_check: bool, params: &Params) -> i32 {
    if has_hash_move || in_check || depth < params.min_depth {
        depth
    } else {
        depth - params.reduction
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduces_only_deep_nodes_without_a_hash_move_outside_check() {
        let p = Params::default();
        assert_eq!(depth(6, false, false, &p), 5);
        assert_eq!(depth(6, true, false, &p), 6);
        assert_eq!(depth(3, false, false, &p), 3);
        assert_eq!(depth(6, false, true, &p), 6);
    }
}
