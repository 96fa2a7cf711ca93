//! The results files of `searchlab run`: the record types, the key that identifies a search,
//! reading (plain or gzipped), opening a file to resume a run, and merging the shards of one
//! run. Everything that reads or writes a results file goes through this module.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::external;
use crate::engine::config::{Limits, SearchConfig};
use crate::engine::stats::HeuristicCounters;

/// The results format written by this searchlab: 2 = heuristic counters follow the rules of
/// `engine::stats` (one meaning, forms under their own keys).
pub const FORMAT: u32 = 2;

/// One configuration under test.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Variant {
    /// Its name in tables and records.
    pub label: String,
    /// The SPEC it came from.
    pub spec: String,
    /// The full configuration (every parameter, the seed set per search).
    pub config: SearchConfig,
    /// An external UCI engine instead of searchlab's own search.
    #[serde(default)]
    pub engine: Option<external::EngineSpec>,
}

/// Which part of the task list this process runs: `index` of `count` (1-based).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Shard {
    /// 1-based index.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl Shard {
    /// Parse `I/N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| format!("--shard is I/N, got '{text}'"))?;
        let index: usize = i.parse().map_err(|_| format!("--shard: bad index '{i}'"))?;
        let count: usize = n.parse().map_err(|_| format!("--shard: bad count '{n}'"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("--shard: need 1 <= I <= N, got {index}/{count}"));
        }
        Ok(Shard { index, count })
    }
}

/// The first record of a results file: what the run is.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Header {
    /// Always `header`.
    #[serde(rename = "type")]
    pub kind: String,
    /// searchlab's version.
    pub searchlab: String,
    /// The git commit searchlab was built from, when known (`-dirty`: with local changes).
    pub commit: Option<String>,
    /// When the run started (RFC 3339, UTC).
    pub date: String,
    /// Logical cores of the machine.
    pub cores: usize,
    /// The limits of every search.
    pub limits: Limits,
    /// The variants, with every parameter.
    pub variants: Vec<Variant>,
    /// The suites, as given.
    pub suites: Vec<String>,
    /// The seeds each variant runs with.
    pub seeds: Vec<u64>,
    /// The shard, when the run is split.
    pub shard: Option<Shard>,
    /// The results format (`FORMAT`); missing in files written before the counting rules of
    /// `engine::stats`, whose counters are then not read.
    #[serde(default)]
    pub format: Option<u32>,
}

impl Header {
    /// Two headers describe the same run (date, commit and cores aside).
    pub fn same_run(&self, other: &Header) -> bool {
        self.limits == other.limits
            && self.variants == other.variants
            && self.suites == other.suites
            && self.seeds == other.seeds
            && self.shard == other.shard
            && self.format == other.format
    }
}

/// One completed iteration, as recorded.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct IterationRecord {
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Interior nodes of this iteration.
    pub interior: u64,
    /// Horizon leaves of this iteration.
    pub horizon: u64,
    /// Quiescence nodes of this iteration.
    pub quiescence: u64,
    /// Beta cut-offs by a move at interior nodes.
    pub cutoffs: u64,
    /// Of which by the node's first move.
    pub first_move_cutoffs: u64,
    /// Sum of the cutting move's 1-based index over `cutoffs`. This and the quiescence
    /// cut-off counts are absent from files written before they were recorded and for
    /// external engines, which report no cut-offs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cutoff_index_sum: Option<u64>,
    /// Beta cut-offs by a move in the quiescence search (stand pat excluded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiescence_cutoffs: Option<u64>,
    /// Of which by the node's first move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiescence_first_move_cutoffs: Option<u64>,
    /// Sum of the cutting move's 1-based index over `quiescence_cutoffs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiescence_cutoff_index_sum: Option<u64>,
    /// Milliseconds since the search started.
    pub time_ms: f64,
    /// Score (centipawns, side to move).
    pub score: i32,
    /// Best move (UCI).
    pub best_move: Option<String>,
    /// Principal variation (UCI).
    pub pv: String,
}

