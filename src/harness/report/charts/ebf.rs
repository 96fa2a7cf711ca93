//! Effective branching factor per variant, `(N_d / N_(d-2))^(1/2)` at the last completed depth
//! (stable across the parity of d): the geometric mean over positions as a point with its 95%
//! interval. A ratio is drawn as a point on an axis scaled to the data, not as a bar from 0.

use crate::harness::plot::{FONT, SIZE, category, colour, error, mesh, plot, svg};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    svg(
        path,
        SIZE,
        "Effective branching factor",
        &a.meta.caption(),
        |area| {
            let names: Vec<String> = a.variants.iter().map(|v| v.label.clone()).collect();
            let values: Vec<f64> = a
                .variants
                .iter()
                .filter_map(|v| v.ebf)
                .flat_map(|e| [e.low, e.high])
                .collect();
            let low = values
                .iter()
                .copied()
                .fold(f64::MAX, f64::min)
                .min(f64::MAX);
            let high = values.iter().copied().fold(f64::MIN, f64::max);
            let (low, high) = if values.is_empty() {
                (1.0, 2.0)
            } else {
                let pad = ((high - low) * 0.15).max(0.1);
                ((low - pad).max(0.0), high + pad)
            };
            let n = names.len().max(1) as f64;
            let label = category(&names);
            let mut chart = plot(area, path, (60, 60), -0.5f64..n - 0.5, low..high)?;
            mesh(
                &mut chart,
                "variant",
                "EBF (N_d / N_d-2)^1/2: geometric mean over positions, 95% interval",
            )
            .x_labels(names.len().max(1))
            .x_label_formatter(&label)
            .disable_x_mesh()
            .draw()
            .map_err(error(path))?;
            for (i, v) in a.variants.iter().enumerate() {
                let Some(e) = v.ebf else { continue };
                let x = i as f64;
                let c = colour(i);
                chart
                    .draw_series([ErrorBar::new_vertical(
                        x,
                        e.low,
                        e.estimate,
                        e.high,
                        c.stroke_width(2),
                        14,
                    )])
                    .map_err(error(path))?;
                chart
                    .draw_series([Circle::new((x, e.estimate), 5, c.filled())])
                    .map_err(error(path))?;
                chart
                    .draw_series([Text::new(
                        format!("{:.2}", e.estimate),
                        (x + 0.08, e.estimate),
                        (FONT, 13),
                    )])
                    .map_err(error(path))?;
            }
            Ok(())
        },
    )
}
