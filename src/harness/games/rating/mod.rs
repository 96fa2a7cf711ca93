//! What the games say: Elo and its intervals, the SPRT (fishtest and fastchess formulas), and the tally of a pairing.

pub mod elo;
pub mod goal;
pub mod replays;
pub mod stats;
pub mod tally;
