//! What a report says, as one serialisable value: the [`Analysis`] and its parts. The
//! analysis (`report::analyse`) fills it from results files; the Markdown, the CSV tables and
//! the charts only read it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::config::Limits;
use crate::harness::compare::{Interval, PairedRatio};
use crate::harness::results::{IterationRecord, PositionRecord};

/// What the report is about: printed in every title.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    /// Suite file names.
    pub suites: Vec<String>,
    /// The search limit, e.g. `depth 7`.
    pub limit: String,
    /// Date(s) of the runs.
    pub date: String,
    /// searchlab commit(s) of the runs.
    pub commits: Vec<String>,
    /// Results files.
    pub files: Vec<String>,
    /// Seeds of the runs.
    pub seeds: Vec<u64>,
    /// What the files lack of the runs they belong to (shards not given, searches missing):
    /// the report says so at its top.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incomplete: Vec<String>,
}

impl Meta {
    /// `suite · limit · date`, the line every chart title carries.
    pub fn caption(&self) -> String {
        format!(
            "{} · {} · {}",
            self.suites.join(", "),
            self.limit,
            self.date
        )
    }
}

/// A solve rate with its Wilson interval.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct SolveRate {
    /// Positions solved.
    pub solved: usize,
    /// Positions with a bm/am to judge.
    pub judged: usize,
    /// Wilson 95% interval of the rate.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

/// Paired solve difference to the baseline.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct SolveDifference {
    /// Solved by this variant, not by the baseline.
    pub only_variant: u64,
    /// Solved by the baseline, not by this variant.
    pub only_baseline: u64,
    /// Exact McNemar two-sided p.
    pub p: f64,
}

/// One point of a variant's depth curve.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct DepthPoint {
    /// Iteration depth.
    pub depth: u32,
    /// Geometric mean over positions of the nodes spent up to and including this depth.
    pub nodes: Interval,
    /// Geometric mean over positions of the milliseconds to finish this depth.
    pub time_ms: Interval,
}

/// Mean ± interval across seeds of per-seed totals (randomised variants only).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct AcrossSeeds {
    /// Total nodes of one seed's run.
    pub total_nodes: Interval,
    /// Positions solved in one seed's run.
    pub solved: Option<Interval>,
}

/// A heuristic's counters summed over a variant's searches.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CounterRates {
    /// The counter's key: a registry id, or `id.form` for one form of it.
    pub heuristic: String,
    /// The decision was evaluated where the heuristic applies.
    pub tested: u64,
    /// The heuristic acted.
    pub fired: u64,
    /// A verification or re-search cancelled the action.
    pub overruled: u64,
}

impl CounterRates {
    /// `fired / tested`.
    pub fn fired_rate(&self) -> Option<f64> {
        (self.tested > 0).then(|| self.fired as f64 / self.tested as f64)
    }

    /// `overruled / fired`.
    pub fn overruled_rate(&self) -> Option<f64> {
        (self.fired > 0).then(|| self.overruled as f64 / self.fired as f64)
    }
}

/// Everything the report says about one variant.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct VariantAnalysis {
    pub label: String,
    /// Heuristics SPEC (or engine command).
    pub spec: String,
    /// Position records (all seeds).
    pub records: usize,
    /// Distinct positions.
    pub positions: usize,
    /// Records that failed (external engines).
    pub failures: usize,
    /// Solve rate over every record with a bm/am.
    pub solved: Option<SolveRate>,
    /// Paired solve difference to the baseline (positions both judged, first seed).
    pub solve_difference: Option<SolveDifference>,
    /// STS points, if the suite has them.
    pub points: Option<u64>,
    /// Total nodes over every record.
    pub total_nodes: u64,
    /// Geometric mean of nodes per position.
    pub nodes: Option<Interval>,
    /// The engine that searched, when not searchlab: its `id name` (or command).
    #[serde(default)]
    pub engine: Option<String>,
    /// The variant and the baseline are different engines, whose nodes count different
    /// things: no node ratio is computed, only solves and times compare.
    #[serde(default)]
    pub other_engine: bool,
    /// Nodes of this variant over the baseline's, position by position.
    pub node_ratio: Option<PairedRatio>,
    /// Time of this variant over the baseline's, position by position.
    pub time_ratio: Option<PairedRatio>,
    /// Effective branching factor at the last completed depth d, `(N_d / N_{d-2})^(1/2)`,
    /// geometric mean over positions.
    pub ebf: Option<Interval>,
    /// The same EBF at each depth from 3 on.
    #[serde(default)]
    pub ebf_by_depth: Vec<(u32, Interval)>,
    /// Pooled share of the interior nodes' beta cut-offs made by the first move.
    pub first_move_cutoff_rate: Option<f64>,
    /// Pooled mean 1-based index of the move that cut an interior node.
    #[serde(default)]
    pub mean_cutoff_index: Option<f64>,
    /// The same two measures over the quiescence nodes' cut-offs (stand pat excluded).
    #[serde(default)]
    pub quiescence_first_move_cutoff_rate: Option<f64>,
    /// Mean index of the cutting capture in quiescence.
    #[serde(default)]
    pub quiescence_mean_cutoff_index: Option<f64>,
    /// Per-position first-move cut-off rate, mean with t interval.
    pub first_move_cutoff_rate_mean: Option<Interval>,
    /// Total search time, seconds.
    pub time_s: f64,
    /// Nodes and time by depth.
    pub depth_curve: Vec<DepthPoint>,
    /// `solved_by_depth[d]`: records solved at depth ≤ d.
    pub solved_by_depth: Vec<(u32, usize)>,
    /// Times to solution of every solved record, ascending (ms).
    pub solution_times_ms: Vec<f64>,
    /// Heuristic counters with non-zero `tested`.
    pub counters: Vec<CounterRates>,
    /// Spread across seeds, when the variant ran with more than one.
    pub across_seeds: Option<AcrossSeeds>,
}

