//! How a run's variants were made, as its results header records it: the cells of an
//! interaction matrix or the points of a parameter sweep, so the report knows which variant is
//! which cell or point without reading meaning into labels. Planned by `plan::design` (our
//! SPECs) and `plan::engine_design` (an engine's options).

use serde::{Deserialize, Serialize};

/// One variant of a pair design: the heuristics toggled against the base (one or two).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PairCell {
    pub label: String,
    /// Heuristic ids, each switched to the state the base does not have it in.
    pub toggled: Vec<String>,
}

/// One swept parameter.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweptParam {
    /// `id.param`.
    pub key: String,
    /// Its values, as given.
    pub values: Vec<f64>,
    /// The specification's default (heuristics.md, the documents).
    pub default: f64,
}

/// One variant of a sweep: a value of each swept parameter, in the order they were given.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepPoint {
    pub label: String,
    pub values: Vec<f64>,
}

/// How a run's variants were made.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Design {
    /// Every single toggle and every pair of `heuristics` over `base`.
    Pairs {
        /// The base variant's label.
        base: String,
        heuristics: Vec<String>,
        cells: Vec<PairCell>,
    },
    /// One variant per value (or grid point) of `params` over `base`.
    Sweep {
        base: String,
        params: Vec<SweptParam>,
        points: Vec<SweepPoint>,
    },
}

impl Design {
    /// The base variant's label.
    pub fn base(&self) -> &str {
        match self {
            Design::Pairs { base, .. } | Design::Sweep { base, .. } => base,
        }
    }
}
