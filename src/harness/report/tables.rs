//! The report's CSV tables, for spreadsheets and other plotting tools. Each file is one table
//! of (column, value) pairs, so a column's name and its value are written side by side.

use super::analysis::{Analysis, CounterRates, DepthPoint, VariantAnalysis};
use std::path::Path;

/// A column: its name and how a row gives its value.
type Column<R> = (&'static str, fn(&R) -> String);

fn opt<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

const SUMMARY: &[Column<VariantAnalysis>] = &[
    ("variant", |v| v.label.clone()),
    ("spec", |v| v.spec.clone()),
    ("positions", |v| v.positions.to_string()),
    ("solved", |v| opt(v.solved.map(|s| s.solved))),
    ("judged", |v| opt(v.solved.map(|s| s.judged))),
    ("solved_low95", |v| opt(v.solved.map(|s| s.low))),
    ("solved_high95", |v| opt(v.solved.map(|s| s.high))),
    ("only_variant_solved", |v| {
        opt(v.solve_difference.map(|d| d.only_variant))
    }),
    ("only_baseline_solved", |v| {
        opt(v.solve_difference.map(|d| d.only_baseline))
    }),
    ("mcnemar_p", |v| opt(v.solve_difference.map(|d| d.p))),
    ("sts_points", |v| opt(v.points)),
    ("total_nodes", |v| v.total_nodes.to_string()),
    ("geomean_nodes", |v| opt(v.nodes.map(|n| n.estimate))),
    ("node_ratio", |v| {
        opt(v.node_ratio.map(|r| r.ratio.estimate))
    }),
    ("node_ratio_low95", |v| {
        opt(v.node_ratio.map(|r| r.ratio.low))
    }),
    ("node_ratio_high95", |v| {
        opt(v.node_ratio.map(|r| r.ratio.high))
    }),
    ("wilcoxon_p", |v| {
        opt(v.node_ratio.and_then(|r| r.wilcoxon_p))
    }),
    ("time_ratio", |v| {
        opt(v.time_ratio.map(|r| r.ratio.estimate))
    }),
    ("ebf", |v| opt(v.ebf.map(|e| e.estimate))),
    ("ebf_low95", |v| opt(v.ebf.map(|e| e.low))),
    ("ebf_high95", |v| opt(v.ebf.map(|e| e.high))),
    ("first_move_cutoff_rate", |v| opt(v.first_move_cutoff_rate)),
    ("mean_cutoff_index", |v| opt(v.mean_cutoff_index)),
    ("quiescence_first_move_cutoff_rate", |v| {
        opt(v.quiescence_first_move_cutoff_rate)
    }),
    ("quiescence_mean_cutoff_index", |v| {
        opt(v.quiescence_mean_cutoff_index)
    }),
    ("time_s", |v| v.time_s.to_string()),
];

const DEPTH: &[Column<(String, DepthPoint)>] = &[
    ("variant", |(label, _)| label.clone()),
    ("depth", |(_, p)| p.depth.to_string()),
    ("positions", |(_, p)| p.nodes.n.to_string()),
    ("geomean_nodes", |(_, p)| p.nodes.estimate.to_string()),
    ("nodes_low95", |(_, p)| p.nodes.low.to_string()),
    ("nodes_high95", |(_, p)| p.nodes.high.to_string()),
    ("geomean_time_ms", |(_, p)| p.time_ms.estimate.to_string()),
    ("time_low95", |(_, p)| p.time_ms.low.to_string()),
    ("time_high95", |(_, p)| p.time_ms.high.to_string()),
];

/// A point of a cumulative solve curve: variant, axis (`depth` or `time_ms`), the axis value
/// and the positions solved by then.
type SolvedRow = (String, &'static str, String, usize);

const SOLVED: &[Column<SolvedRow>] = &[
    ("variant", |r| r.0.clone()),
    ("axis", |r| r.1.to_string()),
    ("value", |r| r.2.clone()),
    ("solved_cumulative", |r| r.3.to_string()),
];

const COUNTERS: &[Column<(String, CounterRates)>] = &[
    ("variant", |(label, _)| label.clone()),
    ("heuristic", |(_, c)| c.heuristic.clone()),
    ("tested", |(_, c)| c.tested.to_string()),
    ("fired", |(_, c)| c.fired.to_string()),
    ("overruled", |(_, c)| c.overruled.to_string()),
    ("fired_rate", |(_, c)| opt(c.fired_rate())),
    ("overruled_rate", |(_, c)| opt(c.overruled_rate())),
];

fn write<R>(
    path: &Path,
    columns: &[Column<R>],
    rows: impl Iterator<Item = R>,
) -> Result<(), String> {
    let error = |e: csv::Error| format!("{}: {e}", path.display());
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(columns.iter().map(|(name, _)| *name))
        .map_err(error)?;
    for row in rows {
        w.write_record(columns.iter().map(|(_, value)| value(&row)))
            .map_err(error)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| format!("{}: {}", path.display(), e.error()))?;
    crate::harness::files::write_atomic(path, bytes)
}

/// Write `summary.csv`, `depth.csv`, `solved.csv` and `counters.csv` into `dir`.
pub fn write_csv(a: &Analysis, dir: &Path) -> Result<(), String> {
    write(
        &dir.join("summary.csv"),
        SUMMARY,
        a.variants.iter().cloned(),
    )?;
    let depth = a
        .variants
        .iter()
        .flat_map(|v| v.depth_curve.iter().map(move |p| (v.label.clone(), *p)));
    write(&dir.join("depth.csv"), DEPTH, depth)?;
    let solved = a.variants.iter().flat_map(|v| {
        let by_depth = v
            .solved_by_depth
            .iter()
            .map(move |(d, n)| (v.label.clone(), "depth", d.to_string(), *n));
        let by_time = v
            .solution_times_ms
            .iter()
            .enumerate()
            .map(move |(i, t)| (v.label.clone(), "time_ms", t.to_string(), i + 1));
        by_depth.chain(by_time)
    });
    write(&dir.join("solved.csv"), SOLVED, solved)?;
    let counters = a
        .variants
        .iter()
        .flat_map(|v| v.counters.iter().map(move |c| (v.label.clone(), c.clone())));
    write(&dir.join("counters.csv"), COUNTERS, counters)
}
