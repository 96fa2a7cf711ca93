//! `searchlab train`: fit the float network (`model.rs`) to datagen's positions with AdamW, on
//! the CPU, and write the quantised network the engine reads.
//!
//! - **Split.** The positions of every data file in blocks of consecutive positions (whole
//!   games, but where a block's edge cuts one), the `validation` share of the blocks, drawn by
//!   the seed, held out and only scored.
//! - **Epochs.** Each epoch visits the training positions in an order drawn from (seed, epoch),
//!   in batches. A batch's gradient is summed over a fixed number of chunks, the chunks in
//!   parallel and their sums added in chunk order, so a run is the same for any number of
//!   threads (floating-point addition is not associative; the fixed order makes it repeatable).
//! - **Start.** Random weights drawn from the seed, or (`init`) a network's own weights read
//!   back as floats, so a generation can go on from the one before on new data.
//! - **Learning rate.** Constant, multiplied by `lr_drop` once `drop_at` of the epochs are done.
//! - **Checkpoints.** After each epoch the float parameters, AdamW's state and the log are
//!   written to `DIR/checkpoint.json`, the quantised network to `OUT`, the log to
//!   `DIR/train.json` and the loss chart to `DIR/loss.svg`; a killed run resumes from the last
//!   checkpoint (with the same data and settings).

use crate::harness::progress::{MINUTE, ProgressDisplay};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::format::{RECORD_BYTES, Record};
use super::model::{AdamW, AdamWSettings, LossShape, Params};
use crate::engine::nnue::network::OUTPUT_BIAS_MAX;
use crate::engine::nnue::{QA, QB, checksum};
use crate::harness::provenance::Provenance;

/// Chunks a batch's gradient is summed over.
const CHUNKS: usize = 16;

/// What decides a training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub epochs: u32,
    pub batch: usize,
    pub lr: f32,
    /// The share of the epochs after which the learning rate is multiplied by `lr_drop`.
    pub drop_at: f32,
    pub lr_drop: f32,
    pub shape: LossShape,
    pub adamw: AdamWSettings,
    /// The share of positions held out for validation.
    pub validation: f64,
    pub seed: u64,
    /// Output layers: 1 (generations 1 to 4) or `OUTPUT_BUCKETS`, one per bucket of the
    /// number of pieces. Logs written before the option read as 1.
    #[serde(default = "one_output")]
    pub output_buckets: usize,
    /// The checksum of the network training started from (`--init`), `None` for random
    /// weights drawn from the seed.
    #[serde(default)]
    pub init: Option<String>,
}

fn one_output() -> usize {
    1
}

/// One data file read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataFile {
    pub path: String,
    pub positions: u64,
    /// FNV-1a of the file.
    pub checksum: String,
}

/// One epoch's numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Epoch {
    pub epoch: u32,
    pub train_loss: f64,
    /// `None` with no positions held out (`--validation 0`).
    pub validation_loss: Option<f64>,
    pub lr: f32,
    pub seconds: f64,
}

/// The training log: what was trained on, how, and how the loss went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Log {
    /// searchlab's version and commit, the network that was installed, when training
    /// began, the cores.
    #[serde(flatten)]
    pub provenance: Provenance,
    pub settings: Settings,
    pub data: Vec<DataFile>,
    pub train_positions: u64,
    pub validation_positions: u64,
    /// Threads used (the numbers do not depend on it).
    pub threads: usize,
    pub epochs: Vec<Epoch>,
    /// FNV-1a of the network file written after the last epoch.
    pub net_checksum: Option<String>,
}

/// A resumable state.
#[derive(Serialize, Deserialize)]
struct Checkpoint {
    log: Log,
    params: Params,
    adam: AdamW,
}

/// What `searchlab train` is asked to do.
pub struct Plan {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub dir: PathBuf,
    pub settings: Settings,
    pub threads: usize,
    pub progress: bool,
    /// The network to start from instead of random weights (`settings.init` names it).
    pub init: Option<crate::engine::nnue::Network>,
}

