//! `ema_channel` (002, "Экспоненциальное среднее" and the channel sections). Per-side EMAs of
//! `R` along the line: `ema5 = 0.2*R + 0.8*ema5_prev`, `ema10 = 0.1*R + 0.9*ema10_prev`
//! (typo fixes: the document's `0.4` and its use of `ema5_prev` in the ema10 line), `ema3`
//! with 1/3; `stdev = ema10(|R - ema10|)` (kept in `position.rs`). The channel's two periods
//! are parameters (`fast_period` = 5, `slow_period` = 10: 002 notes "only the period is
//! unknown"); the text below keeps the document's names `ema5` and `ema10` for them.
//!
//! Core rule (alpha side): skip the move when it gives no check, `L <= alpha`, `R <= alpha`,
//! `ema5 <= ema10` (the score is not rising) and `-search(depth-2) <= alpha`.
//! Refinements, each a sub-toggle, each narrowing the core rule except (b), which replaces its
//! `ema5 <= ema10` test:
//! (a) divergence: `|ema5 - ema10|` grows against the previous ply;
//! (b) rising band: never prune when `ema5 > ema10` and `|ema3 - ema10| < 2 pawns` (so a
//!     rising score with a larger jump may be pruned);
//! (c) stdev channel: never prune while `|R - ema10| < 2*stdev`;
//! (d) margin form: `max(L,R) <= alpha`, `max(L,R) <= ema10`, `ema10 + MARGIN <= alpha` with
//!     MARGIN = pawn/2 (depth <= 2), 2 pawns (<= 4), rook (<= 6), queen; not the first legal
//!     move, no pawn move to the 7th, no capture of a weak pawn, `beta < mate bound`;
//! (e) CCI channel: `ema10 + dev*sqrt(2) <= alpha`.
//! Beta side (`side = beta`): the CCI channel's twin, cut with beta when the reduced search
//! reaches beta and `ema10 - dev*sqrt(2) >= beta`.
//!
//! **The optional exemptions.** After the core rule 002 adds that "the first 1-3 legal moves,
//! checks with pawn moves to the 7th, and captures of weak pawns (no pawn beside it and not
//! defended by a pawn) *can be left unpruned*" ("можно не подрезать"). Its listing of the core
//! rule does not apply them; its margin form (d) does (not the first move, no pawn to the 7th,
//! no weak-pawn capture). So they are options of the core rule, off by default as in the
//! listing: `spare_first=N` (1-3) never prunes the first N legal moves, `spare_tactical=true`
//! never prunes a pawn move to the 7th or a weak-pawn capture (checks are never pruned anyway).

use super::params::heuristic_params;
use super::view::{MoveView, NodeView, Side};
use crate::engine::eval::{PAWN, PIECE_VALUE};
use crate::engine::score::Score;
use crate::engine::score::MATE_BOUND;

heuristic_params! {
    /// Parameters of `ema_channel`.
    pub struct Params {
        /// The EMA channel signal.
        pub enabled: bool = false,
        /// `alpha`: the core rule (and refinements); `beta`: the CCI beta twin.
        pub side: Side = Side::Alpha,
        /// The period of the channel's fast EMA (002: `ema5`).
        pub fast_period: u32 [2..=64] = 5,
        /// The period of the channel's slow EMA and of its deviation (002: `ema10`, and
        /// `stdev = ema(|R - ema10|, 10)`).
        pub slow_period: u32 [2..=128] = 10,
        /// (a) require a growing `|ema5 - ema10|`.
        pub divergence: bool = false,
        /// (b) rising band instead of `ema5 <= ema10`.
        pub rising_band: bool = false,
        /// Width of the rising band (002: 2 pawns).
        pub band: i32 [0..=2000] = 2 * PAWN,
        /// (c) never prune inside `ema10 ± stdev_multiplier * stdev`.
        pub stdev_channel: bool = false,
        /// Width of the stdev channel in deviations (002: 2).
        pub stdev_multiplier: f64 [0.0..=10.0] = 2.0,
        /// (d) the margin form.
        pub margin_form: bool = false,
        /// (e) the CCI channel `ema10 + dev*cci_multiplier <= alpha`.
        pub cci_channel: bool = false,
        /// The CCI multiplier (002: sqrt(2), "the peak of a sine of unit RMS").
        pub cci_multiplier: f64 [0.0..=10.0] = std::f64::consts::SQRT_2,
        /// Never prune the first this many legal moves (002's optional exemption: 1-3).
        pub spare_first: u32 [0..=3; structural] = 0,
        /// Never prune a pawn move to the 7th or a weak-pawn capture (002's optional exemption).
        pub spare_tactical: bool = false,
    }
}

