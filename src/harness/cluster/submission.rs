//! What a submission is: the commands it may run, `DIR/submission.json`, and where its
//! files lie in its folder.

use std::path::{Path, PathBuf};

use crate::harness::provenance::Provenance;
use serde::{Deserialize, Serialize};

/// The commands a submission may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Run,
    Match,
    Datagen,
    Tune,
}

impl Kind {
    pub fn parse(command: &str) -> Result<Kind, String> {
        match command {
            "run" => Ok(Kind::Run),
            "match" => Ok(Kind::Match),
            "datagen" => Ok(Kind::Datagen),
            "tune" => Ok(Kind::Tune),
            other => Err(format!(
                "submit runs run, match, datagen or tune, not '{other}'"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Run => "run",
            Kind::Match => "match",
            Kind::Datagen => "datagen",
            Kind::Tune => "tune",
        }
    }

    /// The extension of a task's file.
    pub(super) fn extension(self) -> &'static str {
        match self {
            Kind::Datagen => "bin",
            _ => "jsonl",
        }
    }

    /// The options `submit` sets for each task, refused in the command given.
    pub(super) fn reserved(self) -> &'static [&'static str] {
        match self {
            Kind::Run => &["--out", "--shard", "--report"],
            Kind::Match => &["--out", "--shard", "--pgn", "--shards-dir"],
            Kind::Datagen | Kind::Tune => &["--out", "--shard"],
        }
    }

    /// The option that sets how many cores a task uses.
    pub(super) fn cores_option(self) -> &'static str {
        match self {
            Kind::Run | Kind::Datagen => "--jobs",
            Kind::Match | Kind::Tune => "--concurrency",
        }
    }
}

/// One `sbatch` of a submission: the array (and which of its tasks) and the merge after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Jobs {
    pub array: String,
    pub merge: String,
    /// The tasks (1-based) this array runs.
    pub tasks: Vec<usize>,
}

/// `DIR/submission.json`: what was submitted, by which build, as which jobs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Submission {
    /// searchlab's version and commit, the network, when it was submitted, the cores.
    #[serde(flatten)]
    pub provenance: Provenance,
    pub kind: Kind,
    /// The command's arguments as given (each task adds `--shard I/N` and `--out`).
    pub args: Vec<String>,
    pub tasks: usize,
    /// The extra `sbatch` arguments.
    pub sbatch: Vec<String>,
    /// The binary every task runs (the submitting one, copied) and its FNV-1a checksum.
    pub binary: String,
    pub binary_checksum: String,
    /// The submission first, then each `--resume`.
    pub jobs: Vec<Jobs>,
    /// A match at several levels of effort: each level's folder in `dir` (`nodes-2000`), where
    /// its shards are written and merged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<String>,
}

impl Submission {
    /// Every job id, newest last.
    pub fn job_ids(&self) -> Vec<String> {
        self.jobs
            .iter()
            .flat_map(|j| [j.array.clone(), j.merge.clone()])
            .filter(|id| !id.is_empty())
            .collect()
    }
}

/// The file of submission facts in `dir`.
pub fn submission_path(dir: &Path) -> PathBuf {
    dir.join("submission.json")
}

/// Task `i`'s file.
pub fn shard_path(dir: &Path, kind: Kind, i: usize) -> PathBuf {
    dir.join(format!("shard-{i}.{}", kind.extension()))
}

/// Read `dir/submission.json`.
pub fn read_submission(dir: &Path) -> Result<Submission, String> {
    let path = submission_path(dir);
    let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!(
            "{}: no submission here (`searchlab submit --dir {}` makes one)",
            path.display(),
            dir.display()
        ),
        _ => format!("{}: {e}", path.display()),
    })?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a submission: {e}", path.display()))
}
