//! `searchlab reproduce`: the two tables of the source documents, searched again from the start
//! position and printed in the documents' own column format beside Ifrit's numbers
//! (`../shared/docs/reference-tables.md`).
//!
//! - Quiescence (000): full-width `minimax` and `minimax-q` at depths 5 and 6. The horizon
//!   leaves must equal perft exactly; what carries over is the time quiescence costs (Ifrit:
//!   about 2–2.5×) and the horizon effect in the PV without it.
//! - Killers (003): `ifrit-plain`, `ifrit-killers`, `ifrit-capture-killers` at depths 7–9. Node
//!   counts depend on evaluation and generation order; what carries over is the ratios.
//!
//! Each variant is one iterative-deepening search; the rows are its iterations (the iteration's
//! own nodes and time, as the documents print them). The searches run side by side on the
//! machine's cores, longest first.

use crate::engine::config::{Limits, SearchConfig};
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::search::{IterationInfo, Observer, search};
use crate::engine::spec;
use cozy_chess::Board;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::harness::format::{document_number, mm_ss};

/// Which of the documents' tables a row belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Table {
    /// 000: minimax with and without quiescence.
    Quiescence,
    /// 003: alpha-beta with and without killers.
    Killers,
}

/// One row of a document, as printed there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocumentRow {
    /// Table.
    pub table: Table,
    /// Our preset that plays the document's configuration.
    pub variant: String,
    /// Depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Time as printed, in seconds.
    pub time_s: u32,
    /// Nodes.
    pub nodes: u64,
    /// Nodes per second as printed (`1` in 000's minimax rows, which print no real rate).
    pub nps: u64,
    /// Score, centipawns.
    pub score_cp: i32,
    /// Principal variation as printed (empty when the document says "same as above" or
    /// prints none).
    pub pv: String,
}

fn doc(
    table: Table,
    variant: &str,
    (depth, seldepth): (u32, u32),
    (time_s, nodes, nps): (u32, u64, u64),
    score_cp: i32,
    pv: &str,
) -> DocumentRow {
    DocumentRow {
        table,
        variant: variant.into(),
        depth,
        seldepth,
        time_s,
        nodes,
        nps,
        score_cp,
        pv: pv.into(),
    }
}

/// Ifrit's rows (reference-tables.md, from 000 and 003).
pub fn document_rows() -> Vec<DocumentRow> {
    use Table::{Killers, Quiescence};
    vec![
        doc(
            Quiescence,
            "minimax",
            (5, 5),
            (5, 4_865_609, 1),
            119,
            "e2e4 e7e5 Ng1f3 Bf8e7 Nf3xe5",
        ),
        doc(
            Quiescence,
            "minimax",
            (6, 6),
            (125, 119_060_324, 1),
            -82,
            "e2e4 b7b6 d2d4 Bc8b7 e4e5 Bb7xg2",
        ),
        doc(
            Quiescence,
            "minimax-q",
            (5, 5),
            (10, 4_865_609, 506_462),
            26,
            "e2e4 Ng8f6 e4e5 Nf6e4 d2d4",
        ),
        doc(
            Quiescence,
            "minimax-q",
            (6, 6),
            (314, 119_060_324, 407_828),
            12,
            "e2e4 Ng8f6 Nb1c3 d7d5 e4xd5 Nf6xd5",
        ),
        doc(
            Killers,
            "ifrit-plain",
            (7, 10),
            (4, 2_736_235, 899_083),
            27,
            "e2e4 Nb8c6 Nb1c3 Ng8f6 d2d4 d7d5 Nc3xd5 Nf6xd5 e4xd5 Qd8xd5",
        ),
        doc(
            Killers,
            "ifrit-plain",
            (8, 8),
            (44, 27_470_423, 760_636),
            12,
            "e2e4 e7e5 Ng1f3 Nb8c6 Bf1b5 Ng8f6 Bb5xc6 b7xc6",
        ),
        doc(
            Killers,
            "ifrit-killers",
            (7, 10),
            (1, 585_459, 824_436),
            27,
            "",
        ),
        doc(
            Killers,
            "ifrit-killers",
            (8, 8),
            (7, 3_150_324, 632_292),
            12,
            "e2e4 e7e5 Ng1f3 Ng8f6 d2d4 e5xd4 Qd1xd4 Bf8e7",
        ),
        doc(
            Killers,
            "ifrit-killers",
            (9, 9),
            (44, 25_307_131, 798_009),
            29,
            "e2e4 e7e5 Ng1f3 Bf8d6 Bf1c4 Ng8f6 d2d4 e5xd4 Qd1xd4",
        ),
        doc(
            Killers,
            "ifrit-capture-killers",
            (7, 10),
            (1, 520_250, 843_556),
            27,
            "",
        ),
        doc(
            Killers,
            "ifrit-capture-killers",
            (8, 8),
            (5, 2_263_364, 640_027),
            12,
            "",
        ),
        doc(
            Killers,
            "ifrit-capture-killers",
            (9, 9),
            (29, 16_707_264, 808_338),
            29,
            "",
        ),
    ]
}

