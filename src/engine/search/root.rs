//! The root of each iteration: `aspiration` windows around the previous score.

use super::Searcher;
use super::gate::Point;
use crate::engine::heuristics::aspiration;
use crate::engine::score::{INFINITY, Score};
use crate::engine::stats::counter;

impl Searcher {
    /// One iteration at the root: the full window, or (`aspiration`) a narrow window around
    /// the previous iteration's score, widened on the failing side until the score falls
    /// inside it. Counted per iteration: `fired` when narrow, `overruled` when it had to be
    /// searched again.
    pub(super) fn root_search(&mut self, depth: u32, previous: Score) -> Score {
        let params = self.config.heuristics.aspiration;
        let mut window = (-INFINITY, INFINITY);
        if let Some(narrow) = self.gate(counter!(Aspiration), Point::Unaudited, |_| {
            aspiration::window(depth, previous, &params)
        }) {
            window = narrow;
        }
        let mut margin = params.window;
        let mut failed_before = false;
        loop {
            let score = self.alphabeta(window.0, window.1, depth as i32);
            let failed = score <= window.0 || score >= window.1;
            if !failed || self.aborted() || window == (-INFINITY, INFINITY) {
                return score;
            }
            // Once per iteration: the narrow window was given up.
            if !failed_before {
                self.overrule(counter!(Aspiration));
                failed_before = true;
            }
            (window, margin) = aspiration::widen(score, window, margin, &params);
        }
    }
}
