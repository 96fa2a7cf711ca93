//! `searchlab status DIR`: a submission's standing from its folder's files alone (no Slurm
//! command): each task finished, running, failed or pending; the results so far (for a match,
//! W-D-L, Elo and the merged SPRT's LLR); and the time left at the rate so far.

use std::path::Path;

use super::slurm::{self, JobState};
use super::submission::{Kind, Submission, read_submission, shard_path};
use crate::harness::games::playing::record::read_matches;
use crate::harness::games::rating::tally::{status_line, tally};

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

/// What Slurm says of the submission's latest jobs: each array task still queued (pending
/// with its reason, or running) or, where accounting is kept, how it ended; and the merge.
#[derive(Default)]
struct SlurmView {
    /// Slurm could be asked (squeue answered).
    asked: bool,
    tasks: std::collections::BTreeMap<usize, JobState>,
    merge: Option<JobState>,
    /// The tasks and the merge squeue still holds.
    live_tasks: std::collections::BTreeSet<usize>,
    live_merge: bool,
    /// The tasks the latest array runs.
    latest: std::collections::BTreeSet<usize>,
}

impl SlurmView {
    fn of(submission: &Submission) -> SlurmView {
        let mut view = SlurmView::default();
        let Some(jobs) = submission.jobs.last() else {
            return view;
        };
        let ids: Vec<String> = [&jobs.array, &jobs.merge]
            .into_iter()
            .filter(|id| !id.is_empty())
            .cloned()
            .collect();
        let Some(live) = slurm::queue_states(&ids) else {
            return view;
        };
        view.asked = true;
        view.latest = jobs.tasks.iter().copied().collect();
        let ended = slurm::accounting(&ids).unwrap_or_default();
        let prefix = format!("{}_", jobs.array);
        for (state, is_live) in ended
            .into_iter()
            .map(|s| (s, false))
            .chain(live.into_iter().map(|s| (s, true)))
        {
            if state.id == jobs.merge {
                view.live_merge |= is_live;
                view.merge = Some(state);
            } else if let Some(i) = state.id.strip_prefix(&prefix).and_then(|i| i.parse().ok()) {
                if is_live {
                    view.live_tasks.insert(i);
                }
                view.tasks.insert(i, state);
            }
        }
        view
    }

    /// A task whose state file says it runs (or has not started) but that Slurm no longer
    /// holds ended without a word: cancelled, killed, timed out, its node failed. Its
    /// state, as the counts read it, is failed; the line says what Slurm knows.
    fn settle(&self, dir: &Path, i: usize, state: TaskState) -> (TaskState, Option<String>) {
        if !self.asked || !matches!(state, TaskState::Running { .. } | TaskState::Pending) {
            return (state, None);
        }
        let known = self.tasks.get(&i);
        if self.live_tasks.contains(&i) {
            return match known {
                Some(s) if s.state == "PENDING" => {
                    (state, Some(format!("  task {i} pending: {}\n", s.reason)))
                }
                _ => (state, None),
            };
        }
        if !self.latest.contains(&i) {
            return (state, None);
        }
        let how = known.map_or("Slurm no longer holds it (cancelled, killed, timed out or its node failed; this cluster keeps no accounting to say which)".to_string(), |s| format!("Slurm says {}{}", s.state, if s.reason.is_empty() || s.reason == "None" { String::new() } else { format!(" ({})", s.reason) }));
        let line = format!(
            "  task {i} {}: {how}; its log is {}/task-{i}.log\n",
            if state == TaskState::Pending {
                "left Slurm's queue without starting"
            } else {
                "ended without writing its state"
            },
            dir.display()
        );
        (TaskState::Failed { code: -1 }, Some(line))
    }

