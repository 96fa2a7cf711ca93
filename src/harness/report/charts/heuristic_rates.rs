//! Per-heuristic counters: on the left how often each heuristic's condition held when it was
//! tested, on the right how often the verification overruled it when it fired, one marker per
//! variant. A pruning idea that fires often and is rarely overruled is doing cheap, safe work.

use crate::harness::plot::{FONT, canvas, category, colour, error, legend};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    let mut names: Vec<String> = Vec::new();
    for v in &a.variants {
        for c in &v.counters {
            if !names.contains(&c.heuristic) {
                names.push(c.heuristic.clone());
            }
        }
    }
    let height = (200 + 30 * names.len() as u32).max(360);
    let area = canvas(
        path,
        (1100, height),
        "Heuristic counters: fired and overruled rates",
        &a.meta.caption(),
    )?;
    let (left, right) = area.split_horizontally(600);
    let n = names.len().max(1) as f64;
    let m = a.variants.len().max(1) as f64;
    let label = category(&names);
    let no_label = |_: &f64| String::new();
    for (panel, (what, desc)) in [left, right].iter().zip([
        ("fired", "fired / tested, %"),
        ("overruled", "overruled / fired, %"),
    ]) {
        let mut chart = ChartBuilder::on(panel)
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(if what == "fired" { 150 } else { 10 })
            .build_cartesian_2d(0f64..100.0, -0.5f64..n - 0.5)
            .map_err(error(path))?;
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(desc)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_labels(names.len().max(1))
            .light_line_style(WHITE)
            .axis_desc_style((FONT, 16))
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
            let series = chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 4, c.filled())))
                .map_err(error(path))?;
            if what == "overruled" {
                series
                    .label(v.label.as_str())
                    .legend(move |(x, y)| Circle::new((x + 8, y), 4, c.filled()));
            }
        }
        if what == "overruled" && !a.variants.is_empty() {
            legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(error(path))?;
        }
    }
    area.present().map_err(error(path))
}
