//! Node ratio to the baseline, per variant: the geometric mean of per-position ratios with its
//! 95% interval (t on the paired log ratios), on a log axis centred on 1 (drawn in log2 space so
//! that ratios below 1 get labels as well: ½, ¼ …). A bar that does not
//! cross the line at 1 is a difference the data support; the Wilcoxon p is printed beside it.

use crate::harness::plot::{FONT, canvas, category, error};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    let rows: Vec<_> = a
        .variants
        .iter()
        .filter_map(|v| v.node_ratio.map(|r| (v.label.clone(), r)))
        .collect();
    let height = (180 + 60 * rows.len() as u32).max(320);
    let area = canvas(
        path,
        (960, height),
        &format!("Node ratio to the baseline ({})", a.baseline),
        &a.meta.caption(),
    )?;
    let names: Vec<String> = rows.iter().map(|(l, _)| l.clone()).collect();
    let (mut low, mut high) = (1.0f64, 1.0f64);
    for (_, r) in &rows {
        low = low.min(r.ratio.low);
        high = high.max(r.ratio.high);
    }
    let x = (low.max(1e-4).log2() - 0.3).min(-0.5)..(high.log2() + 1.2).max(0.5);
    let n = rows.len().max(1) as f64;
    let label = category(&names);
    let mut chart = ChartBuilder::on(&area)
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(170)
        .build_cartesian_2d(x, -0.5f64..n - 0.5)
        .map_err(error(path))?;
    chart
        .configure_mesh()
        .x_desc("nodes of the variant / nodes of the baseline (geometric mean, 95% interval, log scale)")
        .x_labels(12)
        .x_label_formatter(&|v| format!("{:.2}", v.exp2()))
        .y_labels(rows.len().max(1))
        .y_label_formatter(&label)
        .disable_y_mesh()
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 14))
        .draw()
        .map_err(error(path))?;
    chart
        .draw_series(LineSeries::new(
            vec![(0.0, -0.5), (0.0, n - 0.5)],
            BLACK.mix(0.6).stroke_width(1),
        ))
        .map_err(error(path))?;
    for (i, (_, r)) in rows.iter().enumerate() {
        let y = i as f64;
        let c = if r.ratio.high < 1.0 {
            RGBColor(0, 158, 115)
        } else if r.ratio.low > 1.0 {
            RGBColor(213, 94, 0)
        } else {
            RGBColor(100, 100, 100)
        };
        chart
            .draw_series([ErrorBar::new_horizontal(
                y,
                r.ratio.low.log2(),
                r.ratio.estimate.log2(),
                r.ratio.high.log2(),
                c.stroke_width(2),
                12,
            )])
            .map_err(error(path))?;
        chart
            .draw_series([Circle::new((r.ratio.estimate.log2(), y), 5, c.filled())])
            .map_err(error(path))?;
        let text = format!(
            "{:.3} [{:.3}, {:.3}]  {}",
            r.ratio.estimate,
            r.ratio.low,
            r.ratio.high,
            r.wilcoxon_p
                .map_or("-".into(), crate::harness::format::p_value)
        );
        chart
            .draw_series([Text::new(
                text,
                (r.ratio.low.log2(), y - 0.28),
                (FONT, 13).into_font().color(&BLACK),
            )])
            .map_err(error(path))?;
    }
    area.present().map_err(error(path))
}
