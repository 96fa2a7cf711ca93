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
    /// The signal proposes to act on this move.
    pub proposes: fn(&NodeView, &MoveView, &HeuristicsConfig) -> bool,
}

const ALWAYS: fn(&HeuristicsConfig) -> bool = |_| true;

/// Every 002 signal on every bound it can play, alpha side first.
pub(super) const SIGNALS: &[Signal] = &[
    Signal {
        counter: counter!(StaticLr),
        side: Side::Alpha,
        applies: |h| h.static_lr.verified,
        proposes: |node, mv, h| static_lr::candidate(node, mv, &h.static_lr),
    },
    Signal {
        counter: counter!(Momentum.main),
        side: Side::Alpha,
        applies: ALWAYS,
        proposes: |_, mv, h| momentum::main_candidate(mv, &h.momentum),
    },
    Signal {
        counter: counter!(EmaChannel.alpha),
        side: Side::Alpha,
        applies: ALWAYS,
        proposes: |node, mv, h| ema_channel::alpha_candidate(node, mv, &h.ema_channel),
    },
    Signal {
        counter: counter!(Trend.alpha),
        side: Side::Alpha,
        applies: ALWAYS,
        proposes: |_, mv, h| trend::alpha_candidate(mv, &h.trend),
    },
    Signal {
        counter: counter!(MinmaxChannel.alpha),
        side: Side::Alpha,
        applies: ALWAYS,
        proposes: |node, mv, h| minmax_channel::alpha_candidate(node, mv, &h.minmax_channel),
    },
    Signal {
        counter: counter!(Rsi),
        side: Side::Alpha,
        applies: ALWAYS,
        proposes: |node, mv, h| rsi::candidate(node, mv, &h.rsi),
    },
    Signal {
        counter: counter!(ChannelBreakout),
        side: Side::Alpha,
        applies: ALWAYS,
        proposes: |node, mv, h| channel_breakout::candidate(node, mv, &h.channel_breakout),
    },
    Signal {
        counter: counter!(WindowMargins.alpha),
        side: Side::Alpha,
        applies: ALWAYS,
        proposes: |node, mv, h| window_margins::alpha_candidate(node, mv, &h.window_margins),
    },
    Signal {
        counter: counter!(BetaPlay),
        side: Side::Beta,
        applies: ALWAYS,
        proposes: |node, mv, h| beta_play::candidate(node, mv, &h.beta_play),
    },
    Signal {
        counter: counter!(EmaChannel.beta),
        side: Side::Beta,
        applies: ALWAYS,
        proposes: |node, mv, h| ema_channel::beta_candidate(node, mv, &h.ema_channel),
    },
    Signal {
        counter: counter!(Trend.beta),
        side: Side::Beta,
        applies: ALWAYS,
        proposes: |_, mv, h| trend::beta_candidate(mv, &h.trend),
    },
    Signal {
        counter: counter!(MinmaxChannel.beta),
        side: Side::Beta,
        applies: ALWAYS,
        proposes: |node, mv, h| minmax_channel::beta_candidate(node, mv, &h.minmax_channel),
    },
    Signal {
        counter: counter!(WindowMargins.beta),
        side: Side::Beta,
        applies: ALWAYS,
        proposes: |node, mv, h| window_margins::beta_candidate(node, mv, &h.window_margins),
    },
];

impl Searcher {
    /// Choose once per search the table entries this configuration consults: signals that
    /// are on, on the bounds their parameters play (the configuration never changes during a
    /// search, so the move loop does not ask again).
    pub(super) fn select_signals(&mut self) {
        let h = &self.config.heuristics;
        self.active_signals = SIGNALS
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
            .collect();
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
        selective: bool,
    ) -> Option<Score> {
        let mut verification = None;
        // Only the entries chosen for this configuration (`select_signals`).
        for index in 0..self.active_signals.len() {
            let signal = &SIGNALS[self.active_signals[index]];
            let proposes = self
                .gate(signal.counter, selective, Point::Unaudited, |s| {
                    Decision::when(true, (signal.proposes)(node, mv, &s.config.heuristics))
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
