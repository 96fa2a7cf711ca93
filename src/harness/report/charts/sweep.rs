//! One swept parameter: the node ratio to the baseline (top) and the solve rate (bottom)
//! against the parameter's value, each with its 95% interval (t on the paired log ratios;
//! Wilson), one line per value of the other swept parameters, and the documents' default
//! marked by a dashed line.

use crate::harness::plot::{FONT, colour, error, legend, svg};
use crate::harness::report::analysis::Analysis;
use crate::harness::report::analysis::{SweepCurve, SweepValue};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::path::Path;

/// The series' name in the legend.
fn series_name(fixed: &[(String, f64)]) -> String {
    if fixed.is_empty() {
        return "sweep".into();
    }
    fixed
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A range over `values` with 8% room, never empty.
fn padded(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (mut low, mut high) = (f64::MAX, f64::MIN);
    for v in values.filter(|v| v.is_finite()) {
        low = low.min(v);
        high = high.max(v);
    }
    if low > high {
        return 0.0..1.0;
    }
    let room = ((high - low) * 0.08).max(1e-3 * high.abs().max(1.0));
    (low - room)..(high + room)
}

/// The documents' default as a dashed vertical line (21 dashes) across `ys`.
fn draw_default<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    curve: &SweepCurve,
    ys: std::ops::Range<f64>,
    path: &Path,
) -> Result<(), String> {
    let step = (ys.end - ys.start) / 41.0;
    let dashes = (0..21).map(|k| {
        let y = ys.start + 2.0 * k as f64 * step;
        PathElement::new(
            vec![(curve.default, y), (curve.default, y + step)],
            BLACK.mix(0.7).stroke_width(2),
        )
    });
    chart
        .draw_series(dashes)
        .map_err(error(path))?
        .label(format!("default {} = {}", curve.param, curve.default))
        .legend(|(x, y)| {
            PathElement::new(vec![(x, y), (x + 8, y)], BLACK.mix(0.7).stroke_width(2))
        });
    Ok(())
}

/// One series of a panel: its points `(value, (low, estimate, high))` as intervals joined by
/// a line, entered in the legend as `name`.
fn sweep_series<'a>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    points: &[(f64, (f64, f64, f64))],
    c: RGBColor,
    name: String,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    chart.draw_series(
        points
            .iter()
            .map(|(x, (l, e, h))| ErrorBar::new_vertical(*x, *l, *e, *h, c.stroke_width(2), 10)),
    )?;
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|(x, (_, e, _))| (*x, *e)),
            c.stroke_width(2),
        ))?
        .label(name)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    chart.draw_series(
        points
            .iter()
            .map(|(x, (_, e, _))| Circle::new((*x, *e), 4, c.filled())),
    )?;
    Ok(())
}

/// One panel: `value` gives (low, estimate, high) of a point.
#[allow(clippy::too_many_arguments)]
fn panel(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    curve: &SweepCurve,
    y_desc: &str,
    value: impl Fn(&SweepValue) -> Option<(f64, f64, f64)>,
    reference: Option<f64>,
    path: &Path,
    with_legend: bool,
) -> Result<(), String> {
    let xs = padded(
        curve
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.value))
            .chain([curve.default]),
    );
    let ys = padded(
        curve
            .series
            .iter()
            .flat_map(|s| s.points.iter().filter_map(&value))
            .flat_map(|(l, _, h)| [l, h])
            .chain(reference),
    );
    let mut chart = ChartBuilder::on(area)
        .margin(14)
        .x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d(xs.clone(), ys.clone())
        .map_err(error(path))?;
    chart
        .configure_mesh()
        .x_desc(curve.param.as_str())
        .y_desc(y_desc)
        .light_line_style(RGBColor(235, 235, 235))
        .axis_desc_style((FONT, 15))
        .label_style((FONT, 13))
        .draw()
        .map_err(error(path))?;
    draw_default(&mut chart, curve, ys.clone(), path)?;
    if let Some(r) = reference {
        chart
            .draw_series(LineSeries::new(
                vec![(xs.start, r), (xs.end, r)],
                BLACK.mix(0.3),
            ))
            .map_err(error(path))?;
    }
    for (i, s) in curve.series.iter().enumerate() {
        let c = colour(i);
        let points: Vec<(f64, (f64, f64, f64))> = s
            .points
            .iter()
            .filter_map(|p| value(p).map(|v| (p.value, v)))
            .collect();
        sweep_series(&mut chart, &points, c, series_name(&s.fixed)).map_err(error(path))?;
    }
    if with_legend {
        legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(error(path))?;
    }
    Ok(())
}

pub fn draw(a: &Analysis, curve: &SweepCurve, path: &Path) -> Result<(), String> {
    svg(
        path,
        (960, 820),
        &format!("Sweep of {}: node ratio and solve rate", curve.param),
        &a.meta.caption(),
        |area| {
            let (top, bottom) = area.split_vertically(400);
            panel(
                &top,
                curve,
                &format!("nodes ÷ {} (95% interval)", a.baseline),
                |p| p.node_ratio.map(|r| (r.low, r.estimate, r.high)),
                Some(1.0),
                path,
                true,
            )?;
            panel(
                &bottom,
                curve,
                "solved, % (Wilson 95%)",
                |p| {
                    p.solved.map(|s| {
                        let rate = 100.0 * s.solved as f64 / s.judged.max(1) as f64;
                        (100.0 * s.low, rate, 100.0 * s.high)
                    })
                },
                None,
                path,
                false,
            )?;
            Ok(())
        },
    )
}
