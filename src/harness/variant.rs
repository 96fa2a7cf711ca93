//! A variant: one player of a run or a match, searchlab's own search under a configuration
//! or an external UCI engine with its options. Planned in `plan/`, played by
//! `runner` and `games`, recorded by `results` in every header.

use serde::{Deserialize, Serialize};

use crate::engine::config::SearchConfig;
use crate::harness::external;

/// One configuration under test.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Variant {
    /// Its name in tables and records.
    pub label: String,
    /// The SPEC it came from.
    pub spec: String,
    /// The full configuration (every parameter, the seed set per search).
    pub config: SearchConfig,
    /// An external UCI engine instead of searchlab's own search.
    #[serde(default)]
    pub engine: Option<external::EngineSpec>,
    /// Its own limits as given (`tc=`, `st=`, `nodes=`, `depth=`, `timemargin=`: a match's time
    /// or node odds); none when it plays under the match's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<(String, String)>,
}

impl Variant {
    /// What the variant is, as reports show it and as joined files must agree on it: its SPEC,
    /// or its engine's command with the options it is sent.
    pub fn described(&self) -> String {
        match &self.engine {
            None => self.spec.clone(),
            Some(engine) => {
                let mut text = format!("engine {}", engine.command);
                for (name, value) in &engine.options {
                    text.push_str(&format!(" option.{name}={value}"));
                }
                text
            }
        }
    }
}
