//! What a search is asked to do: the algorithm, the evaluation, the limits and the seed. A
//! configuration is plain data, always recorded with its results.

use serde::{Deserialize, Serialize};
use std::time::Duration;

use super::eval::EvalKind;
use super::heuristics::HeuristicsConfig;
use super::nnue::NetChoice;

/// The search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Negamax fail-soft alpha-beta.
    #[default]
    Alphabeta,
    /// Full-width minimax with no cut-offs at all (000's measurement: every leaf at the
    /// horizon is visited, so horizon leaves equal perft). Draws by repetition or the
    /// fifty-move rule are not claimed inside the tree, as in 000, for the same reason.
    Minimax,
}

/// The order quiet moves are tried in before any ordering heuristic sorts them: what 003
/// means by "no sorting". Ifrit's generator order is not published, and the killers' gain
/// depends on it (the worse the base order, the more killers recover), so it is a parameter
/// of the measurement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum QuietOrder {
    /// cozy-chess's generation order: pawns, knights, bishops, rooks, queens, king, each by
    /// square.
    #[default]
    Generator,
    /// A pseudo-random permutation per position, drawn from (seed, Zobrist key): the same
    /// position always gets the same order, as from a fixed but unknown generator.
    Shuffled,
}

/// When the quiet moves of a node are keyed by their ordering heuristics (history, mate
/// history, the continuation histories). The documents' pickers sort every move before the
/// first is searched; today's engines' staged pickers (Ethereal 12, Stockfish) score the quiet
/// moves when the picker reaches them, after the hash move, the captures and the killers were
/// searched, so the keys include what those searches taught the tables, and a node cut off
/// before its quiet moves never scores them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum QuietKeys {
    /// When the node starts.
    #[default]
    Entry,
    /// When the picker reaches the first quiet move.
    Reached,
}

impl QuietKeys {
    fn is_entry(&self) -> bool {
        *self == QuietKeys::Entry
    }
}

/// How the horizon leaf (and the quiescence stand pat) is evaluated. The score is the same;
/// the cost is not, which matters when 000's time ratios are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LeafEval {
    /// Read the evaluation kept up to date move by move.
    #[default]
    Incremental,
    /// Evaluate the board from scratch at every leaf, as Ifrit's plain leaf does (000).
    Scratch,
}

/// Whether a position that repeats one on the line from the root (or the game before it),
/// the fifty-move rule or bare kings score as a draw inside the tree. 003's listing of Ifrit's
/// search tests none of them, so its presets leave them out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum TreeDraws {
    /// Scored as draws (every engine of the field does).
    #[default]
    Claimed,
    /// Scored as draws worth one unit more or less by the second bit of the search's node
    /// count (Ethereal 12.00's `1 - (nodes & 2)`, search.c, "to avoid blindness to 3-fold
    /// lines": a line that reaches a repetition no longer scores exactly as the line that
    /// avoids it, so the search does not settle between them by the order it met them).
    Jittered,
    /// Searched on like any other position, as in 003.
    Ignored,
}

/// What scales a clock's soft budget once an iteration is done (`soft_time=` in a SPEC). A
/// parameter of games, not of the tree: nothing changes under a depth, node or move-time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum SoftTime {
    /// How many iterations in a row kept the best move, and whether the score fell.
    #[default]
    Stability,
    /// Those, and the share of the search's root nodes the best move took: a move that took
    /// most of them is settled, one that took few is contested (a later Ethereal's
    /// `nodes_factor`, `max(0.5, 2 · (1 − share) + 0.4)`, not 12.00's, whose stop reads the
    /// best move's changes and the score only; Stockfish scales by the same share). Meant with
    /// `tt.pv_cutoffs=false`, as Ethereal searches: with cut-offs at PV nodes the best move's
    /// subtree is often answered by the table, and its share says little.
    Nodes,
}

impl SoftTime {
    fn is_stability(&self) -> bool {
        *self == SoftTime::Stability
    }
}

