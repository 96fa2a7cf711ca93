//! The root of each iteration: `aspiration` windows around the previous score.

use super::Searcher;
use super::gate::Point;
use crate::engine::heuristics::aspiration;
use crate::engine::score::{INFINITY, Score};
use crate::engine::stats::counter;

impl Searcher {
    /// One iteration at the root: the full window, or (`aspiration`) a narrow window around
    /// the previous iteration's score, widened on the failing side until the score falls
    /// inside it, each search again at the depth `aspiration::research_depth` gives. Counted
    /// per iteration: `fired` when narrow, `overruled` when it had to be searched again.
    /// Returns the score and the depth its search reached (less than `depth` after a fail
    /// high with `fail_high_reduction`).
    pub(super) fn root_search(&mut self, depth: u32, previous: Score) -> (Score, u32) {
        let params = self.config.heuristics.aspiration;
        let mut window = (-INFINITY, INFINITY);
        if let Some(narrow) = self.gate(counter!(Aspiration), Point::Unaudited, |_| {
            aspiration::window(depth, previous, &params)
        }) {
            window = narrow;
        }
        let mut margin = aspiration::first_margin(previous, &params);
        let mut failed_before = false;
        let mut searched = depth as i32;
        loop {
            let score = self.alphabeta(window.0, window.1, searched);
            let failed = score <= window.0 || score >= window.1;
            if !failed || self.aborted() || window == (-INFINITY, INFINITY) {
                return (score, searched as u32);
            }
            // Once per iteration: the narrow window was given up.
            if !failed_before {
                self.overrule(counter!(Aspiration));
                failed_before = true;
            }
            let failed_high = score >= window.1;
            searched =
                aspiration::research_depth(depth as i32, searched, failed_high, score, &params);
            (window, margin) = aspiration::widen(score, window, margin, &params);
        }
    }
}
