//! Elo against effort: one line per variant across the levels (a log axis of the effort), each
//! point with its 95% interval as a bar, the line at 0 (as strong as the baseline). Variants
//! are spread a little sideways at each level so that their bars do not hide each other. A
//! cell without a finite Elo (every game one way) is left out of its line and named below.

use plotters::prelude::*;
use std::path::Path;

use crate::harness::format::si;
use crate::harness::plot::{
    SIZE, colour, error, legend, line_with_dots, log_range, mesh, plot, svg,
};

/// One variant's line: its label and, at each level, the level's effort, its Elo (none when
/// unbounded or unplayed) and the interval (none when the estimate has none).
pub struct Line {
    pub label: String,
    pub points: Vec<Point>,
}

pub struct Point {
    pub level: String,
    pub amount: f64,
    pub played: bool,
    pub elo: Option<f64>,
    pub interval: Option<(f64, f64)>,
}

/// The subtitle, naming the cells that have no finite Elo.
fn subtitle(lines: &[Line], subtitle: &str) -> String {
    let unbounded: Vec<String> = lines
        .iter()
        .flat_map(|l| l.points.iter().map(move |p| (l, p)))
        .filter(|(_, p)| p.elo.is_none() && p.played)
        .map(|(l, p)| format!("{} at {}", l.label, p.level))
        .collect();
    if unbounded.is_empty() {
        subtitle.to_string()
    } else {
        format!("{subtitle} · no finite Elo: {}", unbounded.join(", "))
    }
}

/// The Elo axis: every estimate and interval, 0 and ±10 included, with a margin.
fn elo_range(lines: &[Line]) -> std::ops::Range<f64> {
    let (mut low, mut high) = (-10.0f64, 10.0f64);
    for p in lines.iter().flat_map(|l| &l.points) {
        let (lo, hi) = p.interval.unwrap_or((f64::NAN, f64::NAN));
        for v in [p.elo.unwrap_or(f64::NAN), lo, hi] {
            if v.is_finite() {
                low = low.min(v);
                high = high.max(v);
            }
        }
    }
    let pad = (high - low) * 0.08;
    // Room above the data for the legend box.
    (low - pad)..(high + (high - low) * 0.45)
}

/// The effort axis: the levels with a margin of a factor 1.5 each side (not whole decades: a
/// run's levels span one or two).
fn effort_range(lines: &[Line]) -> std::ops::Range<f64> {
    let range = log_range(lines.iter().flat_map(|l| l.points.iter().map(|p| p.amount)));
    let amounts = || lines.iter().flat_map(|l| l.points.iter().map(|p| p.amount));
    let low = amounts().filter(|a| *a > 0.0).fold(f64::MAX, f64::min);
    let high = amounts().fold(f64::MIN, f64::max);
    if low <= high {
        (low / 1.5)..(high * 1.5)
    } else {
        range
    }
}

/// Draw the lines against the base `base`, the x axis described as `axis`.
pub fn draw(
    lines: &[Line],
    (base, axis): (&str, &str),
    caption: &str,
    path: &Path,
) -> Result<(), String> {
    svg(
        path,
        SIZE,
        &format!("Elo against effort (against {base}), 95% intervals"),
        &subtitle(lines, caption),
        |area| {
            let x = effort_range(lines);
            let mut chart = plot(
                area,
                path,
                (50, 70),
                x.clone().log_scale(),
                elo_range(lines),
            )?;
            mesh(
                &mut chart,
                &format!("{axis} (log scale)"),
                "Elo of the variant against the baseline",
            )
            .x_labels(12)
            .x_label_formatter(&|v| si(*v))
            .draw()
            .map_err(error(path))?;
            chart
                .draw_series(LineSeries::new(
                    vec![(x.start, 0.0), (x.end, 0.0)],
                    BLACK.mix(0.6).stroke_width(1),
                ))
                .map_err(error(path))?
                .label("0: as strong as the baseline")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
            let n = lines.len() as f64;
            for (i, line) in lines.iter().enumerate() {
                let c = colour(i);
                // A sideways step of up to ±4% of the level, so bars at one level stay apart.
                let shift = 1.0 + 0.08 * ((i as f64 + 0.5) / n - 0.5);
                for p in &line.points {
                    if let (Some(elo), Some((lo, hi))) = (p.elo, p.interval) {
                        chart
                            .draw_series([ErrorBar::new_vertical(
                                p.amount * shift,
                                lo,
                                elo,
                                hi,
                                c.stroke_width(2),
                                10,
                            )])
                            .map_err(error(path))?;
                    }
                }
                let points = line
                    .points
                    .iter()
                    .filter_map(|p| Some((p.amount * shift, p.elo?)));
                line_with_dots(&mut chart, points.collect(), c, &line.label)
                    .map_err(error(path))?;
            }
            legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(error(path))?;
            Ok(())
        },
    )
}