/// A game clock for one side, as UCI's `go wtime/btime/winc/binc/movestogo` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Time left, milliseconds.
    pub time_ms: u64,
    /// Increment per move, milliseconds.
    pub inc_ms: u64,
    /// Moves to the next time control, if any.
    pub movestogo: Option<u32>,
    /// Time kept in hand for process and pipe latency (UCI `Move Overhead`), milliseconds.
    #[serde(default = "default_overhead")]
    pub overhead_ms: u64,
}

/// `MOVE_OVERHEAD_MS`, for files written before the overhead was recorded.
pub fn default_overhead() -> u64 {
    MOVE_OVERHEAD_MS
}

/// When a search stops. With none set the search runs to the maximum depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget (every node counted).
    pub nodes: Option<u64>,
    /// Fixed time per move, milliseconds.
    pub movetime_ms: Option<u64>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// Search until stopped.
    pub infinite: bool,
    /// Stop as soon as a mate in this many moves (or fewer) is proved (UCI `go mate N`);
    /// otherwise search until stopped.
    #[serde(default)]
    pub mate: Option<u32>,
}

/// Time kept in hand for process and pipe latency by default (UCI `Move Overhead`).
pub const MOVE_OVERHEAD_MS: u64 = 30;

/// How a clock's budget is shared out: `usage_percent` of the default budget, with the increment
/// counted at `increment_percent` of itself (`time_usage=` and `time_inc=` in a SPEC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockShares {
    pub usage_percent: u32,
    pub increment_percent: u32,
}

impl Default for ClockShares {
    /// The budget without `time_usage` and `time_inc`: the whole of it, and three quarters of
    /// the increment. The UCI default before 0278bbd banked that quarter a move, which ended
    /// long games at 16+0.16 with a median 2.5 s left against Ethereal's 0.85 s
    /// (`reports/elo-ethereal/history/cc04d5b/twice-the-clock/`); `modern` counts 125% since
    /// (`reports/elo-search-package-2/`). Ethereal
    /// 12.00, the version the games play, budgets `(time + 25 × inc) / 50` (time.c,
    /// `initTimeManagment`, Debian's source package) and iterates until that, times
    /// `1 + 0.085 × pvFactor` and 1.05 for each step of a falling score, is spent. The 125% of
    /// the increment once cited here (`tm_init`, `2.5 × (time + 25 × inc) / 50`) is a later
    /// Ethereal's, not 12.00's.
    fn default() -> Self {
        ClockShares {
            usage_percent: 100,
            increment_percent: 75,
        }
    }
}

impl Limits {
    /// A depth limit only.
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// The time budget: `(soft, hard)`. No new iteration starts after `soft`; the search is
    /// aborted at `hard`. A clock budget spends about a twentieth of the time left plus most of
    /// the increment and never more than a third of what is left, so a game at 1 s + 0.01 s
    /// is never lost on time. A twentieth, not a thirtieth: at 8+0.08 the thirtieth left a
    /// fifth of the game's time unused against Ethereal (`reports/elo-ethereal/`), and in
    /// self-play (3+0.03, 200 games) the twentieth scored +34.9 Elo [+3.2, +67.1] over it.
    pub fn time_budget(&self) -> (Option<Duration>, Option<Duration>) {
        self.time_budget_scaled(ClockShares::default())
    }

