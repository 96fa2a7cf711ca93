//! The report's charts, one file each; every chart draws from the [`Analysis`] only, in the
//! style of `harness::plot`.

mod audit;
mod depth_by_time;
mod ebf;
mod first_move_cutoffs;
mod heuristic_rates;
mod interactions;
mod node_ratio;
mod nodes_by_depth;
pub mod reproduction;
mod solved_by_depth;
mod solved_by_time;
mod sweep;
pub mod training;

use super::analysis::Analysis;
use std::path::Path;

/// One chart of the report.
pub struct Chart {
    /// File stem (`<file>.svg`).
    pub file: &'static str,
    /// Title, also the Markdown heading.
    pub title: &'static str,
    draw: fn(&Analysis, &Path) -> Result<(), String>,
}

/// Every chart of a report, in the order the Markdown shows them.
pub const CHARTS: &[Chart] = &[
    Chart {
        file: "nodes_by_depth",
        title: "Nodes to complete each depth",
        draw: nodes_by_depth::draw,
    },
    Chart {
        file: "node_ratio",
        title: "Node ratio to the baseline",
        draw: node_ratio::draw,
    },
    Chart {
        file: "depth_by_time",
        title: "Depth reached against time",
        draw: depth_by_time::draw,
    },
    Chart {
        file: "solved_by_time",
        title: "Positions solved against time",
        draw: solved_by_time::draw,
    },
    Chart {
        file: "solved_by_depth",
        title: "Positions solved against depth",
        draw: solved_by_depth::draw,
    },
    Chart {
        file: "ebf",
        title: "Effective branching factor",
        draw: ebf::draw,
    },
    Chart {
        file: "first_move_cutoffs",
        title: "First-move cut-off rate",
        draw: first_move_cutoffs::draw,
    },
    Chart {
        file: "heuristic_rates",
        title: "Heuristic counters: fired and overruled rates",
        draw: heuristic_rates::draw,
    },
];

/// Draw every chart into `dir`, and the charts of the sections the analysis has: the audit,
/// the interaction matrix, each swept parameter.
pub fn draw_all(analysis: &Analysis, dir: &Path) -> Result<(), String> {
    for chart in CHARTS {
        (chart.draw)(analysis, &dir.join(format!("{}.svg", chart.file)))?;
    }
    if !analysis.audits.is_empty() {
        audit::draw(analysis, &dir.join("audit.svg"))?;
    }
    if analysis.interactions.is_some() {
        interactions::draw_nodes(analysis, &dir.join("interactions.svg"))?;
        interactions::draw_solves(analysis, &dir.join("interactions_solves.svg"))?;
    }
    for curve in &analysis.sweeps {
        let file = super::designs::sweep_file(&curve.param);
        sweep::draw(analysis, curve, &dir.join(format!("{file}.svg")))?;
    }
    Ok(())
}
