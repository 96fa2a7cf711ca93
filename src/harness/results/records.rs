//! The record types of a results file, the key that identifies a search, and the plan of a
//! run's searches.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::audit::AuditRow;
use crate::engine::config::{Limits, SearchConfig};
use crate::engine::stats::{Counter, Counters, HeuristicCounters};
use crate::engine::width::WidthTally;
use crate::harness::design::Design;
use crate::harness::provenance::Provenance;
use crate::harness::variant::Variant;

/// The results format written by this searchlab: 2 = heuristic counters follow the rules of
/// `engine::stats` (one meaning, forms under their own keys).
pub const FORMAT: u32 = 2;

/// Which part of the task list this process runs: `index` of `count` (1-based).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Shard {
    /// 1-based index.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl Shard {
    /// A command's `--shard`, when given.
    pub fn from_arg(text: Option<&str>) -> Result<Option<Shard>, String> {
        text.map(Shard::parse).transpose()
    }

    /// Parse `I/N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| format!("--shard is I/N, got '{text}'"))?;
        let index: usize = i.parse().map_err(|_| format!("--shard: bad index '{i}'"))?;
        let count: usize = n.parse().map_err(|_| format!("--shard: bad count '{n}'"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("--shard: need 1 <= I <= N, got {index}/{count}"));
        }
        Ok(Shard { index, count })
    }
}

/// The first record of a results file: what the run is.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Header {
    /// Always `header`.
    #[serde(rename = "type")]
    pub kind: String,
    /// searchlab's version and commit, the network, when the run started, the cores.
    #[serde(flatten)]
    pub provenance: Provenance,
    /// The limits of every search.
    pub limits: Limits,
    /// The variants, with every parameter.
    pub variants: Vec<Variant>,
    /// The suites, as given.
    pub suites: Vec<String>,
    /// The seeds each variant runs with.
    pub seeds: Vec<u64>,
    /// The shard, when the run is split.
    pub shard: Option<Shard>,
    /// The results format (`FORMAT`); missing in files written before the counting rules of
    /// `engine::stats`, whose counters are then not read.
    #[serde(default)]
    pub format: Option<u32>,
    /// The EPD line of every position searched, suite by suite: with the variants, seeds and
    /// shard it fixes the searches the file must hold (`planned`), so that an incomplete or
    /// damaged file is told from a complete one. Absent in files written before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub positions: Option<Vec<Vec<usize>>>,
    /// Searches of the run that a merge did not find in any shard.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<RecordKey>,
    /// The pruning audit's sampling rate (`--audit`), when the searches were audited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audit: Option<f64>,
    /// How the variants were made (`--ablation pairs`, `--sweep`), when a design made them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub design: Option<Design>,
    /// The in-process searches record their width by depth (`--width`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub width: bool,
}

impl Header {
    /// Two headers describe the same run (date, commit and cores aside; the network is not).
    pub fn same_run(&self, other: &Header) -> bool {
        let same_positions = match (&self.positions, &other.positions) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        self.limits == other.limits
            && self.provenance.network() == other.provenance.network()
            && self.variants == other.variants
            && self.suites == other.suites
            && self.seeds == other.seeds
            && self.shard == other.shard
            && self.format == other.format
            && self.audit == other.audit
            && self.width == other.width
            && self.design == other.design
            && same_positions
    }

    /// The searches of this file, in the order a run makes them: variants, then suites,
    /// positions and seeds (randomised variants only repeat over seeds), this shard's share.
    /// `None` when the header does not record its positions.
    pub fn planned(&self) -> Option<Vec<RecordKey>> {
        self.planned_in(self.shard)
    }

    /// The searches of the whole run, every shard included.
    pub fn planned_whole(&self) -> Option<Vec<RecordKey>> {
        self.planned_in(None)
    }

    fn planned_in(&self, shard: Option<Shard>) -> Option<Vec<RecordKey>> {
        let positions = self.positions.as_ref()?;
        let mut keys = Vec::new();
        let mut index = 0usize;
        for variant in &self.variants {
            let seeds = if randomised(&variant.config) {
                &self.seeds[..]
            } else {
                &self.seeds[..self.seeds.len().min(1)]
            };
            for (suite, lines) in self.suites.iter().zip(positions) {
                for &line in lines {
                    for &seed in seeds {
                        if shard.is_none_or(|s| index % s.count == s.index - 1) {
                            keys.push(RecordKey::new(&variant.label, suite, line, seed));
                        }
                        index += 1;
                    }
                }
            }
        }
        Some(keys)
    }
}

/// The configuration draws random numbers, so its searches repeat over the run's seeds.
pub fn randomised(config: &SearchConfig) -> bool {
    config
        .heuristics
        .enabled_ids()
        .iter()
        .any(|id| id.info().randomised)
}

/// One completed iteration, as recorded.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct IterationRecord {
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Interior nodes of this iteration.
    pub interior: u64,
    /// Horizon leaves of this iteration.
    pub horizon: u64,
    /// Quiescence nodes of this iteration.
    pub quiescence: u64,
    /// Beta cut-offs by a move at interior nodes.
    pub cutoffs: u64,
    /// Of which by the node's first move.
    pub first_move_cutoffs: u64,
    /// Sum of the cutting move's 1-based index over `cutoffs`. This and the quiescence
    /// cut-off counts are absent from files written before they were recorded and for
    /// external engines, which report no cut-offs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cutoff_index_sum: Option<u64>,
    /// Beta cut-offs by a move in the quiescence search (stand pat excluded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiescence_cutoffs: Option<u64>,
    /// Of which by the node's first move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiescence_first_move_cutoffs: Option<u64>,
    /// Sum of the cutting move's 1-based index over `quiescence_cutoffs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiescence_cutoff_index_sum: Option<u64>,
    /// Milliseconds since the search started.
    pub time_ms: f64,
    /// Score (centipawns, side to move).
    pub score: i32,
    /// Best move (UCI).
    pub best_move: Option<String>,
    /// Principal variation (UCI).
    pub pv: String,
}

