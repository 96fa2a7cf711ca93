//! The yardstick's readings in a match file (`"type":"speed"` lines, `--reference-nps`): taken
//! after the games and on resuming, each beside the header's measurement at the start, so that
//! a report says when the machine had moved.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::harness::games::clock::reference_speed::{ReferenceClock, SpeedReading, drift_warning};
use crate::harness::results::{append, open_locked};

/// The yardstick measured again after a match's games, or on resuming it (`--reference-nps`):
/// the machine's speed then, beside the header's at the start.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SpeedRecord {
    /// Always `speed`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Pairs recorded in the file when it was measured.
    pub after_pairs: usize,
    #[serde(flatten)]
    pub reading: SpeedReading,
}

/// Append the yardstick's reading, taken when the match file at `path` held `pairs` pairs.
pub fn append_speed(path: &Path, pairs: usize, reading: &SpeedReading) -> Result<(), String> {
    let mut file = open_locked(path)?;
    append(&mut file, &SpeedRecord::new(pairs, reading))
        .map_err(|e| format!("{}: {e}", path.display()))
}

impl SpeedRecord {
    pub(super) fn new(after_pairs: usize, reading: &SpeedReading) -> SpeedRecord {
        SpeedRecord {
            kind: "speed".into(),
            after_pairs,
            reading: reading.clone(),
        }
    }
}

/// The yardstick's readings (after the games, or on resuming) that moved more than 10% from
/// the header's.
pub(super) fn speed_warnings(
    path: &Path,
    reference: Option<&ReferenceClock>,
    speeds: &[SpeedRecord],
) -> Vec<String> {
    let Some(r) = reference else {
        return Vec::new();
    };
    speeds
        .iter()
        .filter_map(|speed| {
            let when = format!("after {} pairs", speed.after_pairs);
            drift_warning(&r.yardstick, r.measured.nps, speed.reading.nps, &when)
        })
        .map(|w| format!("{}: {w}", path.display()))
        .collect()
}
