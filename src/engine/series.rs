//! 002's series along the line, kept from White's point of view (`SeriesEntry`), and the view
//! one side reads of them at the end of the line (`LineStats`). 002 keeps its series "per
//! side" but writes `x[side][N] = v; x[side^1][N] = -v` on every move, so the two sides'
//! arrays are one series seen with opposite signs; `Position` flips the sign when a side reads.

use super::score::Score;

/// One step of an exponential moving average with period `n` (002: `ema5 = 0.2*R + 0.8*prev`,
/// i.e. weight `1/n` on the new value).
#[inline]
fn ema(previous: f64, value: f64, n: f64) -> f64 {
    previous + (value - previous) * n.recip()
}

/// The periods of the series a configuration may change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Periods {
    /// The EMA channel's fast and slow EMAs (002: 5 and 10).
    pub channel_fast: f64,
    pub channel_slow: f64,
    /// The RSI's EMA (002: 5).
    pub rsi: f64,
}

impl Default for Periods {
    fn default() -> Self {
        Periods {
            channel_fast: 5.0,
            channel_slow: 10.0,
            rsi: 5.0,
        }
    }
}

/// The series of 002 at one point of the line, from White's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeriesEntry {
    /// Static evaluation (for White).
    pub eval: Score,
    /// Material balance (for White).
    pub material: Score,
    /// EMAs of `eval` with periods 3, 8, 16, 24 and 32 ...
    pub ema3: f64,
    /// ... and the EMA channel's two (002: 5 and 10; `ema_channel.fast_period`,
    /// `ema_channel.slow_period`).
    pub channel_fast: f64,
    /// Period 8.
    pub ema8: f64,
    /// The channel's slow EMA (002's `ema10`).
    pub channel_slow: f64,
    /// Period 16.
    pub ema16: f64,
    /// Period 24.
    pub ema24: f64,
    /// Period 32.
    pub ema32: f64,
    /// 002's "stdev": the slow EMA of `|eval - channel_slow|`, at the slow period (a
    /// deviation, the same for both sides).
    pub channel_dev: f64,
    /// EMAs of material with periods 10 and 24 (002, window margins).
    pub material_ema10: f64,
    /// Period 24.
    pub material_ema24: f64,
    /// 002's trend line `B = EMA(A, 3)`, `A = ((ema8-ema32) + (ema16-ema32))/2`.
    pub trend_b: f64,
    /// RSI: EMA5 of White's positive eval increments (x100) ...
    pub rsi_up: f64,
    /// ... and of its negative ones (x100).
    pub rsi_down: f64,
}

impl SeriesEntry {
    /// The first point of a line: every average starts at the value itself (002:
    /// `if(ply+game_cnt==0) ema10[side][0] = L_SCORE`).
    pub(super) fn start(eval: Score, material: Score) -> Self {
        let e = f64::from(eval);
        let m = f64::from(material);
        SeriesEntry {
            eval,
            material,
            ema3: e,
            channel_fast: e,
            ema8: e,
            channel_slow: e,
            ema16: e,
            ema24: e,
            ema32: e,
            channel_dev: 0.0,
            material_ema10: m,
            material_ema24: m,
            trend_b: 0.0,
            rsi_up: 0.0,
            rsi_down: 0.0,
        }
    }

    /// A point that keeps `eval` and `material` (for White) alone, its averages left at 0: the
    /// line of a search that reads none of them (`Position::set_averages`).
    pub(super) fn bare(eval: Score, material: Score) -> Self {
        SeriesEntry {
            eval,
            material,
            ..SeriesEntry::default()
        }
    }

    /// The next point after a move that left `eval` and `material` (for White).
    pub(super) fn next(&self, eval: Score, material: Score, periods: &Periods) -> Self {
        let e = f64::from(eval);
        let m = f64::from(material);
        let slow = ema(self.channel_slow, e, periods.channel_slow);
        let ema8 = ema(self.ema8, e, 8.0);
        let ema16 = ema(self.ema16, e, 16.0);
        let ema32 = ema(self.ema32, e, 32.0);
        let trend_a = ((ema8 - ema32) + (ema16 - ema32)) / 2.0;
        let increment = f64::from(eval - self.eval) * 100.0;
        SeriesEntry {
            eval,
            material,
            ema3: ema(self.ema3, e, 3.0),
            channel_fast: ema(self.channel_fast, e, periods.channel_fast),
            ema8,
            channel_slow: slow,
            ema16,
            ema24: ema(self.ema24, e, 24.0),
            ema32,
            channel_dev: ema(self.channel_dev, (e - slow).abs(), periods.channel_slow),
            material_ema10: ema(self.material_ema10, m, 10.0),
            material_ema24: ema(self.material_ema24, m, 24.0),
            trend_b: ema(self.trend_b, trend_a, 3.0),
            rsi_up: ema(self.rsi_up, increment.max(0.0), periods.rsi),
            rsi_down: ema(self.rsi_down, (-increment).max(0.0), periods.rsi),
        }
    }

    /// 002's trend line `A` (for White).
    pub fn trend_a(&self) -> f64 {
        ((self.ema8 - self.ema32) + (self.ema16 - self.ema32)) / 2.0
    }
}

/// The series read by one side at the current end of the line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LineStats {
    /// Static evaluation now.
    pub eval: Score,
    /// EMAs of the evaluation: period 3 ...
    pub ema3: f64,
    /// ... the channel's fast one (002: period 5) ...
    pub channel_fast: f64,
    /// ... and slow one (002: period 10).
    pub channel_slow: f64,
    /// Period 24.
    pub ema24: f64,
    /// `|channel_fast - channel_slow|` now and one ply earlier (002, refinement (a):
    /// divergence).
    pub gap: f64,
    /// The same one ply earlier.
    pub gap_before: f64,
    /// 002's deviation from the slow EMA (its `stdev`: EMA10 of `|R - ema10|`).
    pub channel_dev: f64,
    /// Material EMAs (periods 10 and 24).
    pub material_ema10: f64,
    /// Period 24.
    pub material_ema24: f64,
    /// Trend lines `A` and `B = EMA(A, 3)`.
    pub trend_a: f64,
    /// `B`.
    pub trend_b: f64,
    /// RSI in 0..100 (50 when nothing moved yet).
    pub rsi: f64,
    /// 5-ply momentum of material (002: `static_score[side][ply] - static_score[side][ply-5]`).
    pub material_momentum: Score,
    /// 5-ply momentum of the static evaluation.
    pub eval_momentum: Score,
    /// Highest and lowest evaluation over the last 5 plies, this one included.
    pub max_eval5: Score,
    /// Lowest.
    pub min_eval5: Score,
    /// Highest evaluation over the 5 plies before this one (002's channel `MAX`).
    pub max_eval5_before: Score,
}
