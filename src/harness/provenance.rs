//! Who wrote a file and with what: searchlab's version and commit, the network that evaluated,
//! when and on how many cores. Every results header, the data and training logs, the
//! reproduction and a cluster submission carry this one record, flattened into their JSON, so a
//! reader finds the same fields under the same names in each.

use serde::{Deserialize, Serialize};

/// The provenance of a file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// searchlab's version (absent in reproductions written before it was recorded).
    #[serde(default)]
    pub searchlab: String,
    /// The git commit searchlab was built from, when known (`-dirty`: with local changes).
    pub commit: Option<String>,
    /// The NNUE network's checksum when `--net FILE` replaced the embedded one (absent: the
    /// network embedded at `commit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub net: Option<String>,
    /// When the file was begun (RFC 3339, UTC; absent in data and training logs written
    /// before it was recorded).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub date: String,
    /// Logical cores of the machine (absent where it was not recorded).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cores: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Provenance {
    /// This build, its network, now, this machine.
    pub fn now() -> Self {
        Provenance {
            searchlab: env!("CARGO_PKG_VERSION").into(),
            commit: git_commit(),
            net: crate::engine::nnue::replaced_default_checksum(),
            date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }

    /// The part that decides results when the configuration is recorded apart: the network
    /// (a file resumed by another build of the same search holds the same results).
    pub fn network(&self) -> Provenance {
        Provenance {
            net: self.net.clone(),
            ..Provenance::default()
        }
    }

    /// The build and the network: what a data file resumed or merged must share (its games
    /// are the build's, not only the configuration's).
    pub fn build(&self) -> Provenance {
        Provenance {
            commit: self.commit.clone(),
            ..self.network()
        }
    }

    /// A file begun under `began` (at `path`) may be resumed by this build only: a results
    /// file's records come from one build.
    pub fn resumes(&self, path: &std::path::Path, began: &Provenance) -> Result<(), String> {
        if began.commit == self.commit {
            return Ok(());
        }
        Err(format!(
            "{} was begun by the build of commit {} and this is commit {}: a results file's records come from one build, so resume it with that build, or choose another --out",
            path.display(),
            began.commit.as_deref().unwrap_or("(none)"),
            self.commit.as_deref().unwrap_or("(none)")
        ))
    }
}

impl Provenance {
    /// Two files (`path` with this provenance, `other_path` with `other`) may be joined into
    /// one result (`merge`, a report over shards) only when one build wrote both: the same
    /// version and the same commit. Refused otherwise, naming the two headers' difference.
    pub fn joins(
        &self,
        path: &std::path::Path,
        other: &Provenance,
        other_path: &std::path::Path,
    ) -> Result<(), String> {
        let differ = |what: &str, a: &str, b: &str| {
            Err(format!(
                "{} and {} were written by different builds ({what} {b} against {a}): shards join only when one build wrote them all; re-run the stranger with the build of the others",
                other_path.display(),
                path.display(),
            ))
        };
        if self.searchlab != other.searchlab {
            return differ("version", &self.searchlab, &other.searchlab);
        }
        if self.commit != other.commit {
            let name = |c: &Option<String>| c.clone().unwrap_or_else(|| "(none)".into());
            return differ("commit", &name(&self.commit), &name(&other.commit));
        }
        Ok(())
    }
}

/// The commit this binary was built from (`-dirty` with local changes), when known.
pub fn git_commit() -> Option<String> {
    let commit = env!("SEARCHLAB_COMMIT");
    (!commit.is_empty()).then(|| commit.to_string())
}
