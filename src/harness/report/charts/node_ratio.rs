//! Node ratio to the baseline, per variant: the geometric mean of per-position ratios with its
//! 95% interval (t on the paired log ratios), on a log axis centred on 1 with ticks at powers
//! of two (¼, ½, 1, 2, 4 …). An interval that does not cross the line at 1 is a difference
//! in nodes the data support; it says nothing about solves, so every variant has the same
//! colour and the solves are read in the summary table. Each row's numbers and Wilcoxon p are
//! written at the left edge, above its interval.

use crate::harness::plot::{category, error, interval_row, legend, plot, rows_mesh, svg};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

/// A power of two as a tick label: `1/4`, `1/2`, `1`, `2`, `4`; other values with two
/// decimals.
fn power_of_two(log2: f64) -> String {
    if (log2 - log2.round()).abs() > 1e-9 {
        return format!("{:.2}", log2.exp2());
    }
    let k = log2.round() as i32;
    if k >= 0 {
        format!("{}", 1u64 << k.min(62))
    } else {
        format!("1/{}", 1u64 << (-k).min(62))
    }
}

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    let rows: Vec<_> = a
        .variants
        .iter()
        .filter_map(|v| v.node_ratio.map(|r| (v.label.clone(), r)))
        .collect();
    let height = (200 + 60 * rows.len() as u32).max(340);
    svg(
        path,
        (960, height),
        &format!("Node ratio to the baseline ({})", a.baseline),
        &a.meta.caption(),
        |area| {
            let names: Vec<String> = rows.iter().map(|(l, _)| l.clone()).collect();
            let (mut low, mut high) = (1.0f64, 1.0f64);
            for (_, r) in &rows {
                low = low.min(r.ratio.low);
                high = high.max(r.ratio.high);
            }
            // Whole powers of two at both ends, so that the ticks fall on them.
            let x = (low.max(1e-6).log2().floor() - 0.25)..(high.log2().ceil() + 0.25);
            let ticks = (x.end - x.start).round() as usize + 1;
            let n = rows.len().max(1) as f64;
            let label = category(&names);
            let mut chart = plot(area, path, (50, 170), x.clone(), -0.5f64..n - 0.5)?;
            rows_mesh(
        &mut chart,
        "nodes of the variant ÷ nodes of the baseline (geometric mean, 95% interval, log scale)",
        rows.len().max(1),
        &label,
    )
    .x_labels(ticks)
    .x_label_formatter(&|v| power_of_two(*v))
    .draw()
    .map_err(error(path))?;
            chart
                .draw_series(LineSeries::new(
                    vec![(0.0, -0.5), (0.0, n - 0.5)],
                    BLACK.mix(0.6).stroke_width(1),
                ))
                .map_err(error(path))?
                .label("1: as many nodes as the baseline (left: fewer)")
                .legend(|(x, y)| PathElement::new(vec![(x + 10, y - 8), (x + 10, y + 8)], BLACK));
            let ink = RGBColor(0, 114, 178);
            for (i, (_, r)) in rows.iter().enumerate() {
                let text = format!(
                    "{:.3} [{:.3}, {:.3}]  Wilcoxon {}",
                    r.ratio.estimate,
                    r.ratio.low,
                    r.ratio.high,
                    r.wilcoxon_p
                        .map_or("-".into(), crate::harness::format::p_value)
                );
                interval_row(
                    &mut chart,
                    i as f64,
                    (
                        r.ratio.low.log2(),
                        r.ratio.estimate.log2(),
                        r.ratio.high.log2(),
                    ),
                    ink,
                    (i == 0).then_some("geometric mean (circle) and its 95% interval (bar)"),
                    text,
                    x.start + 0.05,
                )
                .map_err(error(path))?;
            }
            legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(error(path))?;
            Ok(())
        },
    )
}

#[cfg(test)]
mod tests {
    use super::power_of_two;

    #[test]
    fn ticks_read_as_powers_of_two() {
        assert_eq!(power_of_two(-2.0), "1/4");
        assert_eq!(power_of_two(0.0), "1");
        assert_eq!(power_of_two(3.0), "8");
        assert_eq!(power_of_two(0.5), "1.41");
    }
}
