//! A match's report: Markdown, analysis.json, verdicts, the charts, and the report of a match played at several levels.

pub mod charts;
pub mod effort;
pub mod report;

use std::path::{Path, PathBuf};

use crate::harness::games::rating::goal::Goal;

/// The report of match results files (`files`: one match or its shards, or a match of
/// levels, where each goal is judged at every level), written into `dir`.
pub fn render(files: &[PathBuf], dir: &Path, goals: &[Goal]) -> Result<(), String> {
    if effort::is_effort_run(files)? {
        let analysis = effort::analyse(files, goals)?;
        for warning in &analysis.warnings {
            eprintln!("warning: {warning}");
        }
        for level in &analysis.levels {
            keeps_its_goals(&dir.join(&level.folder), goals)?;
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
    keeps_its_goals(dir, goals)?;
    report::write(&analysis, dir)?;
    print!("{}", report::table(&analysis));
    eprintln!("report: {}", dir.join("report.md").display());
    Ok(())
}

/// Refuse to write a match report into `dir` when its `verdicts.json` judges a goal that
/// `goals` leaves out: the new report would drop that verdict without a word (a level's
/// `report --goal` written over by the report of all the levels, say).
fn keeps_its_goals(dir: &Path, goals: &[Goal]) -> Result<(), String> {
    let path = dir.join("verdicts.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    let judged: Vec<crate::harness::verdicts::Verdict> =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let given: Vec<String> = goals.iter().map(Goal::to_string).collect();
    let mut dropped: Vec<String> = Vec::new();
    for goal in judged.into_iter().filter_map(|v| v.goal) {
        if !given.contains(&goal) && !dropped.contains(&goal) {
            dropped.push(goal);
        }
    }
    if dropped.is_empty() {
        return Ok(());
    }
    let flags: Vec<String> = dropped.iter().map(|g| format!("--goal '{g}'")).collect();
    Err(format!(
        "{} judges the goal{} {}, which this report would drop: pass {} (or remove the file to drop {})",
        path.display(),
        if dropped.len() == 1 { "" } else { "s" },
        dropped.join(", "),
        flags.join(" "),
        if dropped.len() == 1 { "it" } else { "them" }
    ))
}
