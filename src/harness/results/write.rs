//! Writing results files: opening one for a run (locked, so that two runs never write the same
//! file), appending records, and merging the shards of one run.

use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::read::{read_existing, read_results};
use super::records::{Header, PositionRecord, RecordKey, Shard};

/// Open `path` for the run described by `header`: a new file gets the header; an existing file
/// of the same run is resumed (a line cut short by a kill is dropped) and its records are
/// returned; a file of another run is refused. The file stays locked while the returned handle
/// lives: a second run with the same `--out` is refused instead of interleaving its records.
pub fn open_for_run(path: &Path, header: &Header) -> Result<(File, Vec<PositionRecord>), String> {
    let file = open_locked(path)?;
    // Read only once the lock is held, so that what is resumed is what no one else writes.
    let existing = read_results(path)?;
    if let Some(old) = &existing.header
        && !old.same_run(header)
    {
        return Err(format!(
            "{} holds another run (different variants, suites, positions, limits, seeds, shard or results format); choose another --out",
            path.display()
        ));
    }
    if let Some(old) = &existing.header {
        header.provenance.resumes(path, &old.provenance)?;
    }
    if existing.torn_line.is_some() {
        eprintln!(
            "{}: the last line was cut short by the previous run's end; that search is done again",
            path.display()
        );
    }
    file.set_len(existing.complete)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut file = file;
    if existing.header.is_none() {
        append(&mut file, header).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok((file, existing.records))
}

/// Open `path` for appending (its directory made if need be) and take its lock: a second
/// writer is refused with a message instead of interleaving its records.
pub fn open_locked(path: &Path) -> Result<File, String> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    // A child process forked by this one (an external engine, a test's command) shares the
    // file's lock between its fork and its exec, which closes the file: a lock held that
    // briefly is waited for, a real writer's for no longer than `LOCK_PATIENCE`.
    let began = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(TryLockError::WouldBlock) if began.elapsed() < LOCK_PATIENCE => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(TryLockError::WouldBlock) => {
                return Err(format!(
                    "{} is being written by another searchlab run (it holds the file's lock); wait for that run to finish, or choose another --out",
                    path.display()
                ));
            }
            Err(TryLockError::Error(e)) => {
                return Err(format!("{}: cannot lock: {e}", path.display()));
            }
        }
    }
}

/// How long a results file's lock is waited for before the file is taken to be another run's.
const LOCK_PATIENCE: Duration = Duration::from_secs(2);

/// Append one record as a line and flush it, so that a kill loses nothing finished.
pub fn append<T: Serialize>(file: &mut File, record: &T) -> std::io::Result<()> {
    let line = serde_json::to_string(record).expect("records serialise");
    writeln!(file, "{line}").and_then(|_| file.flush())
}

/// What a merge did.
#[derive(Debug)]
pub struct Merged {
    /// Records written.
    pub records: usize,
    /// Shards merged, and of how many.
    pub shards: Option<(usize, usize)>,
    /// Searches of the run found in no shard (also recorded in the merged header).
    pub missing: Vec<RecordKey>,
    /// What the reader should know: damaged or incomplete shards, repeated records.
    pub warnings: Vec<String>,
}

/// Where two headers differ, as a reader names it: the first field (a dotted path) whose
/// values differ, with both values; the date, the cores and the shard are not compared.
pub fn difference<T: Serialize>(a: &T, b: &T) -> String {
    fn walk(path: &str, a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
        use serde_json::Value;
        if a == b {
            return None;
        }
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
                keys.into_iter()
                    .filter(|k| !["date", "cores", "shard"].contains(&k.as_str()))
                    .find_map(|k| {
                        let null = Value::Null;
                        let sub = if path.is_empty() {
                            k.clone()
                        } else {
                            format!("{path}.{k}")
                        };
                        walk(&sub, x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null))
                    })
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| walk(&format!("{path}[{i}]"), p, q)),
            _ => Some(format!(
                "{} is {} in one and {} in the other",
                if path.is_empty() { "the header" } else { path },
                crate::harness::format::clip(&a.to_string(), 120),
                crate::harness::format::clip(&b.to_string(), 120)
            )),
        }
    }
    let (Ok(a), Ok(b)) = (serde_json::to_value(a), serde_json::to_value(b)) else {
        return "the headers differ".into();
    };
    walk("", &a, &b).unwrap_or_else(|| "the headers differ".into())
}

