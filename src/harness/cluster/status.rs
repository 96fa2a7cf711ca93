//! `searchlab status DIR`: a submission's standing from its folder's files alone (no Slurm
//! command): each task finished, running, failed or pending; the results so far (for a match,
//! W-D-L, Elo and the merged SPRT's LLR); and the time left at the rate so far.

use std::path::Path;

use super::submission::{Kind, Submission, read_submission, shard_path};
use crate::harness::games::record::read_matches;
use crate::harness::games::tally::{status_line, tally};

/// What a task's state file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskState {
    /// No state file: not started yet.
    Pending,
    /// Started at this Unix time, not ended (or killed without a word).
    Running {
        since: u64,
    },
    Finished,
    Failed {
        code: i32,
    },
}

/// The state of task `i` in `dir`.
pub fn task_state(dir: &Path, i: usize) -> TaskState {
    let Ok(text) = std::fs::read_to_string(dir.join(format!("task-{i}.state"))) else {
        return TaskState::Pending;
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["running", since, ..] => TaskState::Running {
            since: since.parse().unwrap_or(0),
        },
        ["exit", "0", ..] => TaskState::Finished,
        ["exit", code, ..] => TaskState::Failed {
            code: code.parse().unwrap_or(-1),
        },
        _ => TaskState::Pending,
    }
}

/// The earliest start among the tasks' state files, Unix seconds.
fn first_start(dir: &Path, tasks: usize) -> Option<u64> {
    (1..=tasks)
        .filter_map(|i| std::fs::read_to_string(dir.join(format!("task-{i}.state"))).ok())
        .filter_map(|text| {
            let words: Vec<&str> = text.split_whitespace().collect();
            match words.as_slice() {
                ["running", since, ..] => since.parse().ok(),
                ["exit", _, _, since, ..] => since.parse().ok(),
                _ => None,
            }
        })
        .min()
}

/// The status report of the submission in `dir`.
pub fn status(dir: &Path) -> Result<String, String> {
    let submission = read_submission(dir)?;
    let mut out = format!(
        "{} of {} tasks in {} (arguments: {}); binary {} (checksum {}), commit {}; jobs {}\n",
        submission.kind.name(),
        submission.tasks,
        dir.display(),
        submission.args.join(" "),
        submission.binary,
        submission.binary_checksum,
        submission.provenance.commit.as_deref().unwrap_or("unknown"),
        submission
            .jobs
            .iter()
            .map(|j| format!("array {} + merge {}", j.array, j.merge))
            .collect::<Vec<_>>()
            .join(", then ")
    );
    let states: Vec<TaskState> = (1..=submission.tasks).map(|i| task_state(dir, i)).collect();
    let count = |f: fn(&TaskState) -> bool| states.iter().filter(|s| f(s)).count();
    out += &format!(
        "tasks: {} finished, {} running, {} failed, {} pending\n",
        count(|s| *s == TaskState::Finished),
        count(|s| matches!(s, TaskState::Running { .. })),
        count(|s| matches!(s, TaskState::Failed { .. })),
        count(|s| *s == TaskState::Pending)
    );
    for (i, state) in states.iter().enumerate() {
        if let TaskState::Failed { code } = state {
            out += &format!(
                "  task {} failed (exit {code}): its log is {}/task-{}.log; `searchlab submit --resume --dir {}` runs it again\n",
                i + 1,
                dir.display(),
                i + 1,
                dir.display()
            );
        }
    }
    let (text, done) = results(&submission, dir);
    out += &text;
    out += &time_left(dir, &submission, done, &states);
    out += &match std::fs::read_to_string(dir.join("merge.state")) {
        Ok(s) if s.starts_with("exit 0") => {
            format!("merged: {}\n", merged_name(dir, submission.kind))
        }
        Ok(s) => format!(
            "the merge failed ({}): see {}/merge.log\n",
            s.trim(),
            dir.display()
        ),
        Err(_) => "the merge runs when every task has finished\n".to_string(),
    };
    Ok(out)
}

fn merged_name(dir: &Path, kind: Kind) -> String {
    match kind {
        Kind::Run | Kind::Match => format!("{}/results.jsonl and its report", dir.display()),
        Kind::Datagen => format!("{}/data.bin with data.bin.json", dir.display()),
        Kind::Tune => format!("{}/tune.md", dir.display()),
    }
}

