//! An engine's options as its toggles and parameters: the designs of `run` and `match`
//! (`--ablation off-one|on-one|pairs[:NAMES]`, `--sweep [LABEL.]option.NAME=VALUES`) over an
//! external engine's advertised `check` and `spin` options, the same designs searchlab makes
//! over its own SPECs. Each variant is the base engine with options appended after the base's
//! own (so a preset option such as searchlab's `Heuristics` comes first and the flip after it).
//! Every variant is probed with its options before anything runs: an engine that answers an
//! option with a line naming it (a refusal: Stockfish's `No such option`, searchlab's
//! `info string setoption: … refused`) has that variant left out with the reason, so no
//! variant silently searches as its base.

use std::collections::BTreeMap;

use super::design;
use crate::harness::design::{Design, PairCell, SweepPoint, SweptParam};
use crate::harness::external::probe::is_refusal;
use crate::harness::external::session::{self, Probe};
use crate::harness::external::uci_options::{self, OptionKind, UciOption};
use crate::harness::variant::Variant;

/// Whether the design (`--ablation`, `--sweep`) is over an engine's options: no `--variant`
/// is given and an engine is, or a sweep names `option.`.
pub fn is_engine_design(
    given: &[String],
    engines: &[String],
    ablation: Option<&str>,
    sweeps: &[String],
) -> bool {
    let designed = ablation.is_some() || !sweeps.is_empty();
    designed
        && ((given.is_empty() && !engines.is_empty())
            || sweeps.iter().any(|s| s.contains("option.")))
}

/// The variants of a design over the one engine in `variants` (probed), with the design.
pub fn widen(
    variants: Vec<Variant>,
    probes: &BTreeMap<String, Probe>,
    ablation: Option<&str>,
    sweeps: &[String],
) -> Result<(Vec<Variant>, Option<Design>), String> {
    let [base] = &variants[..] else {
        return Err(
            "a design over an engine's options has one base: give one --engine and no --variant"
                .into(),
        );
    };
    let probe = &probes[&base.label];
    let (mut out, design) = match (ablation, sweeps.is_empty()) {
        (Some(_), false) => return Err("give --ablation or --sweep, not both".into()),
        (Some(mode), true) => ablation_variants(mode, base, &probe.options)?,
        (None, false) => sweep_variants(sweeps, base, &probe.options)?,
        (None, true) => (vec![base.clone()], None),
    };
    // Each variant once with its options: a refusal leaves it out.
    let mut kept = vec![out.remove(0)];
    let mut left_out = Vec::new();
    for mut variant in out {
        let appended = appended_names(base, &variant);
        let probe = session::probe(variant.engine.as_ref().expect("an engine variant"))
            .map_err(|e| format!("variant '{}': {e}", variant.label))?;
        let refusal = probe.said.iter().find(|line| refuses(line, &appended));
        match refusal {
            Some(line) => {
                session::discard_warm(variant.engine.as_ref().expect("an engine variant"));
                eprintln!(
                    "warning: variant '{}' left out: the engine answered its options with '{line}'",
                    variant.label
                );
                left_out.push(variant.label.clone());
            }
            None => {
                if let Some(engine) = variant.engine.as_mut() {
                    engine.name = Some(probe.name);
                }
                kept.push(variant);
            }
        }
    }
    let design = design.map(|design| without(design, &left_out));
    Ok((kept, design))
}

/// A line the engine said after its options that names one of `names` and refuses it.
fn refuses(line: &str, names: &[String]) -> bool {
    let line = line.to_ascii_lowercase();
    names
        .iter()
        .any(|name| line.contains(&name.to_ascii_lowercase()))
        && is_refusal(&line)
}

/// The option names a variant sets beyond its base's.
fn appended_names(base: &Variant, variant: &Variant) -> Vec<String> {
    let options = |v: &Variant| v.engine.as_ref().map_or(Vec::new(), |e| e.options.clone());
    let base_options = options(base);
    options(variant)
        .into_iter()
        .filter(|o| !base_options.contains(o))
        .map(|(name, _)| name)
        .collect()
}

/// The design without the cells or points that were left out.
fn without(design: Design, left_out: &[String]) -> Design {
    match design {
        Design::Pairs {
            base,
            heuristics,
            cells,
        } => Design::Pairs {
            base,
            heuristics,
            cells: cells
                .into_iter()
                .filter(|c| !left_out.contains(&c.label))
                .collect(),
        },
        Design::Sweep {
            base,
            params,
            points,
        } => Design::Sweep {
            base,
            params,
            points: points
                .into_iter()
                .filter(|p| !left_out.contains(&p.label))
                .collect(),
        },
    }
}

