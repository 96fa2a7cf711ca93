//! The audit section of a report: per variant, each pruning or reduction decision's error rate
//! and mean error, over all depths and depth by depth, from the records' audits; beside it the
//! 002 signals' confirmation rate, the share of their proposals the shared verification
//! confirmed. Intervals are cluster-robust by position: the decisions audited in one
//! position's search are not independent trials. A stratum (decision and remaining depth)
//! whose audits could not disagree with the decision (the skipped move's child stands pat on
//! the skip's own test) is reported as not measurable and left out of the decision's pooled
//! rate.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::audit::{AuditCell, AuditTally};
use crate::engine::heuristics::Kind;
use crate::engine::stats::Counter;
use crate::harness::compare;
use crate::harness::results::PositionRecord;

/// One decision's audit over all depths (`depth: None`) or at one remaining depth.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AuditLine {
    /// The counter's key: `lmr`, `futility.pre_frontier`.
    pub decision: String,
    /// Remaining depth of the deciding node (0: quiescence); `None`: every depth.
    pub depth: Option<i32>,
    pub audited: u64,
    pub wrong: u64,
    /// `wrong / audited`.
    pub error_rate: f64,
    /// 95% interval of the rate, cluster-robust by position.
    pub low: f64,
    pub high: f64,
    /// Mean error of the wrong decisions, centipawns.
    pub mean_error_cp: Option<f64>,
    /// Nodes of the audit searches.
    pub nodes: u64,
    /// Audits that could not disagree (`AuditCell::mirrored`), in `audited` but in no rate.
    #[serde(default)]
    pub mirrored: u64,
    /// Positions whose searches had such a decision audited.
    pub positions: usize,
}

impl AuditLine {
    /// Some audit could disagree with its decision.
    pub fn measurable(&self) -> bool {
        self.audited > self.mirrored
    }

    fn new(
        decision: String,
        depth: Option<i32>,
        cell: &AuditCell,
        clusters: &[(u64, u64)],
    ) -> Self {
        let (low, high) = compare::clustered_rate(clusters);
        AuditLine {
            decision,
            depth,
            audited: cell.audited,
            wrong: cell.wrong,
            error_rate: cell.error_rate().unwrap_or(0.0),
            low,
            high,
            mean_error_cp: cell.mean_error_cp(),
            nodes: cell.nodes,
            mirrored: cell.mirrored,
            positions: clusters.len(),
        }
    }
}

/// A 002 signal's proposals and how many the verification search confirmed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SignalHits {
    pub signal: String,
    /// Proposals (`fired`).
    pub proposed: u64,
    /// Confirmed by the verification (`fired - overruled`): the skips and cuts made.
    pub confirmed: u64,
    /// `confirmed / proposed` with its interval (cluster-robust by position).
    pub hit_rate: f64,
    pub low: f64,
    pub high: f64,
}

/// The audit of one variant.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct VariantAudit {
    pub label: String,
    /// Searches with an audit, of `searches`.
    pub audited_searches: usize,
    pub searches: usize,
    /// The main searches' nodes (of the audited searches) and the audit searches' nodes.
    pub search_nodes: u64,
    pub audit_nodes: u64,
    /// Each decision over all depths, then depth by depth, in registry order.
    pub lines: Vec<AuditLine>,
    /// The 002 signals' hit rates (empty when the variant has none on).
    pub signals: Vec<SignalHits>,
}

impl VariantAudit {
    /// The lines over all depths.
    pub fn totals(&self) -> impl Iterator<Item = &AuditLine> {
        self.lines.iter().filter(|l| l.depth.is_none())
    }
}

