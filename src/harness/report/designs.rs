//! The report's reading of a design (`harness::design`): the interaction matrix of
//! `--ablation pairs` and the curves of `--sweep`.
//!
//! **Synergy.** For heuristics A and B toggled over the base, with `ratio(X)` the nodes of X
//! over the base's, the synergy is `ratio(A+B) / (ratio(A) · ratio(B))`: 1 when the two act
//! independently (their savings multiply), below 1 when together they save more than
//! predicted, above 1 when they get in each other's way (002 warns that some heuristics
//! "degenerate" when combined). Per position it is `n(AB) · n(base) / (n(A) · n(B))`; the
//! report gives the geometric mean over the positions all four searched, with the t interval
//! of the log synergies (paired by position), and the Wilcoxon p of a shift from 1. Solves:
//! the difference against the additive prediction, `Σ s(AB) − s(A) − s(B) + s(base)` (0 when
//! each heuristic's solves add), with the t interval of the per-position terms times their
//! number.

use std::collections::BTreeMap;

use super::analysis::{
    Interactions, PairEffect, PositionKey, SingleEffect, SweepCurve, SweepSeries, SweepValue,
    VariantAnalysis,
};
use crate::harness::compare::{self, Interval};
use crate::harness::design::Design;

/// Per-position nodes (geometric mean over seeds) and first-seed solves of each variant.
pub(super) struct PerPosition<'a> {
    pub nodes: &'a BTreeMap<String, BTreeMap<PositionKey, f64>>,
    pub solved: &'a BTreeMap<String, BTreeMap<PositionKey, bool>>,
}

fn ratio_interval(logs: &[f64]) -> Option<Interval> {
    compare::mean_interval(logs).map(|i| Interval {
        estimate: i.estimate.exp(),
        low: i.low.exp(),
        high: i.high.exp(),
        n: i.n,
    })
}

/// The paired log ratios of `label` over `base`.
fn log_ratios(data: &PerPosition, label: &str, base: &str) -> Vec<f64> {
    let (Some(mine), Some(theirs)) = (data.nodes.get(label), data.nodes.get(base)) else {
        return Vec::new();
    };
    mine.iter()
        .filter_map(|(k, n)| theirs.get(k).map(|b| (n.max(1.0) / b.max(1.0)).ln()))
        .collect()
}

fn solved_delta(data: &PerPosition, label: &str, base: &str) -> Option<i64> {
    let (mine, theirs) = (data.solved.get(label)?, data.solved.get(base)?);
    let pairs: Vec<(bool, bool)> = mine
        .iter()
        .filter_map(|(k, s)| theirs.get(k).map(|b| (*s, *b)))
        .collect();
    (!pairs.is_empty()).then(|| {
        pairs
            .iter()
            .map(|(s, b)| i64::from(*s) - i64::from(*b))
            .sum()
    })
}

