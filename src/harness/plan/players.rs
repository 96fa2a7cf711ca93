//! The players of a run or a match, planned in one place:
//! 1. what every player gets (`--each`, `--uci-option`: `engine_args`);
//! 2. our variants' (label, SPEC)s: the given (the keyed or the short form), else the main
//!    job's;
//! 3. a design over our SPECs (`--ablation`, `--sweep`: `design.rs`), unless it is over an
//!    engine's options;
//! 4. each SPEC made a configuration (its network resolved with it), each engine described,
//!    every label once (`variants`);
//! 5. every engine probed (`external::probe`) and a design over an engine's options made
//!    from what it advertised (`engine_design.rs`; `probed_variants`).

use super::{design, engine_args, engine_design};
use crate::engine::config::SearchConfig;
use crate::engine::heuristics::{Id, REGISTRY, id_list};
use crate::engine::spec;
use crate::harness::design::Design;
use crate::harness::variant::Variant;
use design::LabelledSpec;

/// The main job's variants: `classic` and the six heuristics of the project's brief (registry
/// `main_job`) each toggled against it, `(label, SPEC)`.
pub fn main_job() -> Vec<(String, String)> {
    let classic = spec::configure("classic", None, 0).expect("classic is a preset");
    let mut job = vec![("classic".to_string(), "classic".to_string())];
    for name in design::main_six() {
        let id = crate::engine::heuristics::Id::from_name(name).expect("a registry id");
        let sign = if classic.heuristics.enabled(id) {
            '-'
        } else {
            '+'
        };
        job.push((format!("{sign}{name}"), format!("classic,{sign}{name}")));
    }
    job
}

/// `[LABEL=]SPEC` as (label, SPEC); without a label the SPEC is its own label.
fn labelled(text: &str) -> (String, String) {
    match text.split_once('=') {
        Some((label, spec)) if !label.contains(',') && !label.contains('.') => {
            (label.to_string(), spec.to_string())
        }
        _ => (text.to_string(), text.to_string()),
    }
}

/// The variants of a run: the given `[LABEL=]SPEC`s (the main job's when none and no engine is
/// given), widened by an ablation, then one variant per external engine (`engines.rs`: the
/// fastchess form or `[LABEL=]"COMMAND"`, with `--each` and `--uci-option`'s options).
pub fn variants(
    given: &[String],
    engines: &[String],
    (each, uci_options): (&[String], &[String]),
    ablation_mode: Option<&str>,
    sweeps: &[String],
) -> Result<(Vec<Variant>, Option<Design>), String> {
    let each = engine_args::each_options(each, uci_options)?;
    // A player's own limits (`match` only: time or node odds), by label; --each's for the rest.
    let mut own_limits: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut specs: Vec<(String, String)> = Vec::new();
    for text in given {
        specs.push(match engine_args::keyed_variant(text, &each)? {
            Some((label, spec, limits)) => {
                own_limits.push((label.clone(), limits));
                (label, spec)
            }
            None => labelled(text),
        });
    }
    if given.is_empty() && engines.is_empty() {
        specs = main_job();
    }
    let limits_of = |label: &str| {
        own_limits
            .iter()
            .find(|(l, _)| l == label)
            .map_or_else(|| each.limits.clone(), |(_, limits)| limits.clone())
    };
    // A design over an engine's options waits for its probe (`probed_variants`).
    let (specs, design) = if engine_design::is_engine_design(given, engines, ablation_mode, sweeps)
    {
        (specs, None)
    } else {
        designed(given, specs, ablation_mode, sweeps)?
    };
    let mut variants: Vec<Variant> = Vec::new();
    let mut add = |variant: Variant| {
        if variants.iter().any(|v| v.label == variant.label) {
            return Err(format!("two variants are labelled '{}'", variant.label));
        }
        variants.push(variant);
        Ok(())
    };
    for (label, spec) in specs {
        let config =
            spec::configure(&spec, None, 0).map_err(|e| format!("variant '{label}': {e}"))?;
        add(Variant {
            limits: limits_of(&label),
            label,
            spec,
            config,
            engine: None,
        })?;
    }
    for text in engines {
        let engine = engine_args::parse(text, &each)?;
        add(Variant {
            label: engine.label,
            spec: String::new(),
            config: SearchConfig::default(),
            engine: Some(engine.spec),
            limits: engine.limits,
        })?;
    }
    Ok((variants, design))
}