/// A shard (`file`, header `h`) may join the run `first` read from `first_file` (of `count`
/// shards): the same build, the same run and the same count, else refused naming the
/// difference.
fn joins_run(
    first: &Header,
    first_file: &Path,
    h: &Header,
    file: &Path,
    count: Option<usize>,
) -> Result<(), String> {
    first.provenance.joins(first_file, &h.provenance, file)?;
    let shard = h.shard.expect("merge checks the shard");
    let mut same = h.clone();
    same.shard = first.shard;
    if first.same_run(&same) && count == Some(shard.count) {
        return Ok(());
    }
    Err(format!(
        "{} (shard {}/{}) belongs to another run than {}: {}",
        file.display(),
        shard.index,
        shard.count,
        first_file.display(),
        if first.same_run(&same) {
            format!("{} shards against {}", shard.count, count.unwrap_or(1))
        } else {
            difference(first, &same)
        }
    ))
}

/// Join the results files of the shards of one run into `out`, one record per key, in any
/// order. Refuses files of other runs, a whole run among shards and a shard given twice; says
/// which searches no shard holds and records them in the merged header.
pub fn merge(files: &[PathBuf], out: &Path) -> Result<Merged, String> {
    let mut header: Option<(Header, &PathBuf)> = None;
    let mut records = Vec::new();
    let mut warnings = Vec::new();
    let mut by_index: BTreeMap<usize, &PathBuf> = BTreeMap::new();
    let mut count = None;
    for file in files {
        let read = read_existing(file)?;
        warnings.extend(read.problems(file));
        let h = read.header.expect("read_existing checks the header");
        let shard: Shard = h.shard.ok_or_else(|| {
            format!(
                "{}: a whole run (written without --shard): merge joins the shards of one run",
                file.display()
            )
        })?;
        if let Some((first, first_file)) = &header {
            joins_run(first, first_file, &h, file, count)?;
        } else {
            count = Some(shard.count);
            header = Some((h.clone(), file));
        }
        if let Some(other) = by_index.insert(shard.index, file) {
            return Err(format!(
                "{} and {} are both shard {}/{}: give each shard once",
                other.display(),
                file.display(),
                shard.index,
                shard.count
            ));
        }
        records.extend(read.records);
    }
    let (mut header, _) = header.ok_or("merge: no files")?;
    let count = count.unwrap_or(1);
    let absent: Vec<usize> = (1..=count).filter(|i| !by_index.contains_key(i)).collect();
    if !absent.is_empty() {
        warnings.push(format!(
            "shard{} {} of {count} not given: their searches are missing",
            if absent.len() > 1 { "s" } else { "" },
            absent
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    header.shard = None;
    let mut seen = HashSet::new();
    let mut text = String::new();
    for record in &records {
        if seen.insert(record.key()) {
            text += &(serde_json::to_string(record).expect("record serialises") + "\n");
        }
    }
    let missing: Vec<RecordKey> = header
        .planned_whole()
        .map(|planned| planned.into_iter().filter(|k| !seen.contains(k)).collect())
        .unwrap_or_default();
    header.missing = missing.clone();
    let text = serde_json::to_string(&header).expect("header serialises") + "\n" + &text;
    crate::harness::files::write_atomic(out, text)?;
    Ok(Merged {
        records: seen.len(),
        shards: Some((by_index.len(), count)),
        missing,
        warnings,
    })
}
