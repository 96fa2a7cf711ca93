//! The engine's UCI options: what `uci` advertises and what `setoption` accepts. Every
//! heuristic is a check option and every parameter an option of its own, with the range its
//! `Params` declares.

use serde_json::Value;

use super::{
    DEFAULT_EVAL, DEFAULT_HEURISTICS, HASH_DEFAULT_MB, HASH_MAX_MB, MOVE_OVERHEAD_MAX_MS,
    MULTIPV_MAX, SEED_MAX, UciEngine, send,
};
use crate::engine::config::{Algorithm, SearchConfig};
use crate::engine::eval::EvalKind;
use crate::engine::heuristics::{HeuristicsConfig, Id, REGISTRY};
use crate::engine::search::SearchState;
use crate::engine::spec;

impl UciEngine {
    pub(super) fn identify(&self) {
        send(&id_name());
        send("id author the searchlab authors");
        send(&format!(
            "option name Hash type spin default {HASH_DEFAULT_MB} min 1 max {HASH_MAX_MB}"
        ));
        // The search is single-threaded; GUIs and OpenBench still set Threads.
        send("option name Threads type spin default 1 min 1 max 1");
        send(&format!(
            "option name Move Overhead type spin default {} min 0 max {MOVE_OVERHEAD_MAX_MS}",
            crate::engine::config::MOVE_OVERHEAD_MS
        ));
        send(&format!(
            "option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"
        ));
        send("option name Clear Hash type button");
        // GUIs offer pondering only to an engine that advertises it; `go ponder` is honoured
        // either way (no `bestmove` before `ponderhit` or `stop`).
        send("option name Ponder type check default false");
        // The counters protocol (docs/protocol.md): a harness switches it on to read them.
        send("option name CounterInfo type check default false");
        send("option name Algorithm type combo default alphabeta var alphabeta var minimax");
        send(&format!(
            "option name Eval type combo default {} var full var material var nnue",
            eval_name(DEFAULT_EVAL)
        ));
        send(&format!(
            "option name Seed type spin default 0 min 0 max {SEED_MAX}"
        ));
        send(&format!(
            "option name Heuristics type string default {DEFAULT_HEURISTICS}"
        ));
        send_heuristic_options();
        send("uciok");
    }

    /// `setoption name NAME [value VALUE]`.
    pub(super) fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        if args.first() != Some(&"name") {
            return Err("setoption: expected 'name <NAME> [value <VALUE>]'".into());
        }
        let value_at = args
            .iter()
            .position(|&t| t == "value")
            .unwrap_or(args.len());
        let name = args[1..value_at].join(" ");
        let value = args.get(value_at + 1..).unwrap_or(&[]).join(" ");
        self.stop_search();
        match name.to_ascii_lowercase().as_str() {
            "hash" => self.set_hash(&value)?,
            "threads" => {
                if value.trim() != "1" {
                    return Err(format!(
                        "setoption: Threads {value} refused: the search is single-threaded, Threads stays 1"
                    ));
                }
            }
            "move overhead" => {
                self.move_overhead_ms = value
                    .parse()
                    .ok()
                    .filter(|ms| *ms <= MOVE_OVERHEAD_MAX_MS)
                    .ok_or_else(|| {
                        format!(
                            "setoption: Move Overhead is 0..{MOVE_OVERHEAD_MAX_MS} ms, got '{value}'"
                        )
                    })?;
            }
            "multipv" => self.multipv = multipv(&value)?,
            // The GUI's permission to ponder: it decides when to send `go ponder`.
            "ponder" => {
                boolean("Ponder", &value)?;
            }
            "counterinfo" => self.counter_info = boolean("CounterInfo", &value)?,
            "clear hash" => {
                if let Some(state) = self.state.as_mut() {
                    state.clear();
                }
            }
            "algorithm" => {
                self.config.algorithm = match value.as_str() {
                    "alphabeta" => Algorithm::Alphabeta,
                    "minimax" => Algorithm::Minimax,
                    _ => {
                        return Err(format!(
                            "setoption: Algorithm is alphabeta or minimax, got '{value}'"
                        ));
                    }
                }
            }
            "eval" => self.set_eval(&value)?,
            "seed" => {
                self.config.seed = value
                    .parse()
                    .ok()
                    .filter(|seed| *seed <= SEED_MAX)
                    .ok_or_else(|| format!("setoption: Seed is 0..{SEED_MAX}, got '{value}'"))?;
            }
            "heuristics" => self.set_heuristics(&value)?,
            _ => return self.set_heuristic_option(&name, &value),
        }
        Ok(())
    }

    /// `Hash`, MiB: the table is allocated now, so that a size the machine cannot give is
    /// refused here and the previous table stays.
    fn set_hash(&mut self, value: &str) -> Result<(), String> {
        let mb: usize = value
            .parse()
            .map_err(|_| format!("setoption: Hash needs a number of MiB, got '{value}'"))?;
        if !(1..=HASH_MAX_MB).contains(&mb) {
            return Err(format!(
                "setoption: Hash must be 1..{HASH_MAX_MB} MiB, got {mb}"
            ));
        }
        let state = SearchState::try_new(mb)
            .map_err(|e| format!("setoption: Hash {mb}: {e}; keeping {} MiB", self.hash_mb))?;
        self.hash_mb = mb;
        self.state = Some(state);
        Ok(())
    }

    /// `Eval`: the static evaluation of a SPEC that names none (a SPEC's `eval=` wins).
    fn set_eval(&mut self, value: &str) -> Result<(), String> {
        let eval = clap::ValueEnum::from_str(value, false)
            .map_err(|_| format!("setoption: Eval is full, material or nnue, got '{value}'"))?;
        self.chosen.eval_option = Some(eval);
        self.resolve_eval();
        Ok(())
    }

    /// `Heuristics`: a whole SPEC, the same configuration `--variant` names with the same
    /// text: its algorithm, heuristics, move order, leaf and draw rules, and its evaluation
    /// (`eval=`, else `Eval` if set, else `full`, as every SPEC means), whatever order
    /// `Heuristics` and `Eval` arrive in.
    fn set_heuristics(&mut self, value: &str) -> Result<(), String> {
        let parsed = spec::parse(value).map_err(|e| format!("setoption: Heuristics: {e}"))?;
        self.config = SearchConfig {
            limits: self.config.limits,
            seed: self.config.seed,
            ..parsed
        };
        self.chosen.heuristics_set = true;
        self.chosen.spec_eval = spec::names_eval(value).then_some(parsed.eval);
        self.resolve_eval();
        Ok(())
    }

    /// The evaluation the settings so far choose, the current line scored again with it.
    fn resolve_eval(&mut self) {
        self.config.eval = self.chosen.resolve();
        self.position.set_eval_kind(self.config.eval);
    }

    /// `setoption name <id> value true|false` or `setoption name <id>.<param> value V`. A
    /// change that makes a combination the documents forbid is refused and undone.
    fn set_heuristic_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let (id_name, param) = match name.split_once('.') {
            Some((id, param)) => (id, Some(param)),
            None => (name, None),
        };
        let id =
            Id::from_name(id_name).ok_or_else(|| format!("setoption: unknown option '{name}'"))?;
        let mut changed = self.config.clone();
        match param {
            None => match value {
                "true" => changed.heuristics.set_enabled(id, true),
                "false" => changed.heuristics.set_enabled(id, false),
                _ => return Err(format!("setoption: {name} is true or false, got '{value}'")),
            },
            // Validation below checks the parameter against its declared range.
            Some(param) => changed
                .heuristics
                .set_param(id, param, value)
                .map_err(|e| format!("setoption: {e}"))?,
        }
        spec::validate(&changed)
            .map_err(|e| format!("setoption: {name} = {value} refused: {e}"))?;
        self.config = changed;
        Ok(())
    }
}

