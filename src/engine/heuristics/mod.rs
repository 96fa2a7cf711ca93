//! Every heuristic of the documents as a runtime toggle.
//!
//! One table, written once in the `registry!` call below, gives each heuristic its id (the
//! name used by the CLI, UCI, JSON and the counters), its kind, its source document and its
//! `Params` type; the macro derives from it the `Id` enum, `REGISTRY`, and the fields of
//! `HeuristicsConfig`. A new heuristic touches its file and one row here.

mod params;

pub mod beta_play;
pub mod channel_breakout;
pub mod check_extension;
pub mod ema_channel;
pub mod futility;
pub mod futility_move_count;
pub mod gsr;
pub mod gsr_simple;
pub mod history;
pub mod iid_null_window;
pub mod killers;
pub mod main_selective;
pub mod mate_history;
pub mod minmax_channel;
pub mod momentum;
pub mod mvv_lva;
pub mod null_move;
pub mod null_move_guarded;
pub mod pv_move;
pub mod quiescence;
pub mod razoring;
pub mod rsi;
pub mod spec;
pub mod static_lr;
pub mod trend;
pub mod tt;
pub mod view;
pub mod window_margins;

use std::collections::BTreeMap;
use std::ops::AddAssign;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// What a heuristic acts on; decides where the search consults it and what `main_selective`'s
/// main function (which prunes nothing) leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Changes the order moves are searched in.
    Ordering,
    /// Cuts a whole node before its moves.
    NodePruning,
    /// Skips a move (or cuts the node) after making it.
    MovePruning,
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
            Kind::NodePruning | Kind::MovePruning | Kind::Reduction
        )
    }
}

/// One registry row.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// The heuristic.
    pub id: Id,
    /// Its name everywhere (CLI, UCI, JSON, counters).
    pub name: &'static str,
    /// What it acts on.
    pub kind: Kind,
    /// Source documents (`../shared/seeds/`).
    pub source: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
}

macro_rules! registry {
    ($( $variant:ident => $field:ident, $kind:ident, $source:literal, $summary:literal; )*) => {
        /// A heuristic's identity.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Id { $( #[doc = $summary] $variant ),* }

        /// The number of heuristics.
        pub const COUNT: usize = [$(Id::$variant),*].len();

        /// Every heuristic, in a fixed order (`Id as usize` indexes it).
        pub const REGISTRY: &[Info] = &[
            $( Info { id: Id::$variant, name: stringify!($field), kind: Kind::$kind, source: $source, summary: $summary } ),*
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
        }
    };
}

registry! {
    MvvLva => mvv_lva, Ordering, "000, 001", "captures ordered most valuable victim / least valuable attacker";
    Killers => killers, Ordering, "003, 001", "two killer moves per ply, Ifrit's insertion at position 0 or 1";
    History => history, Ordering, "001, 002", "quiet moves ordered by a [side][from][to] history table";
    MateHistory => mate_history, Ordering, "002", "a second history table for mating moves, with a random bonus";
    PvMove => pv_move, Ordering, "001, 002", "the previous iteration's PV move first";
    Tt => tt, Ordering, "001, 002", "transposition table: cut-offs and the hash move first";
    IidNullWindow => iid_null_window, Reduction, "002", "nega-scout with internal iterative deepening in the null window";
    NullMove => null_move, NodePruning, "001", "null move with reduction R";
    NullMoveGuarded => null_move_guarded, NodePruning, "002", "null move only early in the game, with material and momentum guards";
    FutilityMoveCount => futility_move_count, MovePruning, "001", "only the first N quiet moves in the last 9 plies";
    CheckExtension => check_extension, Extension, "001, 002", "checks (and pawns to the 7th) searched one ply deeper";
    Razoring => razoring, NodePruning, "001", "futility's tests over the last 4 plies with a piece's margin";
    Futility => futility, NodePruning, "004, 001", "frontier and pre-frontier futility pruning, margin pawn/2";
    Quiescence => quiescence, Horizon, "000, 001", "captures-only search at the horizon, all evasions in check";
    Momentum => momentum, MovePruning, "002", "5-ply momentum: quiescence capture filter and verified skip";
    EmaChannel => ema_channel, MovePruning, "002", "EMA channel verified skip, refinements (a)-(e)";
    StaticLr => static_lr, MovePruning, "002", "skip when L and R are both at or below alpha";
    BetaPlay => beta_play, MovePruning, "002", "cut with beta when L, R and a reduced search reach beta";
    Trend => trend, MovePruning, "002", "EMA 8/16/32 trend: verified skip on a down trend (or cut on up)";
    MinmaxChannel => minmax_channel, MovePruning, "002", "5-ply min/max channel beyond alpha (or beta), verified";
    Rsi => rsi, MovePruning, "002", "relative strength index: verified skip of falling, non-exchange moves";
    ChannelBreakout => channel_breakout, MovePruning, "002", "skip moves that stay inside a 5-ply channel below alpha";
    WindowMargins => window_margins, MovePruning, "002", "material EMA windows: knight margin for beta, queen for alpha";
    MainSelective => main_selective, Structure, "002", "a main search without pruning re-searching the selective one's fail-lows";
    Gsr => gsr, Reduction, "002", "genetic search reduction: random crossover, RED1/RED2";
    GsrSimple => gsr_simple, Reduction, "002", "simple GSR: null-window reduction by 1 past a random crossover";
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

/// How often one heuristic was consulted during a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Its condition was evaluated (or, for ordering, a move it promoted was searched).
    pub tested: u64,
    /// Its condition held (for ordering: the promoted move raised alpha).
    pub fired: u64,
    /// The reduced-depth verification (or re-search) disagreed with it.
    pub overruled: u64,
}

