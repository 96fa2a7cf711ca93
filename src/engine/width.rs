//! The width of a search by remaining depth: where the tree spends its moves (`run --width`,
//! issue 58 section 1).
//!
//! `SearchStats` says how often each heuristic acted over a whole search; an engine author
//! comparing trees needs the same by remaining depth (late move pruning may skip most moves at
//! depth 2 and none at depth 7) and, for late move reductions, by the move's number as well:
//! how many moves a node searches, how many at full depth, how deep the reductions cut and
//! how often a reduced move is searched again. The tally is filled only when asked for
//! (`Searcher::enable_width`); it changes no node count and no move.
//!
//! Every count is by the remaining depth the node's move loop runs at (after internal
//! iterative reduction), capped at `DEPTHS - 1`; a move's number is its 1-based place among
//! the node's legal moves, capped at `MOVES - 1`. Audit searches are not counted.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::stats::Counter;

/// Remaining depths counted apart: 1 to `DEPTHS - 2`, and `DEPTHS - 1` for that and deeper.
pub const DEPTHS: usize = 21;

/// Move numbers counted apart: 1 to `MOVES - 2`, and `MOVES - 1` for that and later.
pub const MOVES: usize = 41;

/// The bucket of a remaining depth (depth 0 and below: 0, which interior nodes never use).
pub fn depth_bucket(depth: i32) -> usize {
    (depth.max(0) as usize).min(DEPTHS - 1)
}

/// The bucket of a 1-based move number.
pub fn move_bucket(number: usize) -> usize {
    number.min(MOVES - 1)
}

/// Counts by remaining depth (index = depth bucket; index 0 unused).
pub type ByDepth = Vec<u64>;

/// What one search's tree did at each remaining depth. Vectors are `DEPTHS` long (`MOVES`
/// for the inner ones) in memory; written without their trailing zeros.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WidthTally {
    /// Interior nodes whose move loop or node pruning was reached (past the table's cut-off).
    pub nodes: ByDepth,
    /// Transposition-table probes at interior nodes (by the depth the node was entered with).
    pub tt_probes: ByDepth,
    /// Of which found an entry for the position.
    pub tt_hits: ByDepth,
    /// Of which cut the node off.
    pub tt_cutoffs: ByDepth,
    /// Moves searched (made and searched; pruned moves not counted).
    pub searched: ByDepth,
    /// Of which searched first at the full depth (no reduction).
    pub full_depth: ByDepth,
    /// Beta cut-offs of the move loop.
    pub cutoffs: ByDepth,
    /// Of which by the node's first move.
    pub first_move_cutoffs: ByDepth,
    /// Of `nodes`, the expected cut nodes (`NodeView::cut_node`); absent from files written
    /// before it was counted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_nodes: ByDepth,
    /// Of `nodes`, those whose result reached beta (by the move loop's cut-off or by a node
    /// pruning's: null move, reverse futility, probcut); absent from files written before it
    /// was counted. A node whose search a limit cut short is counted, like every count here,
    /// with the score it returned (the nodes on the line when the limit struck: a few dozen a
    /// search at most), so that `cut_nodes` and `fail_highs` divide by the same nodes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fail_highs: ByDepth,
    /// Of `fail_highs`, those of expected cut nodes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_node_fail_highs: ByDepth,
    /// Moves searched, by depth then move number.
    pub by_move: Vec<Vec<u64>>,
    /// Moves searched reduced (LMR or GSR), by depth then move number.
    pub reduced: Vec<Vec<u64>>,
    /// The plies of those reductions, summed.
    pub reduction_plies: Vec<Vec<u64>>,
    /// Reduced moves that beat alpha and were searched again at full depth.
    pub researched: Vec<Vec<u64>>,
    /// Each counted decision (by its counter's name): tested and fired by depth.
    pub decisions: BTreeMap<String, Decisions>,
}

/// One decision's counts by remaining depth.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Decisions {
    pub tested: ByDepth,
    pub fired: ByDepth,
}

/// The tally a search fills: fixed arrays, turned into a `WidthTally` at the end.
#[derive(Clone, Debug)]
pub struct WidthCounts {
    nodes: [u64; DEPTHS],
    /// Per node type (expected cut nodes, then the others): nodes, and those that failed high.
    by_type: [[[u64; DEPTHS]; 2]; 2],
    tt: [[u64; DEPTHS]; 3],
    searched: [u64; DEPTHS],
    full_depth: [u64; DEPTHS],
    cutoffs: [[u64; DEPTHS]; 2],
    /// Per depth and move number: searched, reduced, reduction plies, re-searched.
    moves: Box<[[[u64; 4]; MOVES]; DEPTHS]>,
    /// Per counter and depth: tested, fired.
    decisions: BTreeMap<Counter, [[u64; 2]; DEPTHS]>,
}

impl Default for WidthCounts {
    fn default() -> Self {
        WidthCounts {
            nodes: [0; DEPTHS],
            by_type: [[[0; DEPTHS]; 2]; 2],
            tt: [[0; DEPTHS]; 3],
            searched: [0; DEPTHS],
            full_depth: [0; DEPTHS],
            cutoffs: [[0; DEPTHS]; 2],
            moves: Box::new([[[0; 4]; MOVES]; DEPTHS]),
            decisions: BTreeMap::new(),
        }
    }
}

impl WidthCounts {
    /// An interior node at `depth` reached its pruning and moves.
    pub fn node(&mut self, depth: i32) {
        self.nodes[depth_bucket(depth)] += 1;
    }