/// perft of the start position, which minimax's horizon leaves must equal (000).
pub fn startpos_perft(depth: u32) -> Option<u64> {
    [1, 20, 400, 8_902, 197_281, 4_865_609, 119_060_324]
        .get(depth as usize)
        .copied()
}

/// One of our rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Table.
    pub table: Table,
    /// Preset searched.
    pub variant: String,
    /// Depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// This iteration's time, ms.
    pub time_ms: f64,
    /// This iteration's nodes (interior + horizon + quiescence).
    pub nodes: u64,
    /// Of which horizon leaves.
    pub horizon: u64,
    /// Of which quiescence nodes.
    pub quiescence: u64,
    /// Nodes per second over the iteration.
    pub nps: u64,
    /// Score, centipawns, side to move.
    pub score_cp: i32,
    /// PV in the documents' long notation.
    pub pv: String,
}

impl Row {
    /// The number the document's `nodes` column holds: horizon leaves in 000's minimax table
    /// (equal to perft), every node in 003's.
    pub fn document_nodes(&self) -> u64 {
        match self.table {
            Table::Quiescence => self.horizon,
            Table::Killers => self.nodes,
        }
    }
}

/// A search to run.
#[derive(Clone, Debug)]
struct Job {
    table: Table,
    variant: &'static str,
    depths: std::ops::RangeInclusive<u32>,
}

/// What `reproduce` is asked for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// Stop at depth 5 (quiescence) and 8 (killers), for CI.
    pub quick: bool,
    /// Searches run at once.
    pub jobs: usize,
}

/// The whole reproduction, as written to `reproduction.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reproduction {
    /// Options.
    pub options: Options,
    /// When (UTC, RFC 3339).
    pub date: String,
    /// searchlab commit.
    pub commit: Option<String>,
    /// Logical cores.
    pub cores: usize,
    /// Wall time of the whole command, seconds.
    pub wall_s: f64,
    /// Our rows, quiescence table first, in the documents' order.
    pub rows: Vec<Row>,
    /// Ifrit's rows.
    pub document: Vec<DocumentRow>,
}

impl Reproduction {
    /// Our row for `variant` at `depth`.
    pub fn ours(&self, variant: &str, depth: u32) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.variant == variant && r.depth == depth)
    }

    /// Ifrit's row for `variant` at `depth`.
    pub fn theirs(&self, variant: &str, depth: u32) -> Option<&DocumentRow> {
        self.document
            .iter()
            .find(|r| r.variant == variant && r.depth == depth)
    }
}

fn jobs(options: &Options) -> Vec<Job> {
    let quiescence = 5..=if options.quick { 5 } else { 6 };
    let killers = 7..=if options.quick { 8 } else { 9 };
    // Longest first, so that the side-by-side searches finish together.
    [
        (Table::Quiescence, "minimax-q"),
        (Table::Killers, "ifrit-plain"),
        (Table::Quiescence, "minimax"),
        (Table::Killers, "ifrit-killers"),
        (Table::Killers, "ifrit-capture-killers"),
    ]
    .into_iter()
    .map(|(table, variant)| Job {
        table,
        variant,
        depths: match table {
            Table::Quiescence => quiescence.clone(),
            Table::Killers => killers.clone(),
        },
    })
    .collect()
}

