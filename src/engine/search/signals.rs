//! The 002 signals, consulted through one table. Each entry is a signal on one bound: the
//! counter it is counted under, the side, and the function that says whether it proposes to
//! skip the move (alpha) or cut the node (beta). A signal that is off, or whose `side`
//! parameter does not play that bound, is not evaluated at all. A proposal acts only when the
//! shared reduced-depth verification (`verify.rs`) confirms it.
//!
//! The order of the table is the order of consultation, and it matters for the counts (not
//! for the nodes): the verification runs once per move, so the first signal to propose pays
//! for it and the later ones read its cached score.

use super::Searcher;
use super::gate::Point;
use crate::engine::heuristics::view::{Decision, MoveView, NodeView};
use crate::engine::heuristics::{
    HeuristicsConfig, Side, beta_play, channel_breakout, ema_channel, minmax_channel, momentum,
    rsi, static_lr, trend, window_margins,
};
use crate::engine::score::Score;
use crate::engine::stats::{Counter, counter};

/// One signal on one bound.
pub(super) struct Signal {
    pub counter: Counter,
    pub side: Side,
    /// The entry is consulted under these parameters (beyond the signal being on and its
    /// `side` playing this bound): `static_lr.verified=false` is consulted unverified instead.
    pub applies: fn(&HeuristicsConfig) -> bool,
    /// The signal's own preconditions hold on this move (it is `tested`): the checks and
    /// exemptions its rule states, apart from the test that proposes.
    pub tested: fn(&NodeView, &MoveView, &HeuristicsConfig) -> bool,
    /// The signal proposes to act on this move (its preconditions included).
    pub proposes: fn(&NodeView, &MoveView, &HeuristicsConfig) -> bool,
}

const ALWAYS: fn(&HeuristicsConfig) -> bool = |_| true;

/// A signal whose rule has no precondition beyond being consulted on its bound.
const EVERY_MOVE: fn(&NodeView, &MoveView, &HeuristicsConfig) -> bool = |_, _, _| true;

/// Every 002 signal on every bound it can play, alpha side first.
pub(super) const SIGNALS: &[Signal] = &[
    Signal {
        counter: counter!(StaticLr),
        side: Side::Alpha,
        applies: |h| h.static_lr.verified,
        tested: |_, mv, _| static_lr::applies(mv),
        proposes: |node, mv, h| static_lr::candidate(node, mv, &h.static_lr),
    },
    Signal {
        counter: counter!(Momentum.main),
        side: Side::Alpha,
        applies: |h| h.momentum.main_form,
        tested: EVERY_MOVE,
        proposes: |_, mv, h| momentum::main_candidate(mv, &h.momentum),
    },
    Signal {
        counter: counter!(EmaChannel.alpha),
        side: Side::Alpha,
        applies: ALWAYS,
        tested: |node, mv, h| ema_channel::alpha_applies(node, mv, &h.ema_channel),
        proposes: |node, mv, h| ema_channel::alpha_candidate(node, mv, &h.ema_channel),
    },
    Signal {
        counter: counter!(Trend.alpha),
        side: Side::Alpha,
        applies: ALWAYS,
        tested: EVERY_MOVE,
        proposes: |_, mv, h| trend::alpha_candidate(mv, &h.trend),
    },
    Signal {
        counter: counter!(MinmaxChannel.alpha),
        side: Side::Alpha,
        applies: ALWAYS,
        tested: EVERY_MOVE,
        proposes: |node, mv, h| minmax_channel::alpha_candidate(node, mv, &h.minmax_channel),
    },
    Signal {
        counter: counter!(Rsi),
        side: Side::Alpha,
        applies: ALWAYS,
        tested: |node, mv, h| rsi::applies(node, mv, &h.rsi),
        proposes: |node, mv, h| rsi::candidate(node, mv, &h.rsi),
    },
    Signal {
        counter: counter!(ChannelBreakout),
        side: Side::Alpha,
        applies: ALWAYS,
        tested: |_, mv, _| channel_breakout::applies(mv),
        proposes: |node, mv, h| channel_breakout::candidate(node, mv, &h.channel_breakout),
    },
    Signal {
        counter: counter!(WindowMargins.alpha),
        side: Side::Alpha,
        applies: ALWAYS,
        tested: |node, mv, h| window_margins::alpha_applies(node, mv, &h.window_margins),
        proposes: |node, mv, h| window_margins::alpha_candidate(node, mv, &h.window_margins),
    },
    Signal {
        counter: counter!(BetaPlay),
        side: Side::Beta,
        applies: ALWAYS,
        tested: |_, mv, _| beta_play::applies(mv),
        proposes: |node, mv, h| beta_play::candidate(node, mv, &h.beta_play),
    },
    Signal {
        counter: counter!(EmaChannel.beta),
        side: Side::Beta,
        applies: ALWAYS,
        tested: |_, _, h| ema_channel::beta_applies(&h.ema_channel),
        proposes: |node, mv, h| ema_channel::beta_candidate(node, mv, &h.ema_channel),
    },
    Signal {
        counter: counter!(Trend.beta),
        side: Side::Beta,
        applies: ALWAYS,
        tested: EVERY_MOVE,
        proposes: |_, mv, h| trend::beta_candidate(mv, &h.trend),
    },
    Signal {
        counter: counter!(MinmaxChannel.beta),
        side: Side::Beta,
        applies: ALWAYS,
        tested: EVERY_MOVE,
        proposes: |node, mv, h| minmax_channel::beta_candidate(node, mv, &h.minmax_channel),
    },
    Signal {
        counter: counter!(WindowMargins.beta),
        side: Side::Beta,
        applies: ALWAYS,
        tested: |node, mv, h| window_margins::beta_applies(node, mv, &h.window_margins),
        proposes: |node, mv, h| window_margins::beta_candidate(node, mv, &h.window_margins),
    },
];

