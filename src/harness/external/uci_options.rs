//! What an engine advertises: its `option name … type …` lines (UCI protocol, "option"), read
//! once when the engine is probed. A `check` option is a toggle the harness can flip and a
//! `spin` option a parameter it can sweep within its advertised range; both are named by
//! their UCI name (`option.NAME` on the command line).

use serde::{Deserialize, Serialize};

/// One advertised option.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UciOption {
    /// As the engine writes it (it may hold spaces: `Move Overhead`).
    pub name: String,
    pub kind: OptionKind,
}

/// An option's type, with its default and range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum OptionKind {
    Check { default: bool },
    Spin { default: i64, min: i64, max: i64 },
    Combo { default: String, vars: Vec<String> },
    String { default: String },
    Button,
}

/// Options of the UCI standard itself (and `CounterInfo`, searchlab's counters protocol):
/// switches of the GUI's, not of the search, so an ablation flips them only when named.
const NOT_SEARCH: &[&str] = &["Ponder", "OwnBook", "CounterInfo"];

impl UciOption {
    /// Read the text after `option name ` of an `option` line; `None` when it names no type.
    pub fn parse(text: &str) -> Option<UciOption> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let type_at = words.iter().position(|w| *w == "type")?;
        let name = words[..type_at].join(" ");
        let kind_word = *words.get(type_at + 1)?;
        let rest = &words[type_at + 2..];
        // A value runs up to the next keyword (a default or a var may hold spaces).
        let value = |key: &str| -> Option<String> {
            let at = rest.iter().position(|w| *w == key)?;
            let end = rest[at + 1..]
                .iter()
                .position(|w| matches!(*w, "default" | "min" | "max" | "var"))
                .map_or(rest.len(), |k| at + 1 + k);
            Some(rest[at + 1..end].join(" "))
        };
        let number = |key: &str| value(key).and_then(|v| v.parse::<i64>().ok());
        let kind = match kind_word {
            "check" => OptionKind::Check {
                default: value("default").is_some_and(|v| v.eq_ignore_ascii_case("true")),
            },
            "spin" => OptionKind::Spin {
                default: number("default")?,
                min: number("min")?,
                max: number("max")?,
            },
            "combo" => {
                let mut vars = Vec::new();
                for (i, w) in rest.iter().enumerate() {
                    if *w == "var" {
                        let end = rest[i + 1..]
                            .iter()
                            .position(|w| matches!(*w, "default" | "var"))
                            .map_or(rest.len(), |k| i + 1 + k);
                        vars.push(rest[i + 1..end].join(" "));
                    }
                }
                OptionKind::Combo {
                    default: value("default").unwrap_or_default(),
                    vars,
                }
            }
            "string" => OptionKind::String {
                default: value("default").unwrap_or_default(),
            },
            "button" => OptionKind::Button,
            _ => return None,
        };
        (!name.is_empty()).then_some(UciOption { name, kind })
    }

    /// Whether the engine would take `value` for this option: a spin value inside its range,
    /// `true`/`false` for a check, one of a combo's values.
    pub fn check(&self, value: &str) -> Result<(), String> {
        let name = &self.name;
        match &self.kind {
            OptionKind::Spin { min, max, .. } => {
                let given: i64 = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("option '{name}' is a whole number, got '{value}'"))?;
                if given < *min || given > *max {
                    return Err(format!(
                        "option '{name}' = {given} is outside its range {min}..{max}"
                    ));
                }
            }
            OptionKind::Check { .. } if !matches!(value, "true" | "false") => {
                return Err(format!("option '{name}' is true or false, got '{value}'"));
            }
            OptionKind::Combo { vars, .. }
                if !vars.iter().any(|v| v.eq_ignore_ascii_case(value)) =>
            {
                return Err(format!(
                    "option '{name}' is one of {}, got '{value}'",
                    vars.join(", ")
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// A check option of the search (not one of the UCI standard's own switches).
    pub fn is_toggle(&self) -> bool {
        matches!(self.kind, OptionKind::Check { .. })
            && !self.name.starts_with("UCI_")
            && !NOT_SEARCH
                .iter()
                .any(|n| n.eq_ignore_ascii_case(&self.name))
    }

    /// A check option's default.
    pub fn default_on(&self) -> Option<bool> {
        match self.kind {
            OptionKind::Check { default } => Some(default),
            _ => None,
        }
    }

    /// The type, default and range as one line of `engine-options`.
    pub fn describe(&self) -> (String, String, String) {
        match &self.kind {
            OptionKind::Check { default } => ("check".into(), default.to_string(), String::new()),
            OptionKind::Spin { default, min, max } => {
                ("spin".into(), default.to_string(), format!("{min}..{max}"))
            }
            OptionKind::Combo { default, vars } => {
                ("combo".into(), default.clone(), vars.join(" | "))
            }
            OptionKind::String { default } => ("string".into(), default.clone(), String::new()),
            OptionKind::Button => ("button".into(), String::new(), String::new()),
        }
    }
}

/// The advertised option named `name` (UCI names are case-insensitive).
pub fn find<'a>(options: &'a [UciOption], name: &str) -> Option<&'a UciOption> {
    options.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_of_the_field() {
        let spin = UciOption::parse("Move Overhead type spin default 10 min 0 max 5000").unwrap();
        assert_eq!(spin.name, "Move Overhead");
        assert_eq!(
            spin.kind,
            OptionKind::Spin {
                default: 10,
                min: 0,
                max: 5000
            }
        );
        assert!(spin.check("100").is_ok());
        assert!(
            spin.check("6000")
                .unwrap_err()
                .contains("outside its range 0..5000")
        );
        assert!(spin.check("lots").unwrap_err().contains("whole number"));
        let check = UciOption::parse("lmr type check default true").unwrap();
        assert_eq!(check.default_on(), Some(true));
        assert!(check.is_toggle());
        assert!(check.check("maybe").is_err());
        assert!(
            !UciOption::parse("UCI_Chess960 type check default false")
                .unwrap()
                .is_toggle()
        );
        assert!(
            !UciOption::parse("Ponder type check default false")
                .unwrap()
                .is_toggle()
        );
        let combo = UciOption::parse("Eval type combo default full var full var material var nnue")
            .unwrap();
        assert!(combo.check("nnue").is_ok());
        assert!(
            combo
                .check("hce")
                .unwrap_err()
                .contains("full, material, nnue")
        );
        let string = UciOption::parse("EvalFile type string default nn-1 2.nnue").unwrap();
        assert_eq!(
            string.kind,
            OptionKind::String {
                default: "nn-1 2.nnue".into()
            }
        );
        assert_eq!(
            UciOption::parse("Clear Hash type button").unwrap().kind,
            OptionKind::Button
        );
        assert_eq!(UciOption::parse("Hash type spin default 16"), None);
        assert_eq!(UciOption::parse("no type at all"), None);
    }
}