    /// `time_budget` with a clock's soft budget scaled to `shares.usage_percent` of it and the
    /// increment counted at `shares.increment_percent` (the hard limit three times the soft,
    /// still never more than a third of what is left); a fixed move time is not scaled.
    pub fn time_budget_scaled(&self, shares: ClockShares) -> (Option<Duration>, Option<Duration>) {
        if self.infinite {
            return (None, None);
        }
        if let Some(ms) = self.movetime_ms {
            let ms = ms.saturating_sub(5).max(1);
            return (None, Some(Duration::from_millis(ms)));
        }
        if let Some(clock) = self.clock {
            let left = clock.time_ms.saturating_sub(clock.overhead_ms).max(1);
            let moves = u64::from(clock.movestogo.unwrap_or(20).clamp(1, 50));
            let increment = clock.inc_ms * u64::from(shares.increment_percent) / 100;
            let soft = ((left / moves + increment) * u64::from(shares.usage_percent) / 100)
                .min(left / 3)
                .max(1);
            let hard = (soft * 3).min(left / 3).max(soft);
            return (
                Some(Duration::from_millis(soft)),
                Some(Duration::from_millis(hard)),
            );
        }
        (None, None)
    }
}

/// Everything that decides what a search does. Same configuration (and seed) → same nodes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchConfig {
    /// Alpha-beta or full-width minimax.
    pub algorithm: Algorithm,
    /// The static evaluation.
    pub eval: EvalKind,
    /// The network `nnue` evaluates with (`net=PATH` in a SPEC); absent: the process's default
    /// (`--net`, else the embedded one).
    #[serde(default, skip_serializing_if = "NetChoice::is_default")]
    pub net: NetChoice,
    /// The order of quiet moves before the ordering heuristics (`quiet_order=` in a SPEC).
    #[serde(default)]
    pub quiet_order: QuietOrder,
    /// When quiet moves are keyed (`quiet_keys=` in a SPEC); absent from a results header when
    /// it is `entry`, as in every header written before it existed.
    #[serde(default, skip_serializing_if = "QuietKeys::is_entry")]
    pub quiet_keys: QuietKeys,
    /// How leaves evaluate (`leaf_eval=` in a SPEC).
    #[serde(default)]
    pub leaf_eval: LeafEval,
    /// Draws inside the tree (`tree_draws=` in a SPEC).
    #[serde(default)]
    pub tree_draws: TreeDraws,
    /// The clock's budget in percent of `Limits::time_budget`'s (`time_usage=` in a SPEC, 50 to
    /// 300); absent, 100. A parameter of the game, not of the tree: it changes nothing under a
    /// depth, node or move-time limit. Absent from a results header when not set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_usage: Option<u32>,
    /// The share of the increment a move's clock budget counts, in percent (`time_inc=` in a
    /// SPEC, 0 to 200); absent, 75. A parameter of the game like `time_usage`. Absent from a
    /// results header when not set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_inc: Option<u32>,
    /// What scales the soft budget after each iteration (`soft_time=` in a SPEC). Absent from
    /// a results header when it is `stability`, as in every header written before it existed.
    #[serde(default, skip_serializing_if = "SoftTime::is_stability")]
    pub soft_time: SoftTime,
    /// When to stop.
    pub limits: Limits,
    /// Seed of the search's PRNG (reset at the start of every search).
    pub seed: u64,
    /// Every heuristic's toggle and parameters.
    pub heuristics: HeuristicsConfig,
}

impl SearchConfig {
    /// How this configuration shares out a clock (`time_usage` and `time_inc`, else the
    /// default's shares).
    pub fn clock_shares(&self) -> ClockShares {
        let default = ClockShares::default();
        ClockShares {
            usage_percent: self.time_usage.unwrap_or(default.usage_percent),
            increment_percent: self.time_inc.unwrap_or(default.increment_percent),
        }
    }

