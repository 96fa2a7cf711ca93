//! The measures the analysis takes of one variant's records: solve rates and differences,
//! EBF, first-move cut-off rates, the depth curve, solve curves, counters and the spread over
//! seeds.

use std::collections::BTreeMap;

use super::analysis::{
    AcrossSeeds, CounterRates, DepthPoint, PositionKey, SolveDifference, SolveRate,
    iteration_nodes, position_key,
};
use crate::engine::stats::{Counter, Counters};
use crate::harness::compare;
use crate::harness::results::PositionRecord;

pub(super) fn solve_rate(records: &[&PositionRecord]) -> Option<SolveRate> {
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
pub(super) fn first_seed_solved(records: &[&PositionRecord]) -> BTreeMap<PositionKey, bool> {
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

pub(super) fn solve_difference(
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

/// A position's EBF at depth `d`: `(N_d / N_{d-2})^(1/2)`, the branching factor over two
/// plies, from the iterations of depths d and d-2 (an external engine may skip depths). The
/// ratio of consecutive iterations flips with the parity of the depth (odd and even depths
/// cost differently in alpha-beta); this one does not.
fn ebf_at(r: &PositionRecord, depth: u32) -> Option<f64> {
    let nodes_at = |d: u32| {
        r.iterations
            .iter()
            .find(|it| it.depth == d)
            .map(iteration_nodes)
    };
    let (now, earlier) = (nodes_at(depth)?, nodes_at(depth.checked_sub(2)?)?);
    (earlier > 0 && now > 0).then(|| (now as f64 / earlier as f64).sqrt())
}

/// Every position's EBF at its last completed depth.
pub(super) fn ebfs(records: &[&PositionRecord]) -> Vec<f64> {
    records
        .iter()
        .filter_map(|r| ebf_at(r, r.iterations.last()?.depth))
        .collect()
}

/// The EBF at each depth: geometric mean over the positions that completed it and the depth
/// two below.
pub(super) fn ebf_by_depth(records: &[&PositionRecord]) -> Vec<(u32, compare::Interval)> {
    let deepest = records
        .iter()
        .filter_map(|r| r.iterations.last().map(|it| it.depth))
        .max()
        .unwrap_or(0);
    (3..=deepest)
        .filter_map(|depth| {
            let values: Vec<f64> = records.iter().filter_map(|r| ebf_at(r, depth)).collect();
            compare::geometric_mean(&values).map(|ebf| (depth, ebf))
        })
        .collect()
}

pub(super) fn pooled_first_move_rate(records: &[&PositionRecord]) -> Option<f64> {
    let (first, all) = records
        .iter()
        .flat_map(|r| &r.iterations)
        .fold((0u64, 0u64), |(f, a), it| {
            (f + it.first_move_cutoffs, a + it.cutoffs)
        });
    (all > 0).then(|| first as f64 / all as f64)
}

/// Pooled cut-off statistics of the interior (`quiescence = false`) or quiescence nodes:
/// (share of cut-offs by the first move, mean 1-based index of the cutting move). `None`
/// where no record of the variant holds them (files written before they were recorded,
/// external engines) or there was no cut-off.
pub(super) fn cutoff_order(
    records: &[&PositionRecord],
    quiescence: bool,
) -> (Option<f64>, Option<f64>) {
    let (mut cutoffs, mut first, mut index) = (0u64, 0u64, 0u64);
    for it in records.iter().flat_map(|r| &r.iterations) {
        let counts = if quiescence {
            (
                it.quiescence_cutoffs,
                it.quiescence_first_move_cutoffs,
                it.quiescence_cutoff_index_sum,
            )
        } else {
            (
                Some(it.cutoffs),
                Some(it.first_move_cutoffs),
                it.cutoff_index_sum,
            )
        };
        if let (Some(c), Some(f), Some(i)) = counts {
            cutoffs += c;
            first += f;
            index += i;
        }
    }
    if cutoffs == 0 {
        return (None, None);
    }
    let n = cutoffs as f64;
    (Some(first as f64 / n), Some(index as f64 / n))
}

pub(super) fn first_move_rates(records: &[&PositionRecord]) -> Vec<f64> {
    records
        .iter()
        .filter_map(|r| {
            let first: u64 = r.iterations.iter().map(|it| it.first_move_cutoffs).sum();
            let all: u64 = r.iterations.iter().map(|it| it.cutoffs).sum();
            (all > 0).then(|| first as f64 / all as f64)
        })
        .collect()
}

pub(super) fn depth_curve(records: &[&PositionRecord]) -> Vec<DepthPoint> {
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

pub(super) fn solved_by_depth(records: &[&PositionRecord]) -> Vec<(u32, usize)> {
    let depths: Vec<u32> = records.iter().filter_map(|r| r.depth_to_solution).collect();
    let Some(&max) = depths.iter().max() else {
        return Vec::new();
    };
    (1..=max)
        .map(|d| (d, depths.iter().filter(|&&x| x <= d).count()))
        .collect()
}

pub(super) fn solution_times(records: &[&PositionRecord]) -> Vec<f64> {
    let mut times: Vec<f64> = records
        .iter()
        .filter(|r| r.solved == Some(true))
        .filter_map(|r| r.time_to_solution_ms)
        .collect();
    times.sort_by(f64::total_cmp);
    times
}

pub(super) fn counters(records: &[&PositionRecord]) -> Vec<CounterRates> {
    // searchlab's counters in registry order, then an engine's own names (counter lines).
    let mut known = vec![Counters::default(); Counter::all().count()];
    let mut other: BTreeMap<String, Counters> = BTreeMap::new();
    for r in records {
        for (slot, counter) in known.iter_mut().zip(Counter::all()) {
            *slot += r.counters.get(counter);
        }
        for (name, counts) in &r.counters.other {
            *other.entry(name.clone()).or_default() += *counts;
        }
    }
    Counter::all()
        .map(|c| c.key())
        .zip(known)
        .chain(other)
        .filter(|(_, sum)| sum.tested > 0)
        .map(|(heuristic, sum)| CounterRates {
            heuristic,
            tested: sum.tested,
            fired: sum.fired,
            overruled: sum.overruled,
        })
        .collect()
}

pub(super) fn across_seeds(records: &[&PositionRecord]) -> Option<AcrossSeeds> {
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
