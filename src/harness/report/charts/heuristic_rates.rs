//! Per-heuristic counters: on the left how often each heuristic's condition held when it was
//! tested, on the right how often a verification or re-search overruled it when it fired, one
//! marker per variant, each row naming how many decisions it rests on (the most any variant
//! tested). The right panel is scaled to its data and shows only the heuristics something can
//! overrule (those with an overruled count anywhere); the legend has a column of its own, off
//! the data. A pruning idea that fires often and is rarely overruled is doing cheap, safe work.

use crate::harness::format::si;
use crate::harness::plot::{FONT, category, colour, error, svg};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

/// Every counter the variants show, in first-seen order.
fn counter_names(a: &Analysis) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for v in &a.variants {
        for c in &v.counters {
            if !names.contains(&c.heuristic) {
                names.push(c.heuristic.clone());
            }
        }
    }
    names
}

/// Each row's label (the counter and the most decisions any variant tested) and the right
/// panel's top: the largest overruled rate, %, with a fifth to spare (1 to 100).
fn rows_and_top(a: &Analysis, names: &[String]) -> (Vec<String>, f64) {
    let counters = || a.variants.iter().flat_map(|v| &v.counters);
    let tested = |h: &str| {
        counters()
            .filter(|c| c.heuristic == h)
            .map(|c| c.tested)
            .max()
            .unwrap_or(0)
    };
    let rows = names
        .iter()
        .map(|h| format!("{h} (n≤{})", si(tested(h) as f64)))
        .collect();
    let overruled_max = counters()
        .filter_map(|c| c.overruled_rate())
        .fold(0.0f64, f64::max);
    (rows, (100.0 * overruled_max * 1.2).clamp(1.0, 100.0))
}

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    let names = counter_names(a);
    let (rows, overruled_top) = rows_and_top(a, &names);
    let overrulable = |h: &str| {
        a.variants
            .iter()
            .flat_map(|v| &v.counters)
            .any(|c| c.heuristic == h && c.overruled > 0)
    };
    let height = (200 + 30 * names.len() as u32).max(360);
    svg(
        path,
        (1200, height),
        "Heuristic counters: fired and overruled rates",
        &a.meta.caption(),
        |area| {
            let (left, rest) = area.split_horizontally(640);
            let (right, key) = rest.split_horizontally(360);
            let n = names.len().max(1) as f64;
            let m = a.variants.len().max(1) as f64;
            let label = category(&rows);
            let no_label = |_: &f64| String::new();
            for (panel, (what, desc, top)) in [left, right].iter().zip([
                ("fired", "fired ÷ tested, %", 100.0),
                (
                    "overruled",
                    "overruled ÷ fired, % (only what can be overruled)",
                    overruled_top,
                ),
            ]) {
                let mut chart = ChartBuilder::on(panel)
                    .margin(15)
                    .x_label_area_size(50)
                    .y_label_area_size(if what == "fired" { 230 } else { 10 })
                    .build_cartesian_2d(0f64..top, -0.5f64..n - 0.5)
                    .map_err(error(path))?;
                let digits = if top >= 10.0 { 0 } else { 1 };
                let tick = move |v: &f64| format!("{v:.digits$}");
                let mut mesh = chart.configure_mesh();
                mesh.x_desc(desc)
                    .x_label_formatter(&tick)
                    .y_labels(names.len().max(1))
                    .light_line_style(WHITE)
                    .axis_desc_style((FONT, 15))
                    .label_style((FONT, 13));
                if what == "fired" {
                    mesh.y_label_formatter(&label);
                } else {
                    mesh.y_label_formatter(&no_label);
                }
                mesh.draw().map_err(error(path))?;
                for (k, v) in a.variants.iter().enumerate() {
                    let c = colour(k);
                    // Spread the variants' markers across the row so that equal rates stay visible.
                    let offset = (k as f64 - (m - 1.0) / 2.0) * (0.7 / m);
                    let points: Vec<(f64, f64)> = v
                        .counters
                        .iter()
                        .filter(|counter| what == "fired" || overrulable(&counter.heuristic))
                        .filter_map(|counter| {
                            let row = names.iter().position(|h| *h == counter.heuristic)? as f64;
                            let rate = if what == "fired" {
                                counter.fired_rate()
                            } else {
                                counter.overruled_rate()
                            }?;
                            Some((100.0 * rate, row + offset))
                        })
                        .collect();
                    chart
                        .draw_series(points.iter().map(|&p| Circle::new(p, 4, c.filled())))
                        .map_err(error(path))?;
                }
            }
            legend(a, &key, path)?;
            Ok(())
        },
    )
}

/// The legend in its own column: one marker and label per variant.
fn legend<DB: DrawingBackend>(
    a: &Analysis,
    key: &DrawingArea<DB, plotters::coord::Shift>,
    path: &Path,
) -> Result<(), String> {
    for (k, v) in a.variants.iter().enumerate() {
        let y = 40 + 22 * k as i32;
        key.draw(&Circle::new((20, y), 5, colour(k).filled()))
            .map_err(error(path))?;
        key.draw(&Text::new(
            v.label.clone(),
            (32, y - 7),
            (FONT, 13).into_font().color(&BLACK),
        ))
        .map_err(error(path))?;
    }
    Ok(())
}
