//! The limit of a command's searches on the command line.

use crate::engine::config::Limits;
use crate::harness::plan;

/// The limit of every search of a command: one of depth, nodes or time, under one rule for
/// `search` and `run` (`plan::limits`).
#[derive(clap::Args, Debug)]
pub struct LimitArgs {
    /// Deepest iteration (1..127).
    #[arg(long, conflicts_with_all = ["nodes", "movetime"])]
    pub depth: Option<u32>,
    /// Stop after this many nodes (the last completed iteration counts).
    #[arg(long, conflicts_with = "movetime")]
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds (results then depend on the machine).
    #[arg(long)]
    pub movetime: Option<u64>,
}

impl LimitArgs {
    /// The limits, checked, with `default_depth` when none is given.
    pub fn limits(&self, default_depth: u32) -> Result<Limits, String> {
        plan::limits(self.depth, self.nodes, self.movetime, default_depth)
    }
}
