//! `quiescence` (000, 001): at the horizon, search captures only (Ifrit's "forced variant").
//! Stand pat on the static evaluation (Ifrit: material only), return it at once when it
//! reaches beta, otherwise raise alpha with it and search the captures in MVV/LVA order,
//! fail-soft. 001 adds: when in check, search all evasions (no stand pat). With legal move
//! generation a king is never captured, so Ifrit's king-capture score becomes the ordinary mate
//! score, shortest mate first.

use super::params::heuristic_params;
use crate::engine::eval::EvalKind;

heuristic_params! {
    /// Parameters of `quiescence`.
    pub struct Params {
        /// Search captures at the horizon.
        pub enabled: bool = false,
        /// The stand-pat evaluation: `material` (Ifrit, 000) or `full`.
        pub eval: EvalKind = EvalKind::Material,
        /// In check, search every evasion (001) instead of standing pat.
        pub evasions: bool = true,
    }
}
