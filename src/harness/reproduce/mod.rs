//! `searchlab reproduce`: the two tables of the source documents, searched again from the start
//! position and printed in the documents' own column format beside Ifrit's numbers
//! (`../shared/docs/reference-tables.md`).
//!
//! - Quiescence (000): full-width `minimax` and `minimax-q` at depths 5 and 6. The horizon
//!   leaves must equal perft exactly; what carries over is the time quiescence costs (Ifrit:
//!   about 2–2.5×), measured with the leaf evaluated incrementally and from scratch, and the
//!   horizon effect in the PV without it.
//! - Killers (003): `ifrit-plain`, `ifrit-killers`, `ifrit-capture-killers` at depths 7–9,
//!   counted in Ifrit's convention (horizon leaves) and ours (every node). Node counts depend
//!   on evaluation and generation order; what carries over is the ratios, so they are also
//!   measured over seeded shuffles of the unsorted quiet moves.
//!
//! Every configuration is searched in two forms: the presets as 000 describes Ifrit's forced
//! variant (material stand pat, no check detector) and the full-evaluation form
//! (`FULL_EVAL`). Each variant is one iterative-deepening search; the rows are its iterations
//! (the iteration's own nodes and time, as the documents print them). The timed searches run
//! one at a time so that no two share the cores; the shuffled ones (nodes only) run side by
//! side.

mod data;
pub mod markdown;
pub mod orders;

pub use data::*;
pub use markdown::{document_line, document_score};

use crate::engine::config::{Limits, SearchConfig};
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::search::{IterationInfo, Observer, search};
use crate::engine::spec;
use cozy_chess::Board;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// A search to run.
#[derive(Clone, Debug)]
struct Job {
    table: Table,
    variant: String,
    seed: u64,
    depths: std::ops::RangeInclusive<u32>,
}

/// The searches whose times are reported, in the documents' order.
fn timed_jobs(options: &Options) -> Vec<Job> {
    let quiescence = 5..=if options.quick { 5 } else { 6 };
    let mut jobs: Vec<Job> = [
        "minimax".to_string(),
        format!("minimax{SCRATCH_LEAF}"),
        "minimax-q".to_string(),
        format!("minimax-q{SCRATCH_LEAF}"),
        format!("minimax-q{FULL_EVAL}"),
    ]
    .into_iter()
    .map(|variant| Job {
        table: Table::Quiescence,
        // The full-evaluation form only shows what the stand pat's choice does; depth 5 is
        // enough for that and keeps the whole command within its five minutes.
        depths: if variant.contains(FULL_EVAL) {
            5..=5
        } else {
            quiescence.clone()
        },
        variant,
        seed: 0,
    })
    .collect();
    for form in ["", FULL_EVAL] {
        for preset in KILLER_PRESETS {
            // 003 prints no depth-9 row without killers, and its "whole half-move" compares
            // depth 9 with killers against depth 8 without.
            let last = match (options.quick, preset) {
                (true, _) => 7,
                (false, "ifrit-plain") => 8,
                (false, _) => 9,
            };
            jobs.push(Job {
                table: Table::Killers,
                variant: format!("{preset}{form}"),
                seed: 0,
                depths: 7..=last,
            });
        }
    }
    jobs
}

/// The shuffled-order searches: each of 003's configurations under `shuffles` orders at
/// depth 7 and `deep_shuffles` at depth 8, the two killer configurations to depth 9 for
/// those (003's half-move compares them with plain at depth 8). One search gives every depth
/// of its seed.
fn shuffled_jobs(options: &Options) -> Vec<Job> {
    let mut jobs = Vec::new();
    for seed in 1..=options.shuffles.max(options.deep_shuffles) {
        for preset in KILLER_PRESETS {
            let low = if seed <= options.shuffles { 7 } else { 8 };
            let high = match (seed <= options.deep_shuffles, preset) {
                (false, _) => 7,
                (true, "ifrit-plain") => 8,
                (true, _) => 9,
            };
            jobs.push(Job {
                table: Table::Killers,
                variant: format!("{preset}{FULL_EVAL}{SHUFFLED}"),
                seed,
                depths: low..=high,
            });
        }
    }
    // Longest first, so that the side-by-side searches finish together.
    jobs.sort_by_key(|j| {
        std::cmp::Reverse((*j.depths.end(), j.variant.starts_with("ifrit-plain")))
    });
    jobs
}

