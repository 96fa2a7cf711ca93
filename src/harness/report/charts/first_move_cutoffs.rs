//! First-move cut-off rate per variant: the share of beta cut-offs made by the first move
//! searched, the standard measure of move ordering. The bar is the pooled rate at interior
//! nodes; the error bar is the mean of per-position rates with its t interval; the triangle is
//! the pooled rate in quiescence, kept apart because captures-first makes almost every
//! quiescence cut-off a first-move one.

use crate::harness::plot::{FONT, SIZE, category, error, legend, mesh, plot, svg};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    svg(
        path,
        SIZE,
        "First-move cut-off rate",
        &a.meta.caption(),
        |area| {
            let names: Vec<String> = a.variants.iter().map(|v| v.label.clone()).collect();
            let n = names.len().max(1) as f64;
            let label = category(&names);
            let mut chart = plot(area, path, (60, 60), -0.5f64..n - 0.5, 0f64..100.0)?;
            mesh(
        &mut chart,
        "variant",
        "cut-offs by the first move, % (bar: interior, pooled; whisker: per-position mean, 95%)",
    )
    .x_labels(names.len().max(1))
    .x_label_formatter(&label)
    .y_label_formatter(&|v| format!("{v:.0}%"))
    .disable_x_mesh()
    .draw()
    .map_err(error(path))?;
            let mut quiescence_labelled = false;
            for (i, v) in a.variants.iter().enumerate() {
                let Some(rate) = v.first_move_cutoff_rate else {
                    continue;
                };
                let x = i as f64;
                // One colour for every bar: the axis names the variants, and black text reads on it.
                let c = RGBColor(150, 190, 225);
                let pct = 100.0 * rate;
                chart
                    .draw_series([Rectangle::new(
                        [(x - 0.3, 0.0), (x + 0.3, pct)],
                        c.mix(0.8).filled(),
                    )])
                    .map_err(error(path))?;
                if let Some(m) = v.first_move_cutoff_rate_mean {
                    chart
                        .draw_series([ErrorBar::new_vertical(
                            x,
                            100.0 * m.low,
                            100.0 * m.estimate,
                            100.0 * m.high.min(1.0),
                            BLACK.stroke_width(1),
                            10,
                        )])
                        .map_err(error(path))?;
                }
                chart
                    .draw_series([Text::new(
                        format!("{pct:.1}%"),
                        (x - 0.12, pct / 2.0),
                        (FONT, 13).into_font().color(&BLACK),
                    )])
                    .map_err(error(path))?;
                if let Some(q) = v.quiescence_first_move_cutoff_rate {
                    let marker = chart
                        .draw_series([TriangleMarker::new((x, 100.0 * q), 7, BLACK.filled())])
                        .map_err(error(path))?;
                    if !quiescence_labelled {
                        marker
                            .label("quiescence nodes, pooled")
                            .legend(|(x, y)| TriangleMarker::new((x + 10, y), 6, BLACK.filled()));
                        quiescence_labelled = true;
                    }
                }
            }
            if quiescence_labelled {
                legend(&mut chart, SeriesLabelPosition::LowerRight).map_err(error(path))?;
            }
            Ok(())
        },
    )
}
