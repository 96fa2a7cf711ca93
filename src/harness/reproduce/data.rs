//! The reproduction as data: Ifrit's rows, ours, and the whole run as written to
//! `reproduction.json`. The search (`reproduce::reproduce`) fills it; the Markdown and the
//! chart only read it.

use crate::harness::provenance::Provenance;
use serde::{Deserialize, Serialize};

/// Which of the documents' tables a row belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Table {
    /// 000: minimax with and without quiescence.
    Quiescence,
    /// 003: alpha-beta with and without killers.
    Killers,
}

/// One row of a document, as printed there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocumentRow {
    pub table: Table,
    /// Our preset that plays the document's configuration.
    pub variant: String,
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Time as printed, in seconds.
    pub time_s: u32,
    pub nodes: u64,
    /// Nodes per second as printed (`1` in 000's minimax rows, which print no real rate).
    pub nps: u64,
    /// Score, centipawns.
    pub score_cp: i32,
    /// Principal variation as printed (empty when the document says "same as above" or
    /// prints none).
    pub pv: String,
}

/// Ifrit's rows as the documents print them (reference-tables.md, from 000 and 003), kept as
/// data in `ifrit.json` beside this file.
pub fn document_rows() -> Vec<DocumentRow> {
    serde_json::from_str(include_str!("ifrit.json")).expect("ifrit.json is valid")
}

/// perft of the start position, which minimax's horizon leaves must equal (000).
pub fn startpos_perft(depth: u32) -> Option<u64> {
    [1, 20, 400, 8_902, 197_281, 4_865_609, 119_060_324]
        .get(depth as usize)
        .copied()
}

/// One of our rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub table: Table,
    /// The SPEC searched: a document preset, with any of `FULL_EVAL`, `SCRATCH_LEAF`,
    /// `SHUFFLED` appended.
    pub variant: String,
    /// The search's seed: which shuffled order (0 for the rows in generation order).
    #[serde(default)]
    pub seed: u64,
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// This iteration's time, ms.
    pub time_ms: f64,
    /// This iteration's nodes (interior + horizon + quiescence).
    pub nodes: u64,
    /// Of which interior nodes.
    #[serde(default)]
    pub interior: u64,
    /// Of which horizon leaves (Ifrit's convention: its minimax-q counts equal perft).
    pub horizon: u64,
    /// Of which quiescence nodes.
    pub quiescence: u64,
    /// Nodes per second over the iteration.
    pub nps: u64,
    /// Score, centipawns, side to move.
    pub score_cp: i32,
    /// PV in the documents' long notation.
    pub pv: String,
}

impl Row {
    /// The number the documents' `nodes` column holds. Ifrit counts horizon leaves only: its
    /// minimax-q rows equal perft exactly, so neither interior nor quiescence nodes are in
    /// them, and the same counter prints 003's table.
    pub fn document_nodes(&self) -> u64 {
        self.horizon
    }

    /// Nodes per second in the documents' convention (horizon leaves per second).
    pub fn document_nps(&self) -> u64 {
        if self.time_ms > 0.0 {
            (self.horizon as f64 / (self.time_ms / 1000.0)) as u64
        } else {
            0
        }
    }
}

/// The SPEC suffix of the full-evaluation form: the stand pat is our whole evaluation and a
/// side in check searches its evasions (the presets follow 000: material, no check detector).
pub const FULL_EVAL: &str = ",quiescence.eval=full,quiescence.evasions=true";
/// The SPEC suffix of a leaf evaluated from scratch, as Ifrit's plain leaf does.
pub const SCRATCH_LEAF: &str = ",leaf_eval=scratch";
/// The SPEC suffix of the seeded shuffle of unsorted quiet moves.
pub const SHUFFLED: &str = ",quiet_order=shuffled";

/// Ifrit's three configurations of 003, in the documents' order.
pub const KILLER_PRESETS: [&str; 3] = ["ifrit-plain", "ifrit-killers", "ifrit-capture-killers"];

/// What `reproduce` is asked for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// Stop at depth 5 (quiescence) and 7 (killers), for CI.
    pub quick: bool,
    /// Shuffled-order searches run at once (the timed searches always run one at a time).
    pub jobs: usize,
    /// Shuffled quiet orders searched at depth 7.
    #[serde(default)]
    pub shuffles: u64,
    /// Shuffled quiet orders searched at depth 8.
    #[serde(default)]
    pub deep_shuffles: u64,
}

/// The whole reproduction, as written to `reproduction.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reproduction {
    pub options: Options,
    /// searchlab's version and commit, the network, when it ran (UTC, RFC 3339), the cores.
    #[serde(flatten)]
    pub provenance: Provenance,
    /// Wall time of the whole command, seconds.
    pub wall_s: f64,
    /// Our rows, quiescence table first, in the documents' order.
    pub rows: Vec<Row>,
    /// Ifrit's rows.
    pub document: Vec<DocumentRow>,
}

impl Reproduction {
    /// Our row for `variant` at `depth` (in generation order).
    pub fn ours(&self, variant: &str, depth: u32) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.variant == variant && r.depth == depth && r.seed == 0)
    }

    /// Our shuffled-order rows of `preset` (full-evaluation form) at `depth`, by seed.
    pub fn shuffled(&self, preset: &str, depth: u32) -> Vec<&Row> {
        let variant = format!("{preset}{FULL_EVAL}{SHUFFLED}");
        let mut rows: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.variant == variant && r.depth == depth && r.seed > 0)
            .collect();
        rows.sort_by_key(|r| r.seed);
        rows
    }

    /// Ifrit's row for `variant` at `depth`.
    pub fn theirs(&self, variant: &str, depth: u32) -> Option<&DocumentRow> {
        self.document
            .iter()
            .find(|r| r.variant == variant && r.depth == depth)
    }
}
