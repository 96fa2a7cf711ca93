//! The statistics of a match: Elo with its interval, normalized Elo, LOS, draw ratio, and the
//! generalized sequential probability ratio test (GSPRT) that decides a match early.
//!
//! The formulas are fishtest's (official-stockfish/fishtest, `server/fishtest/stats/
//! LLRcalc.py` and `stat_util.py`), from Michel Van den Bergh's notes: "Generalized SPRT for
//! multinomial distributions" (hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf) and
//! "Normalized Elo practical" (hardy.uhasselt.be/Fishtest/normalized_elo_practical.pdf).
//! A match result is a discrete distribution of scores: per game (trinomial: a loss, a draw, a
//! win score 0, ½, 1) or per pair of games played from one opening with the colours reversed
//! (pentanomial: the pair's mean score 0, ¼, ½, ¾, 1). Pairs are the unit because the two games
//! of an opening are correlated; counting them as independent games overstates the variance.
//!
//! The LLR is the log of the ratio of the maximum likelihoods of the observed counts under the
//! two hypotheses, each maximised over the distributions whose expected score (`logistic`) or
//! t-value (`normalized`) the hypothesis fixes. Empty categories are given a count of 10⁻³
//! before the likelihoods are computed, as fishtest does, so that a one-sided start gives a
//! finite LLR.

/// `800 / ln 10`: normalized Elo per unit of t-value per game (fishtest's
/// `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The count given to an empty category before likelihoods are computed (fishtest's
/// `regularize`).
const EMPTY: f64 = 1e-3;

/// Counts of a match, from the first-named side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Wins, draws, losses (games).
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Game pairs by total score: `[LL, LD, DD+WL, WD, WW]` (0, ½, 1, 1½, 2 points), the
    /// order fishtest and the `--penta` option use. Empty when the games were not paired.
    pub penta: [u64; 5],
}

impl Counts {
    /// Counts of lone games (no pairs).
    pub fn from_wdl(wins: u64, draws: u64, losses: u64) -> Self {
        Counts {
            wins,
            draws,
            losses,
            penta: [0; 5],
        }
    }

    /// Counts of game pairs; the game totals follow except how `DD+WL` splits, given apart.
    pub fn from_penta(penta: [u64; 5], wl: u64) -> Self {
        let [ll, ld, dd_wl, wd, ww] = penta;
        let dd = dd_wl.saturating_sub(wl);
        Counts {
            wins: wl + wd + 2 * ww,
            draws: ld + 2 * dd + wd,
            losses: 2 * ll + ld + wl,
            penta,
        }
    }

    /// Add one pair, scored `first` and `second` for this side (1, ½, 0 as 2, 1, 0).
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        for outcome in [first, second] {
            match outcome {
                Outcome::Win => self.wins += 1,
                Outcome::Draw => self.draws += 1,
                Outcome::Loss => self.losses += 1,
            }
        }
        self.penta[(first.half_points() + second.half_points()) as usize] += 1;
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Whether the counts are of pairs (pentanomial) or of games only.
    pub fn paired(&self) -> bool {
        self.pairs() > 0
    }

    /// The same counts seen from the other side.
    pub fn reversed(&self) -> Self {
        let mut penta = self.penta;
        penta.reverse();
        Counts {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            penta,
        }
    }

    /// Points per game, 0..1.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }

    /// The distribution the statistics use: pairs when there are pairs, else games, as
    /// (score, frequency) with scores 0..1 ascending.
    fn sample(&self) -> Sample {
        if self.paired() {
            Sample::of(&self.penta.map(|n| n as f64))
        } else {
            Sample::of(&[self.losses as f64, self.draws as f64, self.wins as f64])
        }
    }
}