    /// The merge job pending on tasks that did not end well: it can never run.
    fn merge_stuck(&self) -> Option<&JobState> {
        self.merge
            .as_ref()
            .filter(|m| self.live_merge && m.reason.contains("DependencyNeverSatisfied"))
    }
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
            .map(|j| match j.array.as_str() {
                "" => format!("merge {}", j.merge),
                array => format!("array {array} + merge {}", j.merge),
            })
            .collect::<Vec<_>>()
            .join(", then ")
    );
    let view = SlurmView::of(&submission);
    let (states, notes): (Vec<TaskState>, Vec<Option<String>>) = (1..=submission.tasks)
        .map(|i| view.settle(dir, i, task_state(dir, i)))
        .unzip();
    let count = |f: fn(&TaskState) -> bool| states.iter().filter(|s| f(s)).count();
    out += &format!(
        "tasks: {} finished, {} running, {} failed, {} pending\n",
        count(|s| *s == TaskState::Finished),
        count(|s| matches!(s, TaskState::Running { .. })),
        count(|s| matches!(s, TaskState::Failed { .. })),
        count(|s| *s == TaskState::Pending)
    );
    let resume = format!(
        "`searchlab submit --resume --dir {}`",
        crate::harness::format::for_shell(&dir.display().to_string()).unwrap_or_default()
    );
    for (i, (state, note)) in states.iter().zip(&notes).enumerate() {
        match (state, note) {
            (_, Some(note)) => out += note,
            (TaskState::Failed { code }, None) => {
                out += &format!(
                    "  task {} failed (exit {code}): its log is {}/task-{}.log\n",
                    i + 1,
                    dir.display(),
                    i + 1
                )
            }
            _ => {}
        }
    }
    if count(|s| matches!(s, TaskState::Failed { .. })) > 0 {
        out += &format!("  {resume} runs the failed tasks again\n");
    }
    let (text, done) = results(&submission, dir);
    out += &text;
    out += &time_left(dir, &submission, done, &states);
    out += &merge_line(dir, &submission, &view, &resume);
    Ok(out)
}

/// What became of the merge: done, failed, stuck behind a task that did not end well, or
/// waiting for the tasks.
fn merge_line(dir: &Path, submission: &Submission, view: &SlurmView, resume: &str) -> String {
    if let Some(stuck) = view.merge_stuck() {
        return format!(
            "the merge (job {}) can never run: Slurm holds it for tasks that did not end well ({}); {resume} withdraws it, runs those tasks again and queues a new merge\n",
            stuck.id, stuck.reason
        );
    }
    match std::fs::read_to_string(dir.join("merge.state")) {
        Ok(s) if s.starts_with("exit 0") => {
            format!("merged: {}\n", merged_name(dir, submission.kind))
        }
        Ok(s) => format!(
            "the merge failed ({}): see {}/merge.log; {resume} runs it again\n",
            s.trim(),
            dir.display()
        ),
        Err(_) => "the merge runs when every task has finished\n".to_string(),
    }
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
    if !submission.levels.is_empty() {
        return levels_results(submission, dir);
    }
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

/// A match at several levels of effort: each level's results, and the mean of the levels'
/// shares done (`None` when any level's share is not known).
fn levels_results(submission: &Submission, dir: &Path) -> (String, Option<f64>) {
    let mut text = String::new();
    let mut shares = Some(0.0);
    for level in &submission.levels {
        let folder = dir.join(level);
        let shards: Vec<std::path::PathBuf> = (1..=submission.tasks)
            .map(|i| shard_path(&folder, submission.kind, i))
            .filter(|p| p.exists())
            .collect();
        let (lines, done) = if shards.is_empty() {
            ("results so far: none\n".to_string(), Some(0.0))
        } else {
            match_results(&shards)
        };
        text += &format!("level {level}:\n{lines}");
        shares = shares.zip(done).map(|(sum, d)| sum + d);
    }
    (text, shares.map(|s| s / submission.levels.len() as f64))
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
        decided &= r.sprt.as_ref().is_some_and(|s| {
            s.decision != crate::harness::games::rating::stats::Decision::Continue
        });
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

/// A run's searches recorded against the whole run's (not only the readable shards'), and
/// each shard that cannot be read named with the reason.
fn run_results(shards: &[std::path::PathBuf]) -> (String, Option<f64>) {
    let (mut have, mut planned) = (0usize, 0usize);
    let mut unreadable = String::new();
    for path in shards {
        match crate::harness::results::read_results(path) {
            Ok(read) => {
                have += read.records.len();
                let whole = read.header.as_ref().and_then(|h| h.planned_whole());
                planned = planned.max(whole.map_or(0, |p| p.len()));
            }
            Err(e) => unreadable += &format!("  a shard cannot be read: {e}\n"),
        }
    }
    (
        format!("results so far: {have} of {planned} searches recorded\n{unreadable}"),
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
    if !states
        .iter()
        .any(|s| matches!(s, TaskState::Running { .. } | TaskState::Pending))
    {
        return "time left: none: no task runs or waits, and some did not finish\n".into();
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
