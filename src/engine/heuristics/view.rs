//! The read-only views every decision function takes. They are plain copies of what the search
//! knows at a node or after a move, so a decision can be tested on a hand-built view.

use crate::engine::position::LineStats;
use crate::engine::score::Score;

/// What a node-level decision may read (before any move is made).
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeView {
    /// Remaining depth.
    pub depth: i32,
    /// Distance from the root.
    pub ply: usize,
    pub alpha: Score,
    pub beta: Score,
    /// The side to move is in check.
    pub in_check: bool,
    /// `L`: static evaluation for the side to move.
    pub static_eval: Score,
    /// The static evaluation is higher than at the side to move's previous node, two plies up
    /// (false when either is in check or there is none).
    pub improving: bool,
    /// The node lies inside a test search: a null-move search, or the reduced-depth search
    /// that verifies a 002 signal. 004 keeps futility out of "a null-move search (or another
    /// search of reduced depth)" — the searches whose result only decides a pruning. The
    /// reduced search of a move (GSR) is not one: its score is the move's score, re-searched
    /// at full depth when it beats alpha.
    pub in_reduced_search: bool,
    /// The move into this node was a null move.
    pub after_null_move: bool,
    /// The move into this node was extended.
    pub extended: bool,
    /// Moves on the line to this node that singular extension extended by two plies.
    pub double_extensions: u32,
    /// The move into this node was a capture.
    pub entered_by_capture: bool,
    /// Half-moves of the game before the root (002's `game_cnt`).
    pub game_plies: usize,
    /// Material balance for the side to move.
    pub material: Score,
    /// 5-ply material momentum of the side to move (002: `MomentumMtl5`).
    pub material_momentum: Score,
    /// The node is searched with a window wider than null: it lies on the principal variation.
    pub pv_node: bool,
    /// The node is an expected cut node (Stockfish's `cutNode`): a null-window node entered by
    /// a reduced search of a late move, or at full depth from an expected all node; never a PV
    /// node.
    pub cut_node: bool,
    /// The transposition table knows a best move for this node.
    pub has_hash_move: bool,
    /// What the table's entry claims about the node, when it holds the hash move.
    pub hash_claim: Option<HashClaim>,
    /// The side to move has a piece besides its pawns and king.
    pub has_pieces: bool,
    /// The score of the table's entry for the node when its bound is upper or exact: the
    /// node's value was found to be at most this (at whatever depth the entry was searched).
    pub table_upper: Option<Score>,
}

/// What a transposition-table entry that holds the node's hash move claims about the node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HashClaim {
    /// The depth it was searched to.
    pub depth: i32,
    /// Its score is a lower bound or exact (the hash move reached it).
    pub lower: bool,
    /// Its score, mate scores counted from this node's ply.
    pub score: Score,
}

/// What a move-level decision may read. Values are for the side that made the move (the node's
/// side to move). The move loop fills it in two steps: what is known before the move is made
/// (its number, quiet index, capture, promotion, whether a refutation proposed it, its history),
/// which the decisions taken before making it read, then the rest when it is made.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveView {
    /// 1-based index among the node's quiet moves (0 for a capture or promotion).
    pub quiet_index: usize,
    /// A killer or the countermove proposed it.
    pub refutation: bool,
    /// The plies `singular_extension` adds: the node's hash move found singular, 1, or 2 where
    /// no other move came within `double_margin` of it; else 0.
    pub singular: i32,
    /// The plies it loses: the node's hash move where `negative_extension` acted, else 0.
    pub negative_extension: i32,
    /// Its history: the ordering score of a quiet move (history plus continuation history;
    /// 0 when neither is on).
    pub history: i32,
    /// Its continuation-history scores apart: after the opponent's previous move and after the
    /// side's own (0 when `continuation_history` is off or the move is no quiet one).
    pub continuation: [i32; 2],
    /// The move captures.
    pub capture: bool,
    /// The move promotes.
    pub promotion: bool,
    /// The move gives check.
    pub gives_check: bool,
    /// The king moves (castling included).
    pub king_move: bool,
    /// A pawn move to the mover's seventh rank.
    pub pawn_to_seventh: bool,
    /// The move is extended.
    pub extended: bool,
    /// 1-based index of the move among the node's legal moves (002's `legal_move_cnt`).
    pub legal_count: usize,
    /// `R` in the documents: the static evaluation after the move, for the mover.
    pub eval_after: Score,
    /// The move takes a weak pawn (undefended, no pawn beside it).
    pub captures_weak_pawn: bool,
    /// The mover has a pawn on its seventh rank.
    pub own_pawn_on_seventh: bool,
    /// The opponent has a pawn on its seventh rank.
    pub opponent_pawn_on_seventh: bool,
    /// The mover's series after the move.
    pub line: LineStats,
}

