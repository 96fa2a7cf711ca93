//! The toggle syntax, the same on the command line (`--heuristics SPEC`), over UCI and in JSON:
//! a comma-separated list applied left to right, starting from nothing (plain alpha-beta,
//! captures first). Each item is a preset name, an id (`killers`, the same as `+killers`),
//! `-id`, `id.param=value`, or `algorithm=alphabeta|minimax`. Example:
//! `classic,-futility,+gsr,gsr.red2=3`.
//!
//! Presets are themselves SPEC strings, so they add to what came before them.

use super::view::SignalSide;
use super::{HeuristicsConfig, Id, id_list};
use crate::engine::config::Algorithm;

/// A named configuration.
pub struct Preset {
    /// Its name in a SPEC.
    pub name: &'static str,
    /// What it reproduces.
    pub description: &'static str,
    /// What it switches on, as a SPEC.
    pub spec: &'static str,
}

/// Every preset.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "plain",
        description: "alpha-beta, captures first in generation order, nothing else",
        spec: "",
    },
    Preset {
        name: "ifrit-plain",
        description: "003's first configuration: quiescence on, no sorting",
        spec: "quiescence",
    },
    Preset {
        name: "ifrit-killers",
        description: "003's second configuration: quiescence, two killers",
        spec: "quiescence,killers",
    },
    Preset {
        name: "ifrit-capture-killers",
        description: "003's third configuration: quiescence, best capture (MVV/LVA) first, then killers",
        spec: "quiescence,mvv_lva,killers",
    },
    Preset {
        name: "minimax",
        description: "000's full-width minimax without quiescence (horizon leaves = perft)",
        spec: "algorithm=minimax",
    },
    Preset {
        name: "minimax-q",
        description: "000's full-width minimax with quiescence (captures only, material evaluation)",
        spec: "algorithm=minimax,quiescence",
    },
    Preset {
        name: "centurion",
        description: "001's set: hash table, history, MVV/LVA with its extras, move-count pruning, check extension, killers, null move, futility, razoring, quiescence with evasions, PV move",
        spec: "tt,history,mvv_lva,mvv_lva.special_first=true,mvv_lva.last_moved_first=true,futility_move_count,check_extension,check_extension.pawn_to_seventh=false,killers,null_move,futility,razoring,quiescence,pv_move",
    },
    Preset {
        name: "kornilov",
        description: "002's set: hash move and PV first, killers, history and mate history, check and 7th-rank extension, guarded null move, quiescence with momentum, EMA channel, GSR, nega-scout IID",
        spec: "tt,pv_move,mvv_lva,killers,history,mate_history,check_extension,null_move_guarded,quiescence,momentum,ema_channel,gsr,iid_null_window",
    },
    Preset {
        name: "classic",
        description: "the standard strong set: hash table, PV move, MVV/LVA, killers, history, null move, check extension, futility, quiescence (full evaluation)",
        spec: "tt,pv_move,mvv_lva,killers,history,null_move,check_extension,futility,quiescence",
    },
    Preset {
        name: "all",
        description: "every heuristic that combines: the alternatives null_move_guarded and gsr_simple left out, every channel on its alpha side",
        spec: "mvv_lva,killers,history,mate_history,pv_move,tt,iid_null_window,null_move,futility_move_count,check_extension,razoring,futility,quiescence,momentum,ema_channel,static_lr,beta_play,trend,minmax_channel,rsi,channel_breakout,window_margins,window_margins.side=alpha,main_selective,gsr",
    },
];

/// What a SPEC decides: the algorithm and the heuristics.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Setup {
    /// Alpha-beta or minimax.
    pub algorithm: Algorithm,
    /// The heuristics and their parameters.
    pub heuristics: HeuristicsConfig,
}

