//! Scores and the bounds every part of the engine shares: the search, the transposition
//! table (which shifts mate scores by ply), notation (which prints mates) and the decision
//! functions all read them from here, so none of them has to import the search.

/// A score in centipawns, for the side to move.
pub type Score = i32;

/// Deepest ply the search reaches (quiescence included).
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INFINITY: Score = 32_001;
/// The score of giving mate at the root; a mate `n` plies away scores `MATE - n`.
pub const MATE: Score = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
/// The score of a draw.
pub const DRAW: Score = 0;
