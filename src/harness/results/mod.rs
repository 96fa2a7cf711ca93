//! The results files of `searchlab run`: the record types, the key that identifies a search
//! and the plan of a run's searches (`records.rs`), reading and checking a file (`read.rs`),
//! and opening it for a run and merging shards (`write.rs`). Everything that reads or writes
//! a results file goes through this module.

mod read;
mod records;
mod write;

pub use read::{LinesRead, ResultsFile, known_format, read_existing, read_lines, read_results};
pub use records::*;
pub use write::{Merged, append, difference, merge, open_for_run, open_locked};
