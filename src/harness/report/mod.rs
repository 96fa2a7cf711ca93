//! `searchlab report`: everything a report says is computed here, from results files only
//! (never by searching), into one serialisable [`Analysis`]. The Markdown, the CSV tables and
//! the charts are all drawn from that one value, and `analysis.json` is written beside them, so
//! every number in the Markdown can be found in the JSON.

mod charts;
mod markdown;
mod tables;

pub use charts::CHARTS;
pub use markdown::{markdown, summary_table};
pub use tables::write_csv;

use super::compare::{self, Interval, PairedRatio};
use super::results::{Header, IterationRecord, PositionRecord, read_results};
use crate::engine::config::Limits;
use crate::engine::stats::Counter;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The records of one or more results files.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Files read, in order.
    pub files: Vec<PathBuf>,
    /// Their headers.
    pub headers: Vec<Header>,
    /// Variant labels in first-seen order, with their SPEC.
    pub variants: Vec<(String, String)>,
    /// Every position record.
    pub records: Vec<PositionRecord>,
}

impl Dataset {
    /// Read results files. A variant label may appear in several files only with the same SPEC.
    pub fn read(paths: &[PathBuf]) -> Result<Dataset, String> {
        let mut data = Dataset::default();
        let mut seen_in: BTreeMap<String, PathBuf> = BTreeMap::new();
        for path in paths {
            if !path.is_file() {
                return Err(format!("{}: no such results file", path.display()));
            }
            let (header, records, _) = read_results(path)?;
            let header = header
                .ok_or_else(|| format!("{}: no header line: not a results file", path.display()))?;
            for variant in &header.variants {
                match data
                    .variants
                    .iter()
                    .find(|(label, _)| *label == variant.label)
                {
                    Some((_, spec)) if *spec != variant.spec => {
                        return Err(format!(
                            "{}: variant '{}' is '{}' here but '{}' in {}",
                            path.display(),
                            variant.label,
                            variant.spec,
                            spec,
                            seen_in[&variant.label].display()
                        ));
                    }
                    Some(_) => {}
                    None => {
                        data.variants
                            .push((variant.label.clone(), variant.spec.clone()));
                        seen_in.insert(variant.label.clone(), path.clone());
                    }
                }
            }
            data.records.extend(records);
            data.headers.push(header);
            data.files.push(path.clone());
        }
        if data.records.is_empty() {
            return Err("the results files hold no position records".into());
        }
        Ok(data)
    }
}

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
    /// Condition evaluated.
    pub tested: u64,
    /// Condition held.
    pub fired: u64,
    /// Verification disagreed.
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
    /// Label.
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
    /// Nodes of this variant over the baseline's, position by position.
    pub node_ratio: Option<PairedRatio>,
    /// Time of this variant over the baseline's, position by position.
    pub time_ratio: Option<PairedRatio>,
    /// Effective branching factor: nodes of the last iteration over the one before,
    /// geometric mean over positions.
    pub ebf: Option<Interval>,
    /// Pooled share of beta cut-offs made by the first move.
    pub first_move_cutoff_rate: Option<f64>,
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

fn iteration_nodes(it: &IterationRecord) -> u64 {
    it.interior + it.horizon + it.quiescence
}

/// Position identity across variants and seeds.
type PositionKey = (String, usize);

fn position_key(r: &PositionRecord) -> PositionKey {
    (r.suite.clone(), r.line)
}

/// Per position, the geometric mean over seeds of `value`.
fn per_position(
    records: &[&PositionRecord],
    value: impl Fn(&PositionRecord) -> f64,
) -> BTreeMap<PositionKey, f64> {
    let mut logs: BTreeMap<PositionKey, Vec<f64>> = BTreeMap::new();
    for r in records.iter().filter(|r| r.failure.is_none()) {
        logs.entry(position_key(r))
            .or_default()
            .push(value(r).max(1e-3).ln());
    }
    logs.into_iter()
        .map(|(k, v)| (k, (v.iter().sum::<f64>() / v.len() as f64).exp()))
        .collect()
}

fn paired(
    mine: &BTreeMap<PositionKey, f64>,
    base: &BTreeMap<PositionKey, f64>,
) -> Option<PairedRatio> {
    let (a, b): (Vec<f64>, Vec<f64>) = mine
        .iter()
        .filter_map(|(k, v)| base.get(k).map(|b| (*v, *b)))
        .unzip();
    compare::paired_ratio(&a, &b)
}