impl Searcher {
    /// The table entries a configuration consults, chosen once per search (`Plan`): signals that
    /// are on, on the bounds their parameters play (the configuration never changes during a
    /// search, so the move loop does not ask again).
    pub(super) fn active_signals(h: &HeuristicsConfig) -> Vec<usize> {
        SIGNALS
            .iter()
            .enumerate()
            .filter(|(_, signal)| {
                let id = signal.counter.id();
                h.enabled(id)
                    && h.signal_side(id)
                        .is_some_and(|side| side == signal.side || side == Side::Both)
                    && (signal.applies)(h)
            })
            .map(|(index, _)| index)
            .collect()
    }

    /// Step 8d-4: the verified 002 signals. `Some(alpha)` skips the move, `Some(beta)` cuts
    /// the node; `None` searches it. A signal is tested where it is consulted, fired when it
    /// proposes, overruled when the verification contradicts it; a confirmed proposal is
    /// offered to the audit.
    pub(super) fn verified_signals(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        new_depth: i32,
    ) -> Option<Score> {
        let mut verification = None;
        // Only the entries chosen for this configuration (`select_signals`).
        for index in 0..self.plan.signals.len() {
            let signal = &SIGNALS[self.plan.signals[index]];
            let proposes = self
                .gate(signal.counter, Point::Unaudited, |s| {
                    let h = &s.config.heuristics;
                    let tested = (signal.tested)(node, mv, h);
                    Decision::when(tested, (signal.proposes)(node, mv, h))
                })
                .is_some();
            if proposes
                && self.verified(
                    signal.counter,
                    signal.side,
                    node,
                    new_depth,
                    &mut verification,
                )
            {
                let score = match signal.side {
                    Side::Beta => node.beta,
                    Side::Alpha | Side::Both => node.alpha,
                };
                let at = Point::Made { node, new_depth };
                self.offer_audit(signal.counter, at, Some(score));
                return Some(score);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::heuristics::{Kind, REGISTRY, SignalRule};
    use crate::engine::position::LineStats;

    /// Views spread over what the signals read: scores around the window, lines rising and
    /// falling, checks, captures, early and late moves, shallow and deep plies.
    fn views() -> Vec<(NodeView, MoveView)> {
        let mut out = Vec::new();
        for i in 0..4000u32 {
            let pick = |k: u32, n: u32| (i.wrapping_mul(2_654_435_761) >> k) % n;
            let score = |k: u32| pick(k, 17) as Score * 60 - 480;
            let node = NodeView {
                depth: 2 + pick(1, 6) as i32,
                ply: pick(4, 9) as usize,
                alpha: -20,
                beta: 20,
                static_eval: score(7),
                in_check: pick(11, 5) == 0,
                ..NodeView::default()
            };
            let float = |k: u32| f64::from(score(k));
            let mv = MoveView {
                eval_after: score(13),
                gives_check: pick(17, 3) == 0,
                capture: pick(19, 3) == 0,
                pawn_to_seventh: pick(21, 7) == 0,
                legal_count: 1 + pick(23, 30) as usize,
                line: LineStats {
                    material_momentum: score(25),
                    eval_momentum: score(27),
                    trend_a: float(2),
                    trend_b: float(5),
                    channel_fast: float(8),
                    channel_slow: float(10),
                    ema3: float(12),
                    rsi: f64::from(pick(14, 101)),
                    max_eval5: score(16),
                    min_eval5: score(18),
                    max_eval5_before: score(20),
                    material_ema10: 4.0 * float(22),
                    material_ema24: 4.0 * float(24),
                    ..LineStats::default()
                },
                ..MoveView::default()
            };
            out.push((node, mv));
        }
        out
    }

    #[test]
    fn a_signal_is_tested_where_its_preconditions_hold_and_proposes_only_there() {
        let mut h = HeuristicsConfig::default();
        h.rsi.min_ply = 2;
        // Both bounds, so that every entry is consulted.
        h.ema_channel.side = Side::Both;
        h.trend.side = Side::Both;
        h.minmax_channel.side = Side::Both;
        let no_check_rule = [
            counter!(StaticLr),
            counter!(EmaChannel.alpha),
            counter!(Rsi),
            counter!(ChannelBreakout),
            counter!(WindowMargins.alpha),
            counter!(BetaPlay),
        ];
        for signal in SIGNALS {
            let (mut tested, mut proposed) = (0, 0);
            for (node, mv) in views() {
                let t = (signal.tested)(&node, &mv, &h);
                let p = (signal.proposes)(&node, &mv, &h);
                assert!(t || !p, "{}: proposes where untested", signal.counter.key());
                if no_check_rule.contains(&signal.counter) && mv.gives_check {
                    assert!(!t, "{}: tested on a check", signal.counter.key());
                }
                tested += usize::from(t);
                proposed += usize::from(p);
            }
            let key = signal.counter.key();
            assert!(
                tested > proposed && proposed > 0,
                "{key}: {proposed} of {tested}"
            );
        }
    }

    #[test]
    fn every_signal_of_the_registry_is_in_the_table_on_each_bound_it_may_play() {
        for info in REGISTRY {
            let entries: Vec<&Signal> = SIGNALS
                .iter()
                .filter(|s| s.counter.id() == info.id)
                .collect();
            let sides: Vec<Side> = entries.iter().map(|s| s.side).collect();
            let expected: &[Side] = match info.signal {
                SignalRule::None => &[],
                SignalRule::Alpha => &[Side::Alpha],
                SignalRule::Beta => &[Side::Beta],
                SignalRule::Either | SignalRule::Any => &[Side::Alpha, Side::Beta],
            };
            let mut sorted = sides.clone();
            sorted.sort_by_key(|s| *s as u8);
            assert_eq!(sorted, expected, "{}: signal table entries", info.name);
            assert_eq!(
                info.kind == Kind::Signal,
                info.signal != SignalRule::None,
                "{}: a heuristic of kind signal has a signal rule, and only it",
                info.name
            );
        }
    }
}
