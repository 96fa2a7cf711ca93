//! The end-of-run summary: one Markdown row per variant, from the results records only.

use super::runner::PositionRecord;

/// Wilson score interval (95%) for `successes` out of `trials`.
pub fn wilson_95(successes: usize, trials: usize) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = successes as f64 / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Nodes of one iteration.
fn iteration_nodes(it: &super::runner::IterationRecord) -> u64 {
    it.interior + it.horizon + it.quiescence
}

/// The Markdown table, variants in the order given.
pub fn markdown(variants: &[String], records: &[PositionRecord]) -> String {
    let mut out = String::from(
        "| variant | positions | solved | solved 95% (Wilson) | STS points | total nodes | geo-mean nodes | node ratio | mean EBF | time (s) |\n|---|---:|---:|---|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut first_total = None;
    for variant in variants {
        let mine: Vec<&PositionRecord> = records.iter().filter(|r| &r.variant == variant).collect();
        let judged: Vec<bool> = mine.iter().filter_map(|r| r.solved).collect();
        let solved = judged.iter().filter(|&&s| s).count();
        let (low, high) = wilson_95(solved, judged.len());
        let points: u32 = mine.iter().filter_map(|r| r.points).sum();
        let has_points = mine.iter().any(|r| r.points.is_some());
        let total: u64 = mine.iter().map(|r| r.nodes).sum();
        let geo = if mine.is_empty() {
            0.0
        } else {
            (mine
                .iter()
                .map(|r| (r.nodes.max(1) as f64).ln())
                .sum::<f64>()
                / mine.len() as f64)
                .exp()
        };
        let first = *first_total.get_or_insert(total.max(1));
        let ebfs: Vec<f64> = mine
            .iter()
            .filter_map(|r| {
                let n = r.iterations.len();
                (n >= 2).then(|| {
                    iteration_nodes(&r.iterations[n - 1]) as f64
                        / iteration_nodes(&r.iterations[n - 2]).max(1) as f64
                })
            })
            .collect();
        let ebf = if ebfs.is_empty() {
            0.0
        } else {
            ebfs.iter().sum::<f64>() / ebfs.len() as f64
        };
        let time: f64 = mine.iter().map(|r| r.time_ms).sum::<f64>() / 1000.0;
        out.push_str(&format!(
            "| {variant} | {} | {} | {} | {} | {total} | {geo:.0} | {:.3} | {ebf:.2} | {time:.1} |\n",
            mine.len(),
            if judged.is_empty() { "-".to_string() } else { format!("{solved}/{}", judged.len()) },
            if judged.is_empty() { "-".to_string() } else { format!("{:.1}%–{:.1}%", 100.0 * low, 100.0 * high) },
            if has_points { points.to_string() } else { "-".into() },
            total as f64 / first as f64,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), Table I: 81/263 -> 0.2553 to 0.3662.
        let (low, high) = wilson_95(81, 263);
        assert!(
            (low - 0.2553).abs() < 5e-4 && (high - 0.3662).abs() < 5e-4,
            "{low} {high}"
        );
        // 15/148 -> 0.0624 to 0.1605.
        let (low, high) = wilson_95(15, 148);
        assert!(
            (low - 0.0624).abs() < 5e-4 && (high - 0.1605).abs() < 5e-4,
            "{low} {high}"
        );
        assert_eq!(wilson_95(0, 0), (0.0, 1.0));
    }
}