/// Read the data files: their records and what they are.
fn read_data(paths: &[PathBuf]) -> Result<(Vec<Record>, Vec<DataFile>), String> {
    let mut records = Vec::new();
    let mut files = Vec::new();
    for path in paths {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if bytes.len() % RECORD_BYTES != 0 {
            return Err(format!(
                "{}: {} bytes is not a whole number of {RECORD_BYTES}-byte positions (a cut file?)",
                path.display(),
                bytes.len()
            ));
        }
        for (i, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
            let record = Record {
                bytes: chunk.try_into().expect("32 bytes"),
            };
            if let Some(why) = record.invalid() {
                return Err(format!(
                    "{}: position {} (byte {}) is not a valid record: {why}",
                    path.display(),
                    i + 1,
                    i * RECORD_BYTES
                ));
            }
            records.push(record);
        }
        let (positions, sum) = ((bytes.len() / RECORD_BYTES) as u64, checksum(&bytes));
        check_sidecar(path, positions, sum)?;
        files.push(DataFile {
            path: path.display().to_string(),
            positions,
            checksum: format!("{sum:016x}"),
        });
    }
    if records.is_empty() {
        return Err("no positions in the data".into());
    }
    Ok((records, files))
}

/// The lock file of a network being written: `OUT.lock` beside it.
fn lock_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Take the lock at `path` for this run and write in it what the run writes, so that a
/// second run refused names the first one's network and folder, not its own.
fn writer_lock(path: &Path, plan: &Plan) -> Result<std::fs::File, String> {
    let mut file = crate::harness::results::open_locked(path).map_err(|_| {
        let holder = std::fs::read_to_string(path).unwrap_or_default();
        format!(
            "{} is held by another `train`{}: two runs must not write one network or one training folder; wait for it, or choose another --out and --dir",
            path.display(),
            match holder.trim() {
                "" => String::new(),
                held => format!(" ({held})"),
            }
        )
    })?;
    file.set_len(0)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    use std::io::Write;
    writeln!(
        file,
        "writing {} from the folder {}",
        plan.out.display(),
        plan.dir.display()
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(file)
}

/// The data's sidecar (`DATA.json`, datagen's provenance) names the checksum of the
/// positions datagen wrote: records changed since (valid in shape, scores negated, say) are
/// refused, as `datagen` refuses to extend them. Without a sidecar (data from elsewhere) or a
/// checksum in it (an old one), a note says the data is not verified.
fn check_sidecar(path: &Path, positions: u64, found: u64) -> Result<(), String> {
    let sidecar = super::datagen::provenance_path(path);
    let Ok(text) = std::fs::read_to_string(&sidecar) else {
        eprintln!(
            "note: {} has no {} (datagen's provenance): its {positions} positions are not verified against a checksum",
            path.display(),
            sidecar.display()
        );
        return Ok(());
    };
    let run: super::datagen::DataRun = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a datagen provenance file: {e}", sidecar.display()))?;
    let Some(want) = run.progress.checksum else {
        eprintln!(
            "note: {} predates datagen's checksums: {} is not verified",
            sidecar.display(),
            path.display()
        );
        return Ok(());
    };
    let found = format!("{found:016x}");
    if run.progress.positions != positions || found != want {
        return Err(format!(
            "{}: its {positions} positions have checksum {found} where {} records {} positions with checksum {want}: the data was changed after datagen wrote it (an edit, a second writer, a disk error); train on data whose provenance holds",
            path.display(),
            sidecar.display(),
            run.progress.positions
        ));
    }
    Ok(())
}

/// A permutation of `0..n` drawn from `seed`.
fn permutation(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    crate::engine::shuffle::shuffle(&mut order, seed);
    order
}

/// Consecutive positions held out or trained on together (see `split`).
const SPLIT_BLOCK: usize = 4096;

/// (training, validation): whole blocks of `SPLIT_BLOCK` consecutive positions, the first
/// `share` of the blocks in an order drawn from `seed` held out. Datagen writes a game's
/// positions together, so a validation position shares its game with a training one only where
/// a block's edge cuts a game (about one game in 70 at 59 positions a game). A split by
/// position would train on the other positions of nearly every validation position's game, and
/// the validation loss would flatter the net (generation 1's 0.0038 was measured so).
fn split(records: &[Record], share: f64, seed: u64) -> (Vec<Record>, Vec<Record>) {
    // A small file (a test's) still has 64 blocks to draw from.
    let block = SPLIT_BLOCK.min((records.len() / 64).max(1));
    let blocks = records.len().div_ceil(block);
    let order = permutation(blocks, seed);
    let held = ((blocks as f64 * share).round() as usize)
        .max(usize::from(share > 0.0))
        .min(blocks.saturating_sub(1));
    let mut held_out = vec![false; blocks];
    for &b in &order[..held] {
        held_out[b] = true;
    }
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    for (i, record) in records.iter().enumerate() {
        if held_out[i / block] {
            validation.push(*record);
        } else {
            train.push(*record);
        }
    }
    (train, validation)
}

/// The summed gradient and loss of `batch`, chunk by chunk in parallel, added in chunk order.
fn batch_gradient(params: &Params, batch: &[Record], shape: LossShape) -> (Vec<f32>, f64) {
    let size = batch.len().div_ceil(CHUNKS).max(1);
    let parts: Vec<(Vec<f32>, f64)> = batch
        .par_chunks(size)
        .map(|chunk| {
            let mut grad = vec![0.0f32; params.0.len()];
            let loss = params.gradient(chunk, shape, &mut grad);
            (grad, loss)
        })
        .collect();
    let mut grad = vec![0.0f32; params.0.len()];
    let mut loss = 0.0;
    for (part, part_loss) in parts {
        grad.iter_mut().zip(&part).for_each(|(g, p)| *g += p);
        loss += part_loss;
    }
    (grad, loss)
}

/// The mean loss of `records` in parallel chunks (summed in order); `None` for none.
fn mean_loss(params: &Params, records: &[Record], shape: LossShape) -> Option<f64> {
    if records.is_empty() {
        return None;
    }
    let size = records.len().div_ceil(CHUNKS * 4).max(1);
    let parts: Vec<f64> = records
        .par_chunks(size)
        .map(|chunk| params.loss(chunk, shape) * chunk.len() as f64)
        .collect();
    Some(parts.iter().sum::<f64>() / records.len() as f64)
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), String> {
    let text = serde_json::to_string(value).map_err(|e| e.to_string())? + "\n";
    crate::harness::files::write_atomic(path, text)
}

/// The checkpoint to continue from, when one of the same data and settings exists.
fn resume(plan: &Plan, log: &Log) -> Result<Option<Checkpoint>, String> {
    let path = plan.dir.join("checkpoint.json");
    if !path.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let found: Checkpoint = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a training checkpoint: {e}", path.display()))?;
    if found.log.settings != log.settings || found.log.data != log.data {
        return Err(format!(
            "{} is a run on other data or settings: resume it with the same command, or choose another --out",
            path.display()
        ));
    }
    Ok(Some(found))
}

/// Train: every epoch not yet done, each followed by a checkpoint. Returns the log.
pub fn run(plan: &Plan) -> Result<Log, String> {
    let s = &plan.settings;
    let (records, files) = read_data(&plan.data)?;
    let (train, validation) = split(&records, s.validation, s.seed);
    std::fs::create_dir_all(&plan.dir).map_err(|e| format!("{}: {e}", plan.dir.display()))?;
    // One writer per training folder and per network: both locks are held until the run
    // ends, so a second `train` with the same --dir or the same --out is refused instead of
    // overwriting the first's checkpoints or network.
    let _locks = (
        writer_lock(&plan.dir.join("train.lock"), plan)?,
        writer_lock(&lock_path(&plan.out), plan)?,
    );
    let fresh = Log {
        provenance: crate::harness::provenance::Provenance::now(),
        settings: s.clone(),
        data: files,
        train_positions: train.len() as u64,
        validation_positions: validation.len() as u64,
        threads: plan.threads,
        epochs: Vec::new(),
        net_checksum: None,
    };
    let (mut log, mut params, mut adam) = match resume(plan, &fresh)? {
        Some(c) => (c.log, c.params, c.adam),
        None => {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(s.seed ^ 0x5eed);
            let next = move || (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            let params = match &plan.init {
                Some(net) => Params::from_network(net, s.output_buckets)?,
                None => Params::init(s.output_buckets, next),
            };
            let adam = AdamW::new(params.0.len());
            (fresh, params, adam)
        }
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .map_err(|e| e.to_string())?;
    let batches = train.len().div_ceil(s.batch.max(1)) as u64;
    for epoch in log.epochs.len() as u32 + 1..=s.epochs {
        let start = Instant::now();
        let lr = if (epoch - 1) as f32 >= s.drop_at * s.epochs as f32 {
            s.lr * s.lr_drop
        } else {
            s.lr
        };
        let what = format!("train epoch {epoch}");
        let bar = ProgressDisplay::new(plan.progress, &what, batches, 0, "batches", MINUTE);
        let total =
            pool.install(|| train_epoch(&mut params, &mut adam, &train, s, (epoch, lr), &bar))?;
        bar.finish_and_clear();
        let validation_loss = pool.install(|| mean_loss(&params, &validation, s.shape));
        not_diverged(&params, validation_loss, epoch, lr)?;
        log.epochs.push(Epoch {
            epoch,
            train_loss: total / train.len() as f64,
            validation_loss,
            lr,
            seconds: start.elapsed().as_secs_f64(),
        });
        save_epoch(plan, &mut log, &params, &adam)?;
        let last = log.epochs.last().expect("pushed above");
        eprintln!(
            "epoch {epoch}/{}: train loss {:.6}, validation loss {}, lr {lr}, {:.0} s",
            s.epochs,
            last.train_loss,
            validation_text(last.validation_loss),
            last.seconds
        );
    }
    Ok(log)
}

/// After an epoch: the weights are finite, the validation loss too, and the output bias
/// within what the quantised network can hold; else training diverged (at `lr`).
fn not_diverged(
    params: &Params,
    validation_loss: Option<f64>,
    epoch: u32,
    lr: f32,
) -> Result<(), String> {
    let bias_max = (OUTPUT_BIAS_MAX / (QA * QB)) as f32;
    if params.0.iter().any(|w| !w.is_finite())
        || validation_loss.is_some_and(|l| !l.is_finite())
        || params.output_biases().iter().any(|b| b.abs() > bias_max)
    {
        return Err(format!(
            "training diverged in epoch {epoch}: the weights are not finite or an output bias ({:?}) is beyond ±{bias_max} (lr {lr}); no network written for this epoch (a lower --lr trains)",
            params.output_biases()
        ));
    }
    Ok(())
}

/// Write what an epoch made: the network, the log and its loss chart, and the checkpoint a
/// stopped training resumes from.
fn save_epoch(plan: &Plan, log: &mut Log, params: &Params, adam: &AdamW) -> Result<(), String> {
    let net = params.quantise(log.settings.shape.mirrored).to_bytes();
    crate::harness::files::write_atomic(&plan.out, &net)?;
    log.net_checksum = Some(format!("{:016x}", checksum(&net)));
    write_json(&plan.dir.join("train.json"), log)?;
    draw_loss(log, &plan.dir.join("loss.svg"))?;
    write_json(
        &plan.dir.join("checkpoint.json"),
        &Checkpoint {
            log: log.clone(),
            params: params.clone(),
            adam: adam.clone(),
        },
    )?;
    Ok(())
}

/// One epoch over the training positions in the epoch's order, batch by batch: the summed
/// loss, or an error at the first batch whose loss or gradient is not finite.
fn train_epoch(
    params: &mut Params,
    adam: &mut AdamW,
    train: &[Record],
    s: &Settings,
    (epoch, lr): (u32, f32),
    bar: &ProgressDisplay,
) -> Result<f64, String> {
    let shuffled: Vec<Record> = permutation(train.len(), s.seed.wrapping_add(u64::from(epoch)))
        .into_iter()
        .map(|i| train[i])
        .collect();
    let mut total = 0.0;
    for (b, batch) in shuffled.chunks(s.batch.max(1)).enumerate() {
        let (mut grad, loss) = batch_gradient(params, batch, s.shape);
        if !loss.is_finite() || grad.iter().any(|g| !g.is_finite()) {
            return Err(format!(
                "training diverged: the loss of batch {} of epoch {epoch} is not finite (lr {lr}); no network written for this epoch (a lower --lr trains)",
                b + 1
            ));
        }
        grad.iter_mut().for_each(|g| *g /= batch.len() as f32);
        adam.step(params, &grad, lr, s.adamw);
        total += loss;
        bar.inc(1);
    }
    Ok(total)
}

/// A validation loss as printed: "no validation" when none was held out.
pub fn validation_text(loss: Option<f64>) -> String {
    loss.map_or_else(
        || "n/a (no validation: --validation 0 holds no positions out)".into(),
        |l| format!("{l:.6}"),
    )
}

/// `loss.svg` of the log so far.
fn draw_loss(log: &Log, path: &Path) -> Result<(), String> {
    let curve = |value: fn(&Epoch) -> Option<f64>| -> Vec<(f64, f64)> {
        log.epochs
            .iter()
            .filter_map(|e| Some((f64::from(e.epoch), value(e)?)))
            .filter(|(_, l)| l.is_finite())
            .collect()
    };
    let s = &log.settings;
    crate::harness::report::charts::training::loss(
        path,
        &format!(
            "{} training, {} validation positions · λ {} · scale {}{} · batch {} · lr {} · {}",
            log.train_positions,
            log.validation_positions,
            s.shape.lambda,
            s.shape.scale,
            if s.shape.mirrored { " · mirrored" } else { "" },
            s.batch,
            s.lr,
            match &s.init {
                Some(sum) => format!("from net {sum}"),
                None => format!("seed {}", s.seed),
            }
        ),
        &[
            ("training loss", curve(|e| Some(e.train_loss))),
            ("validation loss", curve(|e| e.validation_loss)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions numbered by their place in the file, in their first two bytes.
    fn numbered(n: usize) -> Vec<Record> {
        (0..n)
            .map(|i| {
                let mut bytes = [0u8; crate::harness::nnue::format::RECORD_BYTES];
                bytes[..2].copy_from_slice(&(i as u16).to_le_bytes());
                Record { bytes }
            })
            .collect()
    }

    #[test]
    fn the_split_holds_out_whole_blocks_of_consecutive_positions() {
        let records = numbered(64 * 100);
        let (train, validation) = split(&records, 0.05, 1);
        assert_eq!(train.len() + validation.len(), records.len());
        let index = |r: &Record| u16::from_le_bytes([r.bytes[0], r.bytes[1]]) as usize;
        // 64 blocks of 100: 3 of them (5% of 64, rounded) held out whole.
        assert_eq!(validation.len(), 300);
        for chunk in validation.chunks(100) {
            let first = index(&chunk[0]);
            assert_eq!(first % 100, 0, "a block starts at its edge");
            assert!(chunk.iter().enumerate().all(|(k, r)| index(r) == first + k));
        }
        assert_eq!(split(&records, 0.05, 1).1, validation, "drawn by the seed");
        assert_ne!(split(&records, 0.05, 2).1, validation);
    }
}
