//! The SPRT's log-likelihood ratio against games played, one line per pairing, with the two
//! bounds: a line that reaches the upper bound accepted H1 (the change gains), the lower one
//! H0. The legend sits in a band above the upper bound.

use plotters::prelude::*;
use std::path::Path;

use crate::harness::games::rating::tally::PairingResult;
use crate::harness::plot::{FONT, colour, error, legend, line_with_dots, mesh, plot, svg};

pub fn draw(results: &[PairingResult], subtitle: &str, path: &Path) -> Result<(), String> {
    let tests: Vec<&PairingResult> = results.iter().filter(|r| r.sprt.is_some()).collect();
    let Some(first) = tests.first().and_then(|r| r.sprt.as_ref()) else {
        return Ok(());
    };
    let (lower, upper) = (first.lower, first.upper);
    svg(
        path,
        (960, 680),
        "SPRT: log-likelihood ratio against games",
        &format!(
            "H0 elo ≤ {}, H1 elo ≥ {} ({}), α {}, β {} · {subtitle}",
            first.sprt.elo0, first.sprt.elo1, first.sprt.model, first.sprt.alpha, first.sprt.beta
        ),
        |area| {
            let mut max_games = 2.0f64;
            // A band above the upper bound holds the legend: a test stops when it crosses a bound,
            // so no line goes far past it.
            let (mut low, mut high) = (lower * 1.15, upper + (upper - lower) * 0.45);
            for r in &tests {
                for &(games, llr) in &r.sprt.as_ref().expect("filtered").path {
                    max_games = max_games.max(games as f64);
                    low = low.min(llr);
                    high = high.max(llr);
                }
            }
            let mut chart = plot(area, path, (50, 60), 0.0..max_games * 1.02, low..high)?;
            mesh(&mut chart, "games", "LLR")
                .light_line_style(WHITE.mix(0.0))
                .label_style((FONT, 14))
                .draw()
                .map_err(error(path))?;
            for (bound, text) in [
                (upper, "upper bound: H1 accepted"),
                (lower, "lower bound: H0 accepted"),
            ] {
                chart
                    .draw_series(LineSeries::new(
                        vec![(0.0, bound), (max_games * 1.02, bound)],
                        BLACK.mix(0.7).stroke_width(1),
                    ))
                    .map_err(error(path))?;
                chart
                    .draw_series([Text::new(
                        format!("{text} ({bound:.2})"),
                        (max_games * 0.02, bound + (high - low) * 0.02),
                        (FONT, 13).into_font().color(&BLACK),
                    )])
                    .map_err(error(path))?;
            }
            for (i, r) in tests.iter().enumerate() {
                let s = r.sprt.as_ref().expect("filtered");
                let mut points = vec![(0.0, 0.0)];
                points.extend(s.path.iter().map(|&(g, l)| (g as f64, l)));
                // Thousands of pairs: the dots would hide the line.
                let points = thin(points, 400);
                line_with_dots(
                    &mut chart,
                    points,
                    colour(i + 1),
                    &format!("{} ({}, LLR {:.2})", r.dev, s.decision, s.llr),
                )
                .map_err(error(path))?;
            }
            legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(error(path))?;
            Ok(())
        },
    )
}

/// At most about `max` points, the last one kept.
fn thin(points: Vec<(f64, f64)>, max: usize) -> Vec<(f64, f64)> {
    if points.len() <= max {
        return points;
    }
    let step = points.len().div_ceil(max);
    let last = *points.last().expect("not empty");
    let mut out: Vec<(f64, f64)> = points.into_iter().step_by(step).collect();
    if out.last() != Some(&last) {
        out.push(last);
    }
    out
}
