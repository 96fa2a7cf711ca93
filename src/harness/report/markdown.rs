//! The report as Markdown: every number comes from the [`Analysis`] and carries the name of the
//! test or interval that produced it.

use super::analysis::{Analysis, VariantAnalysis};
use super::charts::CHARTS;
use crate::harness::compare;
use crate::harness::format::{interval, p_value, thousands};

fn summary_row(v: &VariantAnalysis) -> String {
    let solved = v.solved.map_or("-".into(), |s| {
        format!(
            "{}/{} ({:.1}% [{:.1}, {:.1}])",
            s.solved,
            s.judged,
            100.0 * s.solved as f64 / s.judged.max(1) as f64,
            100.0 * s.low,
            100.0 * s.high
        )
    });
    let difference = v.solve_difference.map_or("-".into(), |d| {
        format!(
            "+{} −{} ({})",
            d.only_variant,
            d.only_baseline,
            p_value(d.p)
        )
    });
    let ratio = match v.node_ratio {
        Some(r) => format!(
            "{} ({})",
            interval(&r.ratio, 3),
            r.wilcoxon_p.map_or("-".into(), p_value)
        ),
        // Nodes are not comparable across engines: compare solves and times instead.
        None if v.other_engine => "– (another engine)".into(),
        None => "1 (baseline)".into(),
    };
    let time_ratio = v
        .time_ratio
        .map_or("1 (baseline)".into(), |r| interval(&r.ratio, 3));
    format!(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} |\n",
        v.label,
        v.positions,
        solved,
        difference,
        v.points.map_or("-".into(), |p| p.to_string()),
        saturated_count(v.total_nodes),
        v.nodes.map_or("-".into(), |n| interval(&n, 0)),
        ratio,
        time_ratio,
        v.ebf.map_or("-".into(), |e| interval(&e, 2)),
        cutoff_order(v.first_move_cutoff_rate, v.mean_cutoff_index),
        cutoff_order(
            v.quiescence_first_move_cutoff_rate,
            v.quiescence_mean_cutoff_index
        ),
        v.time_s,
    )
}

/// `93.1%, 1.21`: share of cut-offs by the first move and mean index of the cutting move.
fn cutoff_order(rate: Option<f64>, index: Option<f64>) -> String {
    match (rate, index) {
        (Some(r), Some(i)) => format!("{:.1}%, {i:.2}", 100.0 * r),
        (Some(r), None) => format!("{:.1}%", 100.0 * r),
        _ => "-".into(),
    }
}

/// The summary for a terminal: the columns a reader looks at first, within 100 columns
/// (labels are cut to fit; the full table is in the `.md` beside the results).
pub fn terminal_summary(a: &Analysis) -> String {
    let mut out = format!(
        "{:<18} {:>5} {:>14} {:>22} {:>24} {:>10}\n",
        "variant", "n", "solved", "vs baseline (p)", "node ratio [95%]", "time ratio"
    );
    for v in &a.variants {
        // Cut in the middle, keeping both ends: a sweep's labels differ in their values, at
        // the end (`ContemptDrawPenalty=10`, `=20`), and must stay apart.
        let chars: Vec<char> = v.label.chars().collect();
        let label: String = if chars.len() > 18 {
            chars[..8].iter().collect::<String>()
                + "…"
                + &chars[chars.len() - 9..].iter().collect::<String>()
        } else {
            v.label.clone()
        };
        let solved = v
            .solved
            .map_or("-".into(), |s| format!("{}/{}", s.solved, s.judged));
        let difference = v.solve_difference.map_or("-".into(), |d| {
            format!(
                "+{} −{} ({})",
                d.only_variant,
                d.only_baseline,
                short_p(d.p)
            )
        });
        let ratio = match v.node_ratio {
            Some(r) => format!(
                "{} [{}, {}]",
                compact(r.ratio.estimate),
                compact(r.ratio.low),
                compact(r.ratio.high)
            ),
            None if v.other_engine => "another engine".into(),
            None => "baseline".into(),
        };
        let time = v
            .time_ratio
            .map_or("-".into(), |r| compact(r.ratio.estimate));
        out.push_str(&format!(
            "{label:<18} {:>5} {solved:>14} {difference:>22} {ratio:>24} {time:>10}\n",
            v.positions
        ));
    }
    out
}

/// A ratio in at most seven characters: three decimals near 1, fewer further away.
fn compact(x: f64) -> String {
    match x {
        x if x >= 1e5 => format!("{x:.1e}"),
        x if x >= 100.0 => format!("{x:.0}"),
        x if x >= 10.0 => format!("{x:.1}"),
        _ => format!("{x:.3}"),
    }
}

