//! Depth against time, per variant: for each depth, the geometric mean over positions of the
//! time to finish it (log scale). A variant whose line sits further left reaches each depth
//! sooner: the "depth per second" an engine author wants from pruning.

use crate::harness::format::si;
use crate::harness::plot::{
    SIZE, colour, error, legend, line_with_dots, log_range, mesh, plot, svg,
};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    svg(
        path,
        SIZE,
        "Depth reached against time",
        &a.meta.caption(),
        |area| {
            let max_depth = a.max_depth();
            let x = log_range(
                a.variants
                    .iter()
                    .flat_map(|v| v.depth_curve.iter().map(|p| p.time_ms.estimate)),
            );
            let mut chart = plot(
                area,
                path,
                (50, 60),
                x.log_scale(),
                0f64..max_depth as f64 + 0.5,
            )?;
            mesh(
                &mut chart,
                "time to finish the depth, ms (geometric mean over positions, log scale)",
                "depth (plies)",
            )
            .y_labels(max_depth as usize + 1)
            .y_label_formatter(&|d| format!("{d:.0}"))
            .x_labels(12)
            .x_label_formatter(&|v| si(*v))
            .draw()
            .map_err(error(path))?;
            for (i, v) in a.variants.iter().enumerate() {
                let c = colour(i);
                let points: Vec<(f64, f64)> = v
                    .depth_curve
                    .iter()
                    .map(|p| (p.time_ms.estimate, p.depth as f64))
                    .collect();
                line_with_dots(&mut chart, points, c, &v.label).map_err(error(path))?;
            }
            legend(&mut chart, SeriesLabelPosition::LowerRight).map_err(error(path))?;
            Ok(())
        },
    )
}