/// `base` with `options` set (each replacing the base's own of the same name), labelled.
fn with_options(base: &Variant, label: String, options: &[(String, String)]) -> Variant {
    let mut variant = base.clone();
    variant.label = label;
    let engine = variant.engine.as_mut().expect("an engine variant");
    for (name, value) in options {
        engine
            .options
            .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        engine.options.push((name.clone(), value.clone()));
    }
    variant
}

/// A spin option's value for `base`: its given value, else the advertised `default`.
fn spin_value(base: &Variant, name: &str, default: f64) -> f64 {
    base.engine
        .as_ref()
        .and_then(|e| {
            e.options
                .iter()
                .rev()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
        })
        .and_then(|(_, value)| value.trim().parse::<f64>().ok())
        .unwrap_or(default)
}

/// Whether a check option is on for `base`: its given value, else the advertised default.
fn is_on(base: &Variant, option: &UciOption) -> bool {
    let given = base.engine.as_ref().and_then(|e| {
        e.options
            .iter()
            .rev()
            .find(|(n, _)| n.eq_ignore_ascii_case(&option.name))
    });
    match given {
        Some((_, value)) => value.eq_ignore_ascii_case("true"),
        None => option.default_on() == Some(true),
    }
}

/// The check options an ablation flips: the named ones (any check option), else every toggle
/// of the search (`UciOption::is_toggle`).
fn toggles<'a>(
    names: Option<&str>,
    options: &'a [UciOption],
) -> Result<Vec<&'a UciOption>, String> {
    let all: Vec<&UciOption> = options.iter().filter(|o| o.is_toggle()).collect();
    let Some(names) = names else {
        return Ok(all);
    };
    let mut chosen: Vec<&UciOption> = Vec::new();
    for name in names.split(',').map(str::trim) {
        let option = uci_options::find(options, name)
            .filter(|o| matches!(o.kind, OptionKind::Check { .. }))
            .ok_or_else(|| {
                format!(
                    "--ablation: the engine has no check option '{name}'; its toggles: {}",
                    all.iter()
                        .map(|o| o.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        if chosen.iter().any(|c| c.name == option.name) {
            return Err(format!("--ablation: '{name}' is given twice"));
        }
        chosen.push(option);
    }
    Ok(chosen)
}

/// The variants of `off-one` (each check option that is on, switched off) or `on-one` (each
/// that is off, switched on), after the base; an ablation that makes none is an error.
fn one_flips(
    mode: &str,
    kind: &str,
    named: bool,
    base: &Variant,
    chosen: &[&UciOption],
    variants: &mut Vec<Variant>,
) -> Result<(), String> {
    let want_on = kind == "off-one";
    for option in chosen {
        // `off-one` flips what is on, `on-one` what is off; a listed option in the
        // other state is said, not silently skipped.
        if is_on(base, option) != want_on {
            if named {
                eprintln!(
                    "ablation {kind}: '{}' is already {} in '{}'; no variant",
                    option.name,
                    if want_on { "off" } else { "on" },
                    base.label
                );
            }
            continue;
        }
        let (sign, value) = flip(base, option);
        let label = format!("{}{sign}{}", base.label, option.name);
        variants.push(with_options(
            base,
            label,
            &[(option.name.clone(), value.into())],
        ));
    }
    if variants.len() == 1 {
        // A design that makes no variant would run the base alone: say why instead.
        return Err(format!(
            "--ablation {mode}: engine '{}' has no check option {} of the {} the ablation may flip, so it makes no variant; `searchlab engine-options` lists its options",
            base.label,
            if want_on { "on" } else { "off" },
            chosen.len()
        ));
    }
    Ok(())
}

/// The sign and value that switch `option` away from its state in `base`.
fn flip(base: &Variant, option: &UciOption) -> (char, &'static str) {
    if is_on(base, option) {
        ('-', "false")
    } else {
        ('+', "true")
    }
}

fn ablation_variants(
    mode: &str,
    base: &Variant,
    options: &[UciOption],
) -> Result<(Vec<Variant>, Option<Design>), String> {
    let (kind, names) = match mode.split_once(':') {
        Some((kind, names)) => (kind, Some(names)),
        None => (mode, None),
    };
    let chosen = toggles(names, options)?;
    let mut variants = vec![base.clone()];
    match kind {
        "off-one" | "on-one" => {
            one_flips(mode, kind, names.is_some(), base, &chosen, &mut variants)?;
            Ok((variants, None))
        }
        "pairs" => {
            if chosen.len() < 2 {
                return Err("--ablation pairs needs at least two check options".into());
            }
            if names.is_none() && chosen.len() > 8 {
                return Err(format!(
                    "--ablation pairs: the engine has {} toggles ({} variants); name the ones to pair: pairs:A,B,C",
                    chosen.len(),
                    chosen.len() * (chosen.len() + 1) / 2
                ));
            }
            let mut cells = Vec::new();
            let mut add = |set: &[&UciOption]| {
                let flips: Vec<(char, &str)> = set.iter().map(|o| flip(base, o)).collect();
                let label: String = set
                    .iter()
                    .zip(&flips)
                    .map(|(o, (sign, _))| format!("{sign}{}", o.name))
                    .collect();
                let options: Vec<(String, String)> = set
                    .iter()
                    .zip(&flips)
                    .map(|(o, (_, value))| (o.name.clone(), value.to_string()))
                    .collect();
                variants.push(with_options(base, label.clone(), &options));
                cells.push(PairCell {
                    label,
                    toggled: set.iter().map(|o| o.name.clone()).collect(),
                });
            };
            for &a in &chosen {
                add(&[a]);
            }
            for (i, &a) in chosen.iter().enumerate() {
                for &b in &chosen[i + 1..] {
                    add(&[a, b]);
                }
            }
            let design = Design::Pairs {
                base: base.label.clone(),
                heuristics: chosen.iter().map(|o| o.name.clone()).collect(),
                cells,
            };
            Ok((variants, Some(design)))
        }
        _ => Err(format!(
            "--ablation is on-one, off-one or pairs, each with :NAME,NAME,... if wanted (got '{mode}')"
        )),
    }
}

/// One `--sweep [LABEL.]option.NAME=VALUES` over `base`'s engine: a spin option it advertises
/// and values within its range.
fn swept_option(text: &str, base: &Variant, options: &[UciOption]) -> Result<SweptParam, String> {
    let (key, values) = text.split_once('=').ok_or_else(|| {
        format!("--sweep is option.NAME=V1,V2,... or option.NAME=FROM..TO:STEP, got '{text}'")
    })?;
    let name = match key.split_once("option.") {
        Some(("", name)) => name,
        Some((label, name)) if label.strip_suffix('.') == Some(base.label.as_str()) => name,
        _ => {
            return Err(format!(
                "--sweep {key}: name the engine's option as option.NAME or {}.option.NAME",
                base.label
            ));
        }
    };
    let option = uci_options::find(options, name).ok_or_else(|| {
        format!(
            "--sweep {key}: engine '{}' has no option '{name}'",
            base.label
        )
    })?;
    let OptionKind::Spin { default, min, max } = option.kind else {
        return Err(format!(
            "--sweep {key}: only spin options are swept ('{}' is {})",
            option.name,
            option.describe().0
        ));
    };
    let values = design::sweep_values(key, values)?;
    for v in &values {
        if v.fract() != 0.0 || *v < min as f64 || *v > max as f64 {
            return Err(format!(
                "--sweep {key}: {v} is outside the option's range {min}..{max} (whole numbers)"
            ));
        }
    }
    Ok(SweptParam {
        key: option.name.clone(),
        values,
        default: default as f64,
    })
}

/// `--sweep [LABEL.]option.NAME=VALUES`, repeated (a grid), over the engine's spin options.
fn sweep_variants(
    sweeps: &[String],
    base: &Variant,
    options: &[UciOption],
) -> Result<(Vec<Variant>, Option<Design>), String> {
    let mut params: Vec<SweptParam> = Vec::new();
    for text in sweeps {
        let param = swept_option(text, base, options)?;
        if params.iter().any(|p| p.key == param.key) {
            return Err(format!("--sweep {} is given twice", param.key));
        }
        params.push(param);
    }
    let mut variants = vec![base.clone()];
    let mut points = Vec::new();
    for values in design::grid(&params)? {
        let settings: Vec<(String, String)> = params
            .iter()
            .zip(&values)
            .map(|(p, v)| (p.key.clone(), format!("{}", *v as i64)))
            .collect();
        let label = settings
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join(",");
        // The point at the base's own values (given, else advertised) is the base: its
        // results serve the point, and it is searched once.
        let is_base = params
            .iter()
            .zip(&values)
            .all(|(p, v)| spin_value(base, &p.key, p.default) == *v);
        let label = if is_base {
            base.label.clone()
        } else {
            variants.push(with_options(base, label.clone(), &settings));
            label
        };
        points.push(SweepPoint { label, values });
    }
    let design = Design::Sweep {
        base: base.label.clone(),
        params,
        points,
    };
    Ok((variants, Some(design)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_the_option_and_refuses_it() {
        let names = vec!["tt".to_string(), "Hash".to_string()];
        assert!(refuses(
            "info string setoption: tt = false refused: iir needs tt",
            &names
        ));
        assert!(refuses("No such option: Hash", &names));
        assert!(!refuses("info string set Hash to 16MB", &names), "an echo");
        assert!(!refuses("info string invalid value for MultiPV", &names));
        // What `match` and `engine-options` call an acknowledgement, and a warning.
        assert!(!is_refusal("info string set Hash to 16MB"));
        assert!(is_refusal("info string Unknown option: Foo"));
    }
}
