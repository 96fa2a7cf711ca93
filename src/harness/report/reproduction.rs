//! The reproduction's renderer: `reproduction.json`, `reproduction.md` (the documents' tables
//! beside ours, `reproduce::markdown`) and its two charts (`charts/reproduction.rs`).

use std::path::Path;

use crate::harness::reproduce::Reproduction;

/// Write `reproduction.md`, `reproduction.json` and the two charts into `dir`.
pub fn write(r: &Reproduction, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let json = serde_json::to_string_pretty(r).map_err(|e| e.to_string())? + "\n";
    let path = dir.join("reproduction.json");
    crate::harness::files::write_atomic(&path, json)?;
    let path = dir.join("reproduction.md");
    crate::harness::files::write_atomic(&path, crate::harness::reproduce::markdown::markdown(r))?;
    super::charts::reproduction::draw(r, dir)
}
