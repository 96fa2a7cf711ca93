//! Every engine of a run or a match probed before anything runs: its name, its options, and
//! what it says to them (a refusal or an acknowledgement).

use std::collections::BTreeMap;

use super::session::{self, Probe};
use super::uci_options;
use crate::engine::search::DEFAULT_HASH_MB;
use crate::harness::variant::Variant;

/// Probe every engine among `variants` (each once): its name into its spec, and `Threads=1`
/// and `Hash` (searchlab's own default, `DEFAULT_HASH_MB`) added when the engine advertises
/// them and they are not given, so that every engine searches single-threaded with a stated
/// table. What an engine says after its options is shown as a warning. The probes by label.
pub fn probe_all(variants: &mut [Variant]) -> Result<BTreeMap<String, Probe>, String> {
    let mut probes = BTreeMap::new();
    for variant in variants.iter_mut() {
        let Some(engine) = variant.engine.as_mut() else {
            continue;
        };
        super::name_in_log(engine, &variant.label);
        let probe =
            session::probe(engine).map_err(|e| format!("player '{}': {e}", variant.label))?;
        let before = engine.clone();
        for (name, value) in [
            ("Threads", "1".to_string()),
            ("Hash", DEFAULT_HASH_MB.to_string()),
        ] {
            let given = engine
                .options
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(name));
            if !given && uci_options::find(&probe.options, name).is_some() {
                engine.options.push((name.to_string(), value));
            }
        }
        session::amend_warm(&before, engine);
        super::name_in_log(engine, &variant.label);
        for line in &probe.said {
            // An acknowledgement (Ethereal's `info string set Hash to 16MB`) is news, not a
            // warning; a line with a refusal's words is a warning.
            if is_refusal(line) {
                eprintln!(
                    "warning: engine '{}' answered its options with: {line}",
                    variant.label
                );
            } else {
                eprintln!("engine '{}' acknowledged: {line}", variant.label);
            }
        }
        engine.name = Some(probe.name.clone());
        engine.program_checksum = super::program_checksum(engine);
        probes.insert(variant.label.clone(), probe);
    }
    Ok(probes)
}

/// Words of a refusal: an engine that echoes an option it took (Ethereal's `info string set
/// Hash to 16MB`) names it too, without any of them.
const REFUSAL_WORDS: &[&str] = &[
    "refuse",
    "unknown",
    "no such",
    "invalid",
    "error",
    "illegal",
    "unsupported",
    "ignored",
    "not ",
];

/// Whether a line an engine said after its options has a refusal's words (else it is an
/// acknowledgement, as Ethereal's `info string set Hash to 16MB`).
pub fn is_refusal(line: &str) -> bool {
    let line = line.to_ascii_lowercase();
    REFUSAL_WORDS.iter().any(|w| line.contains(w))
}
