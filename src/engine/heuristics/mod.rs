//! Every heuristic of the documents as a runtime toggle.
//!
//! One table, the `registry!` call below, is the only declaration of a heuristic. Its row
//! gives the id (the name used by the CLI, UCI, JSON and the counters), its kind, its source
//! document, the forms it is counted under, the bound it plays on when it is a 002 signal,
//! whether it reads the line series and whether it draws random numbers. The macro derives
//! from the table the module line of each heuristic's file, the `Id` enum, `REGISTRY` and the
//! fields of `HeuristicsConfig`. A new heuristic touches its own file, one row here and the one
//! step of the search that consults it.

mod params;
pub mod view;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use view::Side;

/// What a heuristic acts on; decides where the search consults it and what `main_selective`'s
/// main function (which prunes nothing) leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Changes the order moves are searched in.
    Ordering,
    /// Cuts a whole node before its moves.
    NodePruning,
    /// Skips a move (or cuts the node) after making it, unverified.
    MovePruning,
    /// A 002 signal: proposes to skip a move or cut the node, and acts only when the shared
    /// reduced-depth verification confirms it (the search's signal table consults it).
    Signal,
    /// Searches some moves less deeply.
    Reduction,
    /// Searches some moves more deeply.
    Extension,
    /// Changes what the horizon returns.
    Horizon,
    /// Changes the shape of the search itself.
    Structure,
}

impl Kind {
    /// The kind is selective: `main_selective`'s main function leaves it out.
    pub fn is_selective(self) -> bool {
        matches!(
            self,
            Kind::NodePruning | Kind::MovePruning | Kind::Signal | Kind::Reduction
        )
    }
}

/// Which bound a 002 signal may play on (002: "never both in one search function").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalRule {
    /// Not a signal.
    None,
    /// Always the alpha bound: skips a move.
    Alpha,
    /// Always the beta bound: cuts the node.
    Beta,
    /// Its `side` parameter chooses alpha or beta.
    Either,
    /// Its `side` parameter chooses alpha, beta or both (`window_margins`, whose 002 listing
    /// plays both in one function).
    Any,
}

/// One registry row.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    pub id: Id,
    /// Its name everywhere (CLI, UCI, JSON, counters).
    pub name: &'static str,
    pub kind: Kind,
    /// Source documents (`../shared/seeds/`).
    pub source: &'static str,
    /// The forms counted apart (`futility.frontier`, `futility.pre_frontier`); empty when the
    /// heuristic is counted under its name alone.
    pub forms: &'static [&'static str],
    /// The bound it plays on, when it is a 002 signal.
    pub signal: SignalRule,
    /// It reads the per-side line series, so the search computes them per move.
    pub reads_line: bool,
    /// It draws from the seeded PRNG, so the harness repeats it over seeds.
    pub randomised: bool,
    /// It can remove part of the tree (a cut-off, a pruning, a reduction), so full-width
    /// minimax refuses it.
    pub cuts: bool,
    /// One line on what it does.
    pub summary: &'static str,
}

/// The side a signal plays on under its parameters (`$params` is its `Params`).
macro_rules! signal_side {
    (none, $params:expr) => {
        None
    };
    (alpha, $params:expr) => {
        Some(Side::Alpha)
    };
    (beta, $params:expr) => {
        Some(Side::Beta)
    };
    (either, $params:expr) => {
        Some($params.side)
    };
    (any, $params:expr) => {
        Some($params.side)
    };
}

macro_rules! signal_rule {
    (none) => {
        SignalRule::None
    };
    (alpha) => {
        SignalRule::Alpha
    };
    (beta) => {
        SignalRule::Beta
    };
    (either) => {
        SignalRule::Either
    };
    (any) => {
        SignalRule::Any
    };
}