/// A p-value in at most six characters.
fn short_p(p: f64) -> String {
    if p < 0.0001 {
        "<.0001".into()
    } else {
        format!("{p:.4}")
    }
}

/// Under a time or node limit the node and time ratios change meaning; say how to read them.
fn limit_note(a: &Analysis) -> String {
    if a.meta.limit.contains("ms per position") {
        "\n**Read under a time limit:** every search stops at the same time, so the node ratio is nodes searched in that time (a speed, not the size of a tree) and the time ratio is 1 by construction. Compare the solves, the STS points and the depth reached.\n".into()
    } else if a.meta.limit.contains("nodes") {
        "\n**Read under a node limit:** every search stops at the same node count, so the node ratio is 1 by construction; compare the solves, the points and the depth reached.\n".into()
    } else {
        String::new()
    }
}

/// When every variant solves exactly the baseline's positions, the solve columns cannot tell
/// the variants apart: say so under the table rather than let "8/8" everywhere read as a
/// finding.
fn same_solves_note(a: &Analysis) -> String {
    let base = a.variants.iter().find(|v| v.label == a.baseline);
    let Some(judged) = base.and_then(|v| v.solved).map(|s| s.judged) else {
        return "\nNo position of these suites has a `bm` or `am`: nothing is judged solved.\n"
            .into();
    };
    let identical = a
        .variants
        .iter()
        .filter(|v| v.label != a.baseline)
        .all(|v| {
            v.solve_difference
                .is_none_or(|d| d.only_variant == 0 && d.only_baseline == 0)
        });
    if identical && a.variants.len() > 1 {
        format!(
            "\nEvery variant solves the same positions of the {judged} that have a `bm` or `am`: the solve columns cannot separate the variants on these suites (nodes, times and the other columns can).\n"
        )
    } else {
        String::new()
    }
}

/// The summary table alone (also printed at the end of `searchlab run`).
pub fn summary_table(a: &Analysis) -> String {
    let mut out = format!(
        "| variant | positions | solved ({wilson}) | solved vs baseline: +only / −only ({mcnemar}) | STS points | total nodes | nodes per position, geometric mean (t on logs) | node ratio to baseline ({t}; {wilcoxon}) | time ratio to baseline ({t}) | EBF, geometric mean (t on logs) | interior cut-offs: by first move, mean index of the cutting move | quiescence cut-offs: by first move, mean index | time (s) |\n\
         |---|---:|---|---|---:|---:|---|---|---|---|---:|---:|---:|\n",
        wilson = compare::WILSON,
        mcnemar = compare::MCNEMAR,
        t = compare::PAIRED_T_LOG,
        wilcoxon = compare::WILCOXON,
    );
    for v in &a.variants {
        out.push_str(&summary_row(v));
    }
    out
}

/// The whole report.
pub fn markdown(a: &Analysis) -> String {
    let mut out = heading(a);
    out.push_str("\n## Summary\n\n");
    out.push_str(&summary_table(a));
    out.push_str(&same_solves_note(a));
    out.push_str(&limit_note(a));
    out.push_str(
        "\nA node ratio below 1 means the variant searched fewer nodes than the baseline on the \
         same positions; its interval and p-value come from the per-position log ratios. \
         EBF is the branching factor over two plies, `(N_d / N_(d-2))^(1/2)` at the last \
         completed depth d, so that it does not flip with the parity of d.\n",
    );
    out.push_str(&ebf_by_depth_table(a));
    out.push_str(&across_seeds_section(a));
    out.push_str("\n## Charts\n\n");
    for chart in CHARTS {
        out.push_str(&format!(
            "### {}\n\n![{}]({}.svg)\n\n",
            chart.title, chart.title, chart.file
        ));
    }
    out.push_str(&super::audit::markdown(&a.audits));
    out.push_str(&super::designs::markdown(
        &a.interactions,
        &a.sweeps,
        &a.baseline,
    ));
    out.push_str(&counters_section(a));
    out.push_str("\n## Methods\n\n");
    for (what, test) in &a.methods {
        out.push_str(&format!("- {what}: {test}\n"));
    }
    out.push_str(&counter_meanings(a));
    out.push_str(
        "\nThe CSV files beside this report hold the same numbers (`summary.csv`, \
         `depth.csv`, `solved.csv`, `counters.csv`), and `analysis.json` holds all of them.\n",
    );
    out
}