    /// The node at `depth` counted by `node`, an expected cut node or not, ended: its result
    /// reached beta or not.
    pub fn node_result(&mut self, depth: i32, cut_node: bool, failed_high: bool) {
        let cell = &mut self.by_type[usize::from(!cut_node)];
        let d = depth_bucket(depth);
        cell[0][d] += 1;
        cell[1][d] += u64::from(failed_high);
    }

    /// A table probe at a node entered at `depth`: whether it found an entry and cut.
    pub fn probe(&mut self, depth: i32, hit: bool, cut: bool) {
        let d = depth_bucket(depth);
        self.tt[0][d] += 1;
        self.tt[1][d] += u64::from(hit);
        self.tt[2][d] += u64::from(cut);
    }

    /// The `number`-th move of a node at `depth` was searched, reduced by `reduction` plies
    /// (0: at full depth), and searched again at full depth when `researched`.
    pub fn searched(&mut self, depth: i32, number: usize, reduction: i32, researched: bool) {
        let d = depth_bucket(depth);
        self.searched[d] += 1;
        self.full_depth[d] += u64::from(reduction == 0);
        let cell = &mut self.moves[d][move_bucket(number)];
        cell[0] += 1;
        if reduction > 0 {
            cell[1] += 1;
            cell[2] += reduction as u64;
            cell[3] += u64::from(researched);
        }
    }

    /// The `number`-th move cut off a node at `depth`.
    pub fn cutoff(&mut self, depth: i32, number: usize) {
        let d = depth_bucket(depth);
        self.cutoffs[0][d] += 1;
        self.cutoffs[1][d] += u64::from(number == 1);
    }

    /// A decision counted under `counter` at a node of `depth`: tested, and fired or not.
    pub fn decided(&mut self, counter: Counter, depth: i32, fired: bool) {
        let cell =
            &mut self.decisions.entry(counter).or_insert([[0; 2]; DEPTHS])[depth_bucket(depth)];
        cell[0] += 1;
        cell[1] += u64::from(fired);
    }

    /// The tally as written.
    pub fn tally(&self) -> WidthTally {
        let by_move = |field: usize| -> Vec<Vec<u64>> {
            let rows = self
                .moves
                .iter()
                .map(|row| trimmed(row.iter().map(|cell| cell[field])))
                .collect();
            trimmed_rows(rows)
        };
        WidthTally {
            nodes: trimmed(self.nodes),
            tt_probes: trimmed(self.tt[0]),
            tt_hits: trimmed(self.tt[1]),
            tt_cutoffs: trimmed(self.tt[2]),
            searched: trimmed(self.searched),
            full_depth: trimmed(self.full_depth),
            cutoffs: trimmed(self.cutoffs[0]),
            first_move_cutoffs: trimmed(self.cutoffs[1]),
            cut_nodes: trimmed(self.by_type[0][0]),
            fail_highs: trimmed((0..DEPTHS).map(|d| self.by_type[0][1][d] + self.by_type[1][1][d])),
            cut_node_fail_highs: trimmed(self.by_type[0][1]),
            by_move: by_move(0),
            reduced: by_move(1),
            reduction_plies: by_move(2),
            researched: by_move(3),
            decisions: self
                .decisions
                .iter()
                .map(|(counter, cells)| {
                    let decisions = Decisions {
                        tested: trimmed(cells.iter().map(|c| c[0])),
                        fired: trimmed(cells.iter().map(|c| c[1])),
                    };
                    (counter.key(), decisions)
                })
                .collect(),
        }
    }
}

/// The counts without their trailing zeros.
fn trimmed(counts: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let mut counts: Vec<u64> = counts.into_iter().collect();
    while counts.last() == Some(&0) {
        counts.pop();
    }
    counts
}

/// The rows without the trailing empty ones.
fn trimmed_rows(mut rows: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
    while rows.last().is_some_and(Vec::is_empty) {
        rows.pop();
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::counter;

    #[test]
    fn depths_and_move_numbers_are_capped_and_written_without_trailing_zeros() {
        let mut counts = WidthCounts::default();
        counts.node(3);
        counts.node(99);
        counts.node_result(3, true, false);
        counts.node_result(99, false, true);
        counts.searched(3, 1, 0, false);
        counts.searched(3, 7, 2, true);
        counts.searched(3, 200, 1, false);
        counts.cutoff(3, 1);
        counts.probe(2, true, false);
        counts.decided(counter!(LateMovePruning), 2, true);
        counts.decided(counter!(LateMovePruning), 2, false);
        let tally = counts.tally();
        assert_eq!(tally.nodes.len(), DEPTHS);
        assert_eq!((tally.nodes[3], tally.nodes[DEPTHS - 1]), (1, 1));
        assert_eq!((tally.searched[3], tally.full_depth[3]), (3, 1));
        assert_eq!(tally.by_move.len(), 4);
        assert_eq!(tally.by_move[3].len(), MOVES);
        assert_eq!(tally.reduced[3][7], 1);
        assert_eq!(tally.reduction_plies[3][7], 2);
        assert_eq!(tally.researched[3][7], 1);
        assert_eq!(tally.reduction_plies[3][MOVES - 1], 1);
        assert_eq!((tally.cutoffs[3], tally.first_move_cutoffs[3]), (1, 1));
        assert_eq!(tally.cut_nodes, vec![0, 0, 0, 1]);
        assert_eq!(tally.fail_highs.len(), DEPTHS);
        assert_eq!(tally.fail_highs[DEPTHS - 1], 1);
        assert!(tally.cut_node_fail_highs.is_empty());
        assert_eq!(tally.tt_hits, vec![0, 0, 1]);
        assert!(tally.tt_cutoffs.is_empty());
        let lmp = &tally.decisions["late_move_pruning"];
        assert_eq!((lmp.tested[2], lmp.fired[2]), (2, 1));
    }
}
