//! What `searchlab run` runs: its variants (from SPECs, external engines and ablations), its
//! suites, its limits, and the main job that runs when nothing is given.

use std::path::Path;

use super::bench;
use super::design::{self, Design, LabelledSpec};
use super::runner::Suite;
use super::{epd, variant::Variant};
use crate::engine::config::{Limits, SearchConfig};
use crate::engine::heuristics::{Id, REGISTRY, id_list};
use crate::engine::score::MAX_PLY;
use crate::engine::spec;

/// The main job's variants: `classic` and the six heuristics of the project's brief (registry
/// `main_job`) each toggled against it, `(label, SPEC)`.
pub fn main_job() -> Vec<(String, String)> {
    let classic = spec::configure("classic", None, 0).expect("classic is a preset");
    let mut job = vec![("classic".to_string(), "classic".to_string())];
    for name in super::design::main_six() {
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

/// Where the main job writes its results; its report goes beside them. Not a committed
/// directory (`.gitignore`): a fresh run never overwrites the committed example report in
/// `reports/heuristics/main/`.
pub const MAIN_JOB_OUT: &str = "reports/latest/main/results.jsonl";

/// The project's tactics suite, compiled in for the main job.
pub const TACTICS_EPD: &str = include_str!("../../suites/tactics.epd");

/// The limits of a run: the one given, or depth 7 when none is.
pub fn limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    default_depth: u32,
) -> Result<Limits, String> {
    let given = [depth.is_some(), nodes.is_some(), movetime.is_some()];
    if given.iter().filter(|&&g| g).count() > 1 {
        return Err(
            "give one limit per search: --depth, --nodes or --movetime (not two of them)".into(),
        );
    }
    let depth = depth.or((nodes.is_none() && movetime.is_none()).then_some(default_depth));
    if let Some(d) = depth {
        check_depth(d)?;
    }
    if nodes == Some(0) {
        return Err("--nodes must be at least 1".into());
    }
    if movetime == Some(0) {
        return Err("--movetime must be at least 1 ms".into());
    }
    Ok(Limits {
        depth,
        nodes,
        movetime_ms: movetime,
        ..Limits::default()
    })
}

/// The one rule for a depth anywhere on the command line: 1 up to the deepest ply.
pub fn check_depth(depth: u32) -> Result<(), String> {
    if depth == 0 || depth >= MAX_PLY as u32 {
        return Err(format!("--depth must be 1..{}, got {depth}", MAX_PLY - 1));
    }
    Ok(())
}

/// The one rule for a number of worker threads: at least one (default: every core).
pub fn jobs(jobs: Option<usize>) -> Result<usize, String> {
    match jobs {
        Some(0) => Err("--jobs must be at least 1".into()),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The suites of a run: the given files, or the main job's embedded bench and tactics suites.
pub fn suites(paths: &[std::path::PathBuf], skip_invalid: bool) -> Result<Vec<Suite>, String> {
    if paths.is_empty() {
        return Ok(vec![
            load_suite(Path::new("suites/bench.epd"), Some(bench::BENCH_EPD), false)?,
            load_suite(Path::new("suites/tactics.epd"), Some(TACTICS_EPD), false)?,
        ]);
    }
    paths
        .iter()
        .map(|p| load_suite(p, None, skip_invalid))
        .collect()
}

/// Read a suite, failing with every bad line or, with `skip_invalid`, warning about them.
fn load_suite(path: &Path, text: Option<&str>, skip_invalid: bool) -> Result<Suite, String> {
    let (records, errors) = match text {
        Some(text) => epd::parse_text_lenient(text, path),
        None => {
            let (text, mut errors) = epd::read_text(path).map_err(|e| e.to_string())?;
            let (records, more) = epd::parse_text_lenient(&text, path);
            errors.extend(more);
            errors.sort_by_key(|e| e.line);
            (records, errors)
        }
    };
    if !errors.is_empty() {
        let listing: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        if !skip_invalid {
            return Err(format!(
                "{} bad line(s) (use --skip-invalid to skip them):\n{}",
                errors.len(),
                listing.join("\n")
            ));
        }
        for line in &listing {
            eprintln!("warning: skipped {line}");
        }
        eprintln!(
            "warning: {} line(s) of {} skipped",
            errors.len(),
            path.display()
        );
    }
    Ok(Suite {
        path: path.to_path_buf(),
        records,
    })
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
    let each = super::external::engines::each_options(each, uci_options)?;
    // A player's own limits (`match` only: time or node odds), by label; --each's for the rest.
    let mut own_limits: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut specs: Vec<(String, String)> = Vec::new();
    for text in given {
        specs.push(
            match super::external::engines::keyed_variant(text, &each)? {
                Some((label, spec, limits)) => {
                    own_limits.push((label.clone(), limits));
                    (label, spec)
                }
                None => labelled(text),
            },
        );
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
    let (specs, design) = if super::external::engine_design::is_engine_design(
        given,
        engines,
        ablation_mode,
        sweeps,
    ) {
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
        let engine = super::external::engines::parse(text, &each)?;
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
    let probes = super::external::engine_design::probe_all(&mut players)?;
    if super::external::engine_design::is_engine_design(given, engines, ablation_mode, sweeps) {
        return super::external::engine_design::widen(players, &probes, ablation_mode, sweeps);
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

    #[test]
    fn limits_default_to_depth_seven() {
        assert_eq!(limits(None, None, None, 7).unwrap().depth, Some(7));
        assert_eq!(limits(None, Some(1000), None, 7).unwrap().depth, None);
        assert!(
            limits(Some(0), None, None, 7)
                .unwrap_err()
                .contains("--depth must be 1..")
        );
        assert!(
            limits(Some(5), Some(9), None, 7)
                .unwrap_err()
                .contains("one limit")
        );
        assert!(limits(None, Some(0), None, 7).is_err());
        assert!(limits(None, None, Some(0), 7).is_err());
        assert!(jobs(Some(0)).is_err());
        assert_eq!(jobs(Some(3)), Ok(3));
    }
}
