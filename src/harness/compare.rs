//! The statistics behind every comparison in a report. Each function names its test, so the
//! report can print the name beside the number; each is checked in the tests below against
//! published values (Newcombe 1998, Fagerland et al. 2013, R's and SciPy's documented examples)
//! or against a computation that does not use statrs.
//!
//! Distributions (normal, Student's t, binomial) come from statrs; the rank statistics and the
//! exact null distribution of the signed-rank sum are ours, because statrs has no Wilcoxon test.

use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal, StudentsT};

/// Two-sided confidence level of every interval in a report.
pub const CONFIDENCE: f64 = 0.95;

/// Names printed beside the numbers.
pub const WILSON: &str = "Wilson score interval";
/// See [`paired_ratio`].
pub const PAIRED_T_LOG: &str = "t interval on paired log ratios";
/// See [`wilcoxon_signed_rank`].
pub const WILCOXON: &str = "Wilcoxon signed-rank, two-sided";
/// See [`mcnemar_exact`].
pub const MCNEMAR: &str = "exact McNemar, two-sided";
/// See [`mean_interval`].
pub const T_INTERVAL: &str = "Student t interval";

/// The standard normal quantile for the report's confidence level (1.959964…).
fn z_quantile() -> f64 {
    let normal = Normal::new(0.0, 1.0).expect("the standard normal is valid");
    normal.inverse_cdf(1.0 - (1.0 - CONFIDENCE) / 2.0)
}

/// The Student t quantile for the report's confidence level with `df` degrees of freedom.
fn t_quantile(df: f64) -> f64 {
    let t = StudentsT::new(0.0, 1.0, df).expect("degrees of freedom are positive");
    t.inverse_cdf(1.0 - (1.0 - CONFIDENCE) / 2.0)
}

/// Wilson score interval for `successes` out of `trials` (a solve rate). `(0, 1)` when there
/// are no trials.
pub fn wilson(successes: usize, trials: usize) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = z_quantile();
    let n = trials as f64;
    let p = successes as f64 / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// See [`clustered_rate`].
pub const CLUSTERED: &str = "cluster-robust normal interval, clustered by position";

/// The interval of a pooled rate `Σ successes / Σ trials` whose trials come in clusters (the
/// decisions audited in one position's search are not independent): the ratio estimator's
/// sandwich variance `k/(k−1) · Σ (s_i − p·n_i)² / (Σ n_i)²` over the `k` clusters, a normal
/// interval clamped to [0, 1]. `(0, 1)` with fewer than two clusters.
pub fn clustered_rate(clusters: &[(u64, u64)]) -> (f64, f64) {
    let k = clusters.iter().filter(|(_, n)| *n > 0).count();
    let trials: f64 = clusters.iter().map(|&(_, n)| n as f64).sum();
    if k < 2 || trials == 0.0 {
        return (0.0, 1.0);
    }
    let p = clusters.iter().map(|&(s, _)| s as f64).sum::<f64>() / trials;
    let squares: f64 = clusters
        .iter()
        .map(|&(s, n)| (s as f64 - p * n as f64).powi(2))
        .sum();
    let variance = k as f64 / (k as f64 - 1.0) * squares / (trials * trials);
    let half = z_quantile() * variance.sqrt();
    ((p - half).max(0.0), (p + half).min(1.0))
}

/// A mean with its confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    pub estimate: f64,
    /// Lower bound (equal to the estimate when there is one observation).
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// Number of observations.
    pub n: usize,
}

/// Mean of `values` with a Student t interval (used across seeds, and on logs for geometric
/// means). `None` for no values; a single value gets a zero-width interval.
pub fn mean_interval(values: &[f64]) -> Option<Interval> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Some(Interval {
            estimate: mean,
            low: mean,
            high: mean,
            n,
        });
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = t_quantile((n - 1) as f64) * (variance / n as f64).sqrt();
    Some(Interval {
        estimate: mean,
        low: mean - half,
        high: mean + half,
        n,
    })
}

