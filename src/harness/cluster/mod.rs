//! `searchlab submit` and `searchlab status`: `run`, `match`, `datagen` and `tune` on a Slurm
//! cluster from one command. A submission is an array job of N tasks, task I running the
//! command with `--shard I/N` into `DIR/shard-I.jsonl` (`.bin` for datagen), and a job that
//! starts when every task has succeeded and merges the shards (and writes the report). What
//! it needs of the cluster is a file system every node shares, as Slurm clusters have.
//!
//! - **One engine.** The binary that submits is copied into `DIR` (its checksum in
//!   `DIR/submission.json`) and every task runs that copy, so a rebuild during the run cannot
//!   mix two engines in one result.
//! - **Requeued, resumed.** Tasks are submitted `--requeue`: one that fails with its node or
//!   is pre-empted runs again and resumes its own file (every command's files are resumable).
//!   `submit --resume DIR` submits again the tasks that did not finish (a task cancelled with
//!   `scancel`, say) and the merge after them; nothing is counted twice, since a task resumes
//!   its file instead of starting it anew.
//! - **One live submission per folder**: a second `submit` into a `DIR` whose jobs Slurm
//!   still holds is refused.
//! - **Nothing half-submitted**: `sbatch` missing or refusing (a bad `--sbatch` string, a
//!   partition that does not exist) is named; when the merge job is refused after the array
//!   was accepted, the array is cancelled and no `submission.json` is written.
//! - **Status from the files alone** (`status.rs`): each task writes `DIR/task-I.state`
//!   (`running START JOB` when it starts, `exit CODE END START` when it ends).

pub mod slurm;
pub mod status;
mod submission;

pub use submission::{Jobs, Kind, Submission, read_submission, shard_path, submission_path};

use std::path::{Path, PathBuf};

/// What `searchlab submit` is asked to do.
pub struct SubmitPlan<'a> {
    pub dir: PathBuf,
    pub tasks: Option<usize>,
    pub sbatch: Option<String>,
    pub resume: bool,
    /// `COMMAND ARGS...`.
    pub command: Vec<String>,
    /// Checks a task's full command line (`searchlab COMMAND ARGS --shard 1/N --out …`)
    /// as the binary would parse it, before anything is submitted; returns the folders of its
    /// levels of effort (a match at several levels), or none.
    pub check: TaskCheck<'a>,
}

/// A check of a task's command line; returns the folders of its levels of effort.
pub type TaskCheck<'a> = &'a dyn Fn(&[String]) -> Result<Vec<String>, String>;

/// Submit (or resume) and return what was written to `submission.json`.
pub fn submit(plan: &SubmitPlan) -> Result<Submission, String> {
    std::fs::create_dir_all(&plan.dir).map_err(|e| format!("{}: {e}", plan.dir.display()))?;
    let dir =
        std::fs::canonicalize(&plan.dir).map_err(|e| format!("{}: {e}", plan.dir.display()))?;
    let previous = submission_path(&dir)
        .exists()
        .then(|| read_submission(&dir))
        .transpose()?;
    if let Some(previous) = &previous {
        let ids = previous.job_ids();
        if plan.resume {
            withdraw_stuck_merges(previous)?;
        }
        match slurm::live(&ids) {
            Some(live) if live.is_empty() => {}
            Some(live) => {
                return Err(format!(
                    "{} holds a live submission (jobs {} still in Slurm's queue): wait for it (`{}`), or scancel it first",
                    dir.display(),
                    live.join(", "),
                    status_command(&dir)
                ));
            }
            None => {
                return Err(format!(
                    "{} holds a submission and squeue cannot say whether its jobs ({}) still run: refused",
                    dir.display(),
                    ids.join(", ")
                ));
            }
        }
    }
    let mut submission = match (previous, plan.resume) {
        (Some(previous), true) => resumed(previous)?,
        (None, true) => return Err(format!("--resume: {} holds no submission", dir.display())),
        (Some(_), false) => {
            return Err(format!(
                "{} holds an earlier submission: `submit --resume --dir {}` submits its unfinished tasks again; a new submission needs another --dir",
                dir.display(),
                dir.display()
            ));
        }
        (None, false) => fresh(plan, &dir)?,
    };
    let todo = unfinished(&submission, &dir);
    let merged =
        std::fs::read_to_string(dir.join("merge.state")).is_ok_and(|s| s.starts_with("exit 0"));
    if todo.is_empty() && merged {
        return Err(format!(
            "every task of {} has finished and the merge with them: nothing to resume (`{}`)",
            dir.display(),
            status_command(&dir)
        ));
    }
    // Every task done but the merge failed (a shard unreadable then, say): the merge alone.
    let jobs = if todo.is_empty() {
        let _ = std::fs::remove_file(dir.join("merge.state"));
        queue_merge(&submission, &dir, None)?
    } else {
        queue(&submission, &dir, &todo)?
    };
    submission.jobs.push(jobs);
    let text = serde_json::to_string_pretty(&submission).map_err(|e| e.to_string())? + "\n";
    crate::harness::files::write_atomic(&submission_path(&dir), text)?;
    Ok(submission)
}

