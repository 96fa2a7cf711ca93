//! The three Slurm commands `submit` and `status` use: `sbatch` (submit a job, `--parsable`
//! for its id), `scancel` (withdraw jobs), `squeue` (which jobs still live). Each failure is
//! named with what Slurm said.

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
    if ids.is_empty() {
        return Some(Vec::new());
    }
    let output = Command::new("squeue")
        .args(["--noheader", "--format=%F %i %T", "--jobs"])
        .arg(ids.join(","))
        .output()
        .ok()?;
    // A job id Slurm no longer knows is an error for squeue: none of them live.
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return said.contains("Invalid job id").then(Vec::new);
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut found: Vec<String> = text
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|id| ids.iter().any(|i| i == id))
        .map(str::to_string)
        .collect();
    found.dedup();
    Some(found)
}

/// Split an `--sbatch "EXTRA ARGS"` string as a shell would; refused when it does not split
/// (an unclosed quote).
pub fn extra_args(text: &str) -> Result<Vec<String>, String> {
    shlex::split(text).ok_or_else(|| format!("--sbatch \"{text}\": an unclosed quote"))
}
