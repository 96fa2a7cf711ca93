//! The room where a run or a match is planned, before anything runs: its players (from
//! SPECs, external engines, ablations and sweeps), its suites, its limits, and the main job
//! that runs when nothing is given. Every variant is made here: `engine_args.rs` reads the
//! engines' descriptions (fastchess's keyed form), `design.rs` makes the designs over our
//! SPECs and `engine_design.rs` those over an engine's options; `external::probe` is the one
//! call out, to probe the engines. `results/` records what was planned and plans nothing.

pub mod design;
pub mod engine_args;
pub mod engine_design;
mod players;

pub use players::{main_job, probed_variants, variants};

use std::path::Path;

use crate::engine::config::Limits;
use crate::engine::score::MAX_PLY;
use crate::harness::bench;
use crate::harness::epd;
use crate::harness::runner::Suite;

/// Where the main job writes its results; its report goes beside them. Not a committed
/// directory (`.gitignore`): a fresh run never overwrites the committed example report in
/// `reports/heuristics/main/`.
pub const MAIN_JOB_OUT: &str = "reports/latest/main/results.jsonl";

/// The project's tactics suite, compiled in for the main job.
pub const TACTICS_EPD: &str = include_str!("../../../suites/tactics.epd");

/// The limits of a run: the one given, or depth 7 when none is.
pub fn limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    default_depth: u32,
) -> Result<Limits, String> {
    let given = [depth.is_some(), nodes.is_some(), movetime.is_some()];
    if given.iter().filter(|&&g| g).count() > 1 {
        return Err(
            "give one limit per search: --depth, --nodes or --movetime (not two of them)".into(),
        );
    }
    let depth = depth.or((nodes.is_none() && movetime.is_none()).then_some(default_depth));
    if let Some(d) = depth {
        check_depth(d)?;
    }
    if nodes == Some(0) {
        return Err("--nodes must be at least 1".into());
    }
    if movetime == Some(0) {
        return Err("--movetime must be at least 1 ms".into());
    }
    Ok(Limits {
        depth,
        nodes,
        movetime_ms: movetime,
        ..Limits::default()
    })
}

/// The one rule for a depth anywhere on the command line: 1 up to the deepest ply.
pub fn check_depth(depth: u32) -> Result<(), String> {
    if depth == 0 || depth >= MAX_PLY as u32 {
        return Err(format!("--depth must be 1..{}, got {depth}", MAX_PLY - 1));
    }
    Ok(())
}

/// The one rule for a number of worker threads: at least one (default: every core).
pub fn jobs(jobs: Option<usize>) -> Result<usize, String> {
    match jobs {
        Some(0) => Err("--jobs must be at least 1".into()),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The suites of a run: the given files, or the main job's embedded bench and tactics suites.
pub fn suites(paths: &[std::path::PathBuf], skip_invalid: bool) -> Result<Vec<Suite>, String> {
    if paths.is_empty() {
        return Ok(vec![
            load_suite(Path::new("suites/bench.epd"), Some(bench::BENCH_EPD), false)?,
            load_suite(Path::new("suites/tactics.epd"), Some(TACTICS_EPD), false)?,
        ]);
    }
    paths
        .iter()
        .map(|p| load_suite(p, None, skip_invalid))
        .collect()
}

/// Read a suite, failing with every bad line or, with `skip_invalid`, warning about them.
fn load_suite(path: &Path, text: Option<&str>, skip_invalid: bool) -> Result<Suite, String> {
    let (records, errors) = match text {
        Some(text) => epd::parse_text_lenient(text, path),
        None => {
            let (text, mut errors) = epd::read_text(path).map_err(|e| e.to_string())?;
            let (records, more) = epd::parse_text_lenient(&text, path);
            errors.extend(more);
            errors.sort_by_key(|e| e.line);
            (records, errors)
        }
    };
    if !errors.is_empty() {
        let listing: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        if !skip_invalid {
            return Err(format!(
                "{} bad line(s) (use --skip-invalid to skip them):\n{}",
                errors.len(),
                listing.join("\n")
            ));
        }
        for line in &listing {
            eprintln!("warning: skipped {line}");
        }
        eprintln!(
            "warning: {} line(s) of {} skipped",
            errors.len(),
            path.display()
        );
    }
    Ok(Suite {
        path: path.to_path_buf(),
        records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_default_to_depth_seven() {
        assert_eq!(limits(None, None, None, 7).unwrap().depth, Some(7));
        assert_eq!(limits(None, Some(1000), None, 7).unwrap().depth, None);
        assert!(
            limits(Some(0), None, None, 7)
                .unwrap_err()
                .contains("--depth must be 1..")
        );
        assert!(
            limits(Some(5), Some(9), None, 7)
                .unwrap_err()
                .contains("one limit")
        );
        assert!(limits(None, Some(0), None, 7).is_err());
        assert!(limits(None, None, Some(0), 7).is_err());
        assert!(jobs(Some(0)).is_err());
        assert_eq!(jobs(Some(3)), Ok(3));
    }
}
