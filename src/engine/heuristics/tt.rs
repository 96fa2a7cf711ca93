//! `tt` (001): the transposition table (`engine/tt.rs`) with the hash move searched first.
//! Stored results cut the search when deep enough and their bound allows; 002's warning is
//! followed: nothing is stored or probed at horizon or quiescence nodes. The root never takes a
//! cut-off from the table, so it always returns a move.

use super::params::heuristic_params;

heuristic_params! {
    /// Parameters of `tt`.
    pub struct Params {
        /// Probe and store the transposition table.
        pub enabled: bool = false,
        /// Use stored scores for cut-offs (off: the table only orders moves).
        pub cutoffs: bool = true,
        /// Search the stored best move first.
        pub hash_move: bool = true,
        /// Slots per bucket, each bucket within one cache line (1: one slot per position, the
        /// table of 001; Stockfish and Ethereal use 3 to 4, replaced by depth and age).
        pub ways: usize [1..=4; structural] = 1,
    }
}