/// A new submission: the command checked, the binary copied.
fn fresh(plan: &SubmitPlan, dir: &Path) -> Result<Submission, String> {
    let tasks = plan
        .tasks
        .ok_or("--tasks N is needed for a new submission")?;
    if tasks == 0 || tasks > 100_000 {
        return Err(format!("--tasks is 1..100000, got {tasks}"));
    }
    let (command, args) = plan
        .command
        .split_first()
        .ok_or("no command: submit --tasks N --dir DIR -- run|match|datagen|tune ARGS...")?;
    let kind = Kind::parse(command)?;
    for arg in args {
        let name = arg.split('=').next().unwrap_or(arg);
        if kind.reserved().contains(&name) {
            return Err(format!(
                "{name} is set by submit for each task (--shard I/N, --out {}/shard-I.{}, the merged results and report in {}): leave it out",
                dir.display(),
                kind.extension(),
                dir.display()
            ));
        }
    }
    let sbatch = slurm::extra_args(plan.sbatch.as_deref().unwrap_or(""))?;
    let submission = Submission {
        provenance: crate::harness::provenance::Provenance::now(),
        kind,
        args: args.to_vec(),
        tasks,
        sbatch,
        binary: dir.join("searchlab").display().to_string(),
        binary_checksum: String::new(),
        jobs: Vec::new(),
        levels: Vec::new(),
    };
    let mut line = vec!["searchlab".to_string()];
    line.extend(
        task_args(&submission, dir, "1")
            .into_iter()
            .map(|a| a.replace(CORES, "1")),
    );
    let levels = (plan.check)(&line)?;
    copy_binary(
        Submission {
            levels,
            ..submission
        },
        dir,
    )
}

/// The submitting binary copied into the folder, with its checksum.
fn copy_binary(mut submission: Submission, dir: &Path) -> Result<Submission, String> {
    let me = std::env::current_exe().map_err(|e| format!("this binary's path: {e}"))?;
    let bytes = std::fs::read(&me).map_err(|e| format!("{}: {e}", me.display()))?;
    let target = dir.join("searchlab");
    crate::harness::files::write_atomic(&target, &bytes)?;
    let mut permissions = std::fs::metadata(&target)
        .map_err(|e| e.to_string())?
        .permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&target, permissions).map_err(|e| e.to_string())?;
    submission.binary_checksum = format!("{:016x}", crate::engine::nnue::checksum(&bytes));
    Ok(submission)
}

