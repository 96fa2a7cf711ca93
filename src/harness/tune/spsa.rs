//! SPSA as fishtest and OpenBench run it (Spall, "Implementation of the simultaneous
//! perturbation algorithm for stochastic optimization", IEEE Trans. Aerospace and Electronic
//! Systems 34(3), 1998; the Chess Programming Wiki's "SPSA"; fishtest's `spsa_handler` and
//! OpenBench's SPSA inputs, whose `c_end` and `r_end` name the final perturbation and the
//! final learning rate):
//!
//! - `c_k = c / k^γ` and `a_k = a / (A + k)^α` for iteration `k = 1..N`, with `γ = 0.101`,
//!   `α = 0.602` and `A = N / 10` (Spall's recommended exponents; fishtest's and OpenBench's
//!   defaults);
//! - `c = c_end · N^γ`, so the last perturbation is `c_end`; `a = r_end · c_end² · (A + N)^α`,
//!   so the last `R_k = a_k / c_k²` is `r_end`;
//! - each iteration draws a sign `Δ_i = ±1` per parameter, plays θ + c_k·Δ against θ − c_k·Δ,
//!   and moves `θ_i += R_k · c_k · result · Δ_i`, where `result` is the θ+ side's wins minus
//!   losses over the iteration's games;
//! - θ stays a real number inside `[min, max]`; an integer parameter is played at the nearest
//!   integer of θ ± c_k·Δ (ties away from zero, Rust's `round`), as fishtest's workers round
//!   the values they are sent.

use serde::{Deserialize, Serialize};

/// Spall's exponent of the learning rate's decay.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation's decay.
pub const GAMMA: f64 = 0.101;
/// OpenBench's usual final learning rate when none is given.
pub const DEFAULT_R_END: f64 = 0.002;

/// One tuned parameter, in OpenBench's terms.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TunedParam {
    /// `id.param` of searchlab's own search, or an engine's option name.
    pub name: String,
    /// Played as an integer.
    pub int: bool,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
}

impl TunedParam {
    /// The default perturbation for a range: a twentieth of it (at least half a unit for an
    /// integer, so that a perturbation can change the value played).
    pub fn default_c_end(min: f64, max: f64, int: bool) -> f64 {
        let c = (max - min) / 20.0;
        if int { c.max(0.5) } else { c }
    }

    /// One line of OpenBench's SPSA input: `NAME, int|float, value, min, max, c_end, r_end`.
    pub fn openbench_line(&self, value: f64) -> String {
        let kind = if self.int { "int" } else { "float" };
        let shown = |v: f64| {
            if self.int {
                format!("{}", v.round() as i64)
            } else {
                format!("{v}")
            }
        };
        format!(
            "{}, {kind}, {}, {}, {}, {}, {}",
            self.name,
            shown(value),
            shown(self.min),
            shown(self.max),
            self.c_end,
            self.r_end
        )
    }

    /// Read one line of OpenBench's format (`file:line` for errors).
    pub fn parse_openbench(line: &str, at: &str) -> Result<TunedParam, String> {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [name, kind, value, min, max, c_end, r_end] = fields[..] else {
            return Err(format!(
                "{at}: expected NAME, int|float, default, min, max, c_end, r_end; got '{}'",
                crate::harness::format::clip(line, 200)
            ));
        };
        let number = |what: &str, text: &str| -> Result<f64, String> {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{at}: {what} '{text}' is not a number"))
        };
        let int = match kind {
            "int" => true,
            "float" => false,
            other => return Err(format!("{at}: the type is int or float, got '{other}'")),
        };
        let param = TunedParam {
            name: name.to_string(),
            int,
            start: number("default", value)?,
            min: number("min", min)?,
            max: number("max", max)?,
            c_end: number("c_end", c_end)?,
            r_end: number("r_end", r_end)?,
        };
        param.check().map_err(|e| format!("{at}: {e}"))?;
        Ok(param)
    }

    /// A range that holds the start, and positive gains.
    pub fn check(&self) -> Result<(), String> {
        if !(self.min < self.max && (self.min..=self.max).contains(&self.start)) {
            return Err(format!(
                "{}: needs min < max and the start inside ({} in {}..{})",
                self.name, self.start, self.min, self.max
            ));
        }
        if !(self.c_end > 0.0 && self.r_end > 0.0) {
            return Err(format!("{}: c_end and r_end must be positive", self.name));
        }
        Ok(())
    }

    /// A value inside the range.
    pub fn clamp(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }

    /// The value a player is given for θ.
    pub fn played(&self, value: f64) -> f64 {
        let value = self.clamp(value);
        if self.int { value.round() } else { value }
    }
}

/// The gain schedule of a tune of `iterations`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct Schedule {
    pub iterations: u64,
    /// Spall's stability constant `A` (a tenth of the iterations by default).
    pub big_a: f64,
    pub alpha: f64,
    pub gamma: f64,
}

impl Schedule {
    pub fn new(iterations: u64) -> Schedule {
        Schedule {
            iterations,
            big_a: iterations as f64 / 10.0,
            alpha: ALPHA,
            gamma: GAMMA,
        }
    }

    /// `(c_k, R_k)` of parameter `p` at iteration `k` (1-based).
    pub fn gains(&self, p: &TunedParam, k: u64) -> (f64, f64) {
        let n = self.iterations as f64;
        let c = p.c_end * n.powf(self.gamma);
        let a = p.r_end * p.c_end * p.c_end * (self.big_a + n).powf(self.alpha);
        let k = k as f64;
        let c_k = c / k.powf(self.gamma);
        let a_k = a / (self.big_a + k).powf(self.alpha);
        (c_k, a_k / (c_k * c_k))
    }
}