/// Analyse `data` against `baseline` (the first variant when `None`).
pub fn analyse(data: &Dataset, baseline: Option<&str>) -> Result<Analysis, String> {
    let baseline = match baseline {
        Some(label) => {
            if !data.variants.iter().any(|(l, _)| l == label) {
                return Err(format!(
                    "baseline '{label}' is not a variant of these results (variants: {})",
                    data.variants
                        .iter()
                        .map(|(l, _)| l.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            label.to_string()
        }
        None => data.variants[0].0.clone(),
    };
    let of = |label: &str| -> Vec<&PositionRecord> {
        data.records.iter().filter(|r| r.variant == label).collect()
    };
    let base_records = of(&baseline);
    let base_nodes = per_position(&base_records, |r| r.nodes as f64);
    let base_time = per_position(&base_records, |r| r.time_ms);
    let base_solved = first_seed_solved(&base_records);
    let variants = data
        .variants
        .iter()
        .map(|(label, spec)| {
            let mine = of(label);
            let is_base = *label == baseline;
            let nodes = per_position(&mine, |r| r.nodes as f64);
            let times = per_position(&mine, |r| r.time_ms);
            VariantAnalysis {
                label: label.clone(),
                spec: spec.clone(),
                records: mine.len(),
                positions: nodes.len(),
                failures: mine.iter().filter(|r| r.failure.is_some()).count(),
                solved: solve_rate(&mine),
                solve_difference: (!is_base)
                    .then(|| solve_difference(&first_seed_solved(&mine), &base_solved))
                    .flatten(),
                points: mine
                    .iter()
                    .any(|r| r.points.is_some())
                    .then(|| mine.iter().filter_map(|r| r.points).map(u64::from).sum()),
                total_nodes: mine.iter().map(|r| r.nodes).sum(),
                nodes: compare::geometric_mean(&nodes.values().copied().collect::<Vec<_>>()),
                node_ratio: (!is_base).then(|| paired(&nodes, &base_nodes)).flatten(),
                time_ratio: (!is_base).then(|| paired(&times, &base_time)).flatten(),
                ebf: compare::geometric_mean(&ebfs(&mine)),
                first_move_cutoff_rate: pooled_first_move_rate(&mine),
                first_move_cutoff_rate_mean: compare::mean_interval(&first_move_rates(&mine)),
                time_s: mine.iter().map(|r| r.time_ms).sum::<f64>() / 1000.0,
                depth_curve: depth_curve(&mine),
                solved_by_depth: solved_by_depth(&mine),
                solution_times_ms: solution_times(&mine),
                counters: counters(&mine),
                across_seeds: across_seeds(&mine),
            }
        })
        .collect();
    Ok(Analysis {
        meta: meta(data),
        baseline,
        variants,
        methods: methods(),
    })
}

fn meta(data: &Dataset) -> Meta {
    let mut suites: Vec<String> = Vec::new();
    let mut limits: Vec<String> = Vec::new();
    let mut dates: Vec<String> = Vec::new();
    let mut commits: Vec<String> = Vec::new();
    let mut seeds: Vec<u64> = Vec::new();
    let push = |list: &mut Vec<String>, item: String| {
        if !list.contains(&item) {
            list.push(item);
        }
    };
    for h in &data.headers {
        for s in &h.suites {
            let name = Path::new(s)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| s.clone());
            push(&mut suites, name);
        }
        push(&mut limits, describe_limits(&h.limits));
        push(&mut dates, h.date.chars().take(10).collect());
        if let Some(c) = &h.commit {
            push(&mut commits, c.clone());
        }
        for s in &h.seeds {
            if !seeds.contains(s) {
                seeds.push(*s);
            }
        }
    }
    Meta {
        suites,
        limit: limits.join(" / "),
        date: dates.join(", "),
        commits,
        files: data.files.iter().map(|f| f.display().to_string()).collect(),
        seeds,
    }
}

fn methods() -> BTreeMap<String, String> {
    [
        ("solved", compare::WILSON),
        ("solve difference", compare::MCNEMAR),
        ("node and time ratios", compare::PAIRED_T_LOG),
        ("ratio p-value", compare::WILCOXON),
        ("across seeds", compare::T_INTERVAL),
        ("geometric means and EBF", "t interval on logs"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

fn solve_rate(records: &[&PositionRecord]) -> Option<SolveRate> {
    let judged: Vec<bool> = records.iter().filter_map(|r| r.solved).collect();
    if judged.is_empty() {
        return None;
    }
    let solved = judged.iter().filter(|s| **s).count();
    let (low, high) = compare::wilson(solved, judged.len());
    Some(SolveRate {
        solved,
        judged: judged.len(),
        low,
        high,
    })
}

/// Solved or not per position, from each position's lowest seed.
fn first_seed_solved(records: &[&PositionRecord]) -> BTreeMap<PositionKey, bool> {
    let mut best: BTreeMap<PositionKey, (u64, bool)> = BTreeMap::new();
    for r in records {
        if let Some(solved) = r.solved {
            let entry = best.entry(position_key(r)).or_insert((r.seed, solved));
            if r.seed < entry.0 {
                *entry = (r.seed, solved);
            }
        }
    }
    best.into_iter().map(|(k, (_, s))| (k, s)).collect()
}

fn solve_difference(
    mine: &BTreeMap<PositionKey, bool>,
    base: &BTreeMap<PositionKey, bool>,
) -> Option<SolveDifference> {
    let mut only_variant = 0;
    let mut only_baseline = 0;
    let mut pairs = 0;
    for (k, solved) in mine {
        if let Some(base_solved) = base.get(k) {
            pairs += 1;
            match (solved, base_solved) {
                (true, false) => only_variant += 1,
                (false, true) => only_baseline += 1,
                _ => {}
            }
        }
    }
    (pairs > 0).then(|| SolveDifference {
        only_variant,
        only_baseline,
        p: compare::mcnemar_exact(only_variant, only_baseline),
    })
}

fn ebfs(records: &[&PositionRecord]) -> Vec<f64> {
    records
        .iter()
        .filter_map(|r| {
            let n = r.iterations.len();
            (n >= 2 && iteration_nodes(&r.iterations[n - 2]) > 0).then(|| {
                iteration_nodes(&r.iterations[n - 1]) as f64
                    / iteration_nodes(&r.iterations[n - 2]) as f64
            })
        })
        .filter(|e| *e > 0.0)
        .collect()
}

fn pooled_first_move_rate(records: &[&PositionRecord]) -> Option<f64> {
    let (first, all) = records
        .iter()
        .flat_map(|r| &r.iterations)
        .fold((0u64, 0u64), |(f, a), it| {
            (f + it.first_move_cutoffs, a + it.cutoffs)
        });
    (all > 0).then(|| first as f64 / all as f64)
}

fn first_move_rates(records: &[&PositionRecord]) -> Vec<f64> {
    records
        .iter()
        .filter_map(|r| {
            let first: u64 = r.iterations.iter().map(|it| it.first_move_cutoffs).sum();
            let all: u64 = r.iterations.iter().map(|it| it.cutoffs).sum();
            (all > 0).then(|| first as f64 / all as f64)
        })
        .collect()
}

fn depth_curve(records: &[&PositionRecord]) -> Vec<DepthPoint> {
    let max_depth = records
        .iter()
        .flat_map(|r| r.iterations.iter().map(|it| it.depth))
        .max()
        .unwrap_or(0);
    let mut curve = Vec::new();
    for depth in 1..=max_depth {
        let mut nodes = Vec::new();
        let mut times = Vec::new();
        for r in records.iter().filter(|r| r.failure.is_none()) {
            if let Some(at) = r.iterations.iter().position(|it| it.depth == depth) {
                let spent: u64 = r.iterations[..=at].iter().map(iteration_nodes).sum();
                nodes.push(spent.max(1) as f64);
                times.push(r.iterations[at].time_ms.max(0.001));
            }
        }
        if let (Some(nodes), Some(time_ms)) = (
            compare::geometric_mean(&nodes),
            compare::geometric_mean(&times),
        ) {
            curve.push(DepthPoint {
                depth,
                nodes,
                time_ms,
            });
        }
    }
    curve
}

fn solved_by_depth(records: &[&PositionRecord]) -> Vec<(u32, usize)> {
    let depths: Vec<u32> = records.iter().filter_map(|r| r.depth_to_solution).collect();
    let Some(&max) = depths.iter().max() else {
        return Vec::new();
    };
    (1..=max)
        .map(|d| (d, depths.iter().filter(|&&x| x <= d).count()))
        .collect()
}

fn solution_times(records: &[&PositionRecord]) -> Vec<f64> {
    let mut times: Vec<f64> = records
        .iter()
        .filter(|r| r.solved == Some(true))
        .filter_map(|r| r.time_to_solution_ms)
        .collect();
    times.sort_by(f64::total_cmp);
    times
}

fn counters(records: &[&PositionRecord]) -> Vec<CounterRates> {
    Counter::all()
        .filter_map(|counter| {
            let mut sum = CounterRates {
                heuristic: counter.key(),
                tested: 0,
                fired: 0,
                overruled: 0,
            };
            for r in records {
                let c = r.counters.get(counter);
                sum.tested += c.tested;
                sum.fired += c.fired;
                sum.overruled += c.overruled;
            }
            (sum.tested > 0).then_some(sum)
        })
        .collect()
}

fn across_seeds(records: &[&PositionRecord]) -> Option<AcrossSeeds> {
    let mut by_seed: BTreeMap<u64, (u64, usize, bool)> = BTreeMap::new();
    for r in records {
        let entry = by_seed.entry(r.seed).or_default();
        entry.0 += r.nodes;
        entry.1 += usize::from(r.solved == Some(true));
        entry.2 |= r.solved.is_some();
    }
    if by_seed.len() < 2 {
        return None;
    }
    let totals: Vec<f64> = by_seed.values().map(|v| v.0 as f64).collect();
    let solved: Vec<f64> = by_seed.values().map(|v| v.1 as f64).collect();
    let judged = by_seed.values().any(|v| v.2);
    Some(AcrossSeeds {
        total_nodes: compare::mean_interval(&totals)?,
        solved: if judged {
            compare::mean_interval(&solved)
        } else {
            None
        },
    })
}

/// Write the whole report into `dir`: `report.md`, `analysis.json`, the CSV tables and the
/// charts.
pub fn write_report(analysis: &Analysis, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let json = serde_json::to_string_pretty(analysis).map_err(|e| e.to_string())?;
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    write("analysis.json", &(json + "\n"))?;
    write("report.md", &markdown(analysis))?;
    write_csv(analysis, dir)?;
    charts::draw_all(analysis, dir)
}

#[cfg(test)]
mod tests;
