//! A goal on a player's score ("Ethereal scores at most 60%") and the verdict the games give
//! it: the probability that the true score meets the goal, from the same normal approximation
//! as the Elo interval (issue 62 §2: "for a goal, the probability that the true value meets it
//! from the interval"), and a fixed rule on the 95% interval.

use statrs::distribution::{ContinuousCDF, Normal};

use crate::harness::games::rating::tally::PairingResult;
use crate::harness::verdicts::Verdict;

/// A bound on one player's score: `NAME<=60%` or `NAME>=55%`.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The player the score is of (either side of a pairing).
    pub player: String,
    /// `true`: at most `score`; `false`: at least.
    pub at_most: bool,
    /// The bound in percent, as given (printed back as given: 57.1, not 57.099999…).
    pub percent: f64,
}

impl std::str::FromStr for Goal {
    type Err = String;

    fn from_str(text: &str) -> Result<Goal, String> {
        let bad =
            || format!("goal '{text}': expected NAME<=PERCENT% or NAME>=PERCENT% (ethereal<=60%)");
        let (player, at_most, bound) = if let Some((p, b)) = text.split_once("<=") {
            (p, true, b)
        } else if let Some((p, b)) = text.split_once(">=") {
            (p, false, b)
        } else {
            return Err(bad());
        };
        let percent: f64 = bound
            .trim()
            .strip_suffix('%')
            .ok_or_else(bad)?
            .trim()
            .parse()
            .map_err(|_| bad())?;
        if player.trim().is_empty() || !(0.0 < percent && percent < 100.0) {
            return Err(bad());
        }
        Ok(Goal {
            player: player.trim().to_string(),
            at_most,
            percent,
        })
    }
}

impl std::fmt::Display for Goal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let op = if self.at_most { "<=" } else { ">=" };
        write!(f, "{}{op}{}%", self.player, self.percent)
    }
}

/// The score a 95% Elo interval bound stands for (the logistic curve the interval was
/// carried through from the score's own interval).
fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Goal {
    /// The verdict on this goal of the pairing the player is in, or `None` when the player
    /// is in it on neither side. A pairing without an interval says so, the goal unjudged but
    /// kept (so that `verdicts.json` still names it).
    pub fn verdict(&self, r: &PairingResult) -> Option<Verdict> {
        let from_dev = if r.dev == self.player {
            true
        } else if r.base == self.player {
            false
        } else {
            return None;
        };
        let sign = if self.at_most { "≤" } else { "≥" };
        let comparison = format!(
            "{} vs {}: goal, {}'s score {sign} {}%",
            r.dev, r.base, self.player, self.percent
        );
        let e = match r.estimate.as_ref().map(|e| (e, e.no_interval())) {
            Some((e, None)) => e,
            unjudged => {
                let score = if from_dev {
                    r.counts.score()
                } else {
                    1.0 - r.counts.score()
                };
                let why = unjudged
                    .and_then(|(_, why)| why)
                    .unwrap_or_else(|| "no games".into());
                return Some(Verdict {
                    comparison,
                    estimate: if r.counts.games() == 0 {
                        "no games".into()
                    } else {
                        format!("{:.2}%", 100.0 * score)
                    },
                    verdict: format!("no interval ({why}): the goal is not judged"),
                    goal: Some(self.to_string()),
                });
            }
        };
        // The player's score and its 95% interval; the interval is symmetric on the score's
        // scale, so its half-width is 1.96 standard errors.
        let (mut score, mut low, mut high) = (
            r.counts.score(),
            score_of_elo(e.elo.low),
            score_of_elo(e.elo.high),
        );
        if !from_dev {
            (score, low, high) = (1.0 - score, 1.0 - high, 1.0 - low);
        }
        let z = Normal::standard().inverse_cdf(0.975);
        let se = (high - low) / (2.0 * z);
        let bound = self.percent / 100.0;
        let below = Normal::standard().cdf((bound - score) / se);
        let (p, meets_all, meets_none) = if self.at_most {
            (below, high <= bound, low > bound)
        } else {
            (1.0 - below, low >= bound, high < bound)
        };
        let rule = if meets_all {
            "the interval meets the goal: met at 5%"
        } else if meets_none {
            "the interval misses the goal: missed at 5%"
        } else {
            "the interval straddles the goal: undecided at 5%"
        };
        Some(Verdict {
            comparison,
            estimate: format!(
                "{:.2}% [{:.2}%, {:.2}%]",
                100.0 * score,
                100.0 * low,
                100.0 * high
            ),
            verdict: format!(
                "P(true score {sign} {}%) = {p:.2} (normal, from the interval); {rule}",
                self.percent
            ),
            goal: Some(self.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_read_and_print_as_given() {
        let g: Goal = "ethereal<=60%".parse().unwrap();
        assert_eq!(
            (g.player.as_str(), g.at_most, g.percent),
            ("ethereal", true, 60.0)
        );
        assert_eq!(g.to_string(), "ethereal<=60%");
        let g: Goal = "default >= 45.5%".parse().unwrap();
        assert_eq!((g.player.as_str(), g.at_most), ("default", false));
        assert_eq!(g.to_string(), "default>=45.5%");
        // Printed as given, so that verdicts.json gives `report` back the same goal.
        for text in ["x<=57.1%", "x>=33.3%", "x<=0.5%"] {
            assert_eq!(text.parse::<Goal>().unwrap().to_string(), text);
        }
        for bad in [
            "ethereal<60%",
            "ethereal<=60",
            "<=60%",
            "x<=0%",
            "x<=100%",
            "x<=a%",
        ] {
            assert!(bad.parse::<Goal>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_score_interval_is_the_elo_interval_carried_back() {
        // 69.75% of 400 games: Elo +145.1, interval [+116.8, +175.4] (reports/elo-ethereal).
        assert!((score_of_elo(145.1) - 0.6975).abs() < 1e-3);
        assert!((score_of_elo(116.8) - 0.6621).abs() < 1e-3);
        assert!((score_of_elo(-116.8) - (1.0 - 0.6621)).abs() < 1e-3);
    }
}
