//! A match's report: Markdown, analysis.json, verdicts, the charts, and the report of a match played at several levels.

pub mod charts;
pub mod effort;
pub mod report;

use std::path::{Path, PathBuf};

use crate::harness::games::rating::goal::Goal;

/// The report of match results files (`files`: one match or its shards, or a match of
/// levels), written into `dir`.
pub fn render(files: &[PathBuf], dir: &Path, goals: &[Goal]) -> Result<(), String> {
    if effort::is_effort_run(files)? {
        if !goals.is_empty() {
            return Err("--goal applies to one match; this is a match of levels".into());
        }
        let analysis = effort::analyse(files)?;
        for warning in &analysis.warnings {
            eprintln!("warning: {warning}");
        }
        effort::write(&analysis, dir)?;
        print!("{}\n{}\n", analysis.tables(), analysis.summary());
        eprintln!("report: {}", dir.join("report.md").display());
        return Ok(());
    }
    let analysis = report::analyse(files, goals)?;
    for warning in &analysis.warnings {
        eprintln!("warning: {warning}");
    }
    report::write(&analysis, dir)?;
    print!("{}", report::table(&analysis));
    eprintln!("report: {}", dir.join("report.md").display());
    Ok(())
}