fn pair_effect(
    data: &PerPosition,
    base: &str,
    a: (&str, &str),
    b: (&str, &str),
    label: &str,
) -> PairEffect {
    let nodes = |l: &str| data.nodes.get(l);
    let mut synergy_logs = Vec::new();
    if let (Some(n0), Some(na), Some(nb), Some(nab)) =
        (nodes(base), nodes(a.1), nodes(b.1), nodes(label))
    {
        for (k, v) in nab {
            if let (Some(x0), Some(xa), Some(xb)) = (n0.get(k), na.get(k), nb.get(k)) {
                synergy_logs
                    .push(v.max(1.0).ln() + x0.max(1.0).ln() - xa.max(1.0).ln() - xb.max(1.0).ln());
            }
        }
    }
    let solved = |l: &str| data.solved.get(l);
    let mut terms = Vec::new();
    if let (Some(s0), Some(sa), Some(sb), Some(sab)) =
        (solved(base), solved(a.1), solved(b.1), solved(label))
    {
        for (k, v) in sab {
            if let (Some(x0), Some(xa), Some(xb)) = (s0.get(k), sa.get(k), sb.get(k)) {
                terms.push(
                    f64::from(u8::from(*v)) - f64::from(u8::from(*xa)) - f64::from(u8::from(*xb))
                        + f64::from(u8::from(*x0)),
                );
            }
        }
    }
    let single = |l: &str| ratio_interval(&log_ratios(data, l, base)).map(|i| i.estimate);
    PairEffect {
        a: a.0.to_string(),
        b: b.0.to_string(),
        label: label.to_string(),
        positions: synergy_logs.len(),
        node_ratio: ratio_interval(&log_ratios(data, label, base)),
        predicted_ratio: single(a.1).zip(single(b.1)).map(|(x, y)| x * y),
        synergy: ratio_interval(&synergy_logs),
        synergy_p: compare::wilcoxon_signed_rank(&synergy_logs).map(|w| w.p),
        solve_interaction: compare::mean_interval(&terms).map(|i| {
            let n = i.n as f64;
            Interval {
                estimate: i.estimate * n,
                low: i.low * n,
                high: i.high * n,
                n: i.n,
            }
        }),
    }
}

/// The interaction matrix of a pair design.
pub(super) fn interactions(design: &Design, data: &PerPosition) -> Option<Interactions> {
    let Design::Pairs {
        base,
        heuristics,
        cells,
    } = design
    else {
        return None;
    };
    let single_label = |h: &str| {
        cells
            .iter()
            .find(|c| c.toggled.len() == 1 && c.toggled[0] == h)
            .map(|c| c.label.as_str())
    };
    let singles = heuristics
        .iter()
        .filter_map(|h| {
            let label = single_label(h)?;
            Some(SingleEffect {
                heuristic: h.clone(),
                label: label.to_string(),
                node_ratio: ratio_interval(&log_ratios(data, label, base)),
                solved_delta: solved_delta(data, label, base),
            })
        })
        .collect();
    let pairs = cells
        .iter()
        .filter(|c| c.toggled.len() == 2)
        .filter_map(|c| {
            let (a, b) = (&c.toggled[0], &c.toggled[1]);
            Some(pair_effect(
                data,
                base,
                (a, single_label(a)?),
                (b, single_label(b)?),
                &c.label,
            ))
        })
        .collect();
    Some(Interactions {
        base: base.clone(),
        heuristics: heuristics.clone(),
        singles,
        pairs,
    })
}

/// The curves of a sweep design, one per swept parameter.
pub(super) fn sweeps(design: &Design, variants: &[VariantAnalysis]) -> Vec<SweepCurve> {
    let Design::Sweep {
        params,
        points,
        base,
    } = design
    else {
        return Vec::new();
    };
    let of = |label: &str| variants.iter().find(|v| v.label == label);
    params
        .iter()
        .enumerate()
        .map(|(k, param)| {
            let mut series: Vec<SweepSeries> = Vec::new();
            for point in points {
                let fixed: Vec<(String, f64)> = params
                    .iter()
                    .zip(&point.values)
                    .enumerate()
                    .filter(|(j, _)| *j != k)
                    .map(|(_, (p, v))| (p.key.clone(), *v))
                    .collect();
                let value = SweepValue {
                    value: point.values[k],
                    label: point.label.clone(),
                    is_base: point.label == *base,
                    node_ratio: of(&point.label).and_then(|v| v.node_ratio.map(|r| r.ratio)),
                    solved: of(&point.label).and_then(|v| v.solved),
                };
                match series.iter_mut().find(|s| s.fixed == fixed) {
                    Some(s) => s.points.push(value),
                    None => series.push(SweepSeries {
                        fixed,
                        points: vec![value],
                    }),
                }
            }
            for s in &mut series {
                s.points.sort_by(|a, b| a.value.total_cmp(&b.value));
            }
            SweepCurve {
                param: param.key.clone(),
                default: param.default,
                series,
            }
        })
        .collect()
}

