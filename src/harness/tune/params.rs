//! What a tune tunes: each `--param` read against the player (a heuristic's parameter of
//! searchlab's own search, or an engine's spin option), its tuning range and perturbation, and
//! `heuristics --spsa`'s OpenBench lines from the same rule.

use serde_json::Value;

use super::spsa::{DEFAULT_R_END, TunedParam};
use crate::engine::heuristics::{HeuristicsConfig, Id, REGISTRY, tuning_range};
use crate::engine::spec;
use crate::harness::external::uci_options::{self, OptionKind, UciOption};
use crate::harness::variant::Variant;

/// One `--param NAME[=START,MIN,MAX,C_END,R_END]`.
pub fn param(text: &str, base: &Variant, advertised: &[UciOption]) -> Result<TunedParam, String> {
    let (name, given) = match text.split_once('=') {
        Some((name, given)) => (name.trim(), Some(given)),
        None => (text.trim(), None),
    };
    let mut p = declared(name, base, advertised)?;
    let mut ranged = false;
    if let Some(given) = given {
        let values: Vec<f64> = given
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("--param {text}: '{v}' is not a number"))
            })
            .collect::<Result<_, _>>()?;
        if values.len() > 5 || values.len() == 2 {
            return Err(format!(
                "--param {text}: give START, or START,MIN,MAX, then C_END and R_END if wanted"
            ));
        }
        p.start = values[0];
        if values.len() >= 3 {
            (p.min, p.max) = (values[1], values[2]);
            p.c_end = TunedParam::default_c_end(p.min, p.max, p.int);
            ranged = true;
        }
        if !ranged {
            narrow_to_tuning(&mut p, base);
        }
        if let Some(&c) = values.get(3) {
            p.c_end = c;
        }
        if let Some(&r) = values.get(4) {
            p.r_end = r;
        }
    }
    if given.is_none() {
        narrow_to_tuning(&mut p, base);
    }
    p.check().map_err(|e| format!("--param {e}"))?;
    within_declared(&p, base, advertised).map_err(|e| format!("--param {e}"))?;
    Ok(p)
}

/// A parameter given without a range is tuned over its tuning range: the one its declaration
/// names, else `tuning_range`'s rule around its start (engines' spin options too: their
/// advertised range is what they accept, not where a tune is worth its games).
fn narrow_to_tuning(p: &mut TunedParam, base: &Variant) {
    let declared = (base.engine.is_none())
        .then(|| {
            let (id, param) = p.name.split_once('.')?;
            let id = Id::from_name(id)?;
            HeuristicsConfig::param_tuning(id)
                .iter()
                .find(|(name, _, _)| *name == param)
                .map(|&(_, low, high)| (low, high))
        })
        .flatten()
        .filter(|(low, high)| (*low..=*high).contains(&p.start));
    let (low, high) = declared.unwrap_or_else(|| tuning_range(p.start, (p.min, p.max)));
    (p.min, p.max) = (low.max(p.min), high.min(p.max));
    p.c_end = TunedParam::default_c_end(p.min, p.max, p.int);
}

