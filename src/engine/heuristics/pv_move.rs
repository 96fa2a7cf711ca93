//! `pv_move` (001, 002): the move of the previous iteration's principal variation is searched
//! first at each node along that variation (001: "the move from the main line is moved forward
//! in sorting"; 002: "the best move of the previous iteration is looked at first").

use super::params::heuristic_params;

heuristic_params! {
    /// Parameters of `pv_move`.
    pub struct Params {
        /// Search the previous iteration's PV move first along the PV.
        pub enabled: bool = false,
    }
}
