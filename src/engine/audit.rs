//! The pruning audit: how often a pruning or reduction decision is wrong.
//!
//! 002 says a selective heuristic "works about 30% of the time"; no tool measures it. With
//! sampling probability RATE, the search checks each decision of a pruning or reduction
//! heuristic that stood (a node cut, a move skipped, a move whose reduced search stayed below
//! alpha) by searching that node or move again without that decision, at the full remaining
//! depth and in the node's window, the rest of the configuration as it is. The audit search
//! never changes the main search (`search/audit.rs` saves and restores everything it touches);
//! this module holds what the audits find and the one rule that judges a decision.
//!
//! A decision claims a score (`claim`: alpha for a skipped move, beta or the cut score for a
//! node cut, the reduced search's score for a reduction) and the audit finds another (`full`).
//! Each falls low (at or below alpha), inside the window, or high (at or above beta). The
//! decision was **wrong** when the two fall on different sides: a skipped move that would have
//! raised alpha, a cut node that does not fail high, a reduced move whose full-depth score
//! crosses the bound the reduced one did not. Its error is the distance between the two scores,
//! each clamped to ±`ERROR_CAP_CP` so that a mate score counts as a decisive one, not as
//! thirty thousand centipawns.

use std::collections::BTreeMap;
use std::ops::AddAssign;
use std::time::Duration;

use arrayvec::ArrayVec;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use super::score::Score;
use super::stats::Counter;
use super::tt::TranspositionTable;

/// The size of the audit searches' own transposition table, MiB (the harness's default).
const AUDIT_TABLE_MB: usize = 16;

/// Scores are clamped to this many centipawns before an error is taken.
pub const ERROR_CAP_CP: Score = 1000;

/// Where a score falls against the window `(alpha, beta)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Low,
    Inside,
    High,
}

fn side(score: Score, alpha: Score, beta: Score) -> Side {
    if score <= alpha {
        Side::Low
    } else if score >= beta {
        Side::High
    } else {
        Side::Inside
    }
}

/// The audit's judgement of one decision: `Some(error in cp)` when the decision was wrong,
/// `None` when the full search agrees with it.
pub fn wrong_by(claim: Score, full: Score, alpha: Score, beta: Score) -> Option<u64> {
    if side(claim, alpha, beta) == side(full, alpha, beta) {
        return None;
    }
    let clamp = |s: Score| s.clamp(-ERROR_CAP_CP, ERROR_CAP_CP);
    Some(u64::from((clamp(full) - clamp(claim)).unsigned_abs()))
}

/// What the audits of one decision (one counter at one remaining depth) found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditCell {
    /// Decisions audited.
    pub audited: u64,
    /// Of which wrong.
    pub wrong: u64,
    /// Sum of the wrong decisions' errors, centipawns.
    pub error_cp: u64,
    /// Nodes the audit searches visited (counted apart from the search's own).
    pub nodes: u64,
    /// Of the audited, decisions whose audit could not disagree (a skipped move's child
    /// stands pat on the skip's own test, registry `mirrors`): not searched, neither right
    /// nor wrong, left out of every rate.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub mirrored: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl AddAssign for AuditCell {
    fn add_assign(&mut self, other: Self) {
        self.audited += other.audited;
        self.wrong += other.wrong;
        self.error_cp += other.error_cp;
        self.nodes += other.nodes;
        self.mirrored += other.mirrored;
    }
}

impl AuditCell {
    /// The audits that could disagree with their decision.
    pub fn measured(&self) -> u64 {
        self.audited - self.mirrored
    }

    /// Share of the measured decisions that were wrong (`None`: none could be measured).
    pub fn error_rate(&self) -> Option<f64> {
        (self.measured() > 0).then(|| self.wrong as f64 / self.measured() as f64)
    }

    /// Mean error of the wrong decisions, centipawns.
    pub fn mean_error_cp(&self) -> Option<f64> {
        (self.wrong > 0).then(|| self.error_cp as f64 / self.wrong as f64)
    }
}

/// One row of an audit as results files hold it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRow {
    /// The counter's key: `lmr`, `futility.frontier`.
    pub decision: String,
    /// Remaining depth at the node that decided (0: in the quiescence search).
    pub depth: i32,
    #[serde(flatten)]
    pub cell: AuditCell,
}

/// Every audit of a search, by decision and remaining depth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuditTally {
    cells: BTreeMap<(Counter, i32), AuditCell>,
}

impl AuditTally {
    /// Count one audited decision.
    pub fn record(&mut self, counter: Counter, depth: i32, wrong: Option<u64>, nodes: u64) {
        let cell = self.cells.entry((counter, depth)).or_default();
        cell.audited += 1;
        cell.nodes += nodes;
        if let Some(error) = wrong {
            cell.wrong += 1;
            cell.error_cp += error;
        }
    }

    /// Count one audited decision that could not disagree (`AuditCell::mirrored`).
    pub fn record_mirrored(&mut self, counter: Counter, depth: i32) {
        let cell = self.cells.entry((counter, depth)).or_default();
        cell.audited += 1;
        cell.mirrored += 1;
    }