/// A resumed submission: its binary checked to be the one it ran with.
fn resumed(previous: Submission) -> Result<Submission, String> {
    let bytes = std::fs::read(&previous.binary).map_err(|e| format!("{}: {e}", previous.binary))?;
    let sum = format!("{:016x}", crate::engine::nnue::checksum(&bytes));
    if sum != previous.binary_checksum {
        return Err(format!(
            "{}: checksum {sum}, not the {} the submission ran with: its tasks would mix two engines",
            previous.binary, previous.binary_checksum
        ));
    }
    Ok(previous)
}

/// The tasks whose state file does not say they ended well.
fn unfinished(submission: &Submission, dir: &Path) -> Vec<usize> {
    (1..=submission.tasks)
        .filter(|&i| status::task_state(dir, i) != status::TaskState::Finished)
        .collect()
}

/// The arguments of task `i` (`index` as the shell sees it: a number, or the array's
/// variable).
fn task_args(submission: &Submission, dir: &Path, index: &str) -> Vec<String> {
    let kind = submission.kind;
    let mut args = vec![kind.name().to_string()];
    args.extend(submission.args.iter().cloned());
    args.push("--shard".into());
    args.push(format!("{index}/{}", submission.tasks));
    args.push("--out".into());
    args.push(format!(
        "{}/shard-{index}.{}",
        dir.display(),
        kind.extension()
    ));
    let option = kind.cores_option();
    if !submission
        .args
        .iter()
        .any(|a| a.split('=').next() == Some(option))
    {
        args.push(option.into());
        args.push(CORES.into());
    }
    if kind == Kind::Match && submission.args.iter().any(|a| a.starts_with("--sprt")) {
        // The merged SPRT: each task reads the others' shards after every pair.
        args.push("--shards-dir".into());
        args.push(dir.display().to_string());
    }
    args
}

/// Where a task script's word holds the array index: replaced by `"$I"` outside any quotes.
/// A NUL byte cannot come from a command line, a path or a name, so it cannot collide.
const INDEX: &str = "\0I\0";
/// Where a task script's word holds the cores Slurm gave the task.
const CORES: &str = "\0C\0";

/// A word of a task or merge script, every character of it literal to the shell (`shlex`'s
/// quoting: a folder named `x $(touch P)`, `a"b` or `` `ls` `` stays a name), but for the
/// array index and the task's cores, which the shell fills in; refused when it cannot be
/// quoted.
fn task_script_word(word: &str) -> Result<String, String> {
    let literal = |piece: &str| -> Result<String, String> {
        if piece.is_empty() {
            return Ok(String::new());
        }
        crate::harness::format::for_shell(piece).ok_or_else(|| {
            format!(
                "'{}' cannot be written in a task script (a NUL byte)",
                piece.escape_debug()
            )
        })
    };
    let mut out = String::new();
    for (i, part) in word.split(CORES).enumerate() {
        if i > 0 {
            out.push_str("\"${SLURM_CPUS_PER_TASK:-1}\"");
        }
        for (j, piece) in part.split(INDEX).enumerate() {
            if j > 0 {
                out.push_str("\"$I\"");
            }
            out.push_str(&literal(piece)?);
        }
    }
    Ok(out)
}

/// Every word of a script quoted.
fn task_script_words<'a>(
    words: impl IntoIterator<Item = &'a String>,
) -> Result<Vec<String>, String> {
    words.into_iter().map(|w| task_script_word(w)).collect()
}

