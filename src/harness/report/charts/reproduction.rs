//! The reproduction's two charts: our numbers (solid lines, circles) against Ifrit's (dashed
//! lines, triangles), by depth, on a log axis.

use crate::harness::format::si;
use crate::harness::plot::{SIZE, colour, error, legend, log_range, mesh, plot, svg};
use crate::harness::reproduce::{KILLER_PRESETS, Reproduction, SCRATCH_LEAF};
use plotters::prelude::*;
use std::path::Path;

/// One series: a label and `(depth, value)` points.
struct Series {
    label: String,
    ours: Vec<(f64, f64)>,
    theirs: Vec<(f64, f64)>,
}

fn series(
    r: &Reproduction,
    variants: &[&str],
    value: impl Fn(&Reproduction, &str, u32, bool) -> Option<f64>,
) -> Vec<Series> {
    variants
        .iter()
        .map(|v| Series {
            label: v.to_string(),
            ours: (1..=9)
                .filter_map(|d| value(r, v, d, true).map(|x| (d as f64, x)))
                .collect(),
            theirs: (1..=9)
                .filter_map(|d| value(r, v, d, false).map(|x| (d as f64, x)))
                .collect(),
        })
        .collect()
}

fn draw_lines(
    path: &Path,
    title: &str,
    subtitle: &str,
    y_desc: &str,
    all: &[Series],
) -> Result<(), String> {
    svg(path, SIZE, title, subtitle, |area| {
        let points = || all.iter().flat_map(|s| s.ours.iter().chain(&s.theirs));
        let x_low = points().map(|p| p.0).fold(f64::MAX, f64::min);
        let x_high = points().map(|p| p.0).fold(f64::MIN, f64::max);
        let y = log_range(points().map(|p| p.1));
        let mut chart = plot(
            area,
            path,
            (50, 80),
            x_low - 0.5..x_high + 0.5,
            y.log_scale(),
        )?;
        mesh(&mut chart, "depth (plies)", y_desc)
            .x_labels((x_high - x_low) as usize + 1)
            .x_label_formatter(&|d| format!("{d:.0}"))
            .y_labels(12)
            .y_label_formatter(&|v| si(*v))
            .draw()
            .map_err(error(path))?;
        for (i, s) in all.iter().enumerate() {
            let c = colour(i);
            chart
                .draw_series(LineSeries::new(s.ours.clone(), c.stroke_width(2)))
                .map_err(error(path))?
                .label(format!("{} (searchlab)", s.label))
                .legend(move |(x, y)| {
                    EmptyElement::at((x, y))
                        + PathElement::new(vec![(0, 0), (20, 0)], c.stroke_width(2))
                        + Circle::new((10, 0), 4, c.filled())
                });
            chart
                .draw_series(s.ours.iter().map(|&p| Circle::new(p, 4, c.filled())))
                .map_err(error(path))?;
            if s.theirs.is_empty() {
                continue;
            }
            chart
                .draw_series(DashedLineSeries::new(
                    s.theirs.clone(),
                    6,
                    4,
                    c.stroke_width(2),
                ))
                .map_err(error(path))?
                .label(format!("{} (Ifrit, document)", s.label))
                .legend(move |(x, y)| {
                    EmptyElement::at((x, y))
                        + PathElement::new(vec![(0, 0), (5, 0)], c.stroke_width(2))
                        + PathElement::new(vec![(15, 0), (20, 0)], c.stroke_width(2))
                        + TriangleMarker::new((10, 0), 5, c.filled())
                });
            chart
                .draw_series(
                    s.theirs
                        .iter()
                        .map(|&p| TriangleMarker::new(p, 5, c.filled())),
                )
                .map_err(error(path))?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(error(path))?;
        Ok(())
    })
}

/// Draw `killers.svg` and `quiescence.svg` into `dir`.
pub fn draw(r: &Reproduction, dir: &Path) -> Result<(), String> {
    let date = &r.provenance.date[..r.provenance.date.len().min(10)];
    // Horizon leaves (Ifrit's convention), the stated configuration (the presets).
    let killers = series(r, &KILLER_PRESETS, |r, v, d, ours| {
        if ours {
            r.ours(v, d).map(|x| x.horizon as f64)
        } else {
            r.theirs(v, d).map(|x| x.nodes as f64)
        }
    });
    draw_lines(
        &dir.join("killers.svg"),
        "Killers (003): horizon leaves per iteration from the start position",
        &format!(
            "alpha-beta with quiescence · ours: the stated configuration (000's quiescence) · {date}"
        ),
        "horizon leaves of the iteration (log scale)",
        &killers,
    )?;
    // A ratio carries over between machines; absolute times do not.
    let quiescence = series(
        r,
        &["incremental leaf", "leaf from scratch"],
        |r, v, d, ours| {
            if ours {
                let suffix = if v == "leaf from scratch" {
                    SCRATCH_LEAF
                } else {
                    ""
                };
                let without = r.ours(&format!("minimax{suffix}"), d)?;
                let with = r.ours(&format!("minimax-q{suffix}"), d)?;
                Some(with.time_ms / without.time_ms.max(0.001))
            } else if v == "incremental leaf" {
                None
            } else {
                let without = r.theirs("minimax", d)?;
                let with = r.theirs("minimax-q", d)?;
                Some(with.time_s as f64 / (without.time_s as f64).max(1.0))
            }
        },
    );
    draw_lines(
        &dir.join("quiescence.svg"),
        "Quiescence (000): time with ÷ time without, full-width minimax",
        &format!("start position · 000's quiescence, searches run one at a time · {date}"),
        "time ratio (log scale)",
        &quiescence,
    )
}
