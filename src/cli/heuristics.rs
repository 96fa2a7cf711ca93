//! `searchlab heuristics`: every heuristic of the registry, its counters' meanings, its
//! parameters with their ranges, and the presets.

use crate::engine::heuristics::{HeuristicsConfig, REGISTRY};
use crate::engine::spec;
use crate::engine::stats::{self, Counter};

/// Arguments of `searchlab heuristics`.
#[derive(clap::Args, Debug)]
pub struct HeuristicsArgs {
    /// Print `NAME, int|float, value, min, max, c_end, r_end` for every numeric parameter of
    /// the heuristics this SPEC switches on, from their declared ranges.
    #[arg(long, value_name = "SPEC", allow_hyphen_values = true)]
    pub spsa: Option<String>,
}

/// `searchlab heuristics`: the registry, or with `--spsa` OpenBench's SPSA lines.
pub fn heuristics(args: &HeuristicsArgs) -> Result<(), String> {
    match &args.spsa {
        None => {
            list_heuristics();
            Ok(())
        }
        Some(spec) => crate::harness::tune::params::spsa_lines(spec).map(|lines| print!("{lines}")),
    }
}

/// The registry, every heuristic's counters and parameters, and the presets.
pub fn list_heuristics() {
    println!("Heuristics (toggle with --heuristics SPEC, UCI options of the same names):\n");
    println!(
        "Counters, for every heuristic and form: {}\n",
        stats::DEFINITION
    );
    for info in REGISTRY {
        let source = if info.source == "modern" {
            "a modern technique, not in the documents (its file cites its sources)".to_string()
        } else {
            let sections: Vec<String> = info
                .source
                .split(", ")
                .map(|d| format!("docs/sources.md#{d}"))
                .collect();
            format!("source document {} ({})", info.source, sections.join(", "))
        };
        println!("{}  [{:?}, {source}]", info.name, info.kind);
        println!("    {}", info.summary);
        for counter in Counter::of_heuristic(info.id) {
            println!("    counter {}: {}", counter.key(), counter.meaning());
        }
        let requires: Vec<&str> = info.requires.iter().map(|id| id.name()).collect();
        let excludes: Vec<&str> = info.excludes.iter().map(|id| id.name()).collect();
        if !requires.is_empty() {
            println!("    requires {}", requires.join(", "));
        }
        if !excludes.is_empty() {
            println!("    cannot be combined with {}", excludes.join(", "));
        }
        if info.randomised {
            println!("    draws random numbers: repeated over --seeds");
        }
        let defaults = HeuristicsConfig::default().params_json(info.id);
        for (name, doc) in HeuristicsConfig::param_docs(info.id) {
            if *name == "enabled" {
                continue;
            }
            let range = HeuristicsConfig::param_ranges(info.id)
                .iter()
                .find(|(param, _, _)| param == name)
                .map_or(String::new(), |(_, low, high)| {
                    format!(" in {low}..={high}")
                });
            let structural = HeuristicsConfig::param_structural(info.id)
                .iter()
                .any(|(param, _)| param == name);
            let range = if structural {
                format!("{range}, structural (not in --spsa)")
            } else {
                range
            };
            println!(
                "    {}.{name} = {}{range}  ({doc})",
                info.name, defaults[*name]
            );
        }
        println!();
    }
    println!("Presets:\n");
    for preset in spec::PRESETS {
        println!("{:<22} {}", preset.name, preset.description);
        if !preset.spec.is_empty() {
            println!("{:<22} = {}", "", preset.spec);
        }
    }
    println!(
        "\nSPEC: comma-separated items applied left to right from nothing: a preset, an id or +id, -id, id.param=value, algorithm=alphabeta|minimax."
    );
    println!("Example: --heuristics classic,-futility,+gsr,gsr.red2=3");
}
