//! The charts of a match report.

pub mod elo;
pub mod llr;
