//! `--audit RATE` on `search`, `run` and `bench`: the rate's one rule and the audit table the
//! terminal commands print.

use crate::engine::audit::{AuditCell, AuditTally};
use crate::engine::stats::Counter;
use crate::harness::compare;

/// The one rule for an audit rate: a probability in (0, 1].
pub fn audit_rate(rate: Option<f64>) -> Result<Option<f64>, String> {
    match rate {
        Some(r) if !(r > 0.0 && r <= 1.0) => Err(format!(
            "--audit is the probability of auditing a decision, in (0, 1]; got {r}"
        )),
        other => Ok(other),
    }
}

/// One line of the audit table.
fn audit_line(name: &str, depth: &str, cell: &AuditCell) -> String {
    if cell.measured() == 0 {
        return format!(
            "  {name:<24} {depth:>5} {:>10} {:>9}  not measurable (the child stands pat on the skip's own test)",
            cell.audited, "-"
        );
    }
    let (low, high) = compare::wilson(cell.wrong as usize, cell.measured() as usize);
    format!(
        "  {name:<24} {depth:>5} {:>10} {:>9}  {:>6.2}% [{:.2}%-{:.2}%]  {:>8}  {:>12}",
        cell.audited,
        cell.wrong,
        100.0 * cell.error_rate().unwrap_or(0.0),
        100.0 * low,
        100.0 * high,
        cell.mean_error_cp()
            .map_or("-".to_string(), |e| format!("{e:.0} cp")),
        cell.nodes
    )
}

/// The audit as a table: each decision over all depths, then depth by depth.
pub fn audit_table(rate: f64, tally: &AuditTally) -> String {
    let mut out = format!(
        "pruning audit (each decision audited with probability {rate}; audit searches: {} nodes, not counted above):\n",
        tally.nodes()
    );
    if tally.is_empty() {
        out.push_str("  no pruning or reduction decision was taken (or sampled)\n");
        return out;
    }
    out.push_str(&format!(
        "  {:<24} {:>5} {:>10} {:>9}  {:<27}  {:>8}  {:>12}\n",
        "decision", "depth", "audited", "wrong", "error rate [95% Wilson]", "error", "audit nodes"
    ));
    let rows = tally.rows();
    for (counter, total) in tally.by_decision() {
        let key = counter.key();
        out.push_str(&audit_line(&key, "all", &total));
        out.push('\n');
        for row in rows
            .iter()
            .filter(|r| Counter::from_key(&r.decision) == Some(counter))
        {
            let depth = if row.depth == 0 {
                "q".to_string()
            } else {
                row.depth.to_string()
            };
            out.push_str(&audit_line("", &depth, &row.cell));
            out.push('\n');
        }
    }
    out.push_str("  wrong: the full search falls on the other side of the window; error: mean |full - claimed| of the wrong ones (scores capped at 10 pawns); depth q: in the quiescence search; rates over the measurable depths\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::counter;

    #[test]
    fn rates_outside_zero_to_one_are_refused() {
        assert_eq!(audit_rate(None), Ok(None));
        assert_eq!(audit_rate(Some(0.1)), Ok(Some(0.1)));
        assert_eq!(audit_rate(Some(1.0)), Ok(Some(1.0)));
        for bad in [0.0, -0.5, 1.5, f64::NAN] {
            assert!(audit_rate(Some(bad)).unwrap_err().contains("(0, 1]"));
        }
    }

    #[test]
    fn the_table_lists_each_decision_and_its_depths() {
        let mut tally = AuditTally::default();
        tally.record(counter!(Lmr), 3, Some(40), 100);
        tally.record(counter!(Lmr), 4, None, 100);
        tally.record(counter!(See.quiescence), 0, None, 5);
        let table = audit_table(1.0, &tally);
        assert!(table.contains("lmr"), "{table}");
        assert!(table.contains("50.00%"), "{table}");
        assert!(table.contains("40 cp"), "{table}");
        assert!(
            table.lines().any(|l| l.trim_start().starts_with("q ")),
            "{table}"
        );
        assert!(table.contains("205 nodes"), "{table}");
        // A stratum that cannot disagree is named and left out of the decision's rate.
        let mut tally = AuditTally::default();
        tally.record_mirrored(counter!(Futility.pre_frontier), 1);
        tally.record(counter!(Futility.pre_frontier), 2, Some(30), 10);
        tally.record(counter!(Futility.pre_frontier), 2, None, 10);
        let table = audit_table(1.0, &tally);
        assert!(table.contains("not measurable"), "{table}");
        assert!(
            table
                .lines()
                .any(|l| l.contains(" all ") && l.contains("50.00%")),
            "one wrong of the two measurable: {table}"
        );
    }
}
