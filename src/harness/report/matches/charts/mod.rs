//! The charts of a match report.

pub mod effort;
pub mod elo;
pub mod llr;