/// One (variant, position, seed) search.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionRecord {
    /// Always `position`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The variant's label.
    pub variant: String,
    /// The suite file.
    pub suite: String,
    /// Line in the suite.
    pub line: usize,
    /// The position's id.
    pub id: String,
    pub seed: u64,
    /// The position.
    pub fen: String,
    /// Every completed iteration.
    pub iterations: Vec<IterationRecord>,
    /// Per heuristic counters of the whole search (an engine's: from its counter lines).
    pub counters: RecordCounters,
    /// Every node of the search.
    pub nodes: u64,
    /// Wall time of the search, ms.
    pub time_ms: f64,
    /// The move played (UCI).
    pub best_move: Option<String>,
    /// In `bm` and not in `am`; `None` when the position has neither.
    pub solved: Option<bool>,
    /// STS points of the move played, when the position has points.
    pub points: Option<u32>,
    /// Time of the first iteration from which the best move stayed correct, ms.
    pub time_to_solution_ms: Option<f64>,
    /// Depth of that iteration.
    pub depth_to_solution: Option<u32>,
    /// Why an external engine's search failed (crash, hang, illegal move).
    #[serde(default)]
    pub failure: Option<String>,
    /// The pruning audit of the search (`--audit`): per decision and remaining depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audit: Option<Vec<AuditRow>>,
    /// The tree's width by remaining depth (`--width`), in-process searches only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<WidthTally>,
}

/// A record's counters: searchlab's own, and the ones an engine's counter lines
/// (`docs/protocol.md`) name that searchlab does not know, kept rather than dropped. One map
/// in the file, keyed by name; counters that never counted are left out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordCounters {
    pub known: HeuristicCounters,
    pub other: BTreeMap<String, Counters>,
}

impl RecordCounters {
    /// The counts of one of searchlab's counters.
    pub fn get(&self, counter: Counter) -> Counters {
        self.known.get(counter)
    }

    /// From an engine's counter lines: a name searchlab knows goes to its counter.
    pub fn from_lines(lines: &[(String, Counters)]) -> RecordCounters {
        let mut counters = RecordCounters::default();
        for (name, counts) in lines {
            counters.set(name, *counts);
        }
        counters
    }

    fn set(&mut self, name: &str, counts: Counters) {
        match Counter::from_key(name) {
            Some(counter) => self.known.set(counter, counts),
            None if counts != Counters::default() => {
                self.other.insert(name.to_string(), counts);
            }
            None => {}
        }
    }

    /// Every counter that counted, by name: searchlab's in registry order, then the others
    /// in the order of their names.
    pub fn named(&self) -> impl Iterator<Item = (String, Counters)> + '_ {
        self.known
            .nonzero()
            .map(|(c, counts)| (c.key(), counts))
            .chain(self.other.iter().map(|(n, c)| (n.clone(), *c)))
    }
}

impl From<HeuristicCounters> for RecordCounters {
    fn from(known: HeuristicCounters) -> Self {
        RecordCounters {
            known,
            other: BTreeMap::new(),
        }
    }
}

impl Serialize for RecordCounters {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let map: BTreeMap<String, Counters> = self.named().collect();
        map.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RecordCounters {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, Counters>::deserialize(deserializer)?;
        let mut counters = RecordCounters::default();
        for (name, counts) in map {
            counters.set(&name, counts);
        }
        Ok(counters)
    }
}

impl PositionRecord {
    /// The search this record is the result of.
    pub fn key(&self) -> RecordKey {
        RecordKey::new(&self.variant, &self.suite, self.line, self.seed)
    }
}

/// What identifies one search of a run: resume skips the tasks whose key is in the file, merge
/// keeps one record per key. Built in one place, so the two can never drift apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RecordKey {
    pub variant: String,
    pub suite: String,
    pub line: usize,
    pub seed: u64,
}

impl std::fmt::Display for RecordKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} on {}:{}", self.variant, self.suite, self.line)?;
        if self.seed != 0 {
            write!(f, " seed {}", self.seed)?;
        }
        Ok(())
    }
}

impl RecordKey {
    /// The key of (variant label, suite path as recorded, EPD line, seed).
    pub fn new(variant: &str, suite: &str, line: usize, seed: u64) -> Self {
        RecordKey {
            variant: variant.to_string(),
            suite: suite.to_string(),
            line,
            seed,
        }
    }
}

/// The git commit searchlab was built from (`-dirty` when its tracked files differed), baked
/// in at build time, so it does not depend on the directory the binary runs in.
pub use crate::harness::provenance::git_commit;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse() {
        assert_eq!(Shard::parse("1/2"), Ok(Shard { index: 1, count: 2 }));
        assert!(Shard::parse("0/2").is_err());
        assert!(Shard::parse("3/2").is_err());
        assert!(Shard::parse("x").is_err());
    }
}