/// The audit of one variant's records, `None` when none was audited.
pub(super) fn variant_audit(
    label: &str,
    records: &[&PositionRecord],
) -> Result<Option<VariantAudit>, String> {
    let mut tally = AuditTally::default();
    let mut audited = 0;
    let mut search_nodes = 0;
    // Per (decision, depth or every depth) and position: (wrong, audited).
    type Clusters = BTreeMap<(Counter, Option<i32>), BTreeMap<(String, usize), (u64, u64)>>;
    let mut clusters: Clusters = BTreeMap::new();
    for r in records {
        if let Some(rows) = &r.audit {
            let mine = AuditTally::from_rows(rows)
                .map_err(|e| format!("{label}, {}:{}: {e}", r.suite, r.line))?;
            let position = (r.suite.clone(), r.line);
            let mut add = |key, cell: &AuditCell| {
                let slot = clusters
                    .entry(key)
                    .or_default()
                    .entry(position.clone())
                    .or_default();
                slot.0 += cell.wrong;
                slot.1 += cell.measured();
            };
            for (counter, cell) in mine.by_decision() {
                add((counter, None), &cell);
            }
            for row in mine.rows() {
                let counter = Counter::from_key(&row.decision).expect("read back from a counter");
                add((counter, Some(row.depth)), &row.cell);
            }
            tally.merge(&mine);
            audited += 1;
            search_nodes += r.nodes;
        }
    }
    let of = |key: (Counter, Option<i32>)| -> Vec<(u64, u64)> {
        clusters
            .get(&key)
            .map(|m| m.values().copied().collect())
            .unwrap_or_default()
    };
    if audited == 0 {
        return Ok(None);
    }
    let rows = tally.rows();
    let mut lines = Vec::new();
    for (counter, total) in tally.by_decision() {
        lines.push(AuditLine::new(
            counter.key(),
            None,
            &total,
            &of((counter, None)),
        ));
        for row in rows
            .iter()
            .filter(|row| Counter::from_key(&row.decision) == Some(counter))
        {
            lines.push(AuditLine::new(
                row.decision.clone(),
                Some(row.depth),
                &row.cell,
                &of((counter, Some(row.depth))),
            ));
        }
    }
    let signals = signal_hits(records);
    Ok(Some(VariantAudit {
        label: label.to_string(),
        audited_searches: audited,
        searches: records.len(),
        search_nodes,
        audit_nodes: tally.nodes(),
        lines,
        signals,
    }))
}

/// The 002 signals' confirmation rates over the audited records.
fn signal_hits(records: &[&PositionRecord]) -> Vec<SignalHits> {
    let mut signals = Vec::new();
    // The verified signals (momentum's quiescence form filters captures unverified).
    let verified =
        |c: &Counter| c.id().kind() == Kind::Signal && c.form_name() != Some("quiescence");
    for counter in Counter::all().filter(verified) {
        let (mut proposed, mut overruled) = (0u64, 0u64);
        let mut by_position: BTreeMap<(String, usize), (u64, u64)> = BTreeMap::new();
        for r in records.iter().filter(|r| r.audit.is_some()) {
            let c = r.counters.get(counter);
            proposed += c.fired;
            overruled += c.overruled;
            let slot = by_position.entry((r.suite.clone(), r.line)).or_default();
            slot.0 += c.fired - c.overruled.min(c.fired);
            slot.1 += c.fired;
        }
        if proposed > 0 {
            let confirmed = proposed - overruled.min(proposed);
            let clusters: Vec<(u64, u64)> = by_position.into_values().collect();
            let (low, high) = compare::clustered_rate(&clusters);
            signals.push(SignalHits {
                signal: counter.key(),
                proposed,
                confirmed,
                hit_rate: confirmed as f64 / proposed as f64,
                low,
                high,
            });
        }
    }
    signals
}

/// A depth as the audit tables write it: `q` for the quiescence search.
pub fn depth_name(depth: i32) -> String {
    if depth == 0 {
        "q".into()
    } else {
        depth.to_string()
    }
}

/// One variant's audit table and signal hit rates.
fn variant_section(a: &VariantAudit) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "\n### {}\n\n{} of {} searches audited; audit searches {} nodes ({:.2}× the searches' own {}).\n\n\
         | decision | audited (positions) | audit nodes per decision | wrong | error rate [95%, by position] | mean error | by depth (rate, audited) |\n|---|---:|---:|---:|---|---:|---|\n",
        a.label,
        a.audited_searches,
        a.searches,
        a.audit_nodes,
        a.audit_nodes as f64 / a.search_nodes.max(1) as f64,
        a.search_nodes
    ));
    for total in a.totals() {
        out.push_str(&decision_row(a, total));
    }
    out.push_str(&signals_section(a));
    out
}