/// One (variant, position, seed) search.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionRecord {
    /// Always `position`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The variant's label.
    pub variant: String,
    /// The suite file.
    pub suite: String,
    /// Line in the suite.
    pub line: usize,
    /// The position's id.
    pub id: String,
    pub seed: u64,
    /// The position.
    pub fen: String,
    /// Every completed iteration.
    pub iterations: Vec<IterationRecord>,
    /// Per heuristic counters of the whole search.
    pub counters: HeuristicCounters,
    /// Every node of the search.
    pub nodes: u64,
    /// Wall time of the search, ms.
    pub time_ms: f64,
    /// The move played (UCI).
    pub best_move: Option<String>,
    /// In `bm` and not in `am`; `None` when the position has neither.
    pub solved: Option<bool>,
    /// STS points of the move played, when the position has points.
    pub points: Option<u32>,
    /// Time of the first iteration from which the best move stayed correct, ms.
    pub time_to_solution_ms: Option<f64>,
    /// Depth of that iteration.
    pub depth_to_solution: Option<u32>,
    /// Why an external engine's search failed (crash, hang, illegal move).
    #[serde(default)]
    pub failure: Option<String>,
}

impl PositionRecord {
    /// The search this record is the result of.
    pub fn key(&self) -> RecordKey {
        RecordKey::new(&self.variant, &self.suite, self.line, self.seed)
    }
}

/// What identifies one search of a run: resume skips the tasks whose key is in the file, merge
/// keeps one record per key. Built in one place, so the two can never drift apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordKey {
    pub variant: String,
    pub suite: String,
    pub line: usize,
    pub seed: u64,
}

impl RecordKey {
    /// The key of (variant label, suite path as recorded, EPD line, seed).
    pub fn new(variant: &str, suite: &str, line: usize, seed: u64) -> Self {
        RecordKey {
            variant: variant.to_string(),
            suite: suite.to_string(),
            line,
            seed,
        }
    }
}

/// The git commit searchlab was built from (`-dirty` when its tracked files differed), baked
/// in at build time, so it does not depend on the directory the binary runs in.
pub fn git_commit() -> Option<String> {
    let commit = env!("SEARCHLAB_COMMIT");
    (!commit.is_empty()).then(|| commit.to_string())
}

/// Read an existing results file (plain or `.gz`): its header, its position records, and the
/// length of its complete lines (a line cut by a kill is dropped).
pub fn read_results(path: &Path) -> Result<(Option<Header>, Vec<PositionRecord>, u64), String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((None, Vec::new(), 0)),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut header = None;
    let mut records = Vec::new();
    let mut complete = 0u64;
    // Results kept in the repository are gzipped (`results.jsonl.gz`); read them as they are.
    let mut reader: Box<dyn BufRead> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(BufReader::new(flate2::read::GzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    };
    let mut line = String::new();
    let mut number = 0;
    let mut warned = false;
    loop {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if read == 0 || !line.ends_with('\n') {
            break;
        }
        number += 1;
        let value: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| format!("{}:{number}: {e}", path.display()))?;
        match value.get("type").and_then(|t| t.as_str()) {
            Some("header") => {
                header = Some(
                    serde_json::from_value(value)
                        .map_err(|e| format!("{}:{number}: {e}", path.display()))?,
                )
            }
            Some("position") => {
                let mut value = value;
                if header.as_ref().is_some_and(|h: &Header| h.format.is_none()) {
                    // Written before the counting rules of engine::stats: its counters meant
                    // other things (pooled forms, beta-side `tested`), so they are not read.
                    value["counters"] = serde_json::json!({});
                    if !warned {
                        eprintln!(
                            "warning: {}: written before searchlab's counting rules (results format {FORMAT}); its heuristic counters are left out, nodes, times and solves are read",
                            path.display()
                        );
                        warned = true;
                    }
                }
                records.push(
                    serde_json::from_value(value)
                        .map_err(|e| format!("{}:{number}: {e}", path.display()))?,
                )
            }
            _ => {
                return Err(format!(
                    "{}:{number}: not a searchlab record",
                    path.display()
                ));
            }
        }
        complete += read as u64;
    }
    Ok((header, records, complete))
}

