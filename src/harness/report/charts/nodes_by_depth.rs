//! Nodes to complete each depth, per variant: geometric mean over positions (log scale) with
//! its 95% interval as error bars. The slope is the branching factor; a heuristic that prunes
//! well bends its line down.

use crate::harness::format::si;
use crate::harness::plot::{FONT, SIZE, canvas, colour, error, legend, line_with_dots, log_range};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    let area = canvas(
        path,
        SIZE,
        "Nodes to complete each depth",
        &a.meta.caption(),
    )?;
    let max_depth = a.max_depth();
    let y = log_range(a.variants.iter().flat_map(|v| {
        v.depth_curve
            .iter()
            .flat_map(|p| [p.nodes.low, p.nodes.high])
    }));
    let mut chart = ChartBuilder::on(&area)
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(0.5f64..max_depth as f64 + 0.5, y.log_scale())
        .map_err(error(path))?;
    chart
        .configure_mesh()
        .x_desc("depth (plies)")
        .y_desc("nodes up to this depth (geometric mean, log scale)")
        .x_labels(max_depth as usize)
        .x_label_formatter(&|d| format!("{d:.0}"))
        .y_labels(12)
        .y_label_formatter(&|v| si(*v))
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 13))
        .draw()
        .map_err(error(path))?;
    for (i, v) in a.variants.iter().enumerate() {
        let c = colour(i);
        let points: Vec<(f64, f64)> = v
            .depth_curve
            .iter()
            .map(|p| (p.depth as f64, p.nodes.estimate))
            .collect();
        line_with_dots(&mut chart, points, c, &v.label).map_err(error(path))?;
        chart
            .draw_series(v.depth_curve.iter().map(|p| {
                ErrorBar::new_vertical(
                    p.depth as f64,
                    p.nodes.low,
                    p.nodes.estimate,
                    p.nodes.high,
                    c.stroke_width(1),
                    8,
                )
            }))
            .map_err(error(path))?;
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(error(path))?;
    area.present().map_err(error(path))
}
