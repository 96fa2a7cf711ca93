//! `searchlab merge` of data shards: the shards of one datagen run, each verified whole and by
//! its checksum, concatenated in shard order into one file with its own provenance sidecar.

use std::path::{Path, PathBuf};

use super::datagen::{DataRun, MergedShard, Progress, provenance_path, save, shard_games, verify};
use super::format::RECORD_BYTES;
use crate::engine::nnue::checksum;
use crate::harness::results::Shard;

/// Join the data files of every shard of one datagen run into `out`, in shard order, with
/// `out.json` recording the run, its summed progress, and each shard's file and checksum.
/// Refuses files of other runs, a shard given twice or missing, an unfinished shard, and a
/// shard whose data no longer has its checksum.
pub fn merge(paths: &[PathBuf], out: &Path) -> Result<Progress, String> {
    let mut shards: Vec<(Shard, PathBuf, DataRun)> = Vec::new();
    for path in paths {
        let (shard, p) = finished_shard(path)?;
        let same = |a: &DataRun| DataRun {
            provenance: a.provenance.build(),
            shard: None,
            progress: Progress::default(),
            merged_from: Vec::new(),
            ..a.clone()
        };
        if let Some((_, first, q)) = shards.first()
            && same(q) != same(&p)
        {
            return Err(format!(
                "{} is another run than {}",
                path.display(),
                first.display()
            ));
        }
        if shards.iter().any(|(s, _, _)| s.index == shard.index) {
            return Err(format!(
                "shard {}/{} is given twice",
                shard.index, shard.count
            ));
        }
        shards.push((shard, path.clone(), p));
    }
    shards.sort_by_key(|(s, _, _)| s.index);
    let count = shards.first().map_or(0, |(s, _, _)| s.count);
    let missing: Vec<String> = (1..=count)
        .filter(|i| !shards.iter().any(|(s, _, _)| s.index == *i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() || count == 0 {
        return Err(format!(
            "shards {} are not given: a merged file holds the whole run",
            missing.join(", ")
        ));
    }
    let mut data = Vec::new();
    let mut total = Progress::default();
    let mut merged_from = Vec::new();
    for (shard, path, p) in &shards {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        data.extend_from_slice(
            &bytes[..(p.progress.positions as usize * RECORD_BYTES).min(bytes.len())],
        );
        total.add(&p.progress);
        merged_from.push(MergedShard {
            path: path.display().to_string(),
            shard: *shard,
            games: p.progress.games_done,
            positions: p.progress.positions,
            checksum: p.progress.checksum.clone().unwrap_or_default(),
        });
    }
    total.checksum = Some(format!("{:016x}", checksum(&data)));
    crate::harness::files::write_atomic(out, &data)?;
    let provenance = DataRun {
        shard: None,
        progress: total.clone(),
        merged_from,
        ..shards[0].2.clone()
    };
    save(&provenance_path(out), &provenance)?;
    Ok(total)
}

/// A shard's data run, read from its sidecar: refused when it is a whole run, unfinished, or
/// its data no longer has its checksum.
fn finished_shard(path: &Path) -> Result<(Shard, DataRun), String> {
    let sidecar = provenance_path(path);
    let text =
        std::fs::read_to_string(&sidecar).map_err(|e| format!("{}: {e}", sidecar.display()))?;
    let p: DataRun = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a datagen provenance file: {e}", sidecar.display()))?;
    let shard = p
        .shard
        .ok_or_else(|| format!("{}: a whole run, not a shard", path.display()))?;
    if p.progress.games_done < shard_games(&p).len() as u64 {
        return Err(format!(
            "{}: shard {}/{} has played {} of its {} games: let it finish (its task resumes it) before merging",
            path.display(),
            shard.index,
            shard.count,
            p.progress.games_done,
            shard_games(&p).len()
        ));
    }
    verify(path, &p.progress, &sidecar)?;
    Ok((shard, p))
}
