//! The pruning audit's error rates as a grid: a row per decision (per variant when several
//! were audited), a column per remaining depth (`q`: the quiescence search) after the column of
//! all depths. Each cell writes the rate, its interval (cluster-robust by position) and the
//! number audited; the colour deepens with the rate, scaled to the largest rate in the chart. A
//! stratum whose audits could not disagree is a grey "not measurable" cell.

use crate::harness::plot::heatmap::{self, Cell, Heatmap, sequential};
use crate::harness::report::analysis::Analysis;
use crate::harness::report::audit::{AuditLine, depth_name};
use plotters::style::RGBColor;
use std::path::Path;

fn cell(line: &AuditLine, top: f64) -> Cell {
    if !line.measurable() {
        return Cell {
            fill: RGBColor(0xEE, 0xEE, 0xEE),
            lines: vec![
                "not".into(),
                "measurable".into(),
                format!("n={}", line.audited),
            ],
        };
    }
    Cell {
        fill: sequential(line.error_rate / top, RGBColor(0xCC, 0x33, 0x11)),
        lines: vec![
            format!("{:.1}%", 100.0 * line.error_rate),
            format!("[{:.1}–{:.1}]", 100.0 * line.low, 100.0 * line.high),
            format!("n={}", line.audited),
        ],
    }
}

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    let several = a.audits.len() > 1;
    let mut depths: Vec<i32> = a
        .audits
        .iter()
        .flat_map(|v| v.lines.iter().filter_map(|l| l.depth))
        .collect();
    depths.sort_unstable();
    depths.dedup();
    let columns: Vec<String> = std::iter::once("all".to_string())
        .chain(depths.iter().map(|d| depth_name(*d)))
        .collect();
    let top = a
        .audits
        .iter()
        .flat_map(|v| v.lines.iter().map(|l| l.error_rate))
        .fold(0.05f64, f64::max);
    let mut rows = Vec::new();
    let mut cells = Vec::new();
    for v in &a.audits {
        for total in v.totals() {
            rows.push(if several {
                format!("{}: {}", v.label, total.decision)
            } else {
                total.decision.clone()
            });
            let mut row = vec![Some(cell(total, top))];
            for d in &depths {
                row.push(
                    v.lines
                        .iter()
                        .find(|l| l.decision == total.decision && l.depth == Some(*d))
                        .map(|l| cell(l, top)),
                );
            }
            cells.push(row);
        }
    }
    let title = if several {
        "Pruning audit: error rate by decision and depth".to_string()
    } else {
        format!(
            "Pruning audit of {}: error rate by decision and depth",
            a.audits.first().map_or("", |v| v.label.as_str())
        )
    };
    let x_desc = format!(
        "remaining depth at the deciding node (q: quiescence) — cell: error rate, 95% interval (cluster-robust by position), decisions audited; darker: higher (full colour at {:.0}%)",
        100.0 * top
    );
    heatmap::draw(
        &Heatmap {
            title: &title,
            subtitle: &a.meta.caption(),
            rows: &rows,
            columns: &columns,
            cells: &cells,
            x_desc: &x_desc,
            y_desc: "decision",
        },
        path,
    )
}