/// Collects the iterations a job keeps and reports each as it completes.
struct Collector<'a> {
    job: &'a Job,
    rows: Vec<Row>,
    quiet: bool,
}

impl Observer for Collector<'_> {
    fn iteration(&mut self, root: &Board, info: &IterationInfo) {
        if !self.job.depths.contains(&info.depth) {
            return;
        }
        let row = Row {
            table: self.job.table,
            variant: self.job.variant.clone(),
            seed: self.job.seed,
            depth: info.depth,
            seldepth: info.seldepth,
            time_ms: info.iteration_time.as_secs_f64() * 1000.0,
            nodes: info.stats.nodes(),
            interior: info.stats.interior,
            horizon: info.stats.horizon,
            quiescence: info.stats.quiescence,
            nps: info.iteration_nps(),
            score_cp: info.score,
            pv: notation::line(root, &info.pv, notation::long),
        };
        if !self.quiet {
            eprintln!(
                "  {:<60} {}",
                row.variant,
                document_line(
                    row.depth,
                    row.seldepth,
                    row.time_ms / 1000.0,
                    row.document_nodes(),
                    row.document_nps(),
                    row.score_cp,
                    &row.pv
                )
            );
        }
        self.rows.push(row);
    }
}

fn run_job(job: &Job, quiet: bool) -> Result<Vec<Row>, String> {
    let config = SearchConfig {
        limits: Limits::depth(*job.depths.end()),
        seed: job.seed,
        ..spec::parse(&job.variant)?
    };
    let mut collector = Collector {
        job,
        rows: Vec::new(),
        quiet,
    };
    search(Position::startpos(), config, &mut collector)?;
    Ok(collector.rows)
}

/// A job's index and its rows.
type JobResult = (usize, Result<Vec<Row>, String>);

/// Run `jobs`, `threads` at a time, and return their rows in job order.
fn run_jobs(jobs: &[Job], threads: usize, quiet: bool) -> Result<Vec<Row>, String> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<JobResult>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(jobs.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(i) else { break };
                    let rows = run_job(job, quiet);
                    let finished = done.fetch_add(1, Ordering::SeqCst) + 1;
                    if quiet {
                        eprint!("\r  shuffled orders: {finished}/{} searches", jobs.len());
                    }
                    results.lock().expect("no worker panics").push((i, rows));
                }
            });
        }
    });
    if quiet && !jobs.is_empty() {
        eprintln!();
    }
    let mut results = results.into_inner().expect("no worker panics");
    results.sort_by_key(|(i, _)| *i);
    let mut rows = Vec::new();
    for (_, r) in results {
        rows.extend(r?);
    }
    Ok(rows)
}