macro_rules! registry {
    ($(
        $variant:ident => $field:ident {
            kind: $kind:ident, source: $source:literal, forms: [$($form:literal),*],
            signal: $signal:ident,
            reads_line: $reads_line:literal, randomised: $randomised:literal, cuts: $cuts:literal,
            summary: $summary:literal,
        }
    )*) => {
        $( pub mod $field; )*

        /// A heuristic's identity.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Id { $( #[doc = $summary] $variant ),* }

        /// The number of heuristics.
        pub const COUNT: usize = [$(Id::$variant),*].len();

        /// Every heuristic, in a fixed order (`Id as usize` indexes it).
        pub const REGISTRY: &[Info] = &[
            $( Info {
                id: Id::$variant,
                name: stringify!($field),
                kind: Kind::$kind,
                source: $source,
                forms: &[$($form),*],
                signal: signal_rule!($signal),
                reads_line: $reads_line,
                randomised: $randomised,
                cuts: $cuts,
                summary: $summary,
            } ),*
        ];

        /// The parameters of every heuristic; a heuristic is on when its `enabled` is true.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct HeuristicsConfig {
            $( #[doc = $summary] pub $field: $field::Params ),*
        }

        impl HeuristicsConfig {
            /// The heuristic is switched on.
            pub fn enabled(&self, id: Id) -> bool {
                match id { $( Id::$variant => self.$field.enabled ),* }
            }

            /// Switch a heuristic on or off, keeping its parameters.
            pub fn set_enabled(&mut self, id: Id, on: bool) {
                match id { $( Id::$variant => self.$field.enabled = on ),* }
            }

            /// The bound a 002 signal plays on under its current parameters; `None` for a
            /// heuristic that is not a signal.
            pub fn signal_side(&self, id: Id) -> Option<Side> {
                match id { $( Id::$variant => signal_side!($signal, self.$field) ),* }
            }

            /// A heuristic's parameters as JSON.
            pub fn params_json(&self, id: Id) -> Value {
                match id {
                    $( Id::$variant => serde_json::to_value(self.$field).expect("params serialise") ),*
                }
            }

            /// Replace a heuristic's parameters from JSON (unknown fields are errors).
            pub fn set_params_json(&mut self, id: Id, value: Value) -> Result<(), String> {
                match id {
                    $( Id::$variant => self.$field = serde_json::from_value(value).map_err(|e| e.to_string())? ),*
                }
                Ok(())
            }

            /// Each parameter's name and documentation.
            pub fn param_docs(id: Id) -> &'static [(&'static str, &'static str)] {
                match id { $( Id::$variant => $field::Params::DOCS ),* }
            }

            /// Each numeric parameter's range: (name, low, high).
            pub fn param_ranges(id: Id) -> &'static [(&'static str, f64, f64)] {
                match id { $( Id::$variant => $field::Params::RANGES ),* }
            }

            /// The first parameter of heuristic `id` outside its range, as a message.
            pub fn out_of_range(&self, id: Id) -> Option<String> {
                match id { $( Id::$variant => self.$field.out_of_range() ),* }
            }
        }
    };
}

registry! {
    MvvLva => mvv_lva {
        kind: Ordering, source: "000, 001", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "captures ordered most valuable victim / least valuable attacker",
    }
    Killers => killers {
        kind: Ordering, source: "003, 001", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "two killer moves per ply, Ifrit's insertion at position 0 or 1",
    }
    History => history {
        kind: Ordering, source: "001, 002", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "quiet moves ordered by a [side][from][to] history table",
    }
    MateHistory => mate_history {
        kind: Ordering, source: "002", forms: [], signal: none,
        reads_line: false, randomised: true, cuts: false,
        summary: "a second history table for mating moves, with a random bonus",
    }
    PvMove => pv_move {
        kind: Ordering, source: "001, 002", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "the previous iteration's PV move first",
    }
    Tt => tt {
        kind: Ordering, source: "001, 002", forms: ["cutoff", "hash_move"], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "transposition table: cut-offs and the hash move first",
    }
    IidNullWindow => iid_null_window {
        kind: Reduction, source: "002", forms: [], signal: none,
        reads_line: false, randomised: true, cuts: true,
        summary: "nega-scout with internal iterative deepening in the null window",
    }
    NullMove => null_move {
        kind: NodePruning, source: "001", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "null move with reduction R",
    }
    NullMoveGuarded => null_move_guarded {
        kind: NodePruning, source: "002", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "null move only early in the game, with material and momentum guards",
    }
    FutilityMoveCount => futility_move_count {
        kind: MovePruning, source: "001", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "only the first N quiet moves in the last 9 plies",
    }
    CheckExtension => check_extension {
        kind: Extension, source: "001, 002", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "checks (and pawns to the 7th) searched one ply deeper",
    }
    Razoring => razoring {
        kind: NodePruning, source: "001", forms: ["node", "move"], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "futility's tests over the last 4 plies with a piece's margin",
    }
    Futility => futility {
        kind: NodePruning, source: "004, 001", forms: ["frontier", "pre_frontier"], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "frontier and pre-frontier futility pruning, margin pawn/2",
    }
    Quiescence => quiescence {
        kind: Horizon, source: "000, 001", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "captures-only search at the horizon, all evasions in check",
    }
    Momentum => momentum {
        kind: Signal, source: "002", forms: ["quiescence", "main"], signal: alpha,
        reads_line: true, randomised: false, cuts: true,
        summary: "5-ply momentum: quiescence capture filter and verified skip",
    }
    EmaChannel => ema_channel {
        kind: Signal, source: "002", forms: ["alpha", "beta"], signal: either,
        reads_line: true, randomised: false, cuts: true,
        summary: "EMA channel verified skip, refinements (a)-(e)",
    }
    StaticLr => static_lr {
        kind: Signal, source: "002", forms: [], signal: alpha,
        reads_line: false, randomised: false, cuts: true,
        summary: "skip when L and R are both at or below alpha",
    }
    BetaPlay => beta_play {
        kind: Signal, source: "002", forms: [], signal: beta,
        reads_line: false, randomised: false, cuts: true,
        summary: "cut with beta when L, R and a reduced search reach beta",
    }
    Trend => trend {
        kind: Signal, source: "002", forms: ["alpha", "beta"], signal: either,
        reads_line: true, randomised: false, cuts: true,
        summary: "EMA 8/16/32 trend: verified skip on a down trend (or cut on up)",
    }
    MinmaxChannel => minmax_channel {
        kind: Signal, source: "002", forms: ["alpha", "beta"], signal: either,
        reads_line: true, randomised: false, cuts: true,
        summary: "5-ply min/max channel beyond alpha (or beta), verified",
    }
    Rsi => rsi {
        kind: Signal, source: "002", forms: [], signal: alpha,
        reads_line: true, randomised: false, cuts: true,
        summary: "relative strength index: verified skip of falling, non-exchange moves",
    }
    ChannelBreakout => channel_breakout {
        kind: Signal, source: "002", forms: [], signal: alpha,
        reads_line: true, randomised: false, cuts: true,
        summary: "skip moves that stay inside a 5-ply channel below alpha",
    }
    WindowMargins => window_margins {
        kind: Signal, source: "002", forms: ["alpha", "beta"], signal: any,
        reads_line: true, randomised: false, cuts: true,
        summary: "material EMA windows: knight margin for beta, queen for alpha",
    }
    MainSelective => main_selective {
        kind: Structure, source: "002", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "a main search without pruning re-searching the selective one's fail-lows",
    }
    Gsr => gsr {
        kind: Reduction, source: "002", forms: [], signal: none,
        reads_line: true, randomised: true, cuts: true,
        summary: "genetic search reduction: random crossover, RED1/RED2",
    }
    GsrSimple => gsr_simple {
        kind: Reduction, source: "002", forms: [], signal: none,
        reads_line: true, randomised: true, cuts: true,
        summary: "simple GSR: null-window reduction by 1 past a random crossover",
    }
    // The modern techniques (not in the documents), after the documents' rows so that
    // the documents' heuristics keep their indexes (and so their random streams).
    Pvs => pvs {
        kind: Structure, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "principal variation search: null window after the first move, re-search on fail-high",
    }
    Aspiration => aspiration {
        kind: Structure, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "aspiration windows at the root, widened on failure",
    }
    Lmr => lmr {
        kind: Reduction, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "late move reductions, base + ln(depth)·ln(move)/divisor, re-search on fail-high",
    }
    See => see {
        kind: MovePruning, source: "modern", forms: ["order", "quiescence", "low_depth"], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "static exchange evaluation: losing captures ordered late, pruned in quiescence and near the leaves",
    }
    ReverseFutility => reverse_futility {
        kind: NodePruning, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "static null move: prune when the evaluation beats beta by a depth margin",
    }
    LateMovePruning => late_move_pruning {
        kind: MovePruning, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "skip quiet moves after base + depth² at shallow null-window nodes",
    }
    Iir => iir {
        kind: Reduction, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "internal iterative reduction: a ply less where no hash move exists",
    }
    Countermove => countermove {
        kind: Ordering, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "the refutation of the previous move, tried after the killers",
    }
    ContinuationHistory => continuation_history {
        kind: Ordering, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "quiet moves ordered by their history after the previous two moves",
    }
}