/// The variants' (label, SPEC)s after an ablation or a design (`--ablation pairs`, `--sweep`),
/// with the design.
fn designed(
    given: &[String],
    specs: Vec<(String, String)>,
    ablation_mode: Option<&str>,
    sweeps: &[String],
) -> Result<(Vec<LabelledSpec>, Option<Design>), String> {
    let designed = ablation_mode.is_some_and(|m| m.starts_with("pairs")) || !sweeps.is_empty();
    if designed && given.len() > 1 {
        return Err(
            "--ablation pairs and --sweep make their variants over one base: give at most one --variant"
                .into(),
        );
    }
    // The base of a design: the variant given, else `classic`.
    let first = specs.first().cloned().filter(|_| !given.is_empty());
    let base = || -> (String, String) {
        first
            .clone()
            .unwrap_or_else(|| ("classic".into(), "classic".into()))
    };
    Ok(match (ablation_mode, sweeps.is_empty()) {
        (Some(_), false) => return Err("give --ablation or --sweep, not both".into()),
        (None, false) => {
            let (specs, design) = design::sweep(sweeps, &base())?;
            (specs, Some(design))
        }
        (Some(mode), true) if mode.starts_with("pairs") => {
            let (specs, design) = design::pairs(mode, &base())?;
            (specs, Some(design))
        }
        (Some(mode), true) if mode.starts_with("on-one") || mode.starts_with("off-one") => {
            (ablation(mode, given.is_empty(), specs)?, None)
        }
        (Some(mode), true) => {
            return Err(format!(
                "--ablation is on-one, off-one or pairs, each with :ID,ID,... if wanted (got '{mode}')"
            ));
        }
        (None, true) => (specs, None),
    })
}