/// One game's result for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    pub fn half_points(self) -> u8 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }

    pub fn reversed(self) -> Self {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// Observed frequencies of scores `i / (k - 1)`, `i = 0..k`, with their total count.
#[derive(Clone, Debug)]
struct Sample {
    count: f64,
    values: Vec<f64>,
    probs: Vec<f64>,
}

impl Sample {
    /// Empty categories get `EMPTY`, as fishtest's `results_to_pdf` does.
    fn of(counts: &[f64]) -> Sample {
        let counts: Vec<f64> = counts
            .iter()
            .map(|&n| if n == 0.0 { EMPTY } else { n })
            .collect();
        let count: f64 = counts.iter().sum();
        let k = counts.len();
        Sample {
            count,
            values: (0..k).map(|i| i as f64 / (k - 1) as f64).collect(),
            probs: counts.iter().map(|n| n / count).collect(),
        }
    }

    fn mean_var(&self, probs: &[f64]) -> (f64, f64) {
        mean_var(&self.values, probs)
    }
}

pub(super) fn mean_var(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mean: f64 = values.iter().zip(probs).map(|(v, p)| v * p).sum();
    let var = values
        .iter()
        .zip(probs)
        .map(|(v, p)| p * (v - mean).powi(2))
        .sum();
    (mean, var)
}

/// Solve `Σ pᵢ aᵢ / (1 + x aᵢ) = 0` for `x` between `-1 / max a` and `-1 / min a` (the
/// "secular equation" of the constrained MLE; the left side decreases in `x`, so bisection
/// finds the one root).
fn secular(a: &[f64], p: &[f64]) -> f64 {
    let max = a.iter().cloned().fold(f64::MIN, f64::max);
    let min = a.iter().cloned().fold(f64::MAX, f64::min);
    debug_assert!(
        min < 0.0 && max > 0.0,
        "the constraint lies inside the sample"
    );
    let f = |x: f64| -> f64 { a.iter().zip(p).map(|(a, p)| p * a / (1.0 + x * a)).sum() };
    let (mut low, mut high) = (-1.0 / max + 1e-12, -1.0 / min - 1e-12);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
        if high - low < 1e-15 {
            break;
        }
    }
    0.5 * (low + high)
}

/// The distribution on the sample's scores nearest the observed one (maximum likelihood)
/// whose expected score is `s`.
fn mle_expected(sample: &Sample, s: f64) -> Vec<f64> {
    let shifted: Vec<f64> = sample.values.iter().map(|v| v - s).collect();
    let x = secular(&shifted, &sample.probs);
    sample
        .probs
        .iter()
        .zip(&shifted)
        .map(|(p, a)| p / (1.0 + x * a))
        .collect()
}

/// The maximum-likelihood distribution whose t-value `(mean - reference) / sd` is `t`
/// (normalized_elo_practical.pdf §4.1: a fixed-point iteration over the secular equation).
fn mle_t_value(sample: &Sample, reference: f64, t: f64) -> Vec<f64> {
    let k = sample.values.len();
    let mut probs = vec![1.0 / k as f64; k];
    for _ in 0..10 {
        let previous = probs.clone();
        let (mean, var) = sample.mean_var(&probs);
        let sd = var.sqrt();
        let a: Vec<f64> = sample
            .values
            .iter()
            .map(|v| v - reference - t * sd * (1.0 + ((mean - v) / sd).powi(2)) / 2.0)
            .collect();
        let x = secular(&a, &sample.probs);
        probs = sample
            .probs
            .iter()
            .zip(&a)
            .map(|(p, a)| p / (1.0 + x * a))
            .collect();
        let change = probs
            .iter()
            .zip(&previous)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        if change < 1e-9 {
            break;
        }
    }
    probs
}

/// `N · Σ p̂ᵢ (ln p1ᵢ − ln p0ᵢ)`.
fn llr_of(sample: &Sample, p0: &[f64], p1: &[f64]) -> f64 {
    sample.count
        * sample
            .probs
            .iter()
            .zip(p0.iter().zip(p1))
            .map(|(p, (p0, p1))| p * (p1.ln() - p0.ln()))
            .sum::<f64>()
}

/// Expected score of a logistic Elo difference.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Logistic Elo of an expected score (clamped away from 0 and 1, as fishtest does).
pub fn logistic_elo(score: f64) -> f64 {
    let score = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / score - 1.0).log10()
}

/// What the hypotheses of an SPRT are expressed in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// Normalized Elo (fishtest's default, `LLR_normalized`): Elo per unit of the result's
    /// t-value, which does not depend on the draw ratio.
    #[default]
    Normalized,
    /// Logistic Elo, the expected score (fishtest's `LLR_logistic`; cutechess's and
    /// fastchess's `logistic`).
    Logistic,
}

impl std::str::FromStr for Model {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "normalized" => Ok(Model::Normalized),
            "logistic" => Ok(Model::Logistic),
            _ => Err(format!("model is 'normalized' or 'logistic', got '{text}'")),
        }
    }
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        })
    }
}