/// What `name` is in the player: its value, range and type (an `ID.PARAM` of a heuristic that
/// is on, or an engine's spin option).
fn declared(name: &str, base: &Variant, advertised: &[UciOption]) -> Result<TunedParam, String> {
    let (start, min, max, int) = match &base.engine {
        Some(_) => {
            let option_name = name.strip_prefix("option.").ok_or_else(|| {
                format!("{name}: an engine's parameter is option.NAME (`searchlab engine-options` lists them)")
            })?;
            let option = uci_options::find(advertised, option_name)
                .ok_or_else(|| format!("{name}: the engine has no option '{option_name}'"))?;
            let OptionKind::Spin { default, min, max } = option.kind else {
                return Err(format!("{name}: only spin options are tuned"));
            };
            let given = base.engine.as_ref().and_then(|e| {
                e.options
                    .iter()
                    .rev()
                    .find(|(n, _)| n.eq_ignore_ascii_case(option_name))
                    .and_then(|(_, v)| v.parse::<f64>().ok())
            });
            let p = (
                given.unwrap_or(default as f64),
                min as f64,
                max as f64,
                true,
            );
            return Ok(with_defaults(&option.name, p));
        }
        None => {
            let (id_name, param) = name
                .split_once('.')
                .ok_or_else(|| format!("{name}: name a parameter as ID.PARAM"))?;
            let id = Id::from_name(id_name)
                .ok_or_else(|| format!("{name}: unknown heuristic '{id_name}'"))?;
            if !base.config.heuristics.enabled(id) {
                return Err(format!(
                    "{name}: {id_name} is off in '{}', so its parameter cannot matter: switch it on (--variant {},+{id_name})",
                    base.spec, base.spec
                ));
            }
            let value = base.config.heuristics.params_json(id);
            let Some(Value::Number(n)) = value.get(param) else {
                return Err(format!("{name}: not a numeric parameter of {id_name}"));
            };
            let (_, low, high) = HeuristicsConfig::param_ranges(id)
                .iter()
                .find(|(p, _, _)| *p == param)
                .copied()
                .ok_or_else(|| format!("{name}: declares no range"))?;
            (
                n.as_f64().expect("finite"),
                low,
                high,
                n.is_i64() || n.is_u64(),
            )
        }
    };
    Ok(with_defaults(name, (start, min, max, int)))
}

fn with_defaults(name: &str, (start, min, max, int): (f64, f64, f64, bool)) -> TunedParam {
    TunedParam {
        name: name.to_string(),
        int,
        start,
        min,
        max,
        c_end: TunedParam::default_c_end(min, max, int),
        r_end: DEFAULT_R_END,
    }
}

/// A tuned range inside what the player declares (a value outside would be refused, or
/// crash an engine, mid-tune).
pub fn within_declared(
    p: &TunedParam,
    base: &Variant,
    advertised: &[UciOption],
) -> Result<(), String> {
    let name = match &base.engine {
        Some(_) if !p.name.starts_with("option.") => format!("option.{}", p.name),
        _ => p.name.clone(),
    };
    let d = declared(&name, base, advertised)?;
    if p.min < d.min || p.max > d.max {
        return Err(format!(
            "{}: the range {}..{} leaves the declared {}..{}",
            p.name, p.min, p.max, d.min, d.max
        ));
    }
    Ok(())
}

/// `searchlab heuristics --spsa SPEC`: OpenBench's SPSA input for the numeric parameters of
/// the configuration's heuristics that are on, each from its value and declared range.
pub fn spsa_lines(text: &str) -> Result<String, String> {
    let config = spec::configure(text, None, 0)?;
    let base = Variant {
        label: "spsa".into(),
        spec: text.to_string(),
        config: config.clone(),
        engine: None,
        limits: Vec::new(),
    };
    let mut out = String::new();
    let mut on_an_end = Vec::new();
    for info in REGISTRY {
        if !config.heuristics.enabled(info.id) {
            continue;
        }
        let structural = HeuristicsConfig::param_structural(info.id);
        for (param, _, _) in HeuristicsConfig::param_ranges(info.id) {
            if structural.iter().any(|(name, _)| name == param) {
                continue;
            }
            let name = format!("{}.{param}", info.name);
            if let Ok(mut p) = declared(&name, &base, &[]) {
                narrow_to_tuning(&mut p, &base);
                if p.start <= p.min || p.start >= p.max {
                    on_an_end.push(format!("{name} = {} in {}..{}", p.start, p.min, p.max));
                }
                out.push_str(&p.openbench_line(p.start));
                out.push('\n');
            }
        }
    }
    if !on_an_end.is_empty() {
        return Err(format!(
            "{text}: these parameters start on an end of their tuning range, where SPSA can step one way only: {} (set them inside it in the SPEC, or tune them with `tune --param NAME=START,MIN,MAX`)",
            on_an_end.join(", ")
        ));
    }
    Ok(out)
}