/// Geometric mean of positive `values` with the t interval of their logs, exponentiated.
pub fn geometric_mean(values: &[f64]) -> Option<Interval> {
    let logs: Vec<f64> = values
        .iter()
        .map(|v| v.max(f64::MIN_POSITIVE).ln())
        .collect();
    mean_interval(&logs).map(|i| Interval {
        estimate: i.estimate.exp(),
        low: i.low.exp(),
        high: i.high.exp(),
        n: i.n,
    })
}

/// A paired comparison of node counts (or times): variant over baseline, position by position.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PairedRatio {
    /// Geometric-mean ratio with its interval ([`PAIRED_T_LOG`]).
    pub ratio: Interval,
    /// [`WILCOXON`] p-value on the log ratios (`None` when every pair is tied).
    pub wilcoxon_p: Option<f64>,
}

/// Per-position ratios `variant / baseline` summarised as a geometric mean with its interval,
/// and tested for a shift with the Wilcoxon signed-rank test on the log ratios.
pub fn paired_ratio(variant: &[f64], baseline: &[f64]) -> Option<PairedRatio> {
    assert_eq!(variant.len(), baseline.len(), "paired samples");
    let logs: Vec<f64> = variant
        .iter()
        .zip(baseline)
        .map(|(v, b)| (v.max(1.0) / b.max(1.0)).ln())
        .collect();
    let ratio = mean_interval(&logs)?;
    Some(PairedRatio {
        ratio: Interval {
            estimate: ratio.estimate.exp(),
            low: ratio.low.exp(),
            high: ratio.high.exp(),
            n: ratio.n,
        },
        wilcoxon_p: wilcoxon_signed_rank(&logs).map(|w| w.p),
    })
}

/// The result of a Wilcoxon signed-rank test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wilcoxon {
    /// Sum of the ranks of the positive differences (R's `V`).
    pub w_plus: f64,
    /// Number of non-zero differences.
    pub n: usize,
    /// Two-sided p-value.
    pub p: f64,
    /// Whether `p` is exact (no ties, n ≤ [`WILCOXON_EXACT_MAX`]) or the normal approximation.
    pub exact: bool,
}

/// Largest sample for which the exact null distribution is enumerated.
pub const WILCOXON_EXACT_MAX: usize = 50;

/// Wilcoxon signed-rank test of `differences` against a zero median, two-sided. Zero
/// differences are dropped (Wilcoxon's own rule, R's and SciPy's default). Without ties and
/// with at most 50 pairs the p-value is exact; otherwise it is the normal approximation with
/// the tie correction of the variance and a continuity correction of ½ (R's `wilcox.test`).
/// `None` when no difference is non-zero.
pub fn wilcoxon_signed_rank(differences: &[f64]) -> Option<Wilcoxon> {
    let mut nonzero: Vec<f64> = differences.iter().copied().filter(|d| *d != 0.0).collect();
    let n = nonzero.len();
    if n == 0 {
        return None;
    }
    nonzero.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    // Average ranks over runs of equal magnitudes.
    let mut ranks = vec![0.0; n];
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && nonzero[j + 1].abs() == nonzero[i].abs() {
            j += 1;
        }
        let average = (i + j) as f64 / 2.0 + 1.0;
        ranks[i..=j].fill(average);
        let t = (j - i + 1) as f64;
        tie_term += t * t * t - t;
        i = j + 1;
    }
    let w_plus: f64 = nonzero
        .iter()
        .zip(&ranks)
        .filter(|(d, _)| **d > 0.0)
        .map(|(_, r)| r)
        .sum();
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    if tie_term == 0.0 && n <= WILCOXON_EXACT_MAX {
        let p = exact_signed_rank_p(n, w_plus.round() as usize);
        return Some(Wilcoxon {
            w_plus,
            n,
            p,
            exact: true,
        });
    }
    let variance = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term / 48.0;
    let p = if variance <= 0.0 {
        1.0
    } else {
        let deviation = (w_plus - mean).abs();
        let z = (deviation - 0.5).max(0.0) / variance.sqrt();
        let normal = Normal::new(0.0, 1.0).expect("the standard normal is valid");
        (2.0 * (1.0 - normal.cdf(z))).min(1.0)
    };
    Some(Wilcoxon {
        w_plus,
        n,
        p,
        exact: false,
    })
}