/// The log-likelihood ratio of `elo1` against `elo0` for `counts` (pairs when there are
/// pairs, else games).
pub fn llr(counts: &Counts, elo0: f64, elo1: f64, model: Model) -> f64 {
    if counts.games() == 0 {
        return 0.0;
    }
    let sample = counts.sample();
    match model {
        Model::Logistic => {
            let (s0, s1) = (logistic_score(elo0), logistic_score(elo1));
            llr_of(
                &sample,
                &mle_expected(&sample, s0),
                &mle_expected(&sample, s1),
            )
        }
        Model::Normalized => {
            // A pair's t-value is √2 times a game's (two games' worth of signal).
            let scale = if counts.paired() {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            let (t0, t1) = (elo0 / NELO_PER_T * scale, elo1 / NELO_PER_T * scale);
            llr_of(
                &sample,
                &mle_t_value(&sample, 0.5, t0),
                &mle_t_value(&sample, 0.5, t1),
            )
        }
    }
}

/// An SPRT: two hypotheses and the error rates.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: Model,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// H1 accepted: the change gains at least about `elo1`.
    Accepted,
    /// H0 accepted: the change gains at most about `elo0`.
    Rejected,
    /// Neither bound crossed yet.
    Continue,
}

impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Decision::Accepted => "H1 accepted",
            Decision::Rejected => "H0 accepted",
            Decision::Continue => "undecided",
        })
    }
}

/// The largest |Elo| an SPRT bound may take: ±1000 Elo is an expected score of 0.3% or 99.7%,
/// past which the hypotheses are not about engines that play each other.
pub const MAX_ELO_BOUND: f64 = 1000.0;

/// The most games (or pairs) a count may hold: far beyond any test, and small enough that every
/// sum of counts stays exact in the statistics' floating point.
pub const MAX_COUNT: u64 = 1_000_000_000_000;

impl Sprt {
    /// Parse `elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=M]`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Normalized,
        };
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{item}' is not KEY=VALUE"))?;
            let number = || -> Result<f64, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("--sprt: {key} needs a number, got '{value}'"))
            };
            match key {
                "elo0" => sprt.elo0 = number()?,
                "elo1" => sprt.elo1 = number()?,
                "alpha" => sprt.alpha = number()?,
                "beta" => sprt.beta = number()?,
                "model" => sprt.model = value.parse().map_err(|e| format!("--sprt: {e}"))?,
                _ => {
                    return Err(format!(
                        "--sprt: unknown key '{key}' (expected elo0, elo1, alpha, beta, model)"
                    ));
                }
            }
        }
        sprt.check()?;
        Ok(sprt)
    }

    /// Refuse hypotheses or error rates that make no test.
    pub fn check(&self) -> Result<(), String> {
        if self.elo0.is_nan() || self.elo1.is_nan() {
            return Err("--sprt needs elo0=E0 and elo1=E1".into());
        }
        for (name, bound) in [("elo0", self.elo0), ("elo1", self.elo1)] {
            if !bound.is_finite() || bound.abs() > MAX_ELO_BOUND {
                return Err(format!(
                    "--sprt: {name} must be a finite Elo within ±{MAX_ELO_BOUND}, got {bound} (a bound past it is a score no test can tell from 0% or 100%)"
                ));
            }
        }
        if self.elo0 >= self.elo1 {
            return Err(format!(
                "--sprt: elo0 ({}) must be below elo1 ({})",
                self.elo0, self.elo1
            ));
        }
        for (name, rate) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(format!("--sprt: {name} must be in (0, 0.5), got {rate}"));
            }
        }
        Ok(())
    }

    /// `(ln(β / (1 − α)), ln((1 − β) / α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn llr(&self, counts: &Counts) -> f64 {
        llr(counts, self.elo0, self.elo1, self.model)
    }

    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::Accepted
        } else if llr <= lower {
            Decision::Rejected
        } else {
            Decision::Continue
        }
    }
}

impl std::fmt::Display for Sprt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={},model={}",
            self.elo0, self.elo1, self.alpha, self.beta, self.model
        )
    }
}

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// Half the interval's width: the `±` printed beside the value.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

#[cfg(test)]
mod tests;
