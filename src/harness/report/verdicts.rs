//! A run report's verdicts (issue 62 §2): each variant against the baseline, by the fixed
//! rules of `harness::verdicts`: the solved positions by McNemar's p, the node and time
//! ratios by whether their intervals exclude 1.

use super::analysis::Analysis;
use crate::harness::verdicts::{Verdict, of_interval, of_p};

/// Every comparison a run report makes against its baseline, with its verdict.
pub fn of(analysis: &Analysis) -> Vec<Verdict> {
    let mut verdicts = Vec::new();
    for v in analysis
        .variants
        .iter()
        .filter(|v| v.label != analysis.baseline)
    {
        let versus = format!("{} vs {}", v.label, analysis.baseline);
        if let Some(d) = &v.solve_difference {
            verdicts.push(Verdict {
                comparison: format!("{versus}: positions solved by one only"),
                estimate: format!("+{} −{}", d.only_variant, d.only_baseline),
                verdict: of_p(d.p),
                goal: None,
            });
        }
        for (what, ratio) in [("node ratio", &v.node_ratio), ("time ratio", &v.time_ratio)] {
            if let Some(r) = ratio {
                let i = &r.ratio;
                verdicts.push(Verdict {
                    comparison: format!("{versus}: {what}"),
                    estimate: format!("{:.3} [{:.3}, {:.3}]", i.estimate, i.low, i.high),
                    verdict: of_interval(i.low, i.high, 1.0),
                    goal: None,
                });
            }
        }
    }
    verdicts
}