/// Collects the iterations a job keeps and reports each as it completes.
struct Collector<'a> {
    job: &'a Job,
    rows: Vec<Row>,
}

impl Observer for Collector<'_> {
    fn iteration(&mut self, root: &Board, info: &IterationInfo) {
        if !self.job.depths.contains(&info.depth) {
            return;
        }
        let row = Row {
            table: self.job.table,
            variant: self.job.variant.into(),
            depth: info.depth,
            seldepth: info.seldepth,
            time_ms: info.iteration_time.as_secs_f64() * 1000.0,
            nodes: info.stats.nodes(),
            horizon: info.stats.horizon,
            quiescence: info.stats.quiescence,
            nps: info.iteration_nps(),
            score_cp: info.score,
            pv: notation::line(root, &info.pv, notation::long),
        };
        eprintln!(
            "  {:<22} {}",
            row.variant,
            document_line(
                row.depth,
                row.seldepth,
                row.time_ms / 1000.0,
                row.document_nodes(),
                row.nps,
                row.score_cp,
                &row.pv
            )
        );
        self.rows.push(row);
    }
}

fn run_job(job: &Job) -> Result<Vec<Row>, String> {
    let config = SearchConfig {
        limits: Limits::depth(*job.depths.end()),
        ..spec::parse(job.variant)?
    };
    let mut collector = Collector {
        job,
        rows: Vec::new(),
    };
    search(Position::startpos(), config, &mut collector);
    Ok(collector.rows)
}

/// A job's index and its rows.
type JobResult = (usize, Result<Vec<Row>, String>);

