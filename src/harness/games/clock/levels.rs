//! Levels of effort (issue 59): one limit of a match given as a list, `--nodes 2000,8000,32000`
//! or `--tc 1+0.01,4+0.04,16+0.16`, plays every pairing at every level. Each level is a match
//! of its own in a folder of its own (`nodes-2000/`, beside the `--out` file's name), so a
//! level is an independent cell: a killed run resumes level by level, `--shard` and `submit`
//! split every level's pairs across tasks, and `merge` joins each level's shards. The report
//! of the levels' files draws Elo against effort (`effort.rs`).

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

use crate::harness::games::clock::control::Control;

/// What a match file of one level records about the levels it belongs to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effort {
    /// The limit option the levels vary: `nodes`, `tc`, `movetime` or `depth`.
    pub option: String,
    /// Every level of the run as given, from the least effort to the most.
    pub levels: Vec<String>,
    /// This file's level: an index into `levels`.
    pub level: usize,
}

impl Effort {
    /// This file's level as given (`2000`, `4+0.04`).
    pub fn value(&self) -> &str {
        &self.levels[self.level]
    }

    /// The folder of level `level`'s files: `nodes-2000`, `tc-4+0.04` (`/` of a
    /// `MOVES/SECONDS` clock as `_`).
    pub fn folder(&self, level: usize) -> String {
        format!("{}-{}", self.option, self.levels[level].replace('/', "_"))
    }

    /// The axis of effort: what one level's number measures, and its number for level
    /// `level` (a clock as its estimated game length, base + 40 × increment, the measure
    /// Lichess sorts its time controls by).
    pub fn axis(&self) -> &'static str {
        match self.option.as_str() {
            "nodes" => "nodes per move",
            "depth" => "depth per move",
            "movetime" => "ms per move",
            _ => "estimated seconds a game each (base + 40 × increment)",
        }
    }

    /// The number of level `level` on the axis of effort.
    pub fn amount(&self, level: usize) -> f64 {
        control(&self.option, &self.levels[level]).map_or(f64::NAN, |c| amount(&c))
    }
}

/// A limit option given as a list of levels, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Levels {
    /// `nodes`, `tc`, `movetime` or `depth`.
    pub option: &'static str,
    /// The levels as given, from the least effort to the most.
    pub values: Vec<String>,
}

impl Levels {
    /// The record of level `level` in its match file's header.
    pub fn effort(&self, level: usize) -> Effort {
        Effort {
            option: self.option.to_string(),
            levels: self.values.clone(),
            level,
        }
    }
}

/// `--OPTION TEXT` as levels: `None` for one value (no comma). A list needs two levels or
/// more, each a valid limit of that option, none twice, in order of increasing effort.
pub fn parse(option: &'static str, text: &str) -> Result<Option<Levels>, String> {
    if !text.contains(',') {
        return Ok(None);
    }
    let values: Vec<String> = text.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().filter(|v| !v.is_empty()).count() < 2 {
        return Err(format!(
            "--{option} '{text}': a list of levels needs two levels or more (one level is a plain --{option})"
        ));
    }
    let mut controls: Vec<Control> = Vec::new();
    for value in &values {
        if value.is_empty() {
            return Err(format!("--{option} '{text}': an empty level"));
        }
        let control = control(option, value)
            .map_err(|e| format!("--{option} '{text}': level '{value}': {e}"))?;
        if let Some(i) = controls.iter().position(|c| *c == control) {
            return Err(format!(
                "--{option} '{text}': the levels '{}' and '{value}' are the same limit: give each level once",
                values[i]
            ));
        }
        if let Some(last) = controls.last()
            && amount(last) >= amount(&control)
        {
            return Err(format!(
                "--{option} '{text}': levels go from the least effort to the most, and '{value}' is not more than the level before it"
            ));
        }
        controls.push(control);
    }
    Ok(Some(Levels { option, values }))
}

