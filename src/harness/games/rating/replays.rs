//! Openings played more than once. When a match outlasts its book, the pairs of one opening
//! share a start and often a game: their scores correlate (0.31 between an opening's first and
//! second pair in `reports/elo-history-extension-few-pieces/`), and the pentanomial interval,
//! which takes every pair as independent, is too narrow. The standard correction treats each
//! opening as a cluster: the variance of the mean score is `Σ_g (Σ_{i∈g} (s_i − s̄))² / n²`
//! (the cluster-robust "sandwich" variance, Liang and Zeger 1986), which equals the
//! pentanomial's `Σ (s_i − s̄)² / n²` when every opening is played once.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::harness::games::rating::elo::z95;
use crate::harness::games::rating::stats::{Interval, logistic_elo};

/// A pairing's counted pairs read with each opening as one cluster.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayedOpenings {
    /// Distinct openings among the counted pairs.
    pub openings: u64,
    /// Counted pairs.
    pub pairs: u64,
    /// The mean pair score's Elo with its clustered 95% interval.
    pub elo: Interval,
    /// The clustered variance of the mean score over the pentanomial one: how much wider the
    /// interval is, squared. An SPRT's log-likelihood ratio is inversely proportional to the
    /// variance in its normal approximation, so the LLR over this ratio is what the pairs
    /// would give as independent evidence.
    pub variance_ratio: f64,
    /// Pearson correlation of an opening's first and second counted pair scores, over the
    /// openings with two or more (`None` with fewer than three such openings or no spread).
    pub replay_correlation: Option<f64>,
}

/// The clustered reading of `pairs`: each counted pair's opening (any key that names it) and
/// its score from the measured side's view, 0 to 1, in the order played. `None` unless some
/// opening was played more than once.
pub fn replayed_openings(pairs: &[(String, f64)]) -> Option<ReplayedOpenings> {
    let mut by_opening: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for (opening, score) in pairs {
        by_opening.entry(opening).or_default().push(*score);
    }
    if by_opening.len() == pairs.len() {
        return None;
    }
    let n = pairs.len() as f64;
    let mean = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let independent: f64 = pairs.iter().map(|p| (p.1 - mean).powi(2)).sum::<f64>() / (n * n);
    let clustered: f64 = by_opening
        .values()
        .map(|scores| scores.iter().map(|s| s - mean).sum::<f64>().powi(2))
        .sum::<f64>()
        / (n * n);
    let half = z95() * clustered.sqrt();
    let firsts: Vec<(f64, f64)> = by_opening
        .values()
        .filter(|scores| scores.len() >= 2)
        .map(|scores| (scores[0], scores[1]))
        .collect();
    Some(ReplayedOpenings {
        openings: by_opening.len() as u64,
        pairs: pairs.len() as u64,
        elo: Interval {
            value: logistic_elo(mean),
            low: logistic_elo(mean - half),
            high: logistic_elo(mean + half),
        },
        variance_ratio: if independent > 0.0 {
            clustered / independent
        } else {
            1.0
        },
        replay_correlation: correlation(&firsts),
    })
}

fn correlation(xy: &[(f64, f64)]) -> Option<f64> {
    if xy.len() < 3 {
        return None;
    }
    let n = xy.len() as f64;
    let (mx, my) = (
        xy.iter().map(|p| p.0).sum::<f64>() / n,
        xy.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let cov: f64 = xy.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let vx: f64 = xy.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    let vy: f64 = xy.iter().map(|(_, y)| (y - my).powi(2)).sum();
    (vx > 0.0 && vy > 0.0).then(|| cov / (vx * vy).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, f64)]) -> Vec<(String, f64)> {
        list.iter().map(|(o, s)| (o.to_string(), *s)).collect()
    }

    #[test]
    fn a_book_played_once_is_not_read_again() {
        assert_eq!(replayed_openings(&pairs(&[("a", 1.0), ("b", 0.5)])), None);
    }

    #[test]
    fn an_opening_replayed_with_the_same_result_widens_the_interval() {
        // Each opening's two pairs agree: the clusters carry the whole spread, so the clustered
        // variance is twice the independent one (Σ over 2 openings of (2d)² against 4 d²).
        let p = pairs(&[("a", 1.0), ("b", 0.5), ("a", 1.0), ("b", 0.5)]);
        let r = replayed_openings(&p).unwrap();
        assert_eq!((r.openings, r.pairs), (2, 4));
        assert!(
            (r.variance_ratio - 2.0).abs() < 1e-12,
            "{}",
            r.variance_ratio
        );
        assert!((r.elo.value - logistic_elo(0.75)).abs() < 1e-9);
        assert!(r.elo.low < r.elo.value && r.elo.value < r.elo.high);
    }

    #[test]
    fn replays_that_cancel_narrow_it_and_correlate_negatively() {
        let p = pairs(&[
            ("a", 1.0),
            ("b", 0.5),
            ("c", 0.25),
            ("a", 0.0),
            ("b", 0.5),
            ("c", 0.75),
        ]);
        let r = replayed_openings(&p).unwrap();
        assert!(r.variance_ratio < 1e-12, "{}", r.variance_ratio);
        assert!((r.replay_correlation.unwrap() + 1.0).abs() < 1e-12);
    }
}