/// One decision's row of a variant's audit table (`total`: its line over all depths).
fn decision_row(a: &VariantAudit, total: &AuditLine) -> String {
    let by_depth: Vec<String> = a
        .lines
        .iter()
        .filter(|l| l.decision == total.decision && l.depth.is_some())
        .map(|l| {
            let depth = depth_name(l.depth.expect("filtered"));
            if l.measurable() {
                format!("{depth}: {:.1}% ({})", 100.0 * l.error_rate, l.audited)
            } else {
                format!("{depth}: not measurable ({})", l.audited)
            }
        })
        .collect();
    let rate = if !total.measurable() {
        "not measurable: the skipped move's child stands pat on the skip's own test".into()
    } else if total.mirrored > 0 {
        format!(
            "{:.2}% [{:.2}–{:.2}] of the {} measurable",
            100.0 * total.error_rate,
            100.0 * total.low,
            100.0 * total.high,
            total.audited - total.mirrored
        )
    } else {
        format!(
            "{:.2}% [{:.2}–{:.2}]",
            100.0 * total.error_rate,
            100.0 * total.low,
            100.0 * total.high
        )
    };
    let searched = (total.audited - total.mirrored).max(1);
    format!(
        "| {} | {} ({}) | {:.1} | {} | {rate} | {} | {} |\n",
        total.decision,
        total.audited,
        total.positions,
        total.nodes as f64 / searched as f64,
        total.wrong,
        total
            .mean_error_cp
            .map_or("-".into(), |e| format!("{e:.0} cp")),
        by_depth.join(", ")
    )
}

/// A variant's 002 signals: how many each proposed and how many the verification confirmed.
fn signals_section(a: &VariantAudit) -> String {
    if a.signals.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    out.push_str(
        "\n002's signals propose; the shared `depth−2` verification search confirms. \
         Confirmation rate: the share of proposals it confirmed. It is not 002's \"hit \
         probability\" (30% is enough, 002 says), which would judge raw proposals by a \
         full search; the audit above judges only the confirmed ones.\n",
    );
    if a.signals.len() > 1 {
        out.push_str(
            "With several signals on, a move is offered to them in the search's table \
             order and one verification serves them all: a signal is consulted only on \
             moves no earlier one skipped, and a later proposal on a move an earlier one \
             saw refuted is refuted with it. Its rate here is conditional on that; a \
             variant with the signal alone gives its own.\n",
        );
    }
    out.push_str("\n| signal | proposed | confirmed | confirmation rate [95%, by position] |\n|---|---:|---:|---|\n");
    for s in &a.signals {
        out.push_str(&format!(
            "| {} | {} | {} | {:.1}% [{:.1}–{:.1}] |\n",
            s.signal,
            s.proposed,
            s.confirmed,
            100.0 * s.hit_rate,
            100.0 * s.low,
            100.0 * s.high
        ));
    }
    out
}

/// The audit section of the Markdown.
pub(super) fn markdown(audits: &[VariantAudit]) -> String {
    if audits.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n## Pruning audit\n\n\
         Each sampled decision of a pruning or reduction heuristic that stood (a node cut, a \
         move skipped, a reduced move that stayed below alpha) was searched again without that \
         decision, at the full remaining depth and in the node's window, the rest of the \
         configuration as it is, the same heuristic's deeper decisions included, except the \
         tests that mirror the one judged (registry `mirrors`): a node cut is searched again \
         without the other static-margin cuts (reverse futility, frontier futility, razoring's \
         node form), and a move futility, razoring or static L/R skipped is searched with those \
         cuts left out of its child, or the audit would repeat the decision it judges. Where \
         the skipped move's child is a horizon node, its stand pat is the skip's own test and \
         cannot be left out: that stratum (remaining depth 1) is **not measurable**, shown \
         with its count and left out of the pooled rate. **Wrong**: the full search falls on \
         the other side of the window (a skipped move would have raised alpha, a cut node \
         would not have failed high, a reduced move's full-depth score crosses alpha). Error: \
         the mean distance between the claimed and the full score over the wrong decisions \
         (scores capped at ±10 pawns). Rates are given pooled and by remaining depth; a pooled \
         rate mixes depths whose rates differ, so read the depths. Intervals: 95%, \
         cluster-robust by position (the decisions of one search are not independent). The \
         audit searches change nothing in the searches measured above; their nodes are counted \
         apart.\n",
    );
    for a in audits {
        out.push_str(&variant_section(a));
    }
    out.push_str("\n![Error rate by heuristic and depth](audit.svg)\n\n");
    out
}
