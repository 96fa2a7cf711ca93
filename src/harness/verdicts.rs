//! Verdicts by fixed rules: what a report's comparison lets a reader say, computed, so that a
//! README quotes a verdict instead of wording its own (issue 62). One rule per kind of
//! evidence: an interval against its null value, a p-value at 5%, an SPRT's decision. A
//! reading never states a comparison more strongly than its verdict.

use serde::{Deserialize, Serialize};

/// The significance level of every verdict.
pub const ALPHA: f64 = 0.05;

/// One comparison and what may be said of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// What is compared, and the quantity ("ethereal vs strongest: Elo").
    pub comparison: String,
    /// The estimate as the report prints it ("+145.1 ± 29.3").
    pub estimate: String,
    /// The verdict line.
    pub verdict: String,
    /// The goal this verdict judges, as `report --goal` takes it (`ethereal<=60%`), so that
    /// the report can be rendered again with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
}

/// An interval against its null value: the estimate's sign is shown when the whole interval
/// lies on one side.
pub fn of_interval(low: f64, high: f64, null: f64) -> String {
    if low > null {
        format!("interval excludes {null} (above it): significant at 5%")
    } else if high < null {
        format!("interval excludes {null} (below it): significant at 5%")
    } else {
        format!("interval includes {null}: not significant at 5%")
    }
}

/// A two-sided p-value at 5%.
pub fn of_p(p: f64) -> String {
    let p_text = crate::harness::format::p_value(p);
    if p < ALPHA {
        format!("significant at 5% ({p_text})")
    } else {
        format!("not significant at 5% ({p_text})")
    }
}

/// The Markdown section of a report's verdicts.
pub fn markdown(verdicts: &[Verdict]) -> String {
    let mut out = String::from(
        "## Verdicts\n\nBy fixed rules (`verdicts.json`): an interval against its null value, a p-value at 5%, an SPRT's decision. Readings quote these and say no more.\n\n",
    );
    for v in verdicts {
        out.push_str(&format!(
            "- {}: {} — {}\n",
            v.comparison, v.estimate, v.verdict
        ));
    }
    out
}

/// Write `verdicts.json` into `dir`.
pub fn write(dir: &std::path::Path, verdicts: &[Verdict]) -> Result<(), String> {
    let json = serde_json::to_string_pretty(verdicts).expect("verdicts serialise");
    crate::harness::files::write_atomic(&dir.join("verdicts.json"), json + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_are_fixed() {
        assert_eq!(
            of_interval(116.8, 175.4, 0.0),
            "interval excludes 0 (above it): significant at 5%"
        );
        assert_eq!(
            of_interval(-16.6, 1.6, 0.0),
            "interval includes 0: not significant at 5%"
        );
        assert!(of_interval(-30.0, -1.0, 0.0).contains("below it"));
        assert_eq!(of_p(0.058), "not significant at 5% (p=0.0580)");
        assert_eq!(of_p(0.0012), "significant at 5% (p=0.0012)");
        assert_eq!(of_p(1e-9), "significant at 5% (p<0.0001)");
    }
}