/// Submit the array of `todo` tasks and the merge after it.
fn queue(submission: &Submission, dir: &Path, todo: &[usize]) -> Result<Jobs, String> {
    let bin = task_script_word(&submission.binary)?;
    let task = task_script_words(&task_args(submission, dir, INDEX))?;
    let state = task_script_word(&format!("{}/task-{INDEX}.state", dir.display()))?;
    let script = format!(
        "I=$SLURM_ARRAY_TASK_ID; S=$(date +%s); echo \"running $S $SLURM_JOB_ID\" > {state}; {bin} {task}; rc=$?; echo \"exit $rc $(date +%s) $S\" > {state}; exit $rc",
        task = task.join(" ")
    );
    let list: Vec<String> = todo.iter().map(usize::to_string).collect();
    let mut array_args = submission.sbatch.clone();
    array_args.extend([
        format!("--array={}", list.join(",")),
        "--requeue".into(),
        "--open-mode=append".into(),
        format!("--job-name=searchlab-{}", submission.kind.name()),
        format!("--output={}/task-%a.log", dir.display()),
    ]);
    let array = slurm::sbatch(&array_args, &script)?;
    match queue_merge(submission, dir, Some(&array)) {
        Ok(jobs) => Ok(Jobs {
            tasks: todo.to_vec(),
            ..jobs
        }),
        Err(e) => {
            // Nothing half-submitted: the array goes too.
            slurm::scancel(std::slice::from_ref(&array));
            Err(format!(
                "{e} (the merge job; the array {array} was cancelled)"
            ))
        }
    }
}

/// Submit the merge job, after the array `after` when there is one (alone to re-run a merge
/// that failed).
fn queue_merge(submission: &Submission, dir: &Path, after: Option<&str>) -> Result<Jobs, String> {
    let mut merge_args = submission.sbatch.clone();
    merge_args.extend(after.map(|array| format!("--dependency=afterok:{array}")));
    merge_args.extend([
        format!("--job-name=searchlab-{}-merge", submission.kind.name()),
        format!("--output={}/merge.log", dir.display()),
    ]);
    let merge = slurm::sbatch(&merge_args, &merge_script(submission, dir)?)?;
    Ok(Jobs {
        array: after.unwrap_or_default().to_string(),
        merge,
        tasks: Vec::new(),
    })
}

