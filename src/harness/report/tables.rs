//! The report's CSV tables, for spreadsheets and other plotting tools.

use super::Analysis;
use std::path::Path;

fn opt<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

fn write(path: &Path, header: &[&str], rows: Vec<Vec<String>>) -> Result<(), String> {
    let error = |e: csv::Error| format!("{}: {e}", path.display());
    let mut w = csv::Writer::from_path(path).map_err(error)?;
    w.write_record(header).map_err(error)?;
    for row in rows {
        w.write_record(row).map_err(error)?;
    }
    w.flush().map_err(|e| format!("{}: {e}", path.display()))
}

/// Write `summary.csv`, `depth.csv`, `solved.csv` and `counters.csv` into `dir`.
pub fn write_csv(a: &Analysis, dir: &Path) -> Result<(), String> {
    let summary = a
        .variants
        .iter()
        .map(|v| {
            vec![
                v.label.clone(),
                v.spec.clone(),
                v.positions.to_string(),
                opt(v.solved.map(|s| s.solved)),
                opt(v.solved.map(|s| s.judged)),
                opt(v.solved.map(|s| s.low)),
                opt(v.solved.map(|s| s.high)),
                opt(v.solve_difference.map(|d| d.only_variant)),
                opt(v.solve_difference.map(|d| d.only_baseline)),
                opt(v.solve_difference.map(|d| d.p)),
                opt(v.points),
                v.total_nodes.to_string(),
                opt(v.nodes.map(|n| n.estimate)),
                opt(v.node_ratio.map(|r| r.ratio.estimate)),
                opt(v.node_ratio.map(|r| r.ratio.low)),
                opt(v.node_ratio.map(|r| r.ratio.high)),
                opt(v.node_ratio.and_then(|r| r.wilcoxon_p)),
                opt(v.time_ratio.map(|r| r.ratio.estimate)),
                opt(v.ebf.map(|e| e.estimate)),
                opt(v.ebf.map(|e| e.low)),
                opt(v.ebf.map(|e| e.high)),
                opt(v.first_move_cutoff_rate),
                v.time_s.to_string(),
            ]
        })
        .collect();
    write(
        &dir.join("summary.csv"),
        &[
            "variant",
            "spec",
            "positions",
            "solved",
            "judged",
            "solved_low95",
            "solved_high95",
            "only_variant_solved",
            "only_baseline_solved",
            "mcnemar_p",
            "sts_points",
            "total_nodes",
            "geomean_nodes",
            "node_ratio",
            "node_ratio_low95",
            "node_ratio_high95",
            "wilcoxon_p",
            "time_ratio",
            "ebf",
            "ebf_low95",
            "ebf_high95",
            "first_move_cutoff_rate",
            "time_s",
        ],
        summary,
    )?;
    let depth = a
        .variants
        .iter()
        .flat_map(|v| {
            v.depth_curve.iter().map(|p| {
                vec![
                    v.label.clone(),
                    p.depth.to_string(),
                    p.nodes.n.to_string(),
                    p.nodes.estimate.to_string(),
                    p.nodes.low.to_string(),
                    p.nodes.high.to_string(),
                    p.time_ms.estimate.to_string(),
                    p.time_ms.low.to_string(),
                    p.time_ms.high.to_string(),
                ]
            })
        })
        .collect();
    write(
        &dir.join("depth.csv"),
        &[
            "variant",
            "depth",
            "positions",
            "geomean_nodes",
            "nodes_low95",
            "nodes_high95",
            "geomean_time_ms",
            "time_low95",
            "time_high95",
        ],
        depth,
    )?;
    let solved = a
        .variants
        .iter()
        .flat_map(|v| {
            v.solved_by_depth
                .iter()
                .map(|(d, n)| {
                    vec![
                        v.label.clone(),
                        "depth".into(),
                        d.to_string(),
                        n.to_string(),
                    ]
                })
                .chain(v.solution_times_ms.iter().enumerate().map(|(i, t)| {
                    vec![
                        v.label.clone(),
                        "time_ms".into(),
                        t.to_string(),
                        (i + 1).to_string(),
                    ]
                }))
        })
        .collect();
    write(
        &dir.join("solved.csv"),
        &["variant", "axis", "value", "solved_cumulative"],
        solved,
    )?;
    let counters = a
        .variants
        .iter()
        .flat_map(|v| {
            v.counters.iter().map(|c| {
                vec![
                    v.label.clone(),
                    c.heuristic.clone(),
                    c.tested.to_string(),
                    c.fired.to_string(),
                    c.overruled.to_string(),
                    opt(c.fired_rate()),
                    opt(c.overruled_rate()),
                ]
            })
        })
        .collect();
    write(
        &dir.join("counters.csv"),
        &[
            "variant",
            "heuristic",
            "tested",
            "fired",
            "overruled",
            "fired_rate",
            "overruled_rate",
        ],
        counters,
    )
}
