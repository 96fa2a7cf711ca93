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
    }
}