/// Withdraw the merges of `previous` that Slurm holds for tasks that did not end well
/// (`DependencyNeverSatisfied`): they can never run, and `--resume` queues a new one.
fn withdraw_stuck_merges(previous: &Submission) -> Result<(), String> {
    let merges: Vec<String> = previous.jobs.iter().map(|j| j.merge.clone()).collect();
    let Some(states) = slurm::queue_states(&merges) else {
        return Ok(());
    };
    let stuck: Vec<String> = states
        .into_iter()
        .filter(|s| s.reason.contains("DependencyNeverSatisfied"))
        .map(|s| s.id)
        .collect();
    if !stuck.is_empty() {
        eprintln!(
            "withdrawing the merge job {} (it waited for tasks that did not end well)",
            stuck.join(", ")
        );
        slurm::scancel(&stuck);
        // scancel returns before Slurm has forgotten the job: wait until squeue does.
        for _ in 0..100 {
            if slurm::live(&stuck).is_some_and(|l| l.is_empty()) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
    Ok(())
}

/// The merge job: the shards joined, and the report (run, match), the data file with its
/// provenance (datagen) or the trajectories' report (tune).
fn merge_script(submission: &Submission, dir: &Path) -> Result<String, String> {
    let bin = task_script_word(&submission.binary)?;
    let d = |name: &str| task_script_word(&format!("{}/{name}", dir.display()));
    let shards = |dir: &Path| -> Result<String, String> {
        let paths: Vec<String> = (1..=submission.tasks)
            .map(|i| shard_path(dir, submission.kind, i).display().to_string())
            .collect();
        Ok(task_script_words(&paths)?.join(" "))
    };
    let folder = task_script_word(&dir.display().to_string())?;
    if !submission.levels.is_empty() {
        return levels_merge_script(submission, dir, &shards);
    }
    let shards = shards(dir)?;
    let body = match submission.kind {
        Kind::Run | Kind::Match => format!(
            "{bin} merge --out {r} {shards} && {bin} report {r} --out {folder}",
            r = d("results.jsonl")?,
        ),
        Kind::Datagen => format!("{bin} merge --out {} {shards}", d("data.bin")?),
        Kind::Tune => format!("{bin} report {shards} --out {folder}"),
    };
    Ok(format!(
        "{body}; rc=$?; echo \"exit $rc $(date +%s)\" > {}; exit $rc",
        d("merge.state")?
    ))
}

/// The merge job of a match at several levels of effort: each level's shards merged in its
/// folder, then one report of every level (Elo against effort) into `dir`.
fn levels_merge_script(
    submission: &Submission,
    dir: &Path,
    shards: &dyn Fn(&Path) -> Result<String, String>,
) -> Result<String, String> {
    let bin = task_script_word(&submission.binary)?;
    let mut steps = Vec::new();
    let mut merged = Vec::new();
    for level in &submission.levels {
        let folder = dir.join(level);
        let out = task_script_word(&folder.join("results.jsonl").display().to_string())?;
        steps.push(format!("{bin} merge --out {out} {}", shards(&folder)?));
        merged.push(out);
    }
    steps.push(format!(
        "{bin} report {} --out {}",
        merged.join(" "),
        task_script_word(&dir.display().to_string())?
    ));
    Ok(format!(
        "{}; rc=$?; echo \"exit $rc $(date +%s)\" > {}; exit $rc",
        steps.join(" && "),
        task_script_word(&dir.join("merge.state").display().to_string())?
    ))
}

/// The `status` command for a submission's folder, as a shell reads it back (a folder with a
/// space or a quote is quoted).
pub fn status_command(dir: &Path) -> String {
    let shown = dir.display().to_string();
    let word = crate::harness::format::for_shell(&shown).unwrap_or(shown);
    format!("searchlab status {word}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_hint_is_a_command_a_shell_reads_back() {
        assert_eq!(
            status_command(Path::new("/shared/wac")),
            "searchlab status /shared/wac"
        );
        let spaced = status_command(Path::new("/shared/my run's"));
        let script = format!(
            "printf '%s\\n' {}",
            spaced.trim_start_matches("searchlab status ")
        );
        let out = std::process::Command::new("sh")
            .args(["-c", &script])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "/shared/my run's\n");
    }

    /// What `sh` makes of a script's words, with the array index 3 and 2 cores.
    fn as_shell_reads(words: &[String]) -> Vec<String> {
        let script = format!(
            "I=3; SLURM_CPUS_PER_TASK=2; HOME=/home/h; printf '%s\\n' {}",
            words.join(" ")
        );
        let out = std::process::Command::new("sh")
            .args(["-c", &script])
            .current_dir(std::env::temp_dir())
            .output()
            .expect("sh runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn every_word_of_a_task_script_is_literal_but_the_index_and_the_cores() {
        let planted = std::env::temp_dir().join(format!("searchlab-pwned-{}", std::process::id()));
        let hostile = [
            format!("x $(touch {})", planted.display()),
            "a\"b".to_string(),
            "`touch /tmp/searchlab-backtick`".to_string(),
            "$HOME".to_string(),
            "it's; echo no".to_string(),
            "new\nline".to_string(),
        ];
        for name in &hostile {
            let dir = format!("/tmp/{name}");
            let words = [
                format!("{dir}/shard-{INDEX}.jsonl"),
                CORES.to_string(),
                format!("--variant=v{INDEX}{INDEX}"),
            ];
            let quoted: Vec<String> = words.iter().map(|w| task_script_word(w).unwrap()).collect();
            assert_eq!(
                as_shell_reads(&quoted),
                vec![
                    format!("{dir}/shard-3.jsonl"),
                    "2".to_string(),
                    "--variant=v33".to_string()
                ]
                .into_iter()
                .flat_map(|w| w.lines().map(String::from).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
                "{name}"
            );
        }
        assert!(!planted.exists(), "a folder's name ran a command");
        assert!(!Path::new("/tmp/searchlab-backtick").exists());
        assert!(task_script_word("nul\0byte").is_err());
    }
}