    /// The configuration with its network named by checksum when it evaluates with `nnue` and
    /// names none: the process's default network (`--net`, else the embedded one) pinned, so
    /// that results headers record which network every variant played with.
    pub fn with_pinned_net(self) -> Self {
        if self.eval != EvalKind::Nnue || !self.net.is_default() {
            return self;
        }
        SearchConfig {
            net: self.net.clone().pinned(),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_keeps_time_in_hand() {
        for time_ms in [1000, 300, 60, 31, 5] {
            let limits = Limits {
                clock: Some(Clock {
                    time_ms,
                    inc_ms: 10,
                    movestogo: None,
                    overhead_ms: MOVE_OVERHEAD_MS,
                }),
                ..Limits::default()
            };
            let (soft, hard) = limits.time_budget();
            let (soft, hard) = (soft.unwrap(), hard.unwrap());
            assert!(soft <= hard);
            assert!(hard.as_millis() as u64 <= time_ms.saturating_sub(MOVE_OVERHEAD_MS).max(1));
        }
    }

    /// The default's shares with the budget at `percent`.
    fn usage(percent: u32) -> ClockShares {
        ClockShares {
            usage_percent: percent,
            ..ClockShares::default()
        }
    }

    /// `time_inc` counts that share of the increment in the soft budget (none of it at 0,
    /// 125% at 125), never past a third of what is left.
    #[test]
    fn time_inc_counts_its_share_of_the_increment() {
        let clock = |time_ms, inc_ms| Limits {
            clock: Some(Clock {
                time_ms,
                inc_ms,
                movestogo: None,
                overhead_ms: MOVE_OVERHEAD_MS,
            }),
            ..Limits::default()
        };
        let soft = |limits: Limits, increment_percent| {
            let shares = ClockShares {
                increment_percent,
                ..ClockShares::default()
            };
            limits.time_budget_scaled(shares).0.unwrap().as_millis() as u64
        };
        let base = (16000 - MOVE_OVERHEAD_MS) / 20;
        assert_eq!(soft(clock(16000, 160), 75), base + 120);
        assert_eq!(soft(clock(16000, 160), 125), base + 200);
        assert_eq!(soft(clock(16000, 160), 0), base);
        assert_eq!(
            clock(16000, 160).time_budget(),
            clock(16000, 160).time_budget_scaled(usage(100))
        );
        assert!(soft(clock(400, 160), 200) <= (400 - MOVE_OVERHEAD_MS) / 3);
        let config = SearchConfig {
            time_inc: Some(125),
            ..SearchConfig::default()
        };
        assert_eq!(
            config.clock_shares(),
            ClockShares {
                usage_percent: 100,
                increment_percent: 125
            }
        );
    }

    /// `time_usage` scales a clock's soft budget (and the hard one with it) but never past a
    /// third of what is left, and leaves a fixed move time alone.
    #[test]
    fn time_usage_scales_the_clock_budget_only() {
        let clock = |time_ms| Limits {
            clock: Some(Clock {
                time_ms,
                inc_ms: 80,
                movestogo: None,
                overhead_ms: MOVE_OVERHEAD_MS,
            }),
            ..Limits::default()
        };
        let ms = |d: Option<Duration>| d.unwrap().as_millis() as u64;
        let (soft, hard) = clock(8000).time_budget();
        let (soft_more, hard_more) = clock(8000).time_budget_scaled(usage(150));
        assert_eq!(ms(soft), (8000 - MOVE_OVERHEAD_MS) / 20 + 60);
        assert_eq!(ms(soft_more), ms(soft) * 3 / 2);
        assert!(ms(hard_more) > ms(hard));
        let (soft_low, hard_low) = clock(300).time_budget_scaled(usage(300));
        assert!(ms(soft_low) <= (300 - MOVE_OVERHEAD_MS) / 3);
        assert!(ms(hard_low) <= (300 - MOVE_OVERHEAD_MS) / 3);
        let fixed = Limits {
            movetime_ms: Some(100),
            ..Limits::default()
        };
        assert_eq!(fixed.time_budget_scaled(usage(200)), fixed.time_budget());
    }

    #[test]
    fn movetime_is_a_hard_limit() {
        let limits = Limits {
            movetime_ms: Some(100),
            ..Limits::default()
        };
        assert_eq!(
            limits.time_budget(),
            (None, Some(Duration::from_millis(95)))
        );
        assert_eq!(Limits::depth(3).time_budget(), (None, None));
    }
}