/// A check option's value.
fn boolean(option: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "setoption: {option} is true or false, got '{value}'"
        )),
    }
}

/// `MultiPV`'s value: lines per iteration, 1..`MULTIPV_MAX`.
fn multipv(value: &str) -> Result<usize, String> {
    value
        .trim()
        .parse()
        .ok()
        .filter(|n| (1..=MULTIPV_MAX).contains(n))
        .ok_or_else(|| format!("setoption: MultiPV is 1..{MULTIPV_MAX}, got '{value}'"))
}

/// An evaluation's name as `--eval`, a SPEC's `eval=` and `Eval` spell it (clap's, one place).
fn eval_name(kind: EvalKind) -> String {
    clap::ValueEnum::to_possible_value(&kind)
        .expect("every evaluation has a name")
        .get_name()
        .to_string()
}

/// `id name`, with the build's commit, so that a harness recording it (ours records `id name`
/// in results headers) tells two builds of searchlab apart.
fn id_name() -> String {
    let commit = env!("SEARCHLAB_COMMIT");
    let build = match commit.len() {
        0 => String::new(),
        _ => format!(
            " ({}{})",
            &commit[..commit.len().min(7)],
            if commit.ends_with("-dirty") {
                "-dirty"
            } else {
                ""
            }
        ),
    };
    format!("id name searchlab {}{build}", env!("CARGO_PKG_VERSION"))
}

/// One option per heuristic (`check`, its default) and per parameter (its type, default and
/// declared range).
fn send_heuristic_options() {
    let engine_defaults = UciEngine::default_config().heuristics;
    for info in REGISTRY {
        send(&format!(
            "option name {} type check default {}",
            info.name,
            engine_defaults.enabled(info.id)
        ));
        let params = engine_defaults.params_json(info.id);
        for (name, value) in params.as_object().expect("params are objects") {
            if name == "enabled" {
                continue;
            }
            let option = format!("option name {}.{name}", info.name);
            let range = HeuristicsConfig::param_ranges(info.id)
                .iter()
                .find(|(param, _, _)| param == name)
                .map(|(_, low, high)| (*low as i64, *high as i64));
            // Every integer parameter declares its range (a registry test checks it).
            send(&match (value, range) {
                (Value::Bool(b), _) => format!("{option} type check default {b}"),
                (Value::Number(n), Some((low, high))) if n.is_i64() || n.is_u64() => {
                    format!("{option} type spin default {n} min {low} max {high}")
                }
                (Value::String(text), _) => format!("{option} type string default {text}"),
                (other, _) => format!("{option} type string default {other}"),
            });
        }
    }
}