/// Counters of every heuristic, serialised as a map keyed by id name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeuristicCounters(pub [Counters; COUNT]);

impl Default for HeuristicCounters {
    fn default() -> Self {
        HeuristicCounters([Counters::default(); COUNT])
    }
}

impl HeuristicCounters {
    /// The counters of one heuristic.
    pub fn get(&self, id: Id) -> &Counters {
        &self.0[id as usize]
    }

    /// The counters of one heuristic, to update.
    #[inline]
    pub fn at(&mut self, id: Id) -> &mut Counters {
        &mut self.0[id as usize]
    }
}

impl AddAssign for HeuristicCounters {
    fn add_assign(&mut self, other: Self) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            mine.tested += theirs.tested;
            mine.fired += theirs.fired;
            mine.overruled += theirs.overruled;
        }
    }
}

impl Serialize for HeuristicCounters {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Heuristics that were never consulted are left out (read back as zeros): most runs
        // switch on a few of the 26, and results files stay a third of the size.
        let map: BTreeMap<&str, &Counters> = REGISTRY
            .iter()
            .map(|info| (info.name, &self.0[info.id as usize]))
            .filter(|(_, c)| **c != Counters::default())
            .collect();
        map.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for HeuristicCounters {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, Counters>::deserialize(deserializer)?;
        let mut counters = HeuristicCounters::default();
        for (name, value) in map {
            let id = Id::from_name(&name)
                .ok_or_else(|| serde::de::Error::custom(format!("unknown heuristic '{name}'")))?;
            counters.0[id as usize] = value;
        }
        Ok(counters)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_config_and_names_agree() {
        let config = serde_json::to_value(HeuristicsConfig::default()).unwrap();
        let keys: Vec<&String> = config.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), COUNT);
        for (index, info) in REGISTRY.iter().enumerate() {
            assert_eq!(info.id as usize, index, "registry order");
            assert_eq!(Id::from_name(info.name), Some(info.id));
            assert!(
                config.get(info.name).is_some(),
                "{} has a config field",
                info.name
            );
            let docs = HeuristicsConfig::param_docs(info.id);
            assert_eq!(docs[0].0, "enabled", "{}: `enabled` comes first", info.name);
            let params = HeuristicsConfig::default().params_json(info.id);
            assert_eq!(
                params.as_object().unwrap().len(),
                docs.len(),
                "{}: docs cover params",
                info.name
            );
            assert!(
                !HeuristicsConfig::default().enabled(info.id),
                "{} is off by default",
                info.name
            );
        }
    }

    #[test]
    fn set_param_parses_by_type_and_rejects_unknowns() {
        let mut h = HeuristicsConfig::default();
        h.set_param(Id::Gsr, "red2", "3").unwrap();
        assert_eq!(h.gsr.red2, 3);
        h.set_param(Id::Futility, "frontier", "off").unwrap();
        assert!(!h.futility.frontier);
        h.set_param(Id::Quiescence, "eval", "full").unwrap();
        h.set_param(Id::FutilityMoveCount, "counts", "[1,2,3,4,5,6,7,8,9]")
            .unwrap();
        assert_eq!(h.futility_move_count.counts[8], 9);
        h.set_param(Id::EmaChannel, "cci_multiplier", "1.5")
            .unwrap();
        let err = h.set_param(Id::Gsr, "nope", "1").unwrap_err();
        assert!(err.contains("red1") && err.contains("cross_range"), "{err}");
        assert!(h.set_param(Id::Gsr, "red2", "two").is_err());
        assert!(h.set_param(Id::Quiescence, "eval", "psychic").is_err());
        assert!(
            h.set_param(Id::FutilityMoveCount, "counts", "[1,2]")
                .is_err()
        );
    }

    #[test]
    fn counters_serialise_by_name_and_add() {
        let mut a = HeuristicCounters::default();
        a.at(Id::Killers).tested = 3;
        a.at(Id::Killers).fired = 2;
        let json = serde_json::to_value(a).unwrap();
        assert_eq!(json["killers"]["fired"], 2);
        let back: HeuristicCounters = serde_json::from_value(json).unwrap();
        assert_eq!(back, a);
        let mut b = a;
        b += a;
        assert_eq!(b.get(Id::Killers).tested, 6);
    }
}