/// 002's depth-dependent margin for the margin form (d).
pub fn margin(depth: i32) -> Score {
    match depth {
        d if d <= 2 => PAWN / 2,
        d if d <= 4 => 2 * PAWN,
        d if d <= 6 => PIECE_VALUE[3],
        _ => PIECE_VALUE[4],
    }
}

/// The alpha-side rule with its enabled refinements: the move is a candidate for a verified
/// skip.
pub fn alpha_candidate(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    let line = &mv.line;
    let (l, r) = (node.static_eval, mv.eval_after);
    let falling = if params.rising_band {
        !(line.channel_fast > line.channel_slow && (line.ema3 - line.channel_slow).abs() < f64::from(params.band))
    } else {
        line.channel_fast <= line.channel_slow
    };
    let core = l <= node.alpha && r <= node.alpha && falling;
    let divergence = !params.divergence || line.gap > line.gap_before;
    let outside_stdev = !params.stdev_channel
        || (f64::from(r) - line.channel_slow).abs() >= params.stdev_multiplier * line.channel_dev;
    let margin_form = !params.margin_form || {
        let high = l.max(r);
        f64::from(high) <= line.channel_slow
            && line.channel_slow + f64::from(margin(node.depth)) <= f64::from(node.alpha)
    };
    let cci = !params.cci_channel
        || line.channel_slow + line.channel_dev * params.cci_multiplier <= f64::from(node.alpha);
    alpha_applies(node, mv, params) && core && divergence && outside_stdev && margin_form && cci
}

/// The alpha rule is consulted on a move that gives no check and that no exemption spares
/// (the first `spare_first` moves; with `spare_tactical` a pawn to the 7th or a weak-pawn
/// capture; with the margin form the first move, those two and a mate-bounded window).
pub fn alpha_applies(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    let tactical = mv.pawn_to_seventh || mv.captures_weak_pawn;
    let not_spared = mv.legal_count > params.spare_first as usize
        && !(params.spare_tactical && tactical);
    let margin_exempt =
        params.margin_form && (mv.legal_count <= 1 || tactical || node.beta >= MATE_BOUND);
    params.side.alpha() && !mv.gives_check && not_spared && !margin_exempt
}

/// The beta rule is consulted on every move.
pub fn beta_applies(params: &Params) -> bool {
    params.side.beta()
}