    /// Add the audits of another search.
    pub fn merge(&mut self, other: &AuditTally) {
        for (key, cell) in &other.cells {
            *self.cells.entry(*key).or_default() += *cell;
        }
    }

    /// Rows in registry order, then by depth.
    pub fn rows(&self) -> Vec<AuditRow> {
        self.cells
            .iter()
            .map(|((counter, depth), cell)| AuditRow {
                decision: counter.key(),
                depth: *depth,
                cell: *cell,
            })
            .collect()
    }

    /// The tally of rows read back; rows of unknown decisions are an error.
    pub fn from_rows(rows: &[AuditRow]) -> Result<AuditTally, String> {
        let mut tally = AuditTally::default();
        for row in rows {
            let counter = Counter::from_key(&row.decision)
                .ok_or_else(|| format!("unknown audited decision '{}'", row.decision))?;
            *tally.cells.entry((counter, row.depth)).or_default() += row.cell;
        }
        Ok(tally)
    }

    /// Each decision's cells summed over depths.
    pub fn by_decision(&self) -> BTreeMap<Counter, AuditCell> {
        let mut out: BTreeMap<Counter, AuditCell> = BTreeMap::new();
        for ((counter, _), cell) in &self.cells {
            *out.entry(*counter).or_default() += *cell;
        }
        out
    }

    /// Nodes of every audit search.
    pub fn nodes(&self) -> u64 {
        self.cells.values().map(|c| c.nodes).sum()
    }

    /// No decision was audited.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

/// Mixed into the search seed for the audit's sampling stream, apart from every heuristic's.
const AUDIT_STREAM: u64 = 0xa0d1_7a0d_17a0_d17a;

/// The state of one search's audit (`search/audit.rs` runs it): how often, what it found,
/// and its own table.
pub(crate) struct Auditor {
    pub(crate) rate: f64,
    pub(crate) rng: Xoshiro256PlusPlus,
    pub(crate) tally: AuditTally,
    /// What the audit searches store; they read it and the main table, never write the main one.
    pub(crate) table: TranspositionTable,
    /// Time spent in audit searches.
    pub(crate) time: Duration,
}

impl Auditor {
    pub(crate) fn new(rate: f64, with_table: bool) -> Self {
        Auditor {
            rate,
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
            tally: AuditTally::default(),
            table: TranspositionTable::new(if with_table { AUDIT_TABLE_MB } else { 0 }),
            time: Duration::ZERO,
        }
    }

    /// A new search: the sampling stream from its seed, nothing found yet.
    pub(crate) fn reset(&mut self, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ AUDIT_STREAM);
        self.tally = AuditTally::default();
        self.table.clear();
        self.time = Duration::ZERO;
    }
}

/// The audit's part of a search.
#[derive(Default)]
pub(crate) struct AuditState {
    /// The auditor, when the search is audited.
    pub auditor: Option<Box<Auditor>>,
    /// An audit search is under way: it audits nothing and spends no node budget.
    pub searching: bool,
    /// Decisions an audit leaves out at one ply: the one it judges and the tests mirroring it.
    pub suppressed: Option<(Suppressed, usize)>,
}

/// The decisions an audit search leaves out at one node: the one it judges and its mirrors.
pub type Suppressed = ArrayVec<Counter, 6>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::counter;

    #[test]
    fn a_decision_is_wrong_when_the_full_search_falls_on_another_side() {
        // A skipped move (claim alpha) that would have raised alpha.
        assert_eq!(wrong_by(10, 35, 10, 50), Some(25));
        assert_eq!(wrong_by(10, 10, 10, 50), None);
        assert_eq!(wrong_by(10, -200, 10, 50), None);
        // A node cut at beta that would have failed low.
        assert_eq!(wrong_by(50, 0, 10, 50), Some(50));
        assert_eq!(wrong_by(50, 80, 10, 50), None);
        // A null window: a reduced score below alpha against a full one at beta.
        assert_eq!(wrong_by(-3, 11, 10, 11), Some(14));
        // Mate scores are clamped to a decisive score.
        assert_eq!(wrong_by(0, 31_000, 0, 1), Some(ERROR_CAP_CP as u64));
    }

    #[test]
    fn tallies_round_trip_through_rows() {
        let mut tally = AuditTally::default();
        tally.record(counter!(Lmr), 3, Some(20), 100);
        tally.record(counter!(Lmr), 3, None, 50);
        tally.record(counter!(Futility.frontier), 1, None, 7);
        let rows = tally.rows();
        assert_eq!(rows.len(), 2);
        assert_eq!(AuditTally::from_rows(&rows).unwrap(), tally);
        let lmr = tally.by_decision()[&counter!(Lmr)];
        assert_eq!((lmr.audited, lmr.wrong, lmr.nodes), (2, 1, 150));
        assert_eq!(lmr.error_rate(), Some(0.5));
        assert_eq!(lmr.mean_error_cp(), Some(20.0));
        assert_eq!(tally.nodes(), 157);
        let json = serde_json::to_string(&rows).unwrap();
        assert!(
            json.contains("\"decision\":\"futility.frontier\""),
            "{json}"
        );
    }
}