/// Exact two-sided p-value of a signed-rank sum `w` with `n` untied ranks: the null
/// distribution counts the subsets of `{1..n}` by their sum.
fn exact_signed_rank_p(n: usize, w: usize) -> f64 {
    let max = n * (n + 1) / 2;
    let mut counts = vec![0.0_f64; max + 1];
    counts[0] = 1.0;
    for rank in 1..=n {
        for sum in (rank..=max).rev() {
            counts[sum] += counts[sum - rank];
        }
    }
    let total: f64 = counts.iter().sum();
    let lower: f64 = counts[..=w.min(max)].iter().sum::<f64>() / total;
    let upper: f64 = counts[w.min(max)..].iter().sum::<f64>() / total;
    (2.0 * lower.min(upper)).min(1.0)
}

/// Exact McNemar test for paired binary outcomes: `only_a` pairs where A succeeded and B did
/// not, `only_b` the reverse. Two-sided binomial test of the discordant pairs against ½.
pub fn mcnemar_exact(only_a: u64, only_b: u64) -> f64 {
    let n = only_a + only_b;
    if n == 0 {
        return 1.0;
    }
    let binomial = Binomial::new(0.5, n).expect("p = 1/2 is valid");
    (2.0 * binomial.cdf(only_a.min(only_b))).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn clustered_rate_by_hand() {
        // p = 4/20 = 0.2; residuals −1 and +1; variance 2 · 2 / 400 = 0.01; half 1.96 · 0.1.
        let (low, high) = clustered_rate(&[(1, 10), (3, 10)]);
        assert!((low - (0.2 - 0.195_996)).abs() < 1e-5, "{low}");
        assert!((high - (0.2 + 0.195_996)).abs() < 1e-5, "{high}");
        // Identical clusters: no spread between positions, a zero-width interval.
        assert_eq!(clustered_rate(&[(1, 10), (1, 10), (1, 10)]), (0.1, 0.1));
        assert_eq!(
            clustered_rate(&[(1, 10)]),
            (0.0, 1.0),
            "one cluster says nothing"
        );
    }

    /// Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
    /// method 3 (Wilson score): 81/263 → 0.2553–0.3662, 15/148 → 0.0624–0.1605,
    /// 0/20 → 0–0.1611, 1/29 → 0.0061–0.1718.
    #[test]
    fn wilson_matches_newcombe_1998() {
        for (k, n, low, high) in [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ] {
            let (l, h) = wilson(k, n);
            assert!(
                close(l, low, 5e-5) && close(h, high, 5e-5),
                "{k}/{n}: {l} {h}"
            );
        }
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    /// The quantiles statrs gives match the printed tables: z = 1.959964, t(9) = 2.262157,
    /// t(7) = 2.364624.
    #[test]
    fn quantiles_match_printed_tables() {
        assert!(close(z_quantile(), 1.959_964, 1e-6));
        assert!(close(t_quantile(9.0), 2.262_157, 1e-6));
        assert!(close(t_quantile(7.0), 2.364_624, 1e-6));
    }

    /// R's `wilcox.test` help page (Hollander & Wolfe, depression scale, paired):
    /// V = 40, one-sided p = 0.01953, so two-sided 0.039 06.
    #[test]
    #[allow(clippy::approx_constant)] // 3.14 is a measurement of the data set, not π.
    fn wilcoxon_matches_r_documentation_example() {
        let x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30];
        let y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
        let d: Vec<f64> = x.iter().zip(&y).map(|(a, b)| a - b).collect();
        let w = wilcoxon_signed_rank(&d).unwrap();
        assert_eq!(w.w_plus, 40.0);
        assert!(w.exact);
        assert!(close(w.p, 2.0 * 0.019_53, 1e-4), "{}", w.p);
    }

    /// SciPy's `wilcoxon` documentation (Darwin's Zea mays, Fisher's design of experiments):
    /// exact two-sided p = 0.041259765625 (= 338/8192).
    #[test]
    fn wilcoxon_matches_scipy_documentation_example() {
        let d = [
            6.0, 8.0, 14.0, 16.0, 23.0, 24.0, 28.0, 29.0, 41.0, -48.0, 49.0, 56.0, 60.0, -67.0,
            75.0,
        ];
        let w = wilcoxon_signed_rank(&d).unwrap();
        assert_eq!(w.w_plus, 96.0);
        assert!(w.exact);
        assert!(close(w.p, 0.041_259_765_625, 1e-12), "{}", w.p);
    }

    /// With ties the normal approximation is used. Hand computation without statrs: ranks of
    /// |d| = 1,1,2,2,3,3,3,4 → 1.5,1.5,3.5,3.5,6,6,6,8; W+ = 1.5+3.5+6+6+8 = 25;
    /// mean 18, variance 8·9·17/24 − (6+6+24)/48 = 51 − 0.75 = 50.25;
    /// z = (7 − 0.5)/√50.25 = 0.916 949; p = 2(1 − Φ(z)) = erfc(z/√2) = 0.359 17.
    #[test]
    fn wilcoxon_normal_approximation_with_ties() {
        let d = [1.0, -1.0, 2.0, -2.0, 3.0, 3.0, -3.0, 4.0];
        let w = wilcoxon_signed_rank(&d).unwrap();
        assert_eq!(w.w_plus, 25.0);
        assert!(!w.exact);
        assert!(close(w.p, 0.359_17, 5e-5), "{}", w.p);
        assert!(wilcoxon_signed_rank(&[0.0, 0.0]).is_none());
    }

    /// Fagerland, Lydersen & Laake (2013), "The McNemar test for binary matched-pairs data",
    /// BMC Med Res Methodol 13:91, airway hyper-responsiveness example: discordant pairs 1 and
    /// 7, exact conditional p = 0.070 (= 18/256 = 0.0703125).
    #[test]
    fn mcnemar_matches_fagerland_2013() {
        assert!(close(mcnemar_exact(1, 7), 0.070_312_5, 1e-12));
        assert!(close(mcnemar_exact(7, 1), 0.070_312_5, 1e-12));
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(3, 3), 1.0);
    }

    /// [2,4,4,4,5,5,7,9]: mean 5, s = √(32/7) = 2.138 090; half-width t(7)·s/√8 = 1.787 488.
    #[test]
    fn t_interval_by_hand() {
        let i = mean_interval(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!(i.estimate, 5.0);
        assert!(close(i.high - 5.0, 1.787_488, 1e-5), "{i:?}");
        assert!(close(5.0 - i.low, 1.787_488, 1e-5));
        assert_eq!(mean_interval(&[3.0]).unwrap().low, 3.0);
        assert!(mean_interval(&[]).is_none());
    }

    /// Ratios 2, 8 (logs ln2, 3·ln2): geometric mean 4; halving every count gives exactly ½.
    #[test]
    fn paired_ratio_is_a_geometric_mean() {
        let r = paired_ratio(&[2.0, 80.0], &[1.0, 10.0]).unwrap();
        assert!(close(r.ratio.estimate, 4.0, 1e-12));
        assert!(r.ratio.low < 4.0 && r.ratio.high > 4.0);
        let half = paired_ratio(&[50.0, 100.0, 200.0], &[100.0, 200.0, 400.0]).unwrap();
        assert!(close(half.ratio.estimate, 0.5, 1e-12));
        assert!(close(half.ratio.low, 0.5, 1e-12) && close(half.ratio.high, 0.5, 1e-12));
        // Equal log ratios are ties: the normal approximation, W+ = 0 of mean 3 and variance
        // 3.5 − 24/48 = 3: z = 2.5/√3, p = erfc(z/√2) = 0.148 915.
        assert!(
            close(half.wilcoxon_p.unwrap(), 0.148_915, 1e-5),
            "{:?}",
            half.wilcoxon_p
        );
        // Three distinct negative log ratios, exact: p = 2 · 1/8.
        let fewer = paired_ratio(&[40.0, 100.0, 300.0], &[100.0, 200.0, 400.0]).unwrap();
        assert!(close(fewer.wilcoxon_p.unwrap(), 0.25, 1e-12));
        let g = geometric_mean(&[1.0, 100.0]).unwrap();
        assert!(close(g.estimate, 10.0, 1e-9));
    }
}
