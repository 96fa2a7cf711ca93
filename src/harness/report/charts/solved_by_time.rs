//! Positions solved against time, per variant: the cumulative count of positions whose best
//! move was found (and kept) by time t, from each record's time to solution. Higher and further
//! left is better.

use crate::harness::format::si;
use crate::harness::plot::{SIZE, colour, error, legend, log_range, mesh, plot, svg};
use crate::harness::report::analysis::Analysis;
use plotters::prelude::*;
use std::path::Path;

pub fn draw(a: &Analysis, path: &Path) -> Result<(), String> {
    svg(
        path,
        SIZE,
        "Positions solved against time",
        &a.meta.caption(),
        |area| {
            let judged = a.judged();
            let top = a.solved_axis_top();
            let x = log_range(
                a.variants
                    .iter()
                    .flat_map(|v| v.solution_times_ms.iter().map(|t| t.max(0.01))),
            );
            let x_end = x.end;
            let mut chart = plot(area, path, (50, 60), x.log_scale(), 0f64..top)?;
            mesh(
                &mut chart,
                "time to solution, ms (log scale)",
                &format!("positions solved (of {judged} with a bm or am)"),
            )
            .x_labels(12)
            .x_label_formatter(&|v| si(*v))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(error(path))?;
            for (i, v) in a.variants.iter().enumerate() {
                let c = colour(i);
                // A step curve: the count rises at each solution time and holds until the next.
                let mut points = Vec::new();
                let mut count = 0.0;
                for t in &v.solution_times_ms {
                    let t = t.max(0.01);
                    points.push((t, count));
                    count += 1.0;
                    points.push((t, count));
                }
                points.push((x_end, count));
                chart
                    .draw_series(LineSeries::new(points, c.stroke_width(2)))
                    .map_err(error(path))?
                    .label(format!("{} ({})", v.label, v.solution_times_ms.len()))
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                    });
            }
            legend(&mut chart, SeriesLabelPosition::UpperLeft).map_err(error(path))?;
            Ok(())
        },
    )
}
