//! Effective branching factor per variant: nodes of the last iteration over the iteration
//! before, geometric mean over positions with its 95% interval.

use crate::harness::plot::{FONT, SIZE, canvas, category, colour, error};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    let area = canvas(path, SIZE, "Effective branching factor", &a.meta.caption())?;
    let names: Vec<String> = a.variants.iter().map(|v| v.label.clone()).collect();
    let top = a
        .variants
        .iter()
        .filter_map(|v| v.ebf.map(|e| e.high))
        .fold(1.0f64, f64::max)
        * 1.15;
    let n = names.len().max(1) as f64;
    let label = category(&names);
    let mut chart = ChartBuilder::on(&area)
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..top)
        .map_err(error(path))?;
    chart
        .configure_mesh()
        .x_desc("variant")
        .y_desc("EBF: last iteration nodes / previous (geometric mean, 95% interval)")
        .x_labels(names.len().max(1))
        .x_label_formatter(&label)
        .disable_x_mesh()
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 13))
        .draw()
        .map_err(error(path))?;
    for (i, v) in a.variants.iter().enumerate() {
        let Some(e) = v.ebf else { continue };
        let x = i as f64;
        let c = colour(i);
        chart
            .draw_series([Rectangle::new(
                [(x - 0.3, 0.0), (x + 0.3, e.estimate)],
                c.mix(0.8).filled(),
            )])
            .map_err(error(path))?;
        chart
            .draw_series([ErrorBar::new_vertical(
                x,
                e.low,
                e.estimate,
                e.high,
                BLACK.stroke_width(1),
                10,
            )])
            .map_err(error(path))?;
        chart
            .draw_series([Text::new(
                format!("{:.2}", e.estimate),
                (x - 0.1, e.high + top * 0.04),
                (FONT, 13),
            )])
            .map_err(error(path))?;
    }
    area.present().map_err(error(path))
}