/// The whole report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Analysis {
    /// What was run.
    pub meta: Meta,
    /// The variant every ratio is taken against.
    pub baseline: String,
    /// Variants in the order of the files.
    pub variants: Vec<VariantAnalysis>,
    /// The statistical tests named in the report, for the reader.
    pub methods: BTreeMap<String, String>,
    /// The pruning audit of each audited variant (`run --audit`).
    #[serde(default)]
    pub audits: Vec<super::audit::VariantAudit>,
    /// The interaction matrix (`run --ablation pairs`).
    #[serde(default)]
    pub interactions: Option<Interactions>,
    /// The curves of each swept parameter (`run --sweep`).
    #[serde(default)]
    pub sweeps: Vec<SweepCurve>,
}

/// One heuristic toggled alone.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SingleEffect {
    pub heuristic: String,
    pub label: String,
    /// Nodes over the base's.
    pub node_ratio: Option<Interval>,
    /// Solved minus the base's solved (positions both judged).
    pub solved_delta: Option<i64>,
}

/// One pair of heuristics toggled together.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PairEffect {
    pub a: String,
    pub b: String,
    pub label: String,
    /// Positions all four variants (base, A, B, A+B) searched.
    pub positions: usize,
    /// Nodes of A+B over the base's.
    pub node_ratio: Option<Interval>,
    /// The product of the two single ratios: the independent prediction.
    pub predicted_ratio: Option<f64>,
    /// `ratio(A+B) / (ratio(A) · ratio(B))` with its interval.
    pub synergy: Option<Interval>,
    /// Wilcoxon signed-rank p of the log synergies against 0.
    pub synergy_p: Option<f64>,
    /// `Σ s(AB) − s(A) − s(B) + s(base)` over the positions all four judged, with its interval.
    pub solve_interaction: Option<Interval>,
}

/// The interaction matrix.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Interactions {
    pub base: String,
    pub heuristics: Vec<String>,
    pub singles: Vec<SingleEffect>,
    pub pairs: Vec<PairEffect>,
}

/// One value of a swept parameter.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepValue {
    pub value: f64,
    pub label: String,
    /// The point is the base configuration (its values are the base's): the base's results,
    /// searched once. Written only when true, so that a report of a sweep without such a point
    /// renders as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_base: bool,
    /// Nodes over the report's baseline, with its interval.
    pub node_ratio: Option<Interval>,
    pub solved: Option<SolveRate>,
}

/// The points of one parameter with every other swept parameter held at `fixed`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepSeries {
    /// The other parameters' values (`id.param`, value); empty for a one-parameter sweep.
    pub fixed: Vec<(String, f64)>,
    pub points: Vec<SweepValue>,
}

/// A swept parameter's curves.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepCurve {
    /// `id.param`.
    pub param: String,
    /// The documents' default value.
    pub default: f64,
    pub series: Vec<SweepSeries>,
}

/// A limit in words.
pub fn describe_limits(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(depth) = limits.depth {
        parts.push(format!("depth {depth}"));
    }
    if let Some(nodes) = limits.nodes {
        parts.push(format!("{nodes} nodes"));
    }
    if let Some(ms) = limits.movetime_ms {
        parts.push(format!("{ms} ms per position"));
    }
    if parts.is_empty() {
        "no limit".into()
    } else {
        parts.join(", ")
    }
}

pub fn iteration_nodes(it: &IterationRecord) -> u64 {
    it.interior + it.horizon + it.quiescence
}

/// Position identity across variants and seeds.
pub type PositionKey = (String, usize);

pub fn position_key(r: &PositionRecord) -> PositionKey {
    (r.suite.clone(), r.line)
}

impl Analysis {
    /// The top of a "positions solved" axis: scaled to the most any variant solved, not to the
    /// suite (whose size the axis label names), so that curves that stop at 40% fill the
    /// chart.
    pub fn solved_axis_top(&self) -> f64 {
        let judged = self.judged();
        let most = self
            .variants
            .iter()
            .filter_map(|v| v.solved.map(|s| s.solved))
            .max()
            .unwrap_or(judged)
            .max(1);
        (most as f64 * 1.1).min(judged as f64 * 1.02).max(1.0)
    }

    /// The deepest iteration any variant completed (depth axes).
    pub fn max_depth(&self) -> u32 {
        self.variants
            .iter()
            .flat_map(|v| v.depth_curve.iter().map(|p| p.depth))
            .max()
            .unwrap_or(1)
    }

    /// The most positions any variant was judged on (solve-count axes).
    pub fn judged(&self) -> usize {
        self.variants
            .iter()
            .filter_map(|v| v.solved.map(|s| s.judged))
            .max()
            .unwrap_or(1)
            .max(1)
    }
}
