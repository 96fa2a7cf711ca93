//! Nodes spent to complete each depth, per variant: geometric mean over positions (log scale)
//! with its 95% interval as error bars (often narrower than the dot over thousands of
//! positions). The slope is the branching factor; a heuristic that prunes well bends its line
//! down. The baseline is drawn last and thicker, so no other line hides it. When not every
//! position reached every depth (a time limit), each of the baseline's points carries the
//! number of positions its mean is over.

use crate::harness::format::si;
use crate::harness::plot::{
    FONT, SIZE, colour, error, legend, line_with_dots, log_range, mesh, plot, svg,
};
use crate::harness::report::analysis::{Analysis, VariantAnalysis};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::path::Path;

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    svg(
        path,
        SIZE,
        "Nodes spent to complete each depth",
        &a.meta.caption(),
        |area| {
            let max_depth = a.max_depth();
            let y = log_range(a.variants.iter().flat_map(|v| {
                v.depth_curve
                    .iter()
                    .flat_map(|p| [p.nodes.low, p.nodes.high])
            }));
            let mut chart = plot(
                area,
                path,
                (50, 80),
                0.5f64..max_depth as f64 + 0.5,
                y.clone().log_scale(),
            )?;
            mesh(
                &mut chart,
                "depth (plies)",
                "nodes up to and including the depth (geometric mean, 95% interval, log scale)",
            )
            .x_labels(max_depth as usize)
            .x_label_formatter(&|d| format!("{d:.0}"))
            .y_labels(12)
            .y_label_formatter(&|v| si(*v))
            .draw()
            .map_err(error(path))?;
            let shrinking = a.variants.iter().any(|v| {
                v.depth_curve
                    .windows(2)
                    .any(|w| w[0].nodes.n != w[1].nodes.n)
            });
            // Every variant in its own colour (its index in the report), the baseline last.
            let mut order: Vec<usize> = (0..a.variants.len()).collect();
            order.sort_by_key(|&i| a.variants[i].label == a.baseline);
            for i in order {
                let v = &a.variants[i];
                let is_base = v.label == a.baseline;
                variant_curve(&mut chart, v, colour(i), is_base, is_base && shrinking)
                    .map_err(error(path))?;
            }
            legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(error(path))?;
            Ok(())
        },
    )
}

/// One variant's curve with its intervals, the baseline's drawn thicker and, when positions
/// drop out at later depths (`counts`), each point with the number its mean is over.
fn variant_curve<'a>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, LogCoord<f64>>>,
    v: &VariantAnalysis,
    c: RGBColor,
    is_base: bool,
    counts: bool,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let points: Vec<(f64, f64)> = v
        .depth_curve
        .iter()
        .map(|p| (p.depth as f64, p.nodes.estimate))
        .collect();
    chart.draw_series(v.depth_curve.iter().map(|p| {
        ErrorBar::new_vertical(
            p.depth as f64,
            p.nodes.low,
            p.nodes.estimate,
            p.nodes.high,
            c.stroke_width(2),
            12,
        )
    }))?;
    let label = if is_base {
        format!("{} (baseline)", v.label)
    } else {
        v.label.clone()
    };
    if is_base {
        chart.draw_series(LineSeries::new(points.clone(), c.stroke_width(4)))?;
    }
    line_with_dots(chart, points, c, &label)?;
    if counts {
        chart.draw_series(v.depth_curve.iter().map(|p| {
            Text::new(
                format!("n={}", p.nodes.n),
                (p.depth as f64 + 0.05, p.nodes.estimate),
                (FONT, 12),
            )
        }))?;
    }
    Ok(())
}
