//! The engine every experiment runs: position, evaluation, move picker, search.

pub mod audit;
pub mod config;
pub mod counter_lines;
pub mod eval;
pub mod fen;
pub mod heuristics;
pub mod movegen;
pub mod movepick;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod position;
pub mod score;
pub mod search;
pub mod series;
pub mod shuffle;
pub mod spec;
pub mod stats;
pub mod tt;
pub mod width;