/// One level's limit.
fn control(option: &str, value: &str) -> Result<Control, String> {
    let number = || {
        value
            .parse::<u64>()
            .map_err(|_| format!("not a whole number: '{value}'"))
    };
    match option {
        "tc" => {
            if value == "inf" {
                return Err("inf is no level of effort".into());
            }
            Control::parse_tc(value)
        }
        "movetime" => Control::from_options(None, Some(number()?), None, None),
        "nodes" => Control::from_options(None, None, Some(number()?), None),
        "depth" => {
            let depth = u32::try_from(number()?).map_err(|_| format!("too deep: {value}"))?;
            Control::from_options(None, None, None, Some(depth))
        }
        other => Err(format!("--{other} takes no levels")),
    }
}

/// A limit's effort on the levels' axis.
fn amount(control: &Control) -> f64 {
    match *control {
        Control::Nodes(n) => n as f64,
        Control::Depth(d) => f64::from(d),
        Control::Movetime(ms) => ms as f64,
        Control::Clock {
            moves,
            base_ms,
            inc_ms,
        } => {
            let base = moves.map_or(base_ms as f64, |m| base_ms as f64 * 40.0 / f64::from(m));
            (base + 40.0 * inc_ms as f64) / 1000.0
        }
    }
}

/// `path` (a results file, a PGN file, a shards folder) moved into the folder of one level:
/// `DIR/NAME` becomes `DIR/LEVEL/NAME`, a folder `DIR` becomes `DIR/LEVEL`.
pub fn in_level(path: &Path, folder: &str, is_dir: bool) -> PathBuf {
    if is_dir {
        return path.join(folder);
    }
    let name = path.file_name().unwrap_or_default();
    path.parent()
        .unwrap_or(Path::new(""))
        .join(folder)
        .join(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_levels_and_one_value_is_not() {
        assert_eq!(parse("nodes", "2000").unwrap(), None);
        let levels = parse("nodes", "2000, 8000,32000").unwrap().unwrap();
        assert_eq!(levels.values, ["2000", "8000", "32000"]);
        let effort = levels.effort(1);
        assert_eq!(effort.folder(1), "nodes-8000");
        assert_eq!(effort.amount(2), 32000.0);
        let tc = parse("tc", "1+0.01,4+0.04,40/60+0.6").unwrap().unwrap();
        assert_eq!(tc.effort(0).folder(2), "tc-40_60+0.6");
        assert!((tc.effort(0).amount(1) - 5.6).abs() < 1e-9);
    }

    #[test]
    fn bad_lists_are_refused_with_the_reason() {
        let error = |option, text| parse(option, text).unwrap_err();
        assert!(error("nodes", "2000,").contains("two levels or more"));
        assert!(error("nodes", "2000,,8000").contains("an empty level"));
        assert!(error("nodes", "2000,2000").contains("the same limit"));
        assert!(error("nodes", "0,2000").contains("at least 1"));
        assert!(error("nodes", "2000,abc").contains("not a whole number: 'abc'"));
        assert!(error("nodes", "8000,2000").contains("least effort to the most"));
        assert!(error("tc", "1+0.01,1.0+0.010").contains("the same limit"));
        assert!(error("tc", "1+0.01,x").contains("--tc is"));
        assert!(error("depth", "4,-1").contains("not a whole number"));
    }

    #[test]
    fn a_level_has_a_folder_of_its_own() {
        assert_eq!(
            in_level(Path::new("out/match.jsonl"), "nodes-2000", false),
            Path::new("out/nodes-2000/match.jsonl")
        );
        assert_eq!(
            in_level(Path::new("match.jsonl"), "nodes-2000", false),
            Path::new("nodes-2000/match.jsonl")
        );
        assert_eq!(
            in_level(Path::new("runs/sub"), "tc-1+0.01", true),
            Path::new("runs/sub/tc-1+0.01")
        );
    }
}
