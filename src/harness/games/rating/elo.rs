//! Elo, normalized Elo and LOS of a match's counts, with their intervals, and what is said
//! when no interval can be drawn.

use statrs::distribution::{ContinuousCDF, Normal};

use crate::harness::games::rating::stats::{Counts, Interval, NELO_PER_T, logistic_elo, mean_var};

/// Elo, normalized Elo and LOS of a match.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EloEstimate {
    /// Logistic Elo: the score's Elo, interval from the score's 95% interval.
    pub elo: Interval,
    /// Normalized Elo: the t-value of the score per game times `800 / ln 10`; its interval is
    /// the t-value's first-order one, `± 1.96 / √n` (as fastchess prints it).
    pub normalized: Interval,
    /// Likelihood of superiority: `Φ((score − ½) / σ)`.
    pub los: f64,
    /// Every game counted has the same result (all won or all lost): the Elo is unbounded,
    /// and `elo` holds only the clamped value of a score of 0.001 or 0.999, a bound, not an
    /// estimate.
    #[serde(default)]
    pub unbounded: bool,
    /// Games counted.
    #[serde(default)]
    pub games: u64,
    /// Every game (or pair) had the same result: the variance is 0, and no interval can be
    /// drawn from it (a "± 0" would claim certainty).
    #[serde(default)]
    pub no_variance: bool,
    /// Counted in game pairs (the pentanomial), not in games.
    #[serde(default)]
    pub paired: bool,
}

/// Games below which no interval is given: the normal approximation behind every interval
/// here is meaningless on a handful of games ("Elo −190.8 ± 0.0 after 4 games").
pub const MIN_GAMES_FOR_INTERVAL: u64 = 10;

impl EloEstimate {
    /// Why the estimate has no interval, if it has none.
    pub fn no_interval(&self) -> Option<String> {
        if self.unbounded {
            Some(if self.elo.value < 0.0 {
                "unbounded: every game lost".into()
            } else {
                "unbounded: every game won".into()
            })
        } else if self.paired && self.games == 2 {
            Some("one pair: no interval".into())
        } else if self.no_variance {
            Some(if self.paired {
                "no variance: every pair had one result".into()
            } else {
                "no variance: every game had one result".into()
            })
        } else if self.games < MIN_GAMES_FOR_INTERVAL {
            Some(format!(
                "{} games, fewer than the {MIN_GAMES_FOR_INTERVAL} an interval needs",
                self.games
            ))
        } else {
            None
        }
    }

    /// `+12.3 ± 4.5`, `+∞ (unbounded: every game won)`, `-190.8 ± n/a (4 games, …)`.
    pub fn elo_text(&self, decimals: usize) -> String {
        Self::text(&self.elo, self, decimals)
    }

    /// The normalized Elo the same way. Without variance it is a score over a deviation of
    /// 0: unbounded when the score is not ½, undefined when it is.
    pub fn nelo_text(&self, decimals: usize) -> String {
        if self.no_variance && !self.unbounded && !(self.paired && self.games == 2) {
            let why = self.no_interval().unwrap_or_default();
            return match self.elo.value {
                v if v > 0.0 => format!("+∞ (unbounded: {why})"),
                v if v < 0.0 => format!("−∞ (unbounded: {why})"),
                _ => format!("n/a ({why})"),
            };
        }
        Self::text(&self.normalized, self, decimals)
    }

    fn text(interval: &Interval, e: &EloEstimate, decimals: usize) -> String {
        match e.no_interval() {
            None => format!(
                "{:+.decimals$} ± {:.decimals$}",
                interval.value,
                interval.half_width()
            ),
            Some(why) if e.unbounded => {
                let sign = if e.elo.value < 0.0 { "−∞" } else { "+∞" };
                format!("{sign} ({why})")
            }
            Some(why) => format!("{:+.decimals$} ± n/a ({why})", interval.value),
        }
    }
}

/// The two-sided 95% quantile of the normal distribution.
pub fn z95() -> f64 {
    Normal::standard().inverse_cdf(0.975)
}

/// Estimate Elo from the counts: pairs when there are pairs (the pentanomial variance), else
/// games. `None` with no games.
pub fn elo(counts: &Counts) -> Option<EloEstimate> {
    if counts.games() == 0 {
        return None;
    }
    // Unregularized frequencies: the estimate is of what was observed.
    let (values, counts_of, per_unit_games): (Vec<f64>, Vec<f64>, f64) = if counts.paired() {
        (
            vec![0.0, 0.25, 0.5, 0.75, 1.0],
            counts.penta.map(|n| n as f64).to_vec(),
            2.0,
        )
    } else {
        (
            vec![0.0, 0.5, 1.0],
            vec![
                counts.losses as f64,
                counts.draws as f64,
                counts.wins as f64,
            ],
            1.0,
        )
    };
    let n: f64 = counts_of.iter().sum();
    let probs: Vec<f64> = counts_of.iter().map(|c| c / n).collect();
    let (mean, var) = mean_var(&values, &probs);
    let sigma = (var / n).sqrt();
    let z = z95();
    let normal = Normal::standard();
    let los = if sigma > 0.0 {
        normal.cdf((mean - 0.5) / sigma)
    } else if mean > 0.5 {
        1.0
    } else if mean < 0.5 {
        0.0
    } else {
        0.5
    };
    let elo = Interval {
        value: logistic_elo(mean),
        low: logistic_elo(mean - z * sigma),
        high: logistic_elo(mean + z * sigma),
    };
    let normalized = if var > 0.0 {
        let t = (mean - 0.5) / var.sqrt();
        // The t-value's standard error to first order, 1/√n (fastchess's nElo interval).
        let se_t = (1.0 / n).sqrt();
        // Per game: a pair's t-value is √2 a game's.
        let scale = NELO_PER_T / per_unit_games.sqrt();
        Interval {
            value: t * scale,
            low: (t - z * se_t) * scale,
            high: (t + z * se_t) * scale,
        }
    } else {
        Interval {
            value: 0.0,
            low: 0.0,
            high: 0.0,
        }
    };
    Some(EloEstimate {
        elo,
        normalized,
        los,
        unbounded: mean <= 0.0 || mean >= 1.0,
        games: counts.games(),
        no_variance: var <= 0.0,
        paired: counts.paired(),
    })
}