/// The results so far, and the share of the planned work done (`None`: not known, as for an
/// SPRT that has not decided).
fn results(submission: &Submission, dir: &Path) -> (String, Option<f64>) {
    let shards: Vec<std::path::PathBuf> = (1..=submission.tasks)
        .map(|i| shard_path(dir, submission.kind, i))
        .filter(|p| p.exists())
        .collect();
    if shards.is_empty() {
        return ("results so far: none\n".into(), Some(0.0));
    }
    match submission.kind {
        Kind::Match => match_results(&shards),
        Kind::Run => run_results(&shards),
        Kind::Datagen => datagen_results(&shards),
        Kind::Tune => tune_results(&shards),
    }
}

fn match_results(shards: &[std::path::PathBuf]) -> (String, Option<f64>) {
    let Ok((header, pairs, _)) = read_matches(shards) else {
        return (
            "results so far: the shards cannot be read yet\n".into(),
            None,
        );
    };
    let results = tally(&header, &pairs);
    let mut text = String::new();
    let mut decided = true;
    for r in &results {
        text += &format!("results so far: {}\n", status_line(r));
        decided &= r
            .sprt
            .as_ref()
            .is_some_and(|s| s.decision != crate::harness::games::stats::Decision::Continue);
    }
    let planned = header.planned().len().max(1);
    let done = if decided {
        Some(1.0)
    } else if header.sprt.is_some() {
        None
    } else {
        Some(pairs.len() as f64 / planned as f64)
    };
    (text, done)
}

fn run_results(shards: &[std::path::PathBuf]) -> (String, Option<f64>) {
    let (mut have, mut planned) = (0usize, 0usize);
    for path in shards {
        if let Ok(read) = crate::harness::results::read_results(path) {
            have += read.records.len();
            planned += read
                .header
                .as_ref()
                .and_then(|h| h.planned())
                .map_or(0, |p| p.len());
        }
    }
    (
        format!("results so far: {have} of {planned} searches recorded\n"),
        (planned > 0).then(|| have as f64 / planned as f64),
    )
}

fn datagen_results(shards: &[std::path::PathBuf]) -> (String, Option<f64>) {
    let (mut games, mut positions, mut planned) = (0u64, 0u64, 0u64);
    for path in shards {
        let sidecar = crate::harness::nnue::datagen::provenance_path(path);
        let Ok(text) = std::fs::read_to_string(&sidecar) else {
            continue;
        };
        let Ok(p) = serde_json::from_str::<crate::harness::nnue::datagen::DataRun>(&text) else {
            continue;
        };
        games += p.progress.games_done;
        positions += p.progress.positions;
        planned = p.games;
    }
    (
        format!("results so far: {games} of {planned} games, {positions} positions\n"),
        (planned > 0).then(|| games as f64 / planned as f64),
    )
}

fn tune_results(shards: &[std::path::PathBuf]) -> (String, Option<f64>) {
    let (mut done, mut planned) = (0u64, 0u64);
    for path in shards {
        if let Ok(file) = crate::harness::tune::read(path) {
            done += file.lines.len() as u64;
            planned += file.header.map_or(0, |h| h.schedule.iterations);
        }
    }
    (
        format!("results so far: {done} of {planned} iterations (all trajectories)\n"),
        (planned > 0).then(|| done as f64 / planned as f64),
    )
}

/// The time left at the rate so far: the wall time since the first task started, scaled by
/// what remains of the work.
fn time_left(
    dir: &Path,
    submission: &Submission,
    done: Option<f64>,
    states: &[TaskState],
) -> String {
    if states.iter().all(|s| *s == TaskState::Finished) {
        return "time left: none, every task has finished\n".into();
    }
    let Some(start) = first_start(dir, submission.tasks) else {
        return "time left: unknown until a task starts\n".into();
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let elapsed = now.saturating_sub(start) as f64;
    match done {
        Some(f) if f > 0.0 && f < 1.0 => format!(
            "time left: about {} at the rate so far ({:.0}% done in {})\n",
            humantime::format_duration(std::time::Duration::from_secs(
                (elapsed * (1.0 - f) / f) as u64
            )),
            100.0 * f,
            humantime::format_duration(std::time::Duration::from_secs(elapsed as u64))
        ),
        Some(_) => "time left: unknown at this point\n".into(),
        None => format!(
            "time left: until the SPRT decides ({} so far)\n",
            humantime::format_duration(std::time::Duration::from_secs(elapsed as u64))
        ),
    }
}
