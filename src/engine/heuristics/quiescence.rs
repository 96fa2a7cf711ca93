//! `quiescence` (000, 001): at the horizon, search captures only (Ifrit's "forced variant").
//! Stand pat on the static evaluation (Ifrit: material only), return it at once when it
//! reaches beta, otherwise raise alpha with it and search the captures in MVV/LVA order,
//! fail-soft. 001 adds: when in check, search all evasions (no stand pat). With legal move
//! generation a king is never captured, so Ifrit's king-capture score becomes the ordinary mate
//! score, shortest mate first.
//!
//! The stand-pat evaluation defaults to the full one. 000 says Ifrit's forced variant counts
//! "only material", yet its tables print scores such as +0,26 and +0,12 at the root that
//! material alone cannot produce, so Ifrit's material term must carry its piece-square values.
//! `eval = material` is the literal reading (every quiet line then scores 0 and the search
//! degenerates into generation order).

use super::params::heuristic_params;
use crate::engine::eval::EvalKind;

heuristic_params! {
    /// Parameters of `quiescence`.
    pub struct Params {
        /// Search captures at the horizon.
        pub enabled: bool = false,
        /// The stand-pat evaluation: `full` (default) or `material` (000's literal wording).
        pub eval: EvalKind = EvalKind::Full,
        /// In check, search every evasion (001) instead of standing pat.
        pub evasions: bool = true,
    }
}
