//! The experiment harness: reading suites and running the engine over them.

pub mod bench;
pub mod epd;
pub mod external;
pub mod runner;
pub mod summary;
