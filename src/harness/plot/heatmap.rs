//! A grid of coloured cells with their numbers written in them: the audit's error rates
//! (heuristic × depth) and the interaction matrix (heuristic × heuristic). A cell shows its
//! value and, below it, its interval, so the chart can be read without the tables.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

use super::{FONT, category, error, svg};

/// One cell: its colour and up to three lines of text.
pub struct Cell {
    pub fill: RGBColor,
    pub lines: Vec<String>,
}

/// What a heatmap shows.
pub struct Heatmap<'a> {
    pub title: &'a str,
    pub subtitle: &'a str,
    /// Row names, top to bottom.
    pub rows: &'a [String],
    pub columns: &'a [String],
    /// `cells[row][column]`; `None` is drawn grey and empty.
    pub cells: &'a [Vec<Option<Cell>>],
    /// The axis descriptions; the x one also says how to read the colours.
    pub x_desc: &'a str,
    pub y_desc: &'a str,
}

/// White to `ink` as `t` goes from 0 to 1 (clamped).
pub fn sequential(t: f64, ink: RGBColor) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    let mix = |c: u8| (255.0 + (f64::from(c) - 255.0) * t).round() as u8;
    RGBColor(mix(ink.0), mix(ink.1), mix(ink.2))
}

/// Blue below 0, white at 0, red above, saturated at ±1 (ColorBrewer's RdBu ends).
pub fn diverging(v: f64) -> RGBColor {
    if v < 0.0 {
        sequential(-v, RGBColor(0x21, 0x66, 0xAC))
    } else {
        sequential(v, RGBColor(0xB2, 0x18, 0x2B))
    }
}

/// Draw the heatmap into `path`.
pub fn draw(map: &Heatmap, path: &Path) -> Result<(), String> {
    let (nr, nc) = (map.rows.len().max(1), map.columns.len().max(1));
    let longest = map.rows.iter().map(|r| r.len()).max().unwrap_or(8) as u32;
    // Wide enough for the cells and for the x description under them.
    let desc = map.x_desc.chars().count() as u32;
    let width = (120 + 8 * longest + 128 * nc as u32)
        .max(160 + 7 * desc)
        .max(640);
    let height = (190 + 58 * nr as u32).max(380);
    svg(path, (width, height), map.title, map.subtitle, |area| {
        // Row 0 at the top.
        let row_names: Vec<String> = map.rows.iter().rev().cloned().collect();
        let rows = category(&row_names);
        let columns = category(map.columns);
        let mut chart = ChartBuilder::on(area)
            .margin(16)
            .x_label_area_size(56)
            .y_label_area_size(20 + 8 * longest)
            .build_cartesian_2d(-0.5f64..nc as f64 - 0.5, -0.5f64..nr as f64 - 0.5)
            .map_err(error(path))?;
        chart
            .configure_mesh()
            .x_desc(map.x_desc)
            .y_desc(map.y_desc)
            .x_labels(nc)
            .y_labels(nr)
            .x_label_formatter(&columns)
            .y_label_formatter(&rows)
            .disable_mesh()
            .axis_desc_style((FONT, 15))
            .label_style((FONT, 14))
            .draw()
            .map_err(error(path))?;
        let grey = RGBColor(0xEE, 0xEE, 0xEE);
        for (r, row) in map.cells.iter().enumerate() {
            let y = (nr - 1 - r) as f64;
            for (c, cell) in row.iter().enumerate() {
                let x = c as f64;
                let corners = [(x - 0.48, y - 0.46), (x + 0.48, y + 0.46)];
                let fill = cell.as_ref().map_or(grey, |cell| cell.fill);
                chart
                    .draw_series([Rectangle::new(corners, fill.filled())])
                    .map_err(error(path))?;
                let Some(cell) = cell else { continue };
                let count = cell.lines.len() as f64;
                for (k, line) in cell.lines.iter().enumerate() {
                    let size = if k == 0 { 15 } else { 12 };
                    let style = (FONT, size)
                        .into_font()
                        .color(&BLACK)
                        .pos(Pos::new(HPos::Center, VPos::Center));
                    let offset = (count - 1.0) / 2.0 - k as f64;
                    chart
                        .draw_series([Text::new(line.clone(), (x, y + 0.26 * offset), style)])
                        .map_err(error(path))?;
                }
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_scales_are_white_at_their_centre() {
        assert_eq!(sequential(0.0, RGBColor(0, 0, 0)), WHITE);
        assert_eq!(sequential(1.0, RGBColor(10, 20, 30)), RGBColor(10, 20, 30));
        assert_eq!(diverging(0.0), WHITE);
        assert_eq!(diverging(-2.0), RGBColor(0x21, 0x66, 0xAC));
        assert_eq!(diverging(1.0), RGBColor(0xB2, 0x18, 0x2B));
    }
}