/// A sweep chart's file stem.
pub fn sweep_file(param: &str) -> String {
    // An engine's option may hold spaces or signs (`Move Overhead`): a file name keeps none.
    let stem: String = param
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("sweep_{stem}")
}

fn cell(i: &Option<Interval>, digits: usize) -> String {
    i.map_or("-".into(), |i| crate::harness::format::interval(&i, digits))
}

/// The interaction and sweep sections of the Markdown.
/// One row of a sweep's table: the value (marked when it is the default), the variant (named
/// when it is the base, searched once), the node ratio to `baseline` and the solve rate.
fn sweep_row(p: &SweepValue, default: f64, baseline: &str) -> String {
    format!(
        "| {}{} | {} | {} | {} |\n",
        p.value,
        if p.value == default { " (default)" } else { "" },
        if p.is_base {
            format!("{} (the base: searched once)", p.label)
        } else {
            p.label.clone()
        },
        if p.is_base && p.label == baseline {
            "1 (itself)".into()
        } else {
            cell(&p.node_ratio, 3)
        },
        p.solved.map_or("-".into(), |s| format!(
            "{}/{} [{:.1}–{:.1}%]",
            s.solved,
            s.judged,
            100.0 * s.low,
            100.0 * s.high
        ))
    )
}

pub(super) fn markdown(
    interactions: &Option<Interactions>,
    curves: &[SweepCurve],
    baseline: &str,
) -> String {
    let mut out = String::new();
    if let Some(m) = interactions {
        out.push_str(&format!(
            "\n## Interactions over `{}`\n\n\
             Synergy `ratio(A+B) / (ratio(A) · ratio(B))` of node counts: 1 when the two \
             heuristics' effects multiply independently, below 1 when together they save more \
             than predicted, above 1 when they get in each other's way. Solve interaction: \
             `Σ s(A+B) − s(A) − s(B) + s(base)` over the positions, 0 when the solves add. \
             Intervals: t on the per-position terms (95%).\n\n\
             | heuristic toggled | variant | node ratio [95%] | solved vs base |\n|---|---|---|---:|\n",
            m.base
        ));
        for s in &m.singles {
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                s.heuristic,
                s.label,
                cell(&s.node_ratio, 3),
                s.solved_delta.map_or("-".into(), |d| format!("{d:+}"))
            ));
        }
        out.push_str(
            "\n| pair | positions | node ratio [95%] | predicted | synergy [95%] | Wilcoxon p | solve interaction [95%] |\n|---|---:|---|---:|---|---:|---|\n",
        );
        for p in &m.pairs {
            out.push_str(&format!(
                "| {} + {} | {} | {} | {} | {} | {} | {} |\n",
                p.a,
                p.b,
                p.positions,
                cell(&p.node_ratio, 3),
                p.predicted_ratio.map_or("-".into(), |r| format!("{r:.3}")),
                cell(&p.synergy, 3),
                p.synergy_p
                    .map_or("-".into(), crate::harness::format::p_value),
                cell(&p.solve_interaction, 1)
            ));
        }
        out.push_str("\n![Synergy of node counts](interactions.svg)\n\n![Solve interaction](interactions_solves.svg)\n");
    }
    for c in curves {
        out.push_str(&format!(
            "\n## Sweep of `{}` (default {})\n\nNode ratio to `{baseline}` and solve rate, 95% intervals.\n\n| value | variant | node ratio [95%] | solved [95%] |\n|---:|---|---|---|\n",
            c.param, c.default
        ));
        for s in &c.series {
            for p in &s.points {
                out.push_str(&sweep_row(p, c.default, baseline));
            }
        }
        out.push_str(&format!(
            "\n![Sweep of {}]({}.svg)\n",
            c.param,
            sweep_file(&c.param)
        ));
    }
    out
}
