//! The chart style every chart of searchlab shares: size, font, palette, the titled canvas,
//! log axes, categorical labels, lines with dots and the legend box. Charts are drawn as SVG
//! with plotters' SVG backend: text stays text (no font files or system font libraries are
//! needed), so they render the same on any machine. This module draws no chart itself: every
//! chart is in `report/charts/` (the run report's, training's and the reproduction's) or
//! `report/matches/charts/`.

pub mod heatmap;

use crate::harness::files;
use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::path::Path;

/// Chart size in pixels.
pub const SIZE: (u32, u32) = (960, 600);

/// Font family written into the SVG; the viewer picks its own sans-serif face.
pub const FONT: &str = "sans-serif";

/// Paul Tol's "muted" qualitative palette (colour-blind safe, distinct on white), in an order
/// that keeps neighbours apart, then grey. Every chart colours a variant by its index in the
/// report, so the same label has the same colour in every chart of a report.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x33, 0x22, 0x88),
    RGBColor(0xCC, 0x66, 0x77),
    RGBColor(0x11, 0x77, 0x33),
    RGBColor(0xAA, 0x44, 0x99),
    RGBColor(0x44, 0xAA, 0x99),
    RGBColor(0x99, 0x99, 0x33),
    RGBColor(0x88, 0x22, 0x55),
    RGBColor(0x88, 0xCC, 0xEE),
    RGBColor(0xDD, 0xCC, 0x77),
    RGBColor(0x77, 0x77, 0x77),
];

/// The colour of series `index`.
pub fn colour(index: usize) -> RGBColor {
    PALETTE[index % PALETTE.len()]
}

/// A plotters error as text naming the chart file.
pub fn error<E: std::fmt::Debug>(path: &Path) -> impl Fn(E) -> String + '_ {
    move |e| format!("{}: cannot draw: {e:?}", path.display())
}

/// Draw one chart into `path`: a white canvas of `size` with the title and a second line
/// (suite · limit · date) drawn on top, the area left for the plot handed to `draw`. The SVG is
/// drawn in memory and written through `files::write_atomic`: plotters' own file target writes
/// through a buffer whose last error is dropped, which left truncated charts on a full disk.
pub fn svg(
    path: &Path,
    size: (u32, u32),
    title: &str,
    subtitle: &str,
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<(), String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(error(path))?;
        let area = root
            .titled(title, (FONT, 22).into_font().style(FontStyle::Bold))
            .map_err(error(path))?;
        let area = area
            .titled(
                subtitle,
                (FONT, 15).into_font().color(&RGBColor(80, 80, 80)),
            )
            .map_err(error(path))?;
        draw(&area)?;
        area.present().map_err(error(path))?;
    }
    files::write_atomic(path, text)
}

/// The plot of a chart on `area`: the margin every chart leaves, label areas `label_areas`
/// pixels wide (below the x axis, left of the y axis), and the axes' ranges.
#[allow(clippy::type_complexity)]
pub fn plot<'a, 'c, X: AsRangedCoord, Y: AsRangedCoord>(
    area: &DrawingArea<SVGBackend<'a>, Shift>,
    path: &Path,
    label_areas: (u32, u32),
    x: X,
    y: Y,
) -> Result<ChartContext<'c, SVGBackend<'a>, Cartesian2d<X::CoordDescType, Y::CoordDescType>>, String>
{
    ChartBuilder::on(area)
        .margin(20)
        .x_label_area_size(label_areas.0)
        .y_label_area_size(label_areas.1)
        .build_cartesian_2d(x, y)
        .map_err(error(path))
}

/// The axes of `chart` described in the charts' fonts (an empty description: none); the caller
/// adds its labels and draws.
pub fn mesh<'a, 'b, 's, X, Y, XT, YT>(
    chart: &'b mut ChartContext<'a, SVGBackend<'s>, Cartesian2d<X, Y>>,
    x_desc: &str,
    y_desc: &str,
) -> MeshStyle<'a, 'b, X, Y, SVGBackend<'s>>
where
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
{
    let mut mesh = chart.configure_mesh();
    if !x_desc.is_empty() {
        mesh.x_desc(x_desc);
    }
    if !y_desc.is_empty() {
        mesh.y_desc(y_desc);
    }
    mesh.axis_desc_style((FONT, 16)).label_style((FONT, 13));
    mesh
}

/// The axes of a chart with one row per variant (`rows` ticks on the y axis, named by
/// `label`): no horizontal lines, the vertical ones white, labels a size larger.
pub fn rows_mesh<'a, 'b, 's, X, XT>(
    chart: &'b mut ChartContext<'a, SVGBackend<'s>, Cartesian2d<X, RangedCoordf64>>,
    x_desc: &str,
    rows: usize,
    label: &'b dyn Fn(&f64) -> String,
) -> MeshStyle<'a, 'b, X, RangedCoordf64, SVGBackend<'s>>
where
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
{
    let mut style = mesh(chart, x_desc, "");
    style
        .y_labels(rows)
        .y_label_formatter(label)
        .disable_y_mesh()
        .light_line_style(WHITE)
        .label_style((FONT, 14));
    style
}

/// A logarithmic axis range covering `values` with some room, whole decades where possible.
pub fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (mut low, mut high) = (f64::MAX, f64::MIN);
    for v in values.filter(|v| *v > 0.0 && v.is_finite()) {
        low = low.min(v);
        high = high.max(v);
    }
    if low > high {
        return 1.0..10.0;
    }
    let mut low = 10f64.powf(low.log10().floor());
    let high = 10f64.powf(high.log10().ceil());
    // At least two decades, so that the axis carries several labels.
    while high / low < 99.0 {
        low /= 10.0;
    }
    low..high
}

/// The label of category `y` on a categorical axis drawn as `-0.5..n-0.5`; empty between.
pub fn category<'a>(names: &'a [String]) -> impl Fn(&f64) -> String + 'a {
    move |y| {
        let i = y.round();
        if (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
            names[i as usize].clone()
        } else {
            String::new()
        }
    }
}

/// One variant's line with a dot at each point, entered in the legend under `label`.
pub fn line_with_dots<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    points: Vec<(f64, f64)>,
    c: RGBColor,
    label: &str,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
    chart
        .draw_series(LineSeries::new(points, c.stroke_width(2)))?
        .label(label)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    Ok(())
}

/// The series-label box every multi-series chart uses.
pub fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, 14))
        .draw()
}

/// One row of an interval chart at height `y`: the estimate as a circle with its interval as a
/// capped bar over it (so a narrow interval still shows its caps), and `text` written at
/// `text_x` just above. The first row (`legend: Some(..)`) enters the legend.
#[allow(clippy::too_many_arguments)]
pub fn interval_row<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    y: f64,
    (low, estimate, high): (f64, f64, f64),
    ink: RGBColor,
    legend: Option<&str>,
    text: String,
    text_x: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    chart.draw_series([Circle::new((estimate, y), 4, ink.stroke_width(2))])?;
    let bar = chart.draw_series([ErrorBar::new_horizontal(
        y,
        low,
        estimate,
        high,
        ink.stroke_width(2),
        14,
    )])?;
    if let Some(label) = legend {
        bar.label(label).legend(move |(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new(vec![(0, 0), (20, 0)], ink.stroke_width(2))
                + Circle::new((10, 0), 4, ink.stroke_width(2))
        });
    }
    chart.draw_series([Text::new(
        text,
        (text_x, y - 0.3),
        (FONT, 13).into_font().color(&BLACK),
    )])?;
    Ok(())
}
