//! The Slurm commands `submit` and `status` use: `sbatch` (submit a job, `--parsable` for its
//! id), `scancel` (withdraw jobs), `squeue` (which jobs still live, each array task's state
//! and the reason it waits), `sacct` (how an ended job ended, where accounting is kept). Each
//! failure is named with what Slurm said.

use std::process::Command;

/// Submit a job: `sbatch --parsable ARGS --wrap=SCRIPT`; its job id.
pub fn sbatch(args: &[String], script: &str) -> Result<String, String> {
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .arg(format!("--wrap={script}"))
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                "sbatch not found: `submit` needs Slurm's sbatch on PATH (Debian's slurm-client), on a machine of the cluster".to_string()
            }
            _ => format!("sbatch: {e}"),
        })?;
    if !output.status.success() {
        return Err(format!(
            "sbatch refused the job ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    // `--parsable` prints `ID` or `ID;CLUSTER`.
    let id = text.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("sbatch answered '{}', not a job id", text.trim()));
    }
    Ok(id)
}

/// Withdraw jobs (best effort: a job already finished is no error).
pub fn scancel(ids: &[String]) {
    if !ids.is_empty() {
        let _ = Command::new("scancel").args(ids).output();
    }
}

/// The jobs of `ids` (array jobs included, by their parent id) that Slurm still holds
/// (pending, running, requeued): `None` when `squeue` cannot be asked.
pub fn live(ids: &[String]) -> Option<Vec<String>> {
    let text = squeue(ids, &["--format=%F %i %T"])?;
    let mut found: Vec<String> = text
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|id| ids.iter().any(|i| i == id))
        .map(str::to_string)
        .collect();
    found.dedup();
    Some(found)
}

/// A job or array task as Slurm reports it: `ID` or `ARRAY_TASK`, its state (`PENDING`,
/// `RUNNING`, `CANCELLED`, `FAILED`, `TIMEOUT`, `NODE_FAIL`, …) and, while it waits, why
/// (`Resources`, `DependencyNeverSatisfied`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobState {
    pub id: String,
    pub state: String,
    pub reason: String,
}

/// The live jobs among `ids` (and each task of an array), from `squeue --array`; `None` when
/// squeue cannot be asked.
pub fn queue_states(ids: &[String]) -> Option<Vec<JobState>> {
    Some(parse_states(&squeue(
        ids,
        &["--array", "--format=%i|%T|%r"],
    )?))
}

/// What `squeue --noheader ARGS --jobs IDS` prints; empty for no ids or ids Slurm no longer
/// knows (an error for squeue: none of them live); `None` when squeue cannot be asked.
fn squeue(ids: &[String], args: &[&str]) -> Option<String> {
    if ids.is_empty() {
        return Some(String::new());
    }
    let output = Command::new("squeue")
        .arg("--noheader")
        .args(args)
        .arg("--jobs")
        .arg(ids.join(","))
        .output()
        .ok()?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return said.contains("Invalid job id").then(String::new);
    }
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// How the jobs among `ids` ended, from `sacct` (each array task as `ARRAY_TASK`); `None`
/// where Slurm keeps no accounting (a cluster without slurmdbd) or sacct cannot be asked.
pub fn accounting(ids: &[String]) -> Option<Vec<JobState>> {
    if ids.is_empty() {
        return Some(Vec::new());
    }
    let output = Command::new("sacct")
        .args([
            "--noheader",
            "--parsable2",
            "--allocations",
            "--format=JobID,State,Reason",
            "--jobs",
        ])
        .arg(ids.join(","))
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let states = parse_states(&String::from_utf8_lossy(&output.stdout));
    (!states.is_empty()).then_some(states)
}

/// `ID|STATE|REASON` lines; a state's qualifier (`CANCELLED by 0`) is cut to its word.
fn parse_states(text: &str) -> Vec<JobState> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.trim().split('|');
            let id = fields.next()?.trim().to_string();
            let state = fields.next()?.split_whitespace().next()?.to_string();
            let reason = fields.next().unwrap_or("").trim().to_string();
            (!id.is_empty()).then_some(JobState { id, state, reason })
        })
        .collect()
}

/// Split an `--sbatch "EXTRA ARGS"` string as a shell would; refused when it does not split
/// (an unclosed quote).
pub fn extra_args(text: &str) -> Result<Vec<String>, String> {
    shlex::split(text).ok_or_else(|| format!("--sbatch \"{text}\": an unclosed quote"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_as_squeue_and_sacct_print_them() {
        let states = parse_states(
            "41_1|RUNNING|None\n41_2|CANCELLED by 0|None\n42|PENDING|DependencyNeverSatisfied\n",
        );
        assert_eq!(states.len(), 3);
        assert_eq!(states[1].state, "CANCELLED");
        assert_eq!(states[2].reason, "DependencyNeverSatisfied");
    }
}