/// The variants of an ablation around the first variant (or, when none was given, `plain` for
/// `on-one` and `all` for `off-one`): one per heuristic switched on alone over it (`on-one`)
/// or one per heuristic of it switched off (`off-one`), of every heuristic or of the listed
/// ones (`off-one:lmr,see`). Combinations validation refuses are left out with a warning.
fn ablation(
    mode: &str,
    none_given: bool,
    specs: Vec<(String, String)>,
) -> Result<Vec<(String, String)>, String> {
    let (mode, listed) = match mode.split_once(':') {
        Some((mode, list)) => (mode, Some(list)),
        None => (mode, None),
    };
    if !matches!(mode, "on-one" | "off-one") {
        return Err(format!("--ablation: unknown mode '{mode}'"));
    }
    let (label, base) = if none_given {
        let base = if mode == "on-one" { "plain" } else { "all" };
        (base.to_string(), base.to_string())
    } else {
        specs[0].clone()
    };
    let base_config = spec::parse(&base)?;
    let ids: Vec<Id> = match listed {
        None => REGISTRY.iter().map(|info| info.id).collect(),
        Some(list) => list
            .split(',')
            .map(|name| {
                Id::from_name(name.trim()).ok_or_else(|| {
                    format!(
                        "--ablation {mode}: unknown heuristic '{name}'; valid: {}",
                        id_list()
                    )
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let mut out = vec![(label.clone(), base.clone())];
    for id in ids {
        let on = base_config.heuristics.enabled(id);
        let (sign, wanted) = if mode == "on-one" {
            ('+', !on)
        } else {
            ('-', on)
        };
        if !wanted {
            if listed.is_some() {
                eprintln!(
                    "ablation {mode}: '{}' is already {} in '{label}'; no variant",
                    id.name(),
                    if on { "on" } else { "off" }
                );
            }
            continue;
        }
        let spec = format!("{base},{sign}{}", id.name());
        match spec::parse(&spec) {
            Ok(_) => out.push((format!("{label}{sign}{}", id.name()), spec)),
            Err(e) => eprintln!("ablation: {spec} left out: {e}"),
        }
    }
    Ok(out)
}

/// The players of a run or a match: `variants`, every engine probed (`engine_design::
/// probe_all`: its name, `Threads=1` and `Hash` when it takes them), then a design over an
/// engine's options when one is asked for.
pub fn probed_variants(
    given: &[String],
    engines: &[String],
    each: (&[String], &[String]),
    ablation_mode: Option<&str>,
    sweeps: &[String],
) -> Result<(Vec<Variant>, Option<Design>), String> {
    let (mut players, design) = variants(given, engines, each, ablation_mode, sweeps)?;
    let probes = crate::harness::external::probe::probe_all(&mut players)?;
    if engine_design::is_engine_design(given, engines, ablation_mode, sweeps) {
        return engine_design::widen(players, &probes, ablation_mode, sweeps);
    }
    Ok((players, design))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_from_specs_engines_and_ablations() {
        let v = variants(
            &["fast=classic,-futility".into()],
            &[],
            (&[], &[]),
            None,
            &[],
        )
        .unwrap()
        .0;
        assert_eq!(
            (v[0].label.as_str(), v[0].spec.as_str()),
            ("fast", "classic,-futility")
        );
        let v = variants(&["classic,-futility".into()], &[], (&[], &[]), None, &[])
            .unwrap()
            .0;
        assert_eq!(v[0].label, "classic,-futility");
        let main = variants(&[], &[], (&[], &[]), None, &[]).unwrap().0;
        assert_eq!(main.len(), main_job().len());
        assert_eq!(
            main_job()[1],
            ("-killers".into(), "classic,-killers".into())
        );
        let err = variants(
            &["a=plain".into(), "a=classic".into()],
            &[],
            (&[], &[]),
            None,
            &[],
        )
        .unwrap_err();
        assert!(err.contains("two variants are labelled 'a'"), "{err}");
        let on_one = variants(&["classic".into()], &[], (&[], &[]), Some("on-one"), &[])
            .unwrap()
            .0;
        assert!(on_one.iter().any(|v| v.label == "classic+gsr"));
        assert!(
            on_one.iter().all(|v| v.label != "classic+killers"),
            "already on"
        );
        let e = variants(
            &[],
            &["sf=stockfish".into()],
            (&[], &["Hash=16".into()]),
            None,
            &[],
        )
        .unwrap()
        .0;
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].engine.as_ref().unwrap().options[0].0, "Hash");
    }

    #[test]
    fn designs_make_their_variants_over_one_base() {
        let (v, design) = variants(&[], &[], (&[], &[]), Some("pairs"), &[]).unwrap();
        assert_eq!(v.len(), 22);
        assert_eq!(v[0].label, "classic");
        assert_eq!(design.unwrap().base(), "classic");
        let (v, design) = variants(
            &["m=modern".into()],
            &[],
            (&[], &[]),
            None,
            &["lmr.divisor=200,300".into()],
        )
        .unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(design.unwrap().base(), "m");
        let err = |mode: Option<&str>, given: &[String], sweeps: &[String]| {
            variants(given, &[], (&[], &[]), mode, sweeps).unwrap_err()
        };
        assert!(err(Some("pairs"), &[], &["gsr.red2=1".into()]).contains("not both"));
        assert!(err(Some("pairs"), &["plain".into(), "classic".into()], &[]).contains("one base"));
        assert!(err(Some("all-pairs"), &[], &[]).contains("on-one, off-one or pairs"));
    }
}
