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
    /// The move into this node was a capture.
    pub entered_by_capture: bool,
    /// Half-moves of the game before the root (002's `game_cnt`).
    pub game_plies: usize,
    /// Material balance for the side to move.
    pub material: Score,
    /// 5-ply material momentum of the side to move (002: `MomentumMtl5`).
    pub material_momentum: Score,
}

/// What a move-level decision may read, after the move is made. Values are for the side that
/// made the move (the node's side to move).
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveView {
    /// The move captures.
    pub capture: bool,
    /// The move promotes.
    pub promotion: bool,
    /// The move gives check.
    pub gives_check: bool,
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