pub fn beta_candidate(node: &NodeView, mv: &MoveView, params: &Params) -> bool {
    beta_applies(params)
        && mv.line.channel_slow - mv.line.channel_dev * params.cci_multiplier >= f64::from(node.beta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::LineStats;

    fn node() -> NodeView {
        NodeView {
            depth: 5,
            ply: 4,
            alpha: 0,
            beta: 30,
            static_eval: -20,
            ..NodeView::default()
        }
    }

    fn falling_move() -> MoveView {
        MoveView {
            eval_after: -40,
            legal_count: 3,
            line: LineStats {
                ema3: -50.0,
                channel_fast: -45.0,
                channel_slow: -30.0,
                gap: 15.0,
                gap_before: 10.0,
                channel_dev: 5.0,
                ..LineStats::default()
            },
            ..MoveView::default()
        }
    }

    fn on() -> Params {
        Params {
            enabled: true,
            ..Params::default()
        }
    }

    #[test]
    fn core_rule_fires_on_a_falling_score_below_alpha() {
        assert!(alpha_candidate(&node(), &falling_move(), &on()));
    }

    #[test]
    fn core_rule_not_when_the_move_gives_check() {
        let mv = MoveView {
            gives_check: true,
            ..falling_move()
        };
        assert!(!alpha_candidate(&node(), &mv, &on()));
    }

    #[test]
    fn core_rule_needs_l_below_alpha() {
        assert!(!alpha_candidate(
            &NodeView {
                static_eval: 1,
                ..node()
            },
            &falling_move(),
            &on()
        ));
    }

    #[test]
    fn core_rule_needs_r_below_alpha() {
        assert!(!alpha_candidate(
            &node(),
            &MoveView {
                eval_after: 1,
                ..falling_move()
            },
            &on()
        ));
    }

    #[test]
    fn core_rule_not_when_the_score_is_rising() {
        let mut mv = falling_move();
        mv.line.channel_fast = -20.0;
        assert!(!alpha_candidate(&node(), &mv, &on()));
    }

    #[test]
    fn refinement_a_needs_divergence() {
        let p = Params {
            divergence: true,
            ..on()
        };
        assert!(alpha_candidate(&node(), &falling_move(), &p));
        let mut mv = falling_move();
        mv.line.gap_before = 20.0;
        assert!(!alpha_candidate(&node(), &mv, &p));
    }

    #[test]
    fn refinement_b_rising_band() {
        let p = Params {
            rising_band: true,
            ..on()
        };
        let mut mv = falling_move();
        mv.line.channel_fast = -20.0; // rising ...
        mv.line.ema3 = -10.0; // ... inside the band: never pruned
        assert!(!alpha_candidate(&node(), &mv, &p));
        mv.line.ema3 = 250.0; // a jump beyond two pawns may be pruned
        assert!(alpha_candidate(&node(), &mv, &p));
    }

    #[test]
    fn refinement_c_stdev_channel() {
        let p = Params {
            stdev_channel: true,
            ..on()
        };
        // |R - ema10| = 10 >= 2 * 5: outside the channel, prunable.
        assert!(alpha_candidate(&node(), &falling_move(), &p));
        let mut mv = falling_move();
        mv.line.channel_dev = 6.0; // 10 < 12: inside the channel
        assert!(!alpha_candidate(&node(), &mv, &p));
    }

    #[test]
    fn refinement_d_margin_form() {
        let p = Params {
            margin_form: true,
            ..on()
        };
        let mut mv = falling_move();
        // depth 5: MARGIN = rook; ema10 + 500 <= alpha needs ema10 <= -500.
        assert!(!alpha_candidate(&node(), &mv, &p));
        mv.line.channel_slow = -600.0;
        mv.line.channel_fast = -700.0;
        mv.eval_after = -650;
        let low = NodeView {
            static_eval: -650,
            ..node()
        };
        assert!(alpha_candidate(&low, &mv, &p));
        assert!(
            !alpha_candidate(
                &low,
                &MoveView {
                    legal_count: 1,
                    ..mv
                },
                &p
            ),
            "first move"
        );
        assert!(!alpha_candidate(
            &low,
            &MoveView {
                pawn_to_seventh: true,
                ..mv
            },
            &p
        ));
        assert!(!alpha_candidate(
            &low,
            &MoveView {
                captures_weak_pawn: true,
                ..mv
            },
            &p
        ));
        let mate = NodeView {
            beta: MATE_BOUND,
            ..low
        };
        assert!(!alpha_candidate(&mate, &mv, &p));
        assert_eq!(
            (margin(2), margin(4), margin(6), margin(7)),
            (50, 200, 500, 900)
        );
    }

    #[test]
    fn refinement_e_cci_channel() {
        let p = Params {
            cci_channel: true,
            ..on()
        };
        assert!(alpha_candidate(&node(), &falling_move(), &p));
        let mut mv = falling_move();
        mv.line.channel_dev = 30.0; // -30 + 42.4 > 0
        assert!(!alpha_candidate(&node(), &mv, &p));
    }

    #[test]
    fn beta_twin() {
        let p = Params {
            side: Side::Beta,
            ..on()
        };
        let mut mv = falling_move();
        mv.line.channel_slow = 50.0;
        mv.line.channel_dev = 10.0; // 50 - 14.1 >= 30
        assert!(beta_candidate(&node(), &mv, &p));
        assert!(
            !alpha_candidate(&node(), &falling_move(), &p),
            "beta side has no alpha rule"
        );
        mv.line.channel_dev = 20.0;
        assert!(!beta_candidate(&node(), &mv, &p));
    }

    #[test]
    fn the_optional_exemptions_spare_early_and_tactical_moves_only_when_asked() {
        assert!(alpha_candidate(&node(), &falling_move(), &on()));
        let first_three = Params {
            spare_first: 3,
            ..on()
        };
        assert!(!alpha_candidate(&node(), &falling_move(), &first_three));
        let fourth = MoveView {
            legal_count: 4,
            ..falling_move()
        };
        assert!(alpha_candidate(&node(), &fourth, &first_three));
        let tactical = Params {
            spare_tactical: true,
            ..on()
        };
        for mv in [
            MoveView {
                pawn_to_seventh: true,
                ..falling_move()
            },
            MoveView {
                captures_weak_pawn: true,
                ..falling_move()
            },
        ] {
            assert!(alpha_candidate(&node(), &mv, &on()));
            assert!(!alpha_candidate(&node(), &mv, &tactical));
        }
    }
}
