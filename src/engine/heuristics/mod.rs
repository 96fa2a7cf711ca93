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
pub use params::tuning_range;
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
    /// Changes the static evaluation the other decisions read.
    Evaluation,
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

/// The range of a GSR crossover point under a configuration (registry `crossover`).
pub type CrossRange = fn(&HeuristicsConfig) -> u32;

/// One registry row.
#[derive(Clone, Copy)]
pub struct Info {
    pub id: Id,
    /// Its name everywhere (CLI, UCI, JSON, counters).
    pub name: &'static str,
    pub kind: Kind,
    /// Source documents by number (`docs/sources.md` says what each specifies), or `modern`.
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
    /// What `tested` and `fired` (and `overruled`, where it can be) mean for each counter:
    /// one for a heuristic counted under its name, one per form otherwise, in `forms` order.
    pub meanings: &'static [&'static str],
    /// The files of `engine/search/` whose steps consult it (`mod` for `search/mod.rs`; the
    /// picker's `movepick` for ordering ids); `scripts/heuristic_mentions.py` checks that no
    /// other code names it.
    pub steps: &'static [&'static str],
    /// One of the six heuristics of the main job (`searchlab run` with no arguments) and the
    /// default set of `--ablation pairs`.
    pub main_job: bool,
    /// Heuristics it cannot work without (validation refuses it alone).
    pub requires: &'static [Id],
    /// Heuristics it cannot be combined with (validation refuses the pair).
    pub excludes: &'static [Id],
    /// It reads the node's GSR crossover point (002): its priority among those that do (the
    /// first that is on supplies the range and draws from its stream) and its range.
    pub crossover: Option<(u8, CrossRange)>,
    /// It reads a quiet move's history (`MoveView::history`), so the move loop computes it.
    pub reads_history: bool,
    /// Pairs (audited form, mirror): a test that would take the audited decision again in the
    /// node the audit searches, so the audit leaves it out there (audits must not repeat the
    /// decision they judge). The form is `*` for a heuristic without forms; the mirror is a
    /// counter key (`futility.frontier`), searched without at the same node when the audited
    /// form cuts a node and in the child when it skips a move, or `stand_pat`: the child's
    /// quiescence stand pat repeats the test when the skipped move's child is a horizon node,
    /// which no audit can leave out, so that stratum is recorded as not measurable.
    pub mirrors: &'static [(&'static str, &'static str)],
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
            meanings: [$($meaning:literal),* $(,)?],
            steps: [$($step:literal),*],
            main_job: $main_job:literal,
            requires: [$($requires:ident),*], excludes: [$($excludes:ident),*],
            crossover: $crossover:expr, reads_history: $reads_history:literal,
            mirrors: [$(($mirrored:literal, $mirror:literal)),*],
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
                meanings: &[$($meaning),*],
                steps: &[$($step),*],
                main_job: $main_job,
                requires: &[$(Id::$requires),*],
                excludes: &[$(Id::$excludes),*],
                crossover: $crossover,
                reads_history: $reads_history,
                mirrors: &[$(($mirrored, $mirror)),*],
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

            /// The tuning ranges declared apart from `params::tuning_range`'s rule.
            pub fn param_tuning(id: Id) -> &'static [(&'static str, f64, f64)] {
                match id { $( Id::$variant => $field::Params::TUNING ),* }
            }

            /// The parameters of heuristic `id` that choose a form, not a magnitude (declared
            /// `; structural`).
            pub fn param_structural(id: Id) -> &'static [(&'static str, &'static str)] {
                match id { $( Id::$variant => $field::Params::STRUCTURAL ),* }
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
        meanings: [
            "tested: a capture it sorted was searched; fired: that capture ended as the node's best move",
        ],
        steps: ["ordering", "movepick", "quiescence", "plan"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    Killers => killers {
        kind: Ordering, source: "003, 001", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "two killer moves per ply, Ifrit's insertion at position 0 or 1",
        meanings: [
            "tested: a killer was searched; fired: it ended as the node's best move",
        ],
        steps: ["ordering", "tables", "plan"],
        main_job: true,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    History => history {
        kind: Ordering, source: "001, 002", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "quiet moves ordered by a [side][from][to] history table",
        meanings: [
            "tested: a quiet move with positive history was searched; fired: it ended as the node's best move",
        ],
        steps: ["ordering", "tables", "mod", "plan"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    MateHistory => mate_history {
        kind: Ordering, source: "002", forms: [], signal: none,
        reads_line: false, randomised: true, cuts: false,
        summary: "a second history table for mating moves, with a random bonus",
        meanings: [
            "tested: a quiet move with a positive mate-history score was searched; fired: it ended as the node's best move",
        ],
        steps: ["ordering", "plan"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    PvMove => pv_move {
        kind: Ordering, source: "001, 002", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "the previous iteration's PV move first",
        meanings: [
            "tested: the previous iteration's PV move was searched first at a node on that PV; fired: it stayed the node's best move",
        ],
        steps: ["ordering", "plan"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    Tt => tt {
        kind: Ordering, source: "001, 002", forms: ["cutoff", "hash_move", "eval"], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "transposition table: cut-offs and the hash move first",
        meanings: [
            "tested: an entry was found at a non-root node (cut-offs on); fired: it cut the node off",
            "tested: the hash move was searched; fired: it ended as the node's best move",
            "tested: an entry with a score short of a mate was found at a node outside check (score_as_eval on); fired: its bound put the node's value beyond the static evaluation, and the score replaced it in the node's pruning decisions",
        ],
        steps: ["alphabeta", "ordering", "audit", "mod"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    IidNullWindow => iid_null_window {
        kind: Reduction, source: "002", forms: [], signal: none,
        reads_line: false, randomised: true, cuts: true,
        summary: "nega-scout with internal iterative deepening in the null window",
        meanings: [
            "tested: a later move that is not forcing (check, pawn to the 7th, capture, promotion), at or after the GSR bound at a node deeper than shallow_depth, was probed a ply shallower in the null window; fired: the probe failed low and stood (the move was not deepened)",
        ],
        steps: ["reductions"],
        main_job: false,
        requires: [], excludes: [],
        crossover: Some((3, |_| gsr::Params::default().cross_range)), reads_history: false, mirrors: [],
    }
    NullMove => null_move {
        kind: NodePruning, source: "001", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "null move with reduction R",
        meanings: [
            "tested: a null move was allowed (not at the root, not in check, not after a null move, at min_depth or deeper; with its modern conditions, a null-window node with a piece to move whose evaluation is at least beta); fired: the reduced search failed high",
        ],
        steps: ["pruning"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    NullMoveGuarded => null_move_guarded {
        kind: NodePruning, source: "002", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "null move only early in the game, with material and momentum guards",
        meanings: [
            "tested: 002's guards held (early in the game, material and momentum ahead); fired: the reduced search failed high",
        ],
        steps: ["pruning"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    FutilityMoveCount => futility_move_count {
        kind: MovePruning, source: "001", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "only the first N quiet moves in the last 9 plies",
        meanings: [
            "tested: a quiet move outside check in the last 9 plies; fired: it was past the first N and skipped",
        ],
        steps: ["alphabeta"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    CheckExtension => check_extension {
        kind: Extension, source: "001, 002", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "checks (and pawns to the 7th) searched one ply deeper",
        meanings: [
            "tested: a move made that gave check (or moved a pawn to the seventh, when pawn_to_seventh); fired: it was extended by it (a move the singular extension already extends is not)",
        ],
        steps: ["extensions"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    Razoring => razoring {
        kind: NodePruning, source: "001", forms: ["node", "move"], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "futility's tests over the last 4 plies with a piece's margin",
        meanings: [
            "tested: a node within 4 plies outside check, test searches and extensions, not entered by a capture; fired: its evaluation minus a piece reached beta",
            "tested: a quiet unextended non-checking move made outside check and test searches within 4 plies; fired: its evaluation plus a piece stayed at or below alpha",
        ],
        steps: ["pruning"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [("node", "reverse_futility"), ("node", "futility.frontier"),
            ("move", "razoring.node"), ("move", "futility.frontier"), ("move", "reverse_futility"), ("move", "stand_pat")],
    }
    Futility => futility {
        kind: NodePruning, source: "004, 001", forms: ["frontier", "pre_frontier"], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "frontier and pre-frontier futility pruning, margin pawn/2",
        meanings: [
            "tested: a node within max_depth outside check, test searches and extensions, not entered by a capture; fired: its evaluation minus the margin reached beta",
            "tested: a quiet unextended non-checking move made outside check and test searches within max_depth + 1; fired: its evaluation plus the margin stayed at or below alpha",
        ],
        steps: ["pruning", "heuristics/razoring"],
        main_job: true,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [("frontier", "reverse_futility"), ("frontier", "razoring.node"),
            ("pre_frontier", "futility.frontier"), ("pre_frontier", "razoring.node"), ("pre_frontier", "reverse_futility"), ("pre_frontier", "stand_pat")],
    }
    Quiescence => quiescence {
        kind: Horizon, source: "000, 001", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "captures-only search at the horizon, all evasions in check",
        meanings: [
            "tested: a horizon leaf whose stand pat did not reach beta (every leaf in check); fired: it had captures (or evasions) to search",
        ],
        steps: ["quiescence"],
        main_job: true,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    Momentum => momentum {
        kind: Signal, source: "002", forms: ["quiescence", "main"], signal: alpha,
        reads_line: true, randomised: false, cuts: true,
        summary: "5-ply momentum: quiescence capture filter and verified skip",
        meanings: [
            "tested: a capture outside check beyond quiescence depth 2; fired: its momentum was below good_capture and it was left out",
            "tested: a move consulted by the signals; fired: its momentum fell and it was proposed for a verified skip; overruled: the verification contradicted it",
        ],
        steps: ["quiescence", "signals"],
        main_job: true,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    EmaChannel => ema_channel {
        kind: Signal, source: "002", forms: ["alpha", "beta"], signal: either,
        reads_line: true, randomised: false, cuts: true,
        summary: "EMA channel verified skip, refinements (a)-(e)",
        meanings: [
            "tested: a move consulted by the signals that gives no check and that no exemption spares (spare_first, spare_tactical, the margin form's); fired: proposed for a verified skip; overruled: the verification contradicted it",
            "tested: a move consulted by the signals; fired: proposed for a verified cut; overruled: the verification contradicted it",
        ],
        steps: ["signals", "mod"],
        main_job: true,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    StaticLr => static_lr {
        kind: Signal, source: "002", forms: [], signal: alpha,
        reads_line: false, randomised: false, cuts: true,
        summary: "skip when L and R are both at or below alpha",
        meanings: [
            "tested: a move that gives no check, consulted by the signals (or, unverified, by move pruning); fired: L and R at or below alpha, proposed (or skipped); overruled: the verification contradicted it",
        ],
        steps: ["pruning", "signals"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [("*", "stand_pat")],
    }
    BetaPlay => beta_play {
        kind: Signal, source: "002", forms: [], signal: beta,
        reads_line: false, randomised: false, cuts: true,
        summary: "cut with beta when L, R and a reduced search reach beta",
        meanings: [
            "tested: a move consulted by the signals that gives no check; fired: proposed for a verified cut; overruled: the verification contradicted it",
        ],
        steps: ["signals"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    Trend => trend {
        kind: Signal, source: "002", forms: ["alpha", "beta"], signal: either,
        reads_line: true, randomised: false, cuts: true,
        summary: "EMA 8/16/32 trend: verified skip on a down trend (or cut on up)",
        meanings: [
            "tested: a move consulted by the signals; fired: proposed for a verified skip; overruled: the verification contradicted it",
            "tested: a move consulted by the signals; fired: proposed for a verified cut; overruled: the verification contradicted it",
        ],
        steps: ["signals"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    MinmaxChannel => minmax_channel {
        kind: Signal, source: "002", forms: ["alpha", "beta"], signal: either,
        reads_line: true, randomised: false, cuts: true,
        summary: "5-ply min/max channel beyond alpha (or beta), verified",
        meanings: [
            "tested: a move consulted by the signals; fired: proposed for a verified skip; overruled: the verification contradicted it",
            "tested: a move consulted by the signals; fired: proposed for a verified cut; overruled: the verification contradicted it",
        ],
        steps: ["signals"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    Rsi => rsi {
        kind: Signal, source: "002", forms: [], signal: alpha,
        reads_line: true, randomised: false, cuts: true,
        summary: "relative strength index: verified skip of falling, non-exchange moves",
        meanings: [
            "tested: a move consulted by the signals beyond min_ply that gives no check and is no exchange; fired: proposed for a verified skip; overruled: the verification contradicted it",
        ],
        steps: ["signals"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    ChannelBreakout => channel_breakout {
        kind: Signal, source: "002", forms: [], signal: alpha,
        reads_line: true, randomised: false, cuts: true,
        summary: "skip moves that stay inside a 5-ply channel below alpha",
        meanings: [
            "tested: a move consulted by the signals that gives no check; fired: proposed for a verified skip; overruled: the verification contradicted it",
        ],
        steps: ["signals"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    WindowMargins => window_margins {
        kind: Signal, source: "002", forms: ["alpha", "beta"], signal: any,
        reads_line: true, randomised: false, cuts: true,
        summary: "material EMA windows: knight margin for beta, queen for alpha",
        meanings: [
            "tested: a move other than the first consulted by the signals beyond ply 2 that gives no check, with no pawn of ours on our seventh rank; fired: proposed for a verified skip; overruled: the verification contradicted it",
            "tested: a move other than the first consulted by the signals beyond ply 2 outside check, with no opponent pawn on its seventh rank; fired: proposed for a verified cut; overruled: the verification contradicted it",
        ],
        steps: ["signals"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    MainSelective => main_selective {
        kind: Structure, source: "002", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "a main search without pruning re-searching the selective one's fail-lows",
        meanings: [
            "tested: a move of the main function; fired: the selective search dismissed it (at most alpha); overruled: the main function's own search beat alpha",
        ],
        steps: ["reductions", "mod"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    Gsr => gsr {
        kind: Reduction, source: "002", forms: [], signal: none,
        reads_line: true, randomised: true, cuts: true,
        summary: "genetic search reduction: random crossover, RED1/RED2",
        meanings: [
            "tested: a move past the first, no check or pawn to the seventh, beyond min_ply with depth left; fired: its reduction was the one applied (every such move is reduced by RED1 at least, so alone it fires at every test and its rate to read is overruled / fired; with LMR on, fired falls short where LMR's reduction was larger); overruled: the reduced move beat alpha and was searched again",
        ],
        steps: ["reductions"],
        main_job: true,
        requires: [], excludes: [],
        crossover: Some((1, |h| h.gsr.cross_range)), reads_history: false, mirrors: [],
    }
    GsrSimple => gsr_simple {
        kind: Reduction, source: "002", forms: [], signal: none,
        reads_line: true, randomised: true, cuts: true,
        summary: "simple GSR: null-window reduction by 1 past a random crossover",
        meanings: [
            "tested: a quiet non-checking move beyond min_ply with depth left; fired: not before the crossover nor rising, probed a ply shallower; overruled: the probe beat alpha",
        ],
        steps: ["reductions"],
        main_job: false,
        requires: [], excludes: [],
        crossover: Some((2, |h| h.gsr_simple.cross_range)), reads_history: false, mirrors: [],
    }
    // The modern techniques (not in the documents), after the documents' rows so that
    // the documents' heuristics keep their indexes (and so their random streams).
    Pvs => pvs {
        kind: Structure, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "principal variation search: null window after the first move, re-search on fail-high",
        meanings: [
            "tested and fired: every later move of a node whose window is wider than null (a scheme, always applied); overruled: the null-window score fell inside the window and the move was searched again (read overruled / fired)",
        ],
        steps: ["reductions"],
        main_job: false,
        requires: [], excludes: [IidNullWindow, GsrSimple],
        crossover: None, reads_history: false, mirrors: [],
    }
    Aspiration => aspiration {
        kind: Structure, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "aspiration windows at the root, widened on failure",
        meanings: [
            "tested and fired: each iteration from min_depth with no mate score (a scheme, always applied); overruled: the iteration had to be searched again (read overruled / fired)",
        ],
        steps: ["root"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    Lmr => lmr {
        kind: Reduction, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "late move reductions, base + ln(depth)·ln(move)/divisor, re-search on fail-high",
        meanings: [
            "tested: a quiet non-checking move past min_move, outside check, at depth min_depth or more; fired: its reduction was positive and the one applied; overruled: the reduced move beat alpha and was searched again",
        ],
        steps: ["reductions"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: true, mirrors: [],
    }
    See => see {
        kind: MovePruning, source: "modern", forms: ["order", "quiescence", "low_depth", "quiet"], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "static exchange evaluation: losing captures ordered late, pruned in quiescence and near the leaves (and losing quiet moves, with quiet_depth)",
        meanings: [
            "tested: a losing capture was searched after the refutations; fired: it ended as the node's best move",
            "tested: a capture outside check in quiescence; fired: it lost material and was left out",
            "tested: a capture other than the first move, outside check, within prune_depth; fired: it lost more than the depth margin and was skipped",
            "tested: a quiet move other than the first that gives no check, outside check, within quiet_depth; fired: it lost more than quiet_margin per ply by SEE and was skipped",
        ],
        steps: ["alphabeta", "ordering", "quiescence", "movepick", "plan", "pruning", "heuristics/probcut"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    ReverseFutility => reverse_futility {
        kind: NodePruning, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "static null move: prune when the evaluation beats beta by a depth margin",
        meanings: [
            "tested: a null-window node outside check and test searches within max_depth, no mate at beta; fired: its evaluation minus the depth margin reached beta",
        ],
        steps: ["pruning"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [("*", "futility.frontier"), ("*", "razoring.node")],
    }
    LateMovePruning => late_move_pruning {
        kind: MovePruning, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "skip quiet moves after base + quadratic·depth² (improving: a percentage of it) at shallow null-window nodes",
        meanings: [
            "tested: a quiet move that gives no check at a null-window node outside check within max_depth; fired: it came after count(depth, improving) quiet moves and was skipped",
        ],
        steps: ["alphabeta"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    Iir => iir {
        kind: Reduction, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "internal iterative reduction: a ply less where no hash move exists",
        meanings: [
            "tested: a node at min_depth or deeper, outside check; fired: the table knew no move for it and it was searched shallower",
        ],
        steps: ["alphabeta"],
        main_job: false,
        requires: [Tt], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    Countermove => countermove {
        kind: Ordering, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "the refutation of the previous move, tried after the killers",
        meanings: [
            "tested: the countermove was searched; fired: it ended as the node's best move",
        ],
        steps: ["ordering", "tables", "plan"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    ContinuationHistory => continuation_history {
        kind: Ordering, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "quiet moves ordered by their history after the previous two moves",
        meanings: [
            "tested: a quiet move with a positive continuation-history score was searched; fired: it ended as the node's best move",
        ],
        steps: ["ordering", "tables", "plan"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    CaptureHistory => capture_history {
        kind: Ordering, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "the main search's captures ordered by MVV/LVA and their history (Stockfish)",
        meanings: [
            "tested: a capture with a positive capture-history score was searched; fired: it ended as the node's best move",
        ],
        steps: ["ordering", "tables", "plan"],
        main_job: false,
        requires: [MvvLva], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    QuiescenceChecks => quiescence_checks {
        kind: Horizon, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "quiet checks at the horizon leaf, after the captures (Stockfish 2008-2024)",
        meanings: [
            "tested: a horizon leaf outside check whose stand pat and captures stayed below beta; fired: it had quiet checks to search (with skip_losing, checks that do not lose material by SEE)",
        ],
        steps: ["quiescence"],
        main_job: false,
        requires: [Quiescence], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    HistoryPruning => history_pruning {
        kind: MovePruning, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "skip quiet moves whose continuation history is bad near the leaves (Ethereal 12)",
        meanings: [
            "tested: a quiet move other than the node's first that gives no check, outside check, within max_depth (max_depth_improving when improving); fired: a continuation score was below its limit and it was skipped",
        ],
        steps: ["alphabeta"],
        main_job: false,
        requires: [ContinuationHistory], excludes: [],
        crossover: None, reads_history: true, mirrors: [],
    }
    SingularExtension => singular_extension {
        kind: Extension, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "a hash move no other move comes near in a reduced search is searched a ply deeper (Ethereal 12)",
        meanings: [
            "tested: a node other than the root at min_depth or deeper whose table entry holds the hash move with a lower bound or exact score at most entry_depth_margin plies shallower; fired: no other move reached the entry's score minus margin_per_ply per ply at half the depth, and the hash move was extended",
        ],
        steps: ["singular", "heuristics/multi_cut", "heuristics/negative_extension"],
        main_job: false,
        requires: [Tt], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    DeltaPruning => delta_pruning {
        kind: MovePruning, source: "modern", forms: ["node", "capture"], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "quiescence leaves out what cannot reach alpha: a node whose best capture cannot, a capture whose exchange cannot (Ethereal 12)",
        meanings: [
            "tested: a quiescence node outside check whose stand pat is below alpha; fired: the distance to alpha exceeded node_margin and the best capture on the board, and it returned its stand pat",
            "tested: a capture in quiescence outside check where alpha exceeds the stand pat by more than capture_margin; fired: its SEE was below that excess and it was left out",
        ],
        steps: ["quiescence"],
        main_job: false,
        requires: [Quiescence], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    QuiescenceTt => quiescence_tt {
        kind: Horizon, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "the transposition table in quiescence: a stored bound that proves the result returns it; results stored at depth 0 (Ethereal, Stockfish)",
        meanings: [
            "tested: a quiescence node within max_qdepth of the horizon found its position in the table; fired: the stored bound proved the node's result and it returned it",
        ],
        steps: ["quiescence"],
        main_job: false,
        requires: [Tt, Quiescence], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    CorrectionHistory => correction_history {
        kind: Evaluation, source: "modern", forms: ["node", "quiescence"], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "the static evaluation corrected by what searches found in the same pawn structure (Caissa, Stockfish)",
        meanings: [
            "tested: an interior node outside check read its static evaluation; fired: the pawn structure's correction was not zero and changed it",
            "tested: a quiescence stand pat outside check (with the quiescence parameter); fired: the pawn structure's correction was not zero and changed it",
        ],
        steps: ["correction", "mod"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    QuietFutility => quiet_futility {
        kind: MovePruning, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "skip quiet moves up to depth 8 where the evaluation plus 90 a ply stays at most alpha and their history is poor (Ethereal 12's futility)",
        meanings: [
            "tested: a quiet move other than the node's first that gives no check, outside check, within max_depth; fired: the static evaluation plus margin per ply was at most alpha and its history below the limit (history_limit_improving when improving), or even margin_no_history more stayed at most alpha, and it was skipped",
        ],
        steps: ["alphabeta"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: true, mirrors: [],
    }
    Probcut => probcut {
        kind: NodePruning, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "a capture that holds beta + margin in a search depth_reduction plies shallower cuts the node (Buro; Ethereal 12, Stockfish)",
        meanings: [
            "tested: a null-window node outside check at min_depth or deeper, no mate at beta, whose evaluation plus the most a capture could win reached beta + margin; fired: a capture winning enough by SEE held beta + margin at the reduced depth and the node returned its score",
        ],
        steps: ["pruning"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    MultiCut => multi_cut {
        kind: NodePruning, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "a node whose singular verification finds another move holding rBeta, with rBeta at least beta, returns rBeta (Ethereal 12's multi-cut)",
        meanings: [
            "tested: a node where singular extension's verification ran to its end; fired: a move other than the hash move reached rBeta, rBeta was at least beta, and the node returned rBeta",
        ],
        steps: ["singular"],
        main_job: false,
        requires: [SingularExtension], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    UpcomingRepetition => upcoming_repetition {
        kind: NodePruning, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "a node whose side to move has a reversible move back to a repetition is worth at least a draw: alpha raised to it (van Kervinck's cycle detection, Stockfish)",
        meanings: [
            "tested: a node below the root, draws claimed, alpha below the draw score and a repetition within reach (3 plies or more since a capture, pawn move or null move); fired: the side to move had a reversible move to a position that would be a draw by repetition, and alpha was raised to the draw score (the node returned it where that reached beta)",
        ],
        steps: ["alphabeta"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    NegativeExtension => negative_extension {
        kind: Reduction, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: true,
        summary: "a hash move that is not singular, at a node whose table entry holds beta, searched a ply shallower (Stockfish's negative extension)",
        meanings: [
            "tested: a node where singular extension's verification ran to its end, found another move reaching rBeta, and multi-cut did not cut; fired: the table entry's score was at least beta and the hash move was searched `plies` shallower",
        ],
        steps: ["singular"],
        main_job: false,
        requires: [SingularExtension], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    HistoryExtension => history_extension {
        kind: Extension, source: "modern", forms: [], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "an early quiet move whose continuation histories are both good searched a ply deeper (Ethereal 12)",
        meanings: [
            "tested: a quiet move among the node's first max_quiet_index, outside the root, whose counter-move and follow-up history both reach limit, leaving at least min_pieces pieces besides kings and pawns; fired: it was extended by it (a move another extension already extends is not)",
        ],
        steps: ["extensions"],
        main_job: false,
        requires: [ContinuationHistory], excludes: [],
        crossover: None, reads_history: true, mirrors: [],
    }
    FiftyMoveDamping => fifty_move_damping {
        kind: Evaluation, source: "modern", forms: ["node", "quiescence"], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "the static evaluation damped toward a draw as the fifty-move count grows (Stockfish)",
        meanings: [
            "tested: an interior node read its static evaluation; fired: the fifty-move count was above zero and changed it",
            "tested: a quiescence stand pat read its evaluation; fired: the fifty-move count was above zero and changed it",
        ],
        steps: ["correction"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
    }
    EndgameScale => endgame_scale {
        kind: Evaluation, source: "modern", forms: ["node", "quiescence"], signal: none,
        reads_line: false, randomised: false, cuts: false,
        summary: "the static evaluation scaled toward a draw in endings that material does not win, by Ethereal 12's scale factor and complexity",
        meanings: [
            "tested: an interior node read its static evaluation; fired: the endgame terms changed it",
            "tested: a quiescence stand pat read its evaluation; fired: the endgame terms changed it",
        ],
        steps: ["correction"],
        main_job: false,
        requires: [], excludes: [],
        crossover: None, reads_history: false, mirrors: [],
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
