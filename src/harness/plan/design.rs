//! The designs `run` and `match` make over one base SPEC: the interaction matrix
//! (`--ablation pairs[:ID,...]`: every single toggle and every pair) and parameter sweeps
//! (`--sweep ID.PARAM=V1,V2,...` or `=FROM..TO:STEP`, repeated for a grid), each as its
//! variants' (label, SPEC)s and the `Design` the results header records.

use serde_json::Value;

use crate::engine::heuristics::{HeuristicsConfig, Id, REGISTRY, id_list};
use crate::engine::spec;
use crate::harness::design::{Design, PairCell, SweepPoint, SweptParam};

/// The heuristics of the main job, the default set of `--ablation pairs` (registry `main_job`).
pub fn main_six() -> Vec<&'static str> {
    REGISTRY
        .iter()
        .filter(|info| info.main_job)
        .map(|info| info.name)
        .collect()
}

/// A variant to run: (label, SPEC).
pub type LabelledSpec = (String, String);

/// The sign that switches `id` away from its state in `base`.
fn toggle(base: &HeuristicsConfig, id: Id) -> char {
    if base.enabled(id) { '-' } else { '+' }
}

/// `--ablation pairs[:ID,ID,...]` over (label, SPEC): the base, each single toggle, each pair.
/// A combination the validation refuses is left out with a warning (its cell stays empty).
pub fn pairs(
    mode: &str,
    (label, base): &LabelledSpec,
) -> Result<(Vec<LabelledSpec>, Design), String> {
    let ids: Vec<String> = match mode.strip_prefix("pairs") {
        Some("") => main_six().into_iter().map(str::to_string).collect(),
        Some(list) => match list.strip_prefix(':') {
            Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
            None => {
                return Err(format!(
                    "--ablation pairs takes pairs or pairs:ID,ID,... (got '{mode}')"
                ));
            }
        },
        None => return Err(format!("--ablation: unknown mode '{mode}'")),
    };
    if ids.len() < 2 {
        return Err("--ablation pairs needs at least two heuristics".into());
    }
    let mut parsed = Vec::new();
    for name in &ids {
        let id = Id::from_name(name).ok_or_else(|| {
            format!(
                "--ablation pairs: unknown heuristic '{name}'; valid: {}",
                id_list()
            )
        })?;
        if parsed.contains(&id) {
            return Err(format!("--ablation pairs: '{name}' is given twice"));
        }
        parsed.push(id);
    }
    let base_config = spec::parse(base)?.heuristics;
    let mut variants = vec![(label.clone(), base.clone())];
    let mut cells = Vec::new();
    let mut add = |toggled: &[Id]| {
        let items: Vec<String> = toggled
            .iter()
            .map(|&id| format!("{}{}", toggle(&base_config, id), id.name()))
            .collect();
        let cell_spec = format!("{base},{}", items.join(","));
        let cell_label = items.concat();
        match spec::parse(&cell_spec) {
            Ok(_) => {
                variants.push((cell_label.clone(), cell_spec));
                cells.push(PairCell {
                    label: cell_label,
                    toggled: toggled.iter().map(|id| id.name().to_string()).collect(),
                });
            }
            Err(e) => eprintln!("ablation pairs: {cell_spec} left out: {e}"),
        }
    };
    for &id in &parsed {
        add(&[id]);
    }
    for (i, &a) in parsed.iter().enumerate() {
        for &b in &parsed[i + 1..] {
            add(&[a, b]);
        }
    }
    let design = Design::Pairs {
        base: label.clone(),
        heuristics: ids,
        cells,
    };
    Ok((variants, design))
}

/// The values of one `--sweep` argument: `V1,V2,...` or `FROM..TO:STEP`.
pub fn sweep_values(key: &str, text: &str) -> Result<Vec<f64>, String> {
    let number = |t: &str| -> Result<f64, String> {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("--sweep {key}: '{t}' is not a number"))
    };
    if let Some((from, rest)) = text.split_once("..") {
        let (to, step) = rest
            .split_once(':')
            .ok_or_else(|| format!("--sweep {key}={text}: a range is FROM..TO:STEP"))?;
        let (from, to, step) = (number(from)?, number(to)?, number(step)?);
        if step <= 0.0 || to < from {
            return Err(format!(
                "--sweep {key}={text}: need FROM <= TO and a positive STEP"
            ));
        }
        let count = ((to - from) / step + 1e-9).floor() as usize + 1;
        if count > 100 {
            return Err(format!(
                "--sweep {key}={text}: {count} values (at most 100)"
            ));
        }
        return Ok((0..count).map(|i| from + step * i as f64).collect());
    }
    text.split(',').map(number).collect()
}

