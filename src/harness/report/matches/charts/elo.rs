//! Elo of each variant against the baseline, with its 95% interval: a row per pairing, the line
//! at 0 (as strong as the baseline), the numbers written above each interval. A pairing whose
//! every game went one way has no finite Elo: it is named in the subtitle, not drawn.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

use crate::harness::games::rating::tally::PairingResult;
use crate::harness::plot::{FONT, error, interval_row, legend, plot, rows_mesh, svg};

/// The pairings drawn (those with a finite Elo), and the subtitle naming the others.
fn drawn<'a>(results: &'a [PairingResult], subtitle: &str) -> (Vec<&'a PairingResult>, String) {
    let rows: Vec<&PairingResult> = results
        .iter()
        .filter(|r| r.estimate.is_some_and(|e| !e.unbounded))
        .collect();
    let unbounded: Vec<String> = results
        .iter()
        .filter(|r| r.estimate.is_some_and(|e| e.unbounded))
        .map(|r| {
            let lost = r.estimate.is_some_and(|e| e.elo.value < 0.0);
            let how = if lost {
                "every game lost"
            } else {
                "every game won"
            };
            format!("{} ({how})", r.dev)
        })
        .collect();
    let subtitle = if unbounded.is_empty() {
        subtitle.to_string()
    } else {
        format!(
            "{subtitle} · not drawn, no finite Elo: {}",
            unbounded.join(", ")
        )
    };
    (rows, subtitle)
}

pub fn draw(results: &[PairingResult], subtitle: &str, path: &Path) -> Result<(), String> {
    let (rows, subtitle) = drawn(results, subtitle);
    let base = results.first().map_or("", |r| r.base.as_str());
    let height = (240 + 60 * rows.len() as u32).max(360);
    svg(
        path,
        (960, height),
        &format!("Elo against the baseline ({base}), 95% intervals"),
        &subtitle,
        |area| {
            let names: Vec<String> = rows.iter().map(|r| r.dev.clone()).collect();
            let (mut low, mut high) = (-10.0f64, 10.0f64);
            for r in &rows {
                let e = r.estimate.expect("filtered");
                low = low.min(e.elo.low);
                high = high.max(e.elo.high);
            }
            let pad = (high - low) * 0.05;
            let x = (low - pad)..(high + pad);
            let n = rows.len().max(1) as f64;
            let no_label = |_: &f64| String::new();
            // Room below the rows for the legend. The axis has no tick marks and the rows'
            // names are written beside it, so that the legend's strip does not read as an
            // empty row (issue 61 item 13).
            let mut chart = plot(area, path, (50, 170), x.clone(), -1.5f64..n - 0.5)?;
            rows_mesh(
                &mut chart,
                "Elo of the variant against the baseline (logistic; right: stronger)",
                rows.len() + 1,
                &no_label,
            )
            .set_tick_mark_size(LabelAreaPosition::Left, 0)
            .draw()
            .map_err(error(path))?;
            let (left, top) = area.get_base_pixel();
            for (i, name) in names.iter().enumerate() {
                let (px, py) = chart.backend_coord(&(x.start, i as f64));
                let style = TextStyle::from((FONT, 14)).pos(Pos::new(HPos::Right, VPos::Center));
                area.draw(&Text::new(name.clone(), (px - left - 8, py - top), style))
                    .map_err(error(path))?;
            }
            chart
                .draw_series(LineSeries::new(
                    vec![(0.0, -1.5), (0.0, n - 0.5)],
                    BLACK.mix(0.6).stroke_width(1),
                ))
                .map_err(error(path))?
                .label("0: as strong as the baseline")
                .legend(|(x, y)| PathElement::new(vec![(x + 10, y - 8), (x + 10, y + 8)], BLACK));
            let ink = RGBColor(0, 114, 178);
            for (i, r) in rows.iter().enumerate() {
                let e = r.estimate.expect("filtered");
                let text = format!(
                    "{:+.1} [{:+.1}, {:+.1}]  {} games  LOS {:.1}%",
                    e.elo.value,
                    e.elo.low,
                    e.elo.high,
                    r.counts.games(),
                    100.0 * e.los
                );
                interval_row(
                    &mut chart,
                    i as f64,
                    (e.elo.low, e.elo.value, e.elo.high),
                    ink,
                    (i == 0).then_some("Elo (circle) and its 95% interval (bar)"),
                    text,
                    x.start + pad * 0.2,
                )
                .map_err(error(path))?;
            }
            legend(&mut chart, SeriesLabelPosition::LowerRight).map_err(error(path))?;
            Ok(())
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The y axis's tick marks: short horizontal lines (`x0,y x1,y` with `x1 − x0` = 5).
    fn y_ticks(svg: &str) -> usize {
        svg.lines()
            .filter_map(|line| line.split("points=\"").nth(1))
            .filter(|points| {
                let xy: Vec<(i32, i32)> = points
                    .split_whitespace()
                    .filter_map(|p| p.split_once(','))
                    .filter_map(|(x, y)| {
                        Some((x.parse().ok()?, y.trim_end_matches('"').parse().ok()?))
                    })
                    .collect();
                xy.len() == 2 && xy[0].1 == xy[1].1 && xy[1].0 - xy[0].0 == 5
            })
            .count()
    }

    #[test]
    fn one_pairing_draws_one_row_and_no_empty_one() {
        let analysis: serde_json::Value = serde_json::from_str(include_str!(
            "../../../../../reports/elo-quiescence-checks/analysis.json"
        ))
        .unwrap();
        let pairings: Vec<PairingResult> =
            serde_json::from_value(analysis["pairings"].clone()).unwrap();
        assert_eq!(pairings.len(), 1);
        let dir = std::env::temp_dir().join(format!("elo-chart-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("elo.svg");
        draw(&pairings, "caption", &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            svg.matches("no-quiescence-checks").count(),
            1,
            "one row, named once"
        );
        assert_eq!(
            y_ticks(&svg),
            0,
            "no tick marks an empty row for the legend"
        );
    }
}