impl MoveView {
    /// Neither a capture nor a promotion.
    pub fn is_quiet(&self) -> bool {
        !self.capture && !self.promotion
    }

    /// What Ethereal-style quiet-move pruning may skip: a quiet move other than the node's
    /// first, made outside check at a remaining depth of 1 to `max_depth`, that gives no check
    /// (`gives_check`, asked last since it is the dear one). A quiet check is never skipped:
    /// it is a forcing move, and skipping it hides mates (WAC.001's Qg6).
    pub fn is_late_quiet(
        &self,
        node: &NodeView,
        max_depth: i32,
        gives_check: impl FnOnce() -> bool,
    ) -> bool {
        self.quiet_index > 0
            && self.legal_count > 1
            && !node.in_check
            && (1..=max_depth).contains(&node.depth)
            && !gives_check()
    }
}

/// A heuristic's answer at one decision point. The gate (`search/gate.rs`) counts `tested`
/// unless the answer is `Inapplicable`, and `fired` when it `Acts`, so that every rate divides
/// by the decision points where the heuristic could have acted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision<T = ()> {
    /// Its own preconditions do not hold here: it could not have acted.
    Inapplicable,
    /// It could have acted and does not.
    Declines,
    /// It acts, with what it decided (a score, a reduction).
    Acts(T),
}

impl Decision<()> {
    /// `Acts` when `acts`, among the points where it `applies`.
    pub fn when(applies: bool, acts: bool) -> Self {
        Decision::with(applies, acts.then_some(()))
    }
}

impl<T> Decision<T> {
    /// `Acts(value)` when there is one, among the points where it `applies`.
    pub fn with(applies: bool, value: Option<T>) -> Self {
        match (applies, value) {
            (false, _) => Decision::Inapplicable,
            (true, None) => Decision::Declines,
            (true, Some(value)) => Decision::Acts(value),
        }
    }

    /// It acts.
    pub fn acts(&self) -> bool {
        matches!(self, Decision::Acts(_))
    }

    /// Its preconditions held (counted as tested).
    pub fn applies(&self) -> bool {
        !matches!(self, Decision::Inapplicable)
    }

    /// The same answer with what it decided mapped by `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Decision<U> {
        match self {
            Decision::Inapplicable => Decision::Inapplicable,
            Decision::Declines => Decision::Declines,
            Decision::Acts(value) => Decision::Acts(f(value)),
        }
    }

    /// The same answer with its action withheld: `Declines` where it applies.
    pub fn and_declines(self) -> Self {
        match self {
            Decision::Acts(_) => Decision::Declines,
            other => other,
        }
    }

    /// What it decided, when it acts.
    pub fn value(self) -> Option<T> {
        match self {
            Decision::Acts(value) => Some(value),
            _ => None,
        }
    }
}

/// Which bound a 002 signal plays on: skip a move whose verified score stays at or below
/// alpha, or cut the node with beta when the verified score reaches beta (002: "never both in
/// one search function, or the search degenerates"). The registry's `SignalRule` says which
/// sides a signal may take; the search's signal table and validation read the side from here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Skip a move whose verified score stays at or below alpha.
    Alpha,
    /// Cut the node with beta when the verified score reaches beta.
    Beta,
    /// Both (only `window_margins`, whose 002 listing has both in one function).
    Both,
}

impl Side {
    /// Plays on the alpha side.
    pub fn alpha(self) -> bool {
        matches!(self, Side::Alpha | Side::Both)
    }

    /// Plays on the beta side.
    pub fn beta(self) -> bool {
        matches!(self, Side::Beta | Side::Both)
    }
}

#[cfg(test)]
impl NodeView {
    /// A null-window node at ply 3 with `static_eval`, for the decision functions' tests.
    pub fn null_window(depth: i32, static_eval: Score, beta: Score) -> NodeView {
        NodeView {
            depth,
            ply: 3,
            alpha: beta - 1,
            beta,
            static_eval,
            ..NodeView::default()
        }
    }
}