/// The title, the files, commits, seeds and baseline, what is incomplete, and the variants.
fn heading(a: &Analysis) -> String {
    let mut out = format!("# searchlab report — {}\n\n", a.meta.caption());
    out.push_str(&format!(
        "Results: {}. Commit: {}. Seeds: {}. Baseline for every ratio and paired test: **{}**. \
         Every interval is 95%.\n\n",
        a.meta
            .files
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", "),
        if a.meta.commits.is_empty() {
            "unknown".into()
        } else {
            a.meta.commits.join(", ")
        },
        a.meta
            .seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        a.baseline
    ));
    for gap in &a.meta.incomplete {
        out.push_str(&format!("> **Incomplete:** {gap}.\n\n"));
    }
    out.push_str("## Variants\n\n| variant | SPEC (or engine and options) |\n|---|---|\n");
    for v in &a.variants {
        out.push_str(&format!("| {} | `{}` |\n", v.label, v.spec));
    }
    out
}

/// Totals per seed, with their interval over seeds, when the variants ran several seeds.
fn across_seeds_section(a: &Analysis) -> String {
    let seeded: Vec<&VariantAnalysis> = a
        .variants
        .iter()
        .filter(|v| v.across_seeds.is_some())
        .collect();
    if seeded.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    out.push_str(&format!(
        "\n## Across seeds\n\nMean of per-seed totals with a {} over seeds.\n\n\
         | variant | total nodes per seed | solved per seed |\n|---|---|---|\n",
        compare::T_INTERVAL
    ));
    for v in seeded {
        let s = v.across_seeds.expect("filtered");
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            v.label,
            interval(&s.total_nodes, 0),
            s.solved.map_or("-".into(), |i| interval(&i, 1))
        ));
    }
    out
}

/// EBF by depth, one column per variant.
fn ebf_by_depth_table(a: &Analysis) -> String {
    let mut depths: Vec<u32> = a
        .variants
        .iter()
        .flat_map(|v| v.ebf_by_depth.iter().map(|(d, _)| *d))
        .collect();
    depths.sort_unstable();
    depths.dedup();
    if depths.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n### EBF by depth (geometric mean, t on logs)\n\n| depth |");
    for v in &a.variants {
        out.push_str(&format!(" {} |", v.label));
    }
    out.push_str(&format!("\n|---|{}\n", "---:|".repeat(a.variants.len())));
    for depth in depths {
        out.push_str(&format!("| {depth} |"));
        for v in &a.variants {
            let cell = v
                .ebf_by_depth
                .iter()
                .find(|(d, _)| *d == depth)
                .map_or("-".into(), |(_, e)| format!("{:.2}", e.estimate));
            out.push_str(&format!(" {cell} |"));
        }
        out.push('\n');
    }
    out
}

/// The meaning of every counter the report shows (its registry row).
fn counter_meanings(a: &Analysis) -> String {
    let mut keys: Vec<&str> = a
        .variants
        .iter()
        .flat_map(|v| v.counters.iter().map(|c| c.heuristic.as_str()))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    if keys.is_empty() {
        return String::new();
    }
    let mut out = format!("- counters: {}\n", crate::engine::stats::DEFINITION);
    for key in keys {
        let meaning = crate::engine::stats::Counter::from_key(key)
            .map_or(
                "an engine's own counter (its counter lines, docs/protocol.md): its meaning is the engine's",
                |c| c.meaning(),
            );
        out.push_str(&format!("  - `{key}`: {meaning}\n"));
    }
    out
}

fn counters_section(a: &Analysis) -> String {
    let mut out = String::from(
        "## Heuristic counters\n\nSummed over every search of the variant, one row per \
         heuristic or form (`futility.frontier`). What each counter means is under Methods.\n\n\
         | variant | heuristic | tested | fired | fired/tested | overruled | overruled/fired |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
    );
    let count = saturated_count;
    for v in &a.variants {
        for c in &v.counters {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} |\n",
                v.label,
                c.heuristic,
                count(c.tested),
                count(c.fired),
                c.fired_rate()
                    .map_or("-".into(), |r| format!("{:.1}%", 100.0 * r)),
                count(c.overruled),
                c.overruled_rate()
                    .map_or("-".into(), |r| format!("{:.1}%", 100.0 * r)),
            ));
        }
    }
    out
}

/// A sum that saturates (`Counters`, total nodes: never wrapped) written as a count: at
/// u64::MAX its true value is larger, and the rates of its row mean nothing.
fn saturated_count(n: u64) -> String {
    if n == u64::MAX {
        "saturated (≥ 2⁶⁴−1)".to_string()
    } else {
        thousands(n)
    }
}
