//! The experiment harness: reading suites, running the engine over them, and reporting.

pub mod bench;
pub mod cluster;
pub mod compare;
pub mod design;
pub mod epd;
pub mod external;
pub mod files;
pub mod format;
pub mod games;
pub mod nnue;
pub mod plan;
pub mod plot;
pub mod progress;
pub mod provenance;
pub mod report;
pub mod reproduce;
pub mod results;
pub mod runner;
pub mod tune;
pub mod variant;
pub mod verdicts;
