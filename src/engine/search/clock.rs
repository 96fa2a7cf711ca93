//! The search's limits as it runs: the stop flag, the clock, the node budget, and whether the
//! search has been cut short.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Where the search stands against its limits.
pub(super) struct Clock {
    pub stop: Arc<AtomicBool>,
    pub start: Instant,
    pub hard_deadline: Option<Duration>,
    /// Nodes of the iterations already finished.
    pub nodes_before: u64,
    /// A limit was reached: the iteration under way is cut short.
    pub aborted: bool,
    /// Depth 1 runs: `stop` and the clock wait for it (every best move is a finished search's).
    pub first_iteration: bool,
}

impl Clock {
    /// A clock that starts now and stops when `stop` is set.
    pub fn new(stop: Arc<AtomicBool>) -> Self {
        Clock {
            stop,
            start: Instant::now(),
            hard_deadline: None,
            nodes_before: 0,
            aborted: false,
            first_iteration: false,
        }
    }

    /// Start a search with `hard_deadline` as its limit in time.
    pub fn restart(&mut self, hard_deadline: Option<Duration>) {
        self.start = Instant::now();
        self.hard_deadline = hard_deadline;
        self.nodes_before = 0;
        self.aborted = false;
    }
}