impl Id {
    /// Every id, in registry order.
    pub fn all() -> impl Iterator<Item = Id> {
        REGISTRY.iter().map(|info| info.id)
    }

    /// The registry row.
    pub fn info(self) -> &'static Info {
        &REGISTRY[self as usize]
    }

    /// The id's name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The heuristic's kind.
    pub fn kind(self) -> Kind {
        self.info().kind
    }

    /// Look an id up by name.
    pub fn from_name(name: &str) -> Option<Id> {
        REGISTRY
            .iter()
            .find(|info| info.name == name)
            .map(|info| info.id)
    }
}

/// Every valid id, for error messages.
pub fn id_list() -> String {
    REGISTRY
        .iter()
        .map(|info| info.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl HeuristicsConfig {
    /// The enabled ids.
    pub fn enabled_ids(&self) -> Vec<Id> {
        Id::all().filter(|&id| self.enabled(id)).collect()
    }

    /// Set one parameter from text: `true`/`false`/`on`/`off`, numbers, names, or JSON for
    /// lists. The error names the valid parameters.
    pub fn set_param(&mut self, id: Id, param: &str, text: &str) -> Result<(), String> {
        let mut json = self.params_json(id);
        let object = json.as_object_mut().expect("params are objects");
        let Some(current) = object.get(param) else {
            let valid: Vec<&str> = Self::param_docs(id).iter().map(|(name, _)| *name).collect();
            return Err(format!(
                "unknown parameter '{}.{param}'; {} has: {}",
                id.name(),
                id.name(),
                valid.join(", ")
            ));
        };
        let value = match current {
            Value::Bool(_) => Value::Bool(match text {
                "true" | "on" | "1" | "yes" => true,
                "false" | "off" | "0" | "no" => false,
                _ => {
                    return Err(format!(
                        "{}.{param} is true or false, got '{text}'",
                        id.name()
                    ));
                }
            }),
            Value::String(_) => Value::String(text.to_string()),
            _ => serde_json::from_str(text)
                .map_err(|_| format!("{}.{param}: '{text}' is not a valid value", id.name()))?,
        };
        object.insert(param.to_string(), value);
        self.set_params_json(id, json)
            .map_err(|e| format!("{}.{param} = '{text}': {e}", id.name()))
    }
}

#[cfg(test)]
mod tests;
