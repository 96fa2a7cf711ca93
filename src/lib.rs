//! searchlab: a research harness for chess search heuristics.
//!
//! The library holds the engine (`engine`), the UCI front end (`uci`) and the harness that runs
//! experiments (`harness`); the `searchlab` binary is a thin command-line shell over it.

pub mod cli;
pub mod engine;
pub mod harness;
pub mod uci;