/// One iteration's perturbation: the signs, and the values the two sides play.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Perturbation {
    pub signs: Vec<i8>,
    pub c_k: Vec<f64>,
    pub r_k: Vec<f64>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// The perturbation of iteration `k` around `theta`, its signs drawn from `seed` and `k` alone
/// (so a resumed tune draws what the uninterrupted one drew).
pub fn perturb(
    params: &[TunedParam],
    schedule: &Schedule,
    theta: &[f64],
    seed: u64,
    k: u64,
) -> Perturbation {
    use rand_core::{Rng, SeedableRng};
    // rand_xoshiro's SplitMix64: a good bit from any seed, one draw per parameter (the
    // stream every committed tune drew; a test pins it).
    let mut rng =
        rand_xoshiro::SplitMix64::seed_from_u64(seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let signs: Vec<i8> = params
        .iter()
        .map(|_| if rng.next_u64() >> 63 == 1 { 1 } else { -1 })
        .collect();
    let gains: Vec<(f64, f64)> = params.iter().map(|p| schedule.gains(p, k)).collect();
    let side = |sign: f64| -> Vec<f64> {
        params
            .iter()
            .zip(theta)
            .zip(&signs)
            .zip(&gains)
            .map(|(((p, t), s), (c_k, _))| p.played(t + sign * c_k * f64::from(*s)))
            .collect()
    };
    Perturbation {
        plus: side(1.0),
        minus: side(-1.0),
        c_k: gains.iter().map(|g| g.0).collect(),
        r_k: gains.iter().map(|g| g.1).collect(),
        signs,
    }
}

/// θ after an iteration whose θ+ side scored `result` (wins minus losses).
pub fn step(params: &[TunedParam], theta: &[f64], p: &Perturbation, result: f64) -> Vec<f64> {
    params
        .iter()
        .enumerate()
        .map(|(i, param)| {
            param.clamp(theta[i] + p.r_k[i] * p.c_k[i] * result * f64::from(p.signs[i]))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn margin() -> TunedParam {
        TunedParam {
            name: "futility.margin".into(),
            int: true,
            start: 50.0,
            min: 0.0,
            max: 200.0,
            c_end: 10.0,
            r_end: 0.002,
        }
    }

    /// The signs every committed tune drew: pinned, so that the random stream (now
    /// rand_xoshiro's SplitMix64) cannot change a resumed tune's perturbations.
    #[test]
    fn the_sign_stream_is_the_one_every_tune_drew() {
        let params = vec![margin(); 16];
        let schedule = Schedule::new(100);
        let signs = |seed, k| perturb(&params, &schedule, &[50.0; 16], seed, k).signs;
        assert_eq!(
            signs(0, 1),
            [-1, -1, 1, -1, -1, -1, 1, -1, 1, -1, 1, 1, 1, 1, 1, -1]
        );
        assert_eq!(
            signs(7, 3),
            [-1, 1, 1, 1, -1, -1, -1, 1, -1, 1, -1, 1, -1, -1, -1, 1]
        );
        assert_eq!(
            signs(42, 1000),
            [1, 1, -1, -1, 1, 1, -1, 1, -1, 1, 1, 1, 1, 1, 1, -1]
        );
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let schedule = Schedule::new(1000);
        let (c, r) = schedule.gains(&margin(), 1000);
        assert!(
            (c - 10.0).abs() < 1e-9 && (r - 0.002).abs() < 1e-12,
            "{c} {r}"
        );
        let (c1, r1) = schedule.gains(&margin(), 1);
        assert!(c1 > c && r1 > r, "larger at the start");
        // c_1 = c_end · N^γ.
        assert!((c1 - 10.0 * 1000f64.powf(GAMMA)).abs() < 1e-9);
    }

    #[test]
    fn a_step_moves_toward_the_winning_side_and_stays_in_range() {
        let params = vec![margin()];
        let schedule = Schedule::new(100);
        let p = perturb(&params, &schedule, &[50.0], 7, 1);
        assert_eq!(p.plus[0], p.plus[0].round(), "an integer is played whole");
        assert_eq!(p.plus[0] - 50.0, 50.0 - p.minus[0]);
        let won = step(&params, &[50.0], &p, 2.0);
        let toward_plus = (won[0] - 50.0).signum() == f64::from(p.signs[0]);
        assert!(toward_plus, "{p:?} {won:?}");
        assert_eq!(step(&params, &[50.0], &p, 0.0), vec![50.0]);
        let far = step(&params, &[199.0], &p, 2000.0 * f64::from(p.signs[0]));
        assert_eq!(far, vec![200.0], "clamped");
        assert_eq!(
            perturb(&params, &schedule, &[50.0], 7, 1),
            p,
            "drawn from (seed, k)"
        );
        let signs: Vec<i8> = (1..=64)
            .map(|k| perturb(&params, &schedule, &[50.0], 7, k).signs[0])
            .collect();
        assert!(signs.contains(&1) && signs.contains(&-1));
    }

    #[test]
    fn openbench_lines_read_back() {
        let line = margin().openbench_line(50.0);
        assert_eq!(line, "futility.margin, int, 50, 0, 200, 10, 0.002");
        assert_eq!(TunedParam::parse_openbench(&line, "f:1").unwrap(), margin());
        assert!(
            TunedParam::parse_openbench("x, int, 5, 0", "f:2")
                .unwrap_err()
                .contains("f:2")
        );
        assert!(
            TunedParam::parse_openbench("x, long, 5, 0, 9, 1, 0.002", "f:3")
                .unwrap_err()
                .contains("int or float")
        );
        assert!(
            TunedParam::parse_openbench("x, int, 50, 0, 9, 1, 0.002", "f:4")
                .unwrap_err()
                .contains("start inside")
        );
    }
}
