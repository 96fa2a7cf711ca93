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

mod chart;
mod data;
pub mod markdown;

pub use data::*;
pub use markdown::{document_line, document_score};

use crate::engine::config::{Limits, SearchConfig};
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::search::{IterationInfo, Observer, search};
use crate::engine::spec;
use cozy_chess::Board;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// A search to run.
#[derive(Clone, Debug)]
struct Job {
    table: Table,
    variant: &'static str,
    depths: std::ops::RangeInclusive<u32>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_format() {
        assert_eq!(document_score(119), "+1,19");
        assert_eq!(document_score(-82), "-0,82");
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
