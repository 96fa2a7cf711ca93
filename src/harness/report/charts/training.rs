//! `loss.svg`: the training and validation loss by epoch.

use std::path::Path;

use plotters::prelude::*;

use crate::harness::plot::{FONT, SIZE, colour, error, legend, line_with_dots, mesh, plot, svg};

/// Draw the loss curves (`(name, [(epoch, loss)])`) into `path`, `subtitle` under the title.
pub fn loss(path: &Path, subtitle: &str, series: &[(&str, Vec<(f64, f64)>)]) -> Result<(), String> {
    let values = series.iter().flat_map(|(_, s)| s.iter().map(|p| p.1));
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = ((hi - lo) * 0.1).max(1e-6);
    svg(
        path,
        SIZE,
        "NNUE training: loss by epoch",
        subtitle,
        |area| {
            let last = series
                .iter()
                .flat_map(|(_, s)| s.iter().map(|p| p.0))
                .fold(1.0, f64::max);
            let mut chart = plot(
                area,
                path,
                (45, 80),
                0.5..last + 0.5,
                (lo - pad)..(hi + pad),
            )?;
            mesh(
                &mut chart,
                "epoch",
                "mean squared error of the expected score",
            )
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 15))
            .draw()
            .map_err(error(path))?;
            for (i, (name, points)) in series.iter().enumerate() {
                line_with_dots(&mut chart, points.clone(), colour(i), name).map_err(error(path))?;
            }
            legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(error(path))?;
            Ok(())
        },
    )
}
