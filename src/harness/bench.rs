//! `searchlab bench`: the engine's signature. Every position of the project's bench suite is
//! searched single-threaded to a fixed depth with fresh state; the total node count identifies
//! the search's behaviour, so a test that pins it catches any unintended change (the practice
//! of Stockfish's and Weiss's bench signatures).

use std::path::Path;
use std::time::Duration;

use super::epd::{self, EpdError, EpdRecord};
use crate::engine::audit::AuditTally;
use crate::engine::config::{Limits, SearchConfig};
use crate::engine::position::Position;
use crate::engine::search::{self, Silent, nps};
use crate::engine::stats::SearchStats;

/// The project's bench suite, compiled into the binary so `bench` runs anywhere.
pub const BENCH_EPD: &str = include_str!("../../suites/bench.epd");

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 5;

/// The bench suite's positions.
pub fn bench_positions() -> Vec<EpdRecord> {
    epd::parse_text(BENCH_EPD, Path::new("suites/bench.epd"))
        .expect("the embedded bench suite is valid (checked by a test)")
}

/// One position's share of a bench.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position's id.
    pub id: String,
    /// What its search visited.
    pub stats: SearchStats,
    /// How long it took.
    pub elapsed: Duration,
}

/// A whole bench.
#[derive(Clone, Debug, Default)]
pub struct BenchReport {
    /// Per position, in suite order.
    pub lines: Vec<BenchLine>,
    /// Sum over the positions.
    pub stats: SearchStats,
    /// Wall time of all searches (audit searches excluded).
    pub elapsed: Duration,
    /// The pruning audit of every position, when asked for.
    pub audit: Option<AuditTally>,
}

impl BenchReport {
    /// The signature: every node visited.
    pub fn nodes(&self) -> u64 {
        self.stats.nodes()
    }

    /// Nodes per second over the whole bench.
    pub fn nps(&self) -> u64 {
        nps(self.nodes(), self.elapsed)
    }
}

/// Search every record to `depth` under `config` (its limits replaced by the depth), calling
/// `progress` after each position.
pub fn run(
    records: &[EpdRecord],
    depth: u32,
    config: SearchConfig,
    audit: Option<f64>,
    mut progress: impl FnMut(&BenchLine),
) -> Result<BenchReport, String> {
    let config = SearchConfig {
        limits: Limits::depth(depth),
        ..config
    };
    let mut report = BenchReport::default();
    let mut elapsed = Duration::ZERO;
    for record in records {
        let position = Position::new(record.board.clone(), config.eval);
        let result = search::search_audited(position, config.clone(), audit, &mut Silent)?;
        if let Some(tally) = &result.audit {
            report
                .audit
                .get_or_insert_with(AuditTally::default)
                .merge(tally);
        }
        elapsed += result.elapsed;
        let line = BenchLine {
            id: record.id(),
            stats: result.stats,
            elapsed: result.elapsed,
        };
        progress(&line);
        report.stats += line.stats;
        report.lines.push(line);
    }
    report.elapsed = elapsed;
    Ok(report)
}

/// Read a suite for `bench --suite`.
pub fn read_suite(path: &Path) -> Result<Vec<EpdRecord>, Vec<EpdError>> {
    epd::read_file(path)
}