/// Run the searches, `options.jobs` at a time.
pub fn reproduce(options: &Options) -> Result<Reproduction, String> {
    let start = Instant::now();
    let date = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let jobs = jobs(options);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<JobResult>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.max(1).min(jobs.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(i) else { break };
                    let rows = run_job(job);
                    results.lock().expect("no worker panics").push((i, rows));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("no worker panics");
    results.sort_by_key(|(i, _)| *i);
    let mut rows = Vec::new();
    for (_, r) in results {
        rows.extend(r?);
    }
    // The documents' order: quiescence table first, then plain, killers, capture-killers.
    let order = [
        "minimax",
        "minimax-q",
        "ifrit-plain",
        "ifrit-killers",
        "ifrit-capture-killers",
    ];
    rows.sort_by_key(|r| {
        (
            order
                .iter()
                .position(|v| *v == r.variant)
                .unwrap_or(usize::MAX),
            r.depth,
        )
    });
    Ok(Reproduction {
        options: options.clone(),
        date,
        commit: crate::harness::results::git_commit(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        wall_s: start.elapsed().as_secs_f64(),
        rows,
        document: document_rows(),
    })
}

/// `+1,19`: pawns with the documents' decimal comma.
pub fn document_score(cp: i32) -> String {
    notation::pawns(cp).replace('.', ",")
}

/// A row in the documents' column format:
/// `depth/seldepth  time(mm:ss)  nodes  nodes-per-second  score(pawns)  PV`.
pub fn document_line(
    depth: u32,
    seldepth: u32,
    seconds: f64,
    nodes: u64,
    nps: u64,
    score_cp: i32,
    pv: &str,
) -> String {
    format!(
        "{:<6} {}  {:>12}  {:>9}  {:>6}  {}",
        format!("{depth}/{seldepth}"),
        mm_ss(Duration::from_secs_f64(seconds)),
        document_number(nodes),
        document_number(nps),
        document_score(score_cp),
        pv
    )
    .trim_end()
    .to_string()
}

/// Write `reproduction.md`, `reproduction.json` and the two charts into `dir`.
pub fn write(r: &Reproduction, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let json = serde_json::to_string_pretty(r).map_err(|e| e.to_string())? + "\n";
    let path = dir.join("reproduction.json");
    std::fs::write(&path, json).map_err(|e| format!("{}: {e}", path.display()))?;
    let path = dir.join("reproduction.md");
    std::fs::write(&path, markdown::markdown(r)).map_err(|e| format!("{}: {e}", path.display()))?;
    chart::draw(r, dir)
}

mod chart;
pub mod markdown;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_format() {
        assert_eq!(document_number(4_865_609), "4.865.609");
        assert_eq!(document_score(119), "+1,19");
        assert_eq!(document_score(-82), "-0,82");
        assert_eq!(mm_ss(Duration::from_secs(125)), "02:05");
        assert_eq!(
            document_line(5, 5, 5.0, 4_865_609, 1, 119, "e2e4 e7e5"),
            "5/5    00:05     4.865.609          1   +1,19  e2e4 e7e5"
        );
    }

    /// A reproduction whose rows are Ifrit's own: the Markdown must print Ifrit's ratios on
    /// both sides, and the charts must draw.
    #[test]
    fn markdown_and_charts_from_rows() {
        let rows = document_rows()
            .into_iter()
            .map(|d| Row {
                table: d.table,
                variant: d.variant.clone(),
                depth: d.depth,
                seldepth: d.seldepth,
                time_ms: d.time_s as f64 * 1000.0,
                nodes: d.nodes,
                horizon: if d.table == Table::Quiescence {
                    d.nodes
                } else {
                    d.nodes / 2
                },
                quiescence: 0,
                nps: d.nps,
                score_cp: d.score_cp,
                pv: d.pv.clone(),
            })
            .collect();
        let r = Reproduction {
            options: Options {
                quick: false,
                jobs: 2,
            },
            date: "2026-11-22T00:00:00Z".into(),
            commit: None,
            cores: 2,
            wall_s: 1.0,
            rows,
            document: document_rows(),
        };
        let md = markdown::markdown(&r);
        assert!(
            md.contains("| 7 | 2.736.235 / 2.736.235 | 585.459 / 585.459 | **4.67×** | 4.67× |"),
            "{md}"
        );
        assert!(md.contains(
            "| 8 | 27.470.423 / 27.470.423 | 3.150.324 / 3.150.324 | **8.72×** | 8.72× |"
        ));
        assert!(md.contains(
            "searchlab  5/5    00:05     4.865.609          1   +1,19  e2e4 e7e5 Ng1f3 Bf8e7 Nf3xe5"
        ));
        assert!(md.contains("| 6 | 119.060.324 | 119.060.324 | yes |"));
        assert!(md.contains("a ratio of 0.92 (Ifrit: 0.92)"), "{md}");
        let dir = std::env::temp_dir().join(format!("searchlab-repro-{}", std::process::id()));
        write(&r, &dir).unwrap();
        for file in [
            "killers.svg",
            "quiescence.svg",
            "reproduction.md",
            "reproduction.json",
        ] {
            assert!(dir.join(file).is_file(), "{file}");
        }
        let back: Reproduction =
            serde_json::from_str(&std::fs::read_to_string(dir.join("reproduction.json")).unwrap())
                .unwrap();
        assert_eq!(back, r);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn document_rows_match_reference_tables() {
        let rows = document_rows();
        assert_eq!(rows.len(), 12);
        // 000: the horizon leaves are perft(5) and perft(6) in both columns.
        for r in rows.iter().filter(|r| r.table == Table::Quiescence) {
            assert_eq!(Some(r.nodes), startpos_perft(r.depth));
        }
        // 003's stated ratios: killers 4.7× and 8.7×, capture-killers 5.3× and 12.1×.
        let nodes = |v: &str, d: u32| {
            rows.iter()
                .find(|r| r.variant == v && r.depth == d)
                .unwrap()
                .nodes as f64
        };
        let ratio = |v: &str, d: u32| nodes("ifrit-plain", d) / nodes(v, d);
        assert!((ratio("ifrit-killers", 7) - 4.7).abs() < 0.05);
        assert!((ratio("ifrit-killers", 8) - 8.7).abs() < 0.05);
        assert!((ratio("ifrit-capture-killers", 7) - 5.3).abs() < 0.05);
        assert!((ratio("ifrit-capture-killers", 8) - 12.1).abs() < 0.05);
    }
}
