//! `searchlab engine-options`: what an engine offers the harness, read from its `uci` answer.

use crate::harness::external::session;
use crate::harness::external::uci_options::OptionKind;
use crate::harness::plan::engine_args;

/// Arguments of `searchlab engine-options`.
#[derive(clap::Args, Debug)]
pub struct EngineOptionsArgs {
    /// The engine, as for `run`: `"name=dev cmd=./dev option.X=…"` or `[LABEL=]"COMMAND"`
    /// (its options are checked against what it advertises).
    #[arg(long)]
    pub engine: String,
    /// Print the options as JSON instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// A part of the listing: its title, which options it holds, whether they are toggles.
type Section = (&'static str, fn(&OptionKind) -> bool, bool);

/// `searchlab engine-options`: the engine's check options (toggles for `--ablation`), its spin
/// options (parameters for `--sweep option.NAME=…`, with their ranges) and the rest.
pub fn engine_options(args: &EngineOptionsArgs) -> Result<(), String> {
    let engine = engine_args::parse(&args.engine, &engine_args::Each::default())?;
    let probe = session::probe(&engine.spec).map_err(|e| format!("--engine: {e}"))?;
    if args.json {
        let text = serde_json::to_string_pretty(&probe.options).map_err(|e| e.to_string())?;
        println!("{text}");
        return Ok(());
    }
    let width = probe
        .options
        .iter()
        .map(|o| o.name.len())
        .max()
        .unwrap_or(4);
    println!(
        "engine '{}': {} ({} options)",
        engine.label,
        probe.name,
        probe.options.len()
    );
    let sections: [Section; 3] = [
        (
            "toggles (check options; `--ablation off-one|on-one|pairs[:NAMES]` flips them)",
            |k| matches!(k, OptionKind::Check { .. }),
            true,
        ),
        (
            "parameters (spin options; `--sweep option.NAME=VALUES` within the range)",
            |k| matches!(k, OptionKind::Spin { .. }),
            false,
        ),
        (
            "other options (set with option.NAME=VALUE)",
            |k| !matches!(k, OptionKind::Check { .. } | OptionKind::Spin { .. }),
            false,
        ),
    ];
    for (title, belongs, toggles) in sections {
        let mine: Vec<_> = probe.options.iter().filter(|o| belongs(&o.kind)).collect();
        if mine.is_empty() {
            continue;
        }
        println!("\n{title}:");
        for option in mine {
            let (kind, default, range) = option.describe();
            let note = if toggles && !option.is_toggle() {
                "  (not a search switch: flipped only when named)"
            } else {
                ""
            };
            println!(
                "  option.{:<width$}  {kind:<6}  default {default}{}{note}",
                option.name,
                if range.is_empty() {
                    String::new()
                } else {
                    format!("  range {range}")
                }
            );
        }
    }
    for line in &probe.said {
        if crate::harness::external::probe::is_refusal(line) {
            eprintln!("warning: the engine answered its options with: {line}");
        } else {
            eprintln!("the engine acknowledged: {line}");
        }
    }
    Ok(())
}