/// A value as a SPEC writes it: an integer without a decimal point.
fn spec_value(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

/// One `--sweep ID.PARAM=VALUES` argument, checked: a known numeric parameter and its values.
fn swept_param(text: &str) -> Result<SweptParam, String> {
    let (key, values) = text.split_once('=').ok_or_else(|| {
        format!("--sweep is ID.PARAM=V1,V2,... or ID.PARAM=FROM..TO:STEP, got '{text}'")
    })?;
    let (name, param) = key
        .split_once('.')
        .ok_or_else(|| format!("--sweep {key}: name a parameter as ID.PARAM"))?;
    let id = Id::from_name(name).ok_or_else(|| {
        format!(
            "--sweep {key}: unknown heuristic '{name}'; valid: {}",
            id_list()
        )
    })?;
    let default = match HeuristicsConfig::default().params_json(id).get(param) {
        Some(Value::Number(n)) => n.as_f64().expect("numbers are finite"),
        Some(_) => {
            return Err(format!(
                "--sweep {key}: only numeric parameters can be swept"
            ));
        }
        None => {
            // The same message a SPEC gives for an unknown parameter.
            let mut probe = HeuristicsConfig::default();
            return Err(format!(
                "--sweep: {}",
                probe.set_param(id, param, "0").unwrap_err()
            ));
        }
    };
    Ok(SweptParam {
        key: key.to_string(),
        values: sweep_values(key, values)?,
        default,
    })
}

/// Every point of the grid of `params`' values, the last parameter varying fastest (at most
/// 400 points).
pub fn grid(params: &[SweptParam]) -> Result<Vec<Vec<f64>>, String> {
    let size: usize = params.iter().map(|p| p.values.len()).product();
    if size > 400 {
        return Err(format!("--sweep: the grid has {size} points (at most 400)"));
    }
    Ok((0..size)
        .map(|index| {
            let mut rest = index;
            let mut values = vec![0.0; params.len()];
            for (k, p) in params.iter().enumerate().rev() {
                values[k] = p.values[rest % p.values.len()];
                rest /= p.values.len();
            }
            values
        })
        .collect())
}

/// `--sweep ID.PARAM=VALUES`, repeated, over (label, SPEC): the base and one variant per grid
/// point, the swept heuristics switched on; a point whose configuration is the base's is
/// labelled as the base and not searched again. Every value is checked against its parameter's
/// range before anything runs.
pub fn sweep(
    sweeps: &[String],
    (label, base): &LabelledSpec,
) -> Result<(Vec<LabelledSpec>, Design), String> {
    let mut params: Vec<SweptParam> = Vec::new();
    for text in sweeps {
        let param = swept_param(text)?;
        if params.iter().any(|p| p.key == param.key) {
            return Err(format!("--sweep {} is given twice", param.key));
        }
        params.push(param);
    }
    let base_config = spec::parse(base)?.heuristics;
    let mut variants = vec![(label.clone(), base.clone())];
    let mut points = Vec::new();
    for values in grid(&params)? {
        let mut items: Vec<String> = Vec::new();
        for p in &params {
            let id = Id::from_name(p.key.split('.').next().expect("checked")).expect("checked");
            if !base_config.enabled(id) && !items.contains(&format!("+{}", id.name())) {
                items.push(format!("+{}", id.name()));
            }
        }
        let settings: Vec<String> = params
            .iter()
            .zip(&values)
            .map(|(p, v)| format!("{}={}", p.key, spec_value(*v)))
            .collect();
        items.extend(settings.iter().cloned());
        let point_spec = format!("{base},{}", items.join(","));
        let point_config =
            spec::parse(&point_spec).map_err(|e| format!("--sweep: {point_spec}: {e}"))?;
        // A point that configures the base exactly (its own values among the swept ones) is
        // the base: its results serve the point, and it is searched once.
        let point_label = if point_config.heuristics == base_config {
            label.clone()
        } else {
            let point_label = settings.join(",");
            variants.push((point_label.clone(), point_spec));
            point_label
        };
        points.push(SweepPoint {
            label: point_label,
            values,
        });
    }
    let design = Design::Sweep {
        base: label.clone(),
        params,
        points,
    };
    Ok((variants, design))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> LabelledSpec {
        ("classic".into(), "classic".into())
    }

    #[test]
    fn pairs_make_every_single_and_every_pair() {
        let (variants, design) = pairs("pairs", &classic()).unwrap();
        // The base, 6 singles, 15 pairs.
        assert_eq!(variants.len(), 1 + 6 + 15);
        assert!(
            variants
                .iter()
                .any(|(l, s)| l == "-killers" && s == "classic,-killers")
        );
        assert!(
            variants
                .iter()
                .any(|(l, s)| l == "-killers+momentum" && s == "classic,-killers,+momentum")
        );
        let Design::Pairs { base, cells, .. } = design else {
            panic!("a pair design")
        };
        assert_eq!(base, "classic");
        assert_eq!(cells.len(), 21);
        let (variants, _) = pairs("pairs:lmr,see,iir", &("m".into(), "modern".into())).unwrap();
        assert_eq!(variants.len(), 1 + 3 + 3);
        assert!(variants.iter().any(|(l, _)| l == "-lmr-see"));
    }

    #[test]
    fn bad_pair_lists_are_refused() {
        assert!(
            pairs("pairs:killers", &classic())
                .unwrap_err()
                .contains("at least two")
        );
        assert!(
            pairs("pairs:killers,nope", &classic())
                .unwrap_err()
                .contains("unknown heuristic 'nope'")
        );
        assert!(
            pairs("pairs:killers,killers", &classic())
                .unwrap_err()
                .contains("twice")
        );
        assert!(pairs("pairsx", &classic()).is_err());
    }

    #[test]
    fn sweeps_make_one_variant_per_value_or_grid_point() {
        let (variants, design) = sweep(&["futility.margin=0..100:25".into()], &classic()).unwrap();
        let labels: Vec<&str> = variants.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            labels,
            [
                "classic",
                "futility.margin=0",
                "futility.margin=25",
                // 50 is classic's own margin: that point is the base, searched once.
                "futility.margin=75",
                "futility.margin=100"
            ]
        );
        let Design::Sweep { params, .. } = design else {
            panic!("a sweep")
        };
        assert_eq!(params[0].default, 50.0);
        let (variants, _) = sweep(
            &["gsr.red2=1,2,3".into(), "gsr.cross_range=20,56".into()],
            &classic(),
        )
        .unwrap();
        assert_eq!(variants.len(), 1 + 6);
        assert_eq!(variants[1].1, "classic,+gsr,gsr.red2=1,gsr.cross_range=20");
        assert_eq!(variants[6].0, "gsr.red2=3,gsr.cross_range=56");
    }

    #[test]
    fn a_sweep_value_equal_to_the_base_is_the_base_searched_once() {
        let base = ("modern".to_string(), "modern".to_string());
        // `modern` has `lmr.divisor` 225: the point at 225 is the base itself.
        let (variants, design) = sweep(&["lmr.divisor=175..275:50".into()], &base).unwrap();
        let labels: Vec<&str> = variants.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, ["modern", "lmr.divisor=175", "lmr.divisor=275"]);
        let Design::Sweep { points, .. } = design else {
            panic!("a sweep")
        };
        let point_labels: Vec<&str> = points.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(
            point_labels,
            ["lmr.divisor=175", "modern", "lmr.divisor=275"]
        );
    }

    #[test]
    fn bad_sweeps_are_refused_before_anything_runs() {
        let err = |text: &str| sweep(&[text.to_string()], &classic()).unwrap_err();
        assert!(err("futility.margin").contains("ID.PARAM=V1"));
        assert!(err("nope.margin=1").contains("unknown heuristic 'nope'"));
        assert!(err("futility.nope=1").contains("unknown parameter 'futility.nope'"));
        assert!(err("futility.frontier=1").contains("only numeric"));
        assert!(err("futility.margin=a,b").contains("'a' is not a number"));
        assert!(err("futility.margin=100..0:10").contains("FROM <= TO"));
        assert!(err("futility.margin=-50").contains("futility.margin"));
        assert!(err("gsr.red2=0..1000:1").contains("at most 100"));
    }
}