/// Run the searches: the timed ones one at a time, then the shuffled ones `options.jobs` at
/// a time.
pub fn reproduce(options: &Options) -> Result<Reproduction, String> {
    let start = Instant::now();
    let provenance = crate::harness::provenance::Provenance::now();
    let mut rows = run_jobs(&timed_jobs(options), 1, false)?;
    rows.extend(run_jobs(&shuffled_jobs(options), options.jobs, true)?);
    Ok(Reproduction {
        options: options.clone(),
        provenance,
        wall_s: start.elapsed().as_secs_f64(),
        rows,
        document: document_rows(),
    })
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

    /// A reproduction whose rows are Ifrit's own (as the presets' rows), plus shuffled rows
    /// made from them: the Markdown must print Ifrit's ratios on both sides, the shuffled
    /// distribution and the closest assumption, and the charts must draw.
    #[test]
    fn markdown_and_charts_from_rows() {
        let row = |d: &DocumentRow, variant: String, seed: u64, scale: f64| Row {
            table: d.table,
            variant,
            seed,
            depth: d.depth,
            seldepth: d.seldepth,
            time_ms: d.time_s as f64 * 1000.0,
            nodes: (d.nodes as f64 * scale * 1.5) as u64,
            interior: (d.nodes as f64 * scale * 0.1) as u64,
            horizon: (d.nodes as f64 * scale) as u64,
            quiescence: (d.nodes as f64 * scale * 0.4) as u64,
            nps: d.nps,
            score_cp: d.score_cp,
            pv: d.pv.clone(),
        };
        let mut rows: Vec<Row> = document_rows()
            .iter()
            .map(|d| row(d, d.variant.clone(), 0, 1.0))
            .collect();
        // Shuffled orders whose plain search is 1, 2, 3 times Ifrit's: killer ratios 1-3×
        // Ifrit's, median 2×; the killers to depth 9 as Ifrit's, so the half-move ratio is
        // Ifrit's 0.92 divided by the seed.
        for seed in 1..=3 {
            for d in document_rows().iter().filter(|d| d.table == Table::Killers) {
                let scale = if d.variant == "ifrit-plain" {
                    seed as f64
                } else {
                    1.0
                };
                rows.push(row(
                    d,
                    format!("{}{FULL_EVAL}{SHUFFLED}", d.variant),
                    seed,
                    scale,
                ));
            }
        }
        let r = Reproduction {
            options: Options {
                quick: false,
                jobs: 2,
                shuffles: 3,
                deep_shuffles: 3,
            },
            provenance: crate::harness::provenance::Provenance {
                date: "2026-11-22T00:00:00Z".into(),
                cores: 2,
                ..Default::default()
            },
            wall_s: 1.0,
            rows,
            document: document_rows(),
        };
        let md = markdown::markdown(&r);
        assert!(
            md.contains(
                "| 7 | stated: 000's quiescence | 2.736.235 | 585.459 | **4.67×** | 520.250 | **5.26×** |"
            ),
            "{md}"
        );
        assert!(md.contains("| 7 | Ifrit (003) | 2.736.235 | 585.459 | 4.67× | 520.250 | 5.26× |"));
        assert!(md.contains(
            "| 8 | sensitivity: full evaluation, 3 shuffled orders: median [min – max] | 54.940.846 [27.470.423 – 82.411.269] | 17.44× [8.72 – 26.16] |"
        ), "{md}");
        assert!(
            md.contains(
                "| full evaluation, 3 shuffled orders: median [min – max] | 0.46 [0.31 – 0.92] |"
            ),
            "{md}"
        );
        assert!(
            md.contains(
                "What holds (killers): stated: 000's quiescence, generation order: holds (0.92); "
            ),
            "{md}"
        );
        assert!(
            md.contains("shuffled orders: holds in 3 of 3 orders"),
            "{md}"
        );
        assert!(md.contains(
            "searchlab  5/5    00:05     4.865.609    973.121   +1,19  e2e4 e7e5 Ng1f3 Bf8e7 Nf3xe5"
        ), "{md}");
        assert!(
            md.contains("| 6 | 119.060.324 / 119.060.324 / - | 119.060.324 | yes |"),
            "{md}"
        );
        assert!(
            md.contains("| Ifrit (003, its own order) | 0.92 | 0.61 |"),
            "{md}"
        );
        assert!(
            md.contains("computed after all three readings had been searched"),
            "{md}"
        );
        let dir = std::env::temp_dir().join(format!("searchlab-repro-{}", std::process::id()));
        crate::harness::report::reproduction::write(&r, &dir).unwrap();
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
