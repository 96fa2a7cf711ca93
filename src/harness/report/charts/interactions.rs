//! The interaction matrix as two grids, heuristic × heuristic: the synergy of node counts
//! (`ratio(A+B) / (ratio(A) · ratio(B))`, diverging colours centred on 1, blue below: the pair
//! saves more than its parts predict) and the solve interaction (centred on 0, blue above:
//! the pair solves more than predicted). Each pair's
//! cell writes its value and its 95% interval; the diagonal writes the heuristic alone.

use crate::harness::plot::heatmap::{self, Cell, Heatmap, diverging};
use crate::harness::report::analysis::Analysis;
use crate::harness::report::analysis::Interactions;
use plotters::style::RGBColor;
use std::path::Path;

/// The colour of a synergy: full at a factor of √2 either way.
fn synergy_colour(synergy: f64) -> RGBColor {
    diverging(synergy.max(1e-9).log2() / 0.5)
}

/// Row and column names: the single toggles' labels (`-killers`, `+gsr`).
fn names(m: &Interactions) -> Vec<String> {
    m.heuristics
        .iter()
        .map(|h| {
            m.singles
                .iter()
                .find(|s| &s.heuristic == h)
                .map_or(h.clone(), |s| s.label.clone())
        })
        .collect()
}

/// The grid of `m`, `diagonal` and `pair` giving each cell.
fn grid(
    m: &Interactions,
    diagonal: impl Fn(&str) -> Option<Cell>,
    pair: impl Fn(&str, &str) -> Option<Cell>,
) -> Vec<Vec<Option<Cell>>> {
    let hs = &m.heuristics;
    hs.iter()
        .enumerate()
        .map(|(i, a)| {
            hs.iter()
                .enumerate()
                .map(|(j, b)| match i.cmp(&j) {
                    std::cmp::Ordering::Equal => diagonal(a),
                    std::cmp::Ordering::Less => pair(a, b),
                    std::cmp::Ordering::Greater => None,
                })
                .collect()
        })
        .collect()
}

fn find<'a>(
    m: &'a Interactions,
    a: &str,
    b: &str,
) -> Option<&'a crate::harness::report::analysis::PairEffect> {
    m.pairs
        .iter()
        .find(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
}

const DIAGONAL: RGBColor = RGBColor(0xE8, 0xE8, 0xE8);

pub fn draw_nodes(a: &Analysis, path: &Path) -> Result<(), String> {
    let Some(m) = &a.interactions else {
        return Ok(());
    };
    let cells = grid(
        m,
        |h| {
            let s = m.singles.iter().find(|s| s.heuristic == h)?;
            let r = s.node_ratio?;
            Some(Cell {
                fill: DIAGONAL,
                lines: vec![
                    format!("alone {:.3}", r.estimate),
                    format!("[{:.3}–{:.3}]", r.low, r.high),
                ],
            })
        },
        |x, y| {
            let p = find(m, x, y)?;
            let s = p.synergy?;
            Some(Cell {
                fill: synergy_colour(s.estimate),
                lines: vec![
                    format!("{:.3}", s.estimate),
                    format!("[{:.3}–{:.3}]", s.low, s.high),
                    format!(
                        "pair {:.2}, pred. {:.2}",
                        p.node_ratio.map_or(f64::NAN, |r| r.estimate),
                        p.predicted_ratio.unwrap_or(f64::NAN)
                    ),
                ],
            })
        },
    );
    let names = names(m);
    heatmap::draw(
        &Heatmap {
            title: &format!("Interactions over {}: synergy of node counts", m.base),
            subtitle: &a.meta.caption(),
            rows: &names,
            columns: &names,
            cells: &cells,
            x_desc: "cell: ratio(A+B) / (ratio(A)·ratio(B)) and 95% interval; 1 = independent, blue < 1: the pair saves more than predicted, red > 1 (full colour at ×/÷ 1.41)",
            y_desc: "toggled against the base",
        },
        path,
    )
}

pub fn draw_solves(a: &Analysis, path: &Path) -> Result<(), String> {
    let Some(m) = &a.interactions else {
        return Ok(());
    };
    let top = m
        .pairs
        .iter()
        .filter_map(|p| p.solve_interaction.map(|i| i.estimate.abs()))
        .fold(3.0f64, f64::max);
    let cells = grid(
        m,
        |h| {
            let s = m.singles.iter().find(|s| s.heuristic == h)?;
            Some(Cell {
                fill: DIAGONAL,
                lines: vec![format!("alone {:+}", s.solved_delta?)],
            })
        },
        |x, y| {
            let i = find(m, x, y)?.solve_interaction?;
            Some(Cell {
                fill: diverging(-i.estimate / top),
                lines: vec![
                    format!("{:+.0}", i.estimate),
                    format!("[{:+.1}, {:+.1}]", i.low, i.high),
                ],
            })
        },
    );
    let names = names(m);
    let x_desc = format!(
        "cell: Σ s(A+B) − s(A) − s(B) + s(base) with 95% interval; 0 = solves add, blue > 0: the pair solves more than predicted (the same side as fewer nodes) (full colour at ±{top:.0})"
    );
    heatmap::draw(
        &Heatmap {
            title: &format!(
                "Interactions over {}: solves against the additive prediction",
                m.base
            ),
            subtitle: &a.meta.caption(),
            rows: &names,
            columns: &names,
            cells: &cells,
            x_desc: &x_desc,
            y_desc: "toggled against the base",
        },
        path,
    )
}