fn preset_list() -> String {
    PRESETS
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn lookup(name: &str) -> Result<Id, String> {
    Id::from_name(name).ok_or_else(|| {
        format!(
            "unknown heuristic or preset '{name}'; presets: {}; heuristics: {}",
            preset_list(),
            id_list()
        )
    })
}

/// Apply one SPEC to `setup`, left to right.
pub fn apply(setup: &mut Setup, spec: &str) -> Result<(), String> {
    for item in spec
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
    {
        if let Some(preset) = PRESETS.iter().find(|p| p.name == item) {
            apply(setup, preset.spec)?;
        } else if let Some(value) = item.strip_prefix("algorithm=") {
            setup.algorithm = match value {
                "alphabeta" => Algorithm::Alphabeta,
                "minimax" => Algorithm::Minimax,
                _ => return Err(format!("algorithm is alphabeta or minimax, got '{value}'")),
            };
        } else if let Some(name) = item.strip_prefix('-') {
            setup.heuristics.set_enabled(lookup(name)?, false);
        } else if let Some((target, value)) = item.split_once('=') {
            let (name, param) = target
                .split_once('.')
                .ok_or_else(|| format!("'{item}': a parameter is written id.param=value"))?;
            setup.heuristics.set_param(lookup(name)?, param, value)?;
        } else {
            let name = item.strip_prefix('+').unwrap_or(item);
            setup.heuristics.set_enabled(lookup(name)?, true);
        }
    }
    Ok(())
}

/// Parse a SPEC from nothing and check that the combination is allowed.
pub fn parse(spec: &str) -> Result<Setup, String> {
    let mut setup = Setup::default();
    apply(&mut setup, spec)?;
    validate(&setup)?;
    Ok(setup)
}

/// The channel signals and the sides they play on.
fn channel_sides(h: &HeuristicsConfig) -> Vec<(Id, SignalSide)> {
    let mut sides = Vec::new();
    if h.ema_channel.enabled {
        sides.push((Id::EmaChannel, h.ema_channel.side));
    }
    if h.trend.enabled {
        sides.push((Id::Trend, h.trend.side));
    }
    if h.minmax_channel.enabled {
        sides.push((Id::MinmaxChannel, h.minmax_channel.side));
    }
    if h.channel_breakout.enabled {
        sides.push((Id::ChannelBreakout, SignalSide::Alpha));
    }
    if h.window_margins.enabled {
        sides.push((Id::WindowMargins, h.window_margins.side));
    }
    sides
}

/// Reject the combinations the documents forbid or that cannot mean anything.
pub fn validate(setup: &Setup) -> Result<(), String> {
    let h = &setup.heuristics;
    let sides = channel_sides(h);
    if sides.len() > 1 {
        let alpha: Vec<&str> = sides
            .iter()
            .filter(|(_, s)| s.alpha())
            .map(|(id, _)| id.name())
            .collect();
        let beta: Vec<&str> = sides
            .iter()
            .filter(|(_, s)| s.beta())
            .map(|(id, _)| id.name())
            .collect();
        if !alpha.is_empty() && !beta.is_empty() {
            return Err(format!(
                "alpha-side channel forms ({}) and beta-side forms ({}) in one search function: 002 forbids it (\"never play on both the alpha and the beta bound in one function, or the search degenerates\"); set the channels' .side to one bound",
                alpha.join(", "),
                beta.join(", ")
            ));
        }
    }
    for (id, side) in &sides {
        if *side == SignalSide::Both && *id != Id::WindowMargins {
            return Err(format!("{}.side is alpha or beta", id.name()));
        }
    }
    if setup.algorithm == Algorithm::Minimax {
        let cutting: Vec<&str> = h
            .enabled_ids()
            .into_iter()
            .filter(|id| id.kind().is_selective() || *id == Id::Tt || *id == Id::MainSelective)
            .map(Id::name)
            .collect();
        if !cutting.is_empty() {
            return Err(format!(
                "minimax searches full width with no cut-offs; {} would cut the tree (use algorithm=alphabeta)",
                cutting.join(", ")
            ));
        }
    }
    if h.killers.enabled && !(1..=2).contains(&h.killers.slots) {
        return Err("killers.slots is 1 or 2".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_apply_left_to_right() {
        let s = parse("classic,-futility,+gsr,gsr.red2=3").unwrap();
        assert!(s.heuristics.killers.enabled && s.heuristics.tt.enabled);
        assert!(!s.heuristics.futility.enabled);
        assert!(s.heuristics.gsr.enabled);
        assert_eq!(s.heuristics.gsr.red2, 3);
        assert_eq!(
            s.heuristics.quiescence.eval,
            crate::engine::eval::EvalKind::Full
        );
        assert_eq!(parse("").unwrap(), Setup::default());
        assert_eq!(parse("plain").unwrap(), Setup::default());
    }

    #[test]
    fn every_preset_parses_and_validates() {
        for preset in PRESETS {
            parse(preset.name).unwrap_or_else(|e| panic!("{}: {e}", preset.name));
        }
        assert_eq!(parse("minimax-q").unwrap().algorithm, Algorithm::Minimax);
        let all = parse("all").unwrap();
        assert!(!all.heuristics.gsr_simple.enabled && !all.heuristics.null_move_guarded.enabled);
        assert_eq!(all.heuristics.enabled_ids().len(), super::super::COUNT - 2);
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let err = parse("classic,killerz").unwrap_err();
        assert!(
            err.contains("'killerz'")
                && err.contains("ifrit-killers")
                && err.contains("ema_channel"),
            "{err}"
        );
        let err = parse("-nope").unwrap_err();
        assert!(err.contains("'nope'"), "{err}");
        let err = parse("gsr.nope=1").unwrap_err();
        assert!(err.contains("red1"), "{err}");
        assert!(parse("gsr=1").is_err());
        assert!(parse("algorithm=bogo").is_err());
    }

    #[test]
    fn alpha_and_beta_channel_forms_together_are_refused() {
        let err = parse("ema_channel,trend,trend.side=beta").unwrap_err();
        assert!(
            err.contains("ema_channel") && err.contains("trend") && err.contains("002"),
            "{err}"
        );
        parse("trend,trend.side=beta,minmax_channel,minmax_channel.side=beta").unwrap();
        parse("window_margins").unwrap();
        assert!(parse("window_margins,channel_breakout").is_err());
        assert!(parse("trend,trend.side=both").is_err());
    }

    #[test]
    fn minimax_refuses_cutting_heuristics() {
        let err = parse("minimax,futility").unwrap_err();
        assert!(err.contains("futility"), "{err}");
        assert!(parse("minimax,tt").is_err());
        parse("minimax,killers,quiescence").unwrap();
    }
}
