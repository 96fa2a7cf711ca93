//! A tune's results file: its header, then one line per iteration, read back to resume it or
//! to draw it.

use std::fs::File;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::spsa::{Perturbation, Schedule, TunedParam};
use crate::harness::games::clock::reference_speed::ReferenceClock;
use crate::harness::provenance::Provenance;
use crate::harness::results::{self, Shard};
use crate::harness::variant::Variant;

/// The first line of a tune file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TuneHeader {
    #[serde(rename = "type")]
    pub kind: String,
    /// searchlab's version and commit, the network, when the tune started, the cores.
    #[serde(flatten)]
    pub provenance: Provenance,
    pub base: Variant,
    pub params: Vec<TunedParam>,
    pub schedule: Schedule,
    pub pairs: u64,
    /// See `TunePlan::lag`; 0 in files written before it existed.
    #[serde(default)]
    pub lag: u64,
    pub seed: u64,
    /// The seed this trajectory draws from (the seed mixed with the shard's index).
    pub trajectory_seed: u64,
    pub control: String,
    /// The scaling to a reference speed (`--reference-nps`); `control` is what was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<ReferenceClock>,
    pub openings: String,
    pub opening_count: usize,
    pub hash_mb: usize,
    #[serde(default)]
    pub shard: Option<Shard>,
}

impl TuneHeader {
    /// The same tune (the date, the build and the machine aside; the network is not).
    fn same_tune(&self, other: &TuneHeader) -> bool {
        // A scaled clock is the same tune at the same reference, whatever a machine measured.
        let strip = |h: &TuneHeader| TuneHeader {
            provenance: h.provenance.network(),
            control: h
                .reference
                .as_ref()
                .map_or(h.control.clone(), |r| r.control.to_string()),
            reference: h.reference.as_ref().map(ReferenceClock::stated),
            ..h.clone()
        };
        strip(self) == strip(other)
    }
}

/// One iteration of a tune file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct IterationLine {
    #[serde(rename = "type")]
    pub kind: String,
    /// 1-based.
    pub k: u64,
    /// θ before this iteration's step (with a lag, the perturbation's centre is older: the
    /// mean of `plus` and `minus` before rounding).
    pub theta: Vec<f64>,
    pub perturbation: Perturbation,
    /// Each pair's opening (its index in the file) and its two results for θ+ (`W`, `D`,
    /// `L`; game 0 with θ+ White).
    pub games: Vec<(usize, [String; 2])>,
    /// Each pair's two games' lengths in plies after the opening, in the order of `games`
    /// (what a tune's speed in moves per second is counted from); empty in older files.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plies: Vec<[u32; 2]>,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// The games of this iteration that a player's failure ended (crash, hang, illegal move,
    /// time loss), each as `opening index: reason`; counted in the result like any game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<String>,
    /// θ+'s wins minus losses.
    pub result: f64,
    pub theta_after: Vec<f64>,
}

/// A tune file read: its header and iterations, the bytes of its complete lines and a last
/// line cut short.
pub struct TuneFile {
    pub header: Option<TuneHeader>,
    pub lines: Vec<IterationLine>,
    complete: u64,
    torn: bool,
}

/// Whether `path` is a tune file (its first line says `"type":"tune"`).
pub fn is_tune_file(path: &Path) -> bool {
    read(path).is_ok_and(|f| f.header.is_some())
}

/// Read a tune file; iterations must follow one another from 1.
pub fn read(path: &Path) -> Result<TuneFile, String> {
    let name = path.display();
    let mut out = TuneFile {
        header: None,
        lines: Vec::new(),
        complete: 0,
        torn: false,
    };
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let lines = results::read_lines(path, file, |number, value| {
        let kind = value.get("type").and_then(|t| t.as_str()).unwrap_or("");
        match (number, kind) {
            (1, "tune") => {
                out.header = Some(
                    serde_json::from_value(value)
                        .map_err(|e| format!("{name}:1: damaged tune header: {e}"))?,
                );
            }
            (1, _) => {
                return Err(format!(
                    "{name}:1: not a tune file (`searchlab tune` writes them)"
                ));
            }
            (_, "iteration") => {
                let line: IterationLine = serde_json::from_value(value)
                    .map_err(|e| format!("{name}:{number}: damaged iteration: {e}"))?;
                if line.k != out.lines.len() as u64 + 1 {
                    return Err(format!(
                        "{name}:{number}: iteration {} where {} was due",
                        line.k,
                        out.lines.len() + 1
                    ));
                }
                out.lines.push(line);
            }
            _ => return Err(format!("{name}:{number}: not an iteration of a tune")),
        }
        Ok(())
    })?;
    out.complete = lines.complete;
    out.torn = lines.torn_line.is_some();
    Ok(out)
}

/// Open `path` for the tune `header` (locked): a new file gets the header, a file of the same
/// tune is resumed (a line cut short is dropped and its iteration played again), another is
/// refused.
pub(super) fn open(path: &Path, header: &TuneHeader) -> Result<(File, Vec<IterationLine>), String> {
    let mut file = results::open_locked(path)?;
    let existing = read(path)?;
    if let Some(old) = &existing.header {
        if !old.same_tune(header) {
            return Err(format!(
                "{} holds another tune (different player, parameters, schedule, pairs, lag, limits, openings or seed); choose another --out",
                path.display()
            ));
        }
        header.provenance.resumes(path, &old.provenance)?;
    }
    if existing.torn {
        eprintln!(
            "{}: the last line was cut short; that iteration is played again",
            path.display()
        );
    }
    file.set_len(existing.complete)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if existing.header.is_none() {
        results::append(&mut file, header).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok((file, existing.lines))
}
