//! Positions solved against depth, per variant: the cumulative count of positions whose best
//! move was found at that depth and kept to the end of the search.

use crate::harness::plot::{SIZE, colour, error, legend, line_with_dots, mesh, plot, svg};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    svg(
        path,
        SIZE,
        "Positions solved against depth",
        &a.meta.caption(),
        |area| {
            let judged = a.judged();
            let top = a.solved_axis_top();
            let max_depth = a.max_depth();
            let mut chart = plot(
                area,
                path,
                (50, 60),
                0.5f64..max_depth as f64 + 0.5,
                0f64..top,
            )?;
            mesh(
                &mut chart,
                "depth (plies)",
                &format!("positions solved (of {judged} with a bm or am)"),
            )
            .x_labels(max_depth as usize)
            .x_label_formatter(&|d| format!("{d:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(error(path))?;
            for (i, v) in a.variants.iter().enumerate() {
                let c = colour(i);
                let mut points: Vec<(f64, f64)> = Vec::new();
                let mut last = 0.0;
                for d in 1..=max_depth {
                    if let Some((_, n)) = v.solved_by_depth.iter().find(|(x, _)| *x == d) {
                        last = *n as f64;
                    }
                    points.push((d as f64, last));
                }
                line_with_dots(&mut chart, points, c, &v.label).map_err(error(path))?;
            }
            legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(error(path))?;
            Ok(())
        },
    )
}