/// Open `path` for the run described by `header`: a new file gets the header; an existing file
/// of the same run is resumed (a line cut short by a kill is dropped) and its records are
/// returned; a file of another run is refused.
pub fn open_for_run(path: &Path, header: &Header) -> Result<(File, Vec<PositionRecord>), String> {
    let (existing, records, complete) = read_results(path)?;
    if let Some(existing) = &existing
        && !existing.same_run(header)
    {
        return Err(format!(
            "{} holds another run (different variants, suites, limits, seeds, shard or results format); choose another --out",
            path.display()
        ));
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    file.set_len(complete)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if existing.is_none() {
        append(&mut file, header).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok((file, records))
}

/// Append one record as a line and flush it, so that a kill loses nothing finished.
pub fn append<T: Serialize>(file: &mut File, record: &T) -> std::io::Result<()> {
    let line = serde_json::to_string(record).expect("records serialise");
    writeln!(file, "{line}").and_then(|_| file.flush())
}

/// What a merge did.
pub struct Merged {
    /// Records written.
    pub records: usize,
    /// Shards merged, and of how many.
    pub shards: Option<(usize, usize)>,
}

/// Join the results files of the shards of one run into `out`, one record per key.
pub fn merge(files: &[std::path::PathBuf], out: &Path) -> Result<Merged, String> {
    let mut header: Option<Header> = None;
    let mut records = Vec::new();
    let mut shards = Vec::new();
    for file in files {
        let (h, mut r, _) = read_results(file)?;
        let h = h.ok_or_else(|| format!("{}: no header record", file.display()))?;
        shards.push(h.shard);
        if let Some(first) = &header {
            let mut same = h.clone();
            same.shard = first.shard;
            if !first.same_run(&same) {
                return Err(format!(
                    "{}: belongs to another run than {}",
                    file.display(),
                    files[0].display()
                ));
            }
        } else {
            header = Some(h);
        }
        records.append(&mut r);
    }
    let mut header = header.ok_or("merge: no files")?;
    let mut merged_shards = None;
    if let Some(Some(first)) = shards.first() {
        let mut indices: Vec<usize> = shards.iter().flatten().map(|s| s.index).collect();
        indices.sort_unstable();
        indices.dedup();
        if shards
            .iter()
            .any(|s| s.is_none_or(|s| s.count != first.count))
            || indices.len() != shards.len()
        {
            return Err("merge: the files are not distinct shards of one run".into());
        }
        merged_shards = Some((indices.len(), first.count));
    }
    header.shard = None;
    let mut seen = HashSet::new();
    let mut text = serde_json::to_string(&header).expect("header serialises") + "\n";
    for record in &records {
        if seen.insert(record.key()) {
            text += &(serde_json::to_string(record).expect("record serialises") + "\n");
        }
    }
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(Merged {
        records: seen.len(),
        shards: merged_shards,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_of_files_written_before_the_counting_rules_are_left_out() {
        let dir = std::env::temp_dir().join(format!("searchlab-legacy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.jsonl");
        let header = r#"{"type":"header","searchlab":"0.1.0","commit":null,"date":"2026-11-01T00:00:00Z","cores":2,"limits":{"depth":3,"nodes":null,"movetime_ms":null,"clock":null,"infinite":false},"variants":[],"suites":["s.epd"],"seeds":[0],"shard":null}"#;
        let record = r#"{"type":"position","variant":"classic","suite":"s.epd","line":1,"id":"x","seed":0,"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","iterations":[],"counters":{"futility":{"tested":9,"fired":3,"overruled":0}},"nodes":42,"time_ms":1.0,"best_move":null,"solved":null,"points":null,"time_to_solution_ms":null,"depth_to_solution":null}"#;
        std::fs::write(&path, format!("{header}\n{record}\n")).unwrap();
        let (header, records, _) = read_results(&path).unwrap();
        assert_eq!(header.unwrap().format, None);
        assert_eq!(records[0].nodes, 42);
        assert_eq!(records[0].counters, HeuristicCounters::default());
        // The same record under the current format: a pooled key is an error, not a guess.
        let current = std::fs::read_to_string(&path)
            .unwrap()
            .replace(r#""shard":null}"#, r#""shard":null,"format":2}"#);
        std::fs::write(&path, current).unwrap();
        let err = read_results(&path).unwrap_err();
        assert!(
            err.contains("old.jsonl:2") && err.contains("futility"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn shards_parse() {
        assert_eq!(Shard::parse("1/2"), Ok(Shard { index: 1, count: 2 }));
        assert!(Shard::parse("0/2").is_err());
        assert!(Shard::parse("3/2").is_err());
        assert!(Shard::parse("x").is_err());
    }
}
