//! `searchlab datagen`: self-play games of an in-process configuration at a node limit per
//! move, each position the search scored written with its score and the game's result in the
//! `bulletformat` layout (`format.rs`).
//!
//! - **Games.** Game `i` starts from opening `i` of the file (cycling), then `random_plies`
//!   uniformly random legal moves drawn from (seed, i), so that games differ where the book
//!   ends. Both sides are the same configuration with separate tables, cleared per game; each
//!   move is one search of `nodes` nodes. Games end by the rules, or by adjudication (a side at
//!   ±1000 cp for three moves each, both agreeing; a draw after move 40 when both sides scored
//!   within ±10 cp for eight moves each; or after 300 moves each), as datagen runs commonly do.
//! - **Positions kept.** Every position a search scored, except those in check, those whose best
//!   move is a capture or a promotion (their score is the exchange's, not the position's), and
//!   those with mate scores: the usual filters of the field's data generators.
//! - **Deterministic and resumable.** A game is a function of (configuration, opening, seed, i),
//!   and games are written in their order whatever the number of jobs, so the same command
//!   gives the same file. `OUT.json` beside the data says what was played and how far: a killed
//!   run resumes from the last whole game (the data past it is cut off), and a larger `--games`
//!   extends a finished run. `--shard I/N` plays the games whose index is I-1 modulo N.

use crate::harness::progress::ProgressDisplay;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use cozy_chess::{Board, Move};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use super::format::{RECORD_BYTES, Record, WhiteResult};
use crate::engine::config::SearchConfig;
use crate::engine::moves::captured_piece;
use crate::engine::nnue::{CHECKSUM_START, checksum, checksum_on};
use crate::engine::score::MATE_BOUND;
use crate::harness::epd;
use crate::harness::games::book::openings::Opening;
use crate::harness::games::clock::control::Control;
use crate::harness::games::playing::adjudication::{Adjudication, DrawRule, ResignRule};
use crate::harness::games::playing::game::{GameRecord, Rules, play};
use crate::harness::games::playing::player::Player;
use crate::harness::provenance::Provenance;
use crate::harness::results::Shard;
use crate::harness::variant::Variant;

/// What a data generation run is (everything that decides its games), and how far it got.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataRun {
    /// searchlab's version and commit, the network, when the run began, the cores.
    #[serde(flatten)]
    pub provenance: Provenance,
    /// The configuration that played, as a SPEC and in full.
    pub spec: String,
    pub config: SearchConfig,
    /// Nodes per move.
    pub nodes: u64,
    pub openings: String,
    pub opening_count: usize,
    pub random_plies: u32,
    pub seed: u64,
    /// Games planned (of every shard).
    pub games: u64,
    pub shard: Option<Shard>,
    /// Transposition table of each side, MiB.
    pub hash_mb: usize,
    /// Progress: games of this shard played and written, in order.
    pub progress: Progress,
    /// A merged file's shards (`merge`): each one's file, games, positions and checksum.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<MergedShard>,
}

/// One shard of a merged data file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergedShard {
    pub path: String,
    pub shard: Shard,
    pub games: u64,
    pub positions: u64,
    pub checksum: String,
}

/// Whether `path` is a datagen data file (its provenance sidecar beside it).
pub fn is_data_file(path: &Path) -> bool {
    provenance_path(path).exists() && path.extension().is_some_and(|e| e == "bin")
}

/// How far a run got, and what it kept.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Games of this shard written (the next one to write is the `games_done`-th of the shard).
    pub games_done: u64,
    /// Positions written.
    pub positions: u64,
    /// Positions scored but left out: in check, a capture or promotion as best move, a mate
    /// score.
    pub in_check: u64,
    pub tactical: u64,
    pub mate: u64,
    /// Games left out whole: over during the random plies, or ended by a failure.
    pub games_skipped: u64,
    /// Games by result for White: wins, draws, losses.
    pub white_wins: u64,
    pub draws: u64,
    pub white_losses: u64,
    /// FNV-1a of the data written so far (the `positions` records), checked before a run
    /// extends the file: a file changed after it was written (a second writer, a disk error,
    /// an edit) is refused instead of extended. Absent in sidecars written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checksum: Option<String>,
}

/// What `searchlab datagen` is asked to do.
pub struct Plan {
    pub out: PathBuf,
    pub provenance: DataRun,
    pub openings: Vec<Opening>,
    pub jobs: usize,
    /// A bar on a terminal, else a status line this often (`None`: nothing).
    pub progress: Option<crate::harness::progress::Every>,
}

/// The sidecar file of a data file: `OUT.json`.
pub fn provenance_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".json");
    PathBuf::from(name)
}

/// The games of one shard, by global index.
pub(super) fn shard_games(p: &DataRun) -> Vec<u64> {
    (0..p.games)
        .filter(|i| {
            p.shard
                .is_none_or(|s| (*i as usize) % s.count == s.index - 1)
        })
        .collect()
}

/// The rules every data game is played under.
fn rules(nodes: u64) -> Rules {
    Rules {
        overhead_ms: crate::engine::config::MOVE_OVERHEAD_MS,
        control: Control::Nodes(nodes),
        adjudication: Adjudication {
            draw: Some(DrawRule {
                movenumber: 40,
                movecount: 8,
                score: 10,
            }),
            resign: Some(ResignRule {
                movecount: 3,
                score: 1000,
                twosided: true,
            }),
            max_moves: Some(300),
        },
        margin_ms: 0,
        own: BTreeMap::new(),
    }
}

/// Game `index`'s opening: the file's `index`-th (cycling) with `plies` random moves drawn
/// from (seed, index) after its book; `None` when the game is over before they are played.
fn opening_of(p: &DataRun, openings: &[Opening], index: u64) -> Option<Opening> {
    let base = &openings[(index % openings.len() as u64) as usize];
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(p.seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut board = base.board();
    for mv in base.book() {
        board.play_unchecked(mv);
    }
    let mut moves = base.moves.clone();
    for _ in 0..p.random_plies {
        let mut legal: Vec<Move> = Vec::new();
        board.generate_moves(|list| {
            legal.extend(list);
            false
        });
        if legal.is_empty() {
            return None;
        }
        let mv = legal[(rng.next_u64() % legal.len() as u64) as usize];
        moves.push(crate::engine::notation::uci(&board, mv));
        board.play_unchecked(mv);
    }
    let mut any = false;
    board.generate_moves(|_| {
        any = true;
        true
    });
    any.then(|| Opening {
        line: base.line,
        fen: base.fen.clone(),
        moves,
    })
}

/// One game's records, and what was left out.
struct GameData {
    records: Vec<Record>,
    counts: Progress,
}

/// Play game `index` and keep its positions.
fn game_data(p: &DataRun, openings: &[Opening], players: &mut [Player; 2], index: u64) -> GameData {
    let mut counts = Progress {
        games_done: 1,
        ..Progress::default()
    };
    let Some(opening) = opening_of(p, openings, index) else {
        counts.games_skipped = 1;
        return GameData {
            records: Vec::new(),
            counts,
        };
    };
    let [white, black] = players;
    let game: GameRecord = play(
        &opening,
        [white, black],
        ["white", "black"],
        &rules(p.nodes),
    );
    let white_result: WhiteResult = match game.result.as_str() {
        "1-0" => 2,
        "0-1" => 0,
        _ => 1,
    };
    if game.termination == "abandoned" || game.termination == "rules infraction" {
        counts.games_skipped = 1;
        return GameData {
            records: Vec::new(),
            counts,
        };
    }
    match white_result {
        2 => counts.white_wins = 1,
        0 => counts.white_losses = 1,
        _ => counts.draws = 1,
    }
    let mut board: Board = opening.board();
    for mv in opening.book() {
        board.play_unchecked(mv);
    }
    let mut records = Vec::new();
    for m in &game.moves {
        let Ok(mv) = epd::parse_move(&board, &m.mv) else {
            break;
        };
        match m.score {
            None => {}
            Some(_) if !board.checkers().is_empty() => counts.in_check += 1,
            Some(_) if captured_piece(&board, mv).is_some() || mv.promotion.is_some() => {
                counts.tactical += 1
            }
            Some(score) if score.abs() >= MATE_BOUND => counts.mate += 1,
            Some(score) => {
                let score = score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                records.push(Record::new(&board, score, white_result));
            }
        }
        board.play_unchecked(mv);
    }
    counts.positions = records.len() as u64;
    GameData { records, counts }
}

impl Progress {
    pub(super) fn add(&mut self, other: &Progress) {
        self.games_done += other.games_done;
        self.positions += other.positions;
        self.in_check += other.in_check;
        self.tactical += other.tactical;
        self.mate += other.mate;
        self.games_skipped += other.games_skipped;
        self.white_wins += other.white_wins;
        self.draws += other.draws;
        self.white_losses += other.white_losses;
    }
}

/// Write the sidecar atomically (a temporary file renamed over it).
pub(super) fn save(path: &Path, provenance: &DataRun) -> Result<(), String> {
    let text = serde_json::to_string_pretty(provenance).map_err(|e| e.to_string())? + "\n";
    crate::harness::files::write_atomic(path, text)
}

/// The run to continue: the sidecar's progress when it describes the same run, after cutting
/// the data file back to its last whole game.
fn resume(plan: &Plan) -> Result<Progress, String> {
    let sidecar = provenance_path(&plan.out);
    if !sidecar.exists() {
        if plan.out.exists() && std::fs::metadata(&plan.out).map_or(0, |m| m.len()) > 0 {
            return Err(format!(
                "{} exists without its {}: choose another --out",
                plan.out.display(),
                sidecar.display()
            ));
        }
        return Ok(Progress::default());
    }
    let text =
        std::fs::read_to_string(&sidecar).map_err(|e| format!("{}: {e}", sidecar.display()))?;
    let found: DataRun = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a datagen provenance file: {e}", sidecar.display()))?;
    // The same run, or the same run extended by a larger --games (a shard's games are a
    // prefix of its games under any larger count).
    let strip = |p: &DataRun| DataRun {
        provenance: p.provenance.build(),
        progress: Progress::default(),
        games: 0,
        ..p.clone()
    };
    if strip(&found) != strip(&plan.provenance) {
        return Err(format!(
            "{} holds another run (configuration, nodes, openings, seed, shard or build differ): resume it with the same command and build, or choose another --out",
            sidecar.display()
        ));
    }
    if found.progress.games_done > shard_games(&plan.provenance).len() as u64 {
        return Err(format!(
            "{} has played {} games, more than --games {} leaves this shard",
            sidecar.display(),
            found.progress.games_done,
            plan.provenance.games
        ));
    }
    let whole = found.progress.positions * RECORD_BYTES as u64;
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(&plan.out)
        .map_err(|e| format!("{}: {e}", plan.out.display()))?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if len < whole {
        return Err(format!(
            "{} holds {len} bytes, fewer than the {whole} its {} counts: the data was cut; choose another --out",
            plan.out.display(),
            sidecar.display()
        ));
    }
    file.set_len(whole)
        .map_err(|e| format!("{}: {e}", plan.out.display()))?;
    verify(&plan.out, &found.progress, &sidecar)?;
    Ok(found.progress)
}

/// Check that the data file's records are the ones the sidecar's checksum names.
pub(super) fn verify(out: &Path, progress: &Progress, sidecar: &Path) -> Result<(), String> {
    let Some(want) = &progress.checksum else {
        eprintln!(
            "note: {} predates datagen's checksums: the {} positions already written are not verified",
            sidecar.display(),
            progress.positions
        );
        return Ok(());
    };
    let mut reader = File::open(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut buffer = vec![0u8; 1 << 20];
    let mut state = CHECKSUM_START;
    loop {
        let n = std::io::Read::read(&mut reader, &mut buffer)
            .map_err(|e| format!("{}: {e}", out.display()))?;
        if n == 0 {
            break;
        }
        state = checksum_on(state, &buffer[..n]);
    }
    let found = format!("{state:016x}");
    if &found != want {
        return Err(format!(
            "{}: its {} positions have checksum {found} where {} records {want}: the data was changed after it was written (a second writer, a disk error, an edit); it cannot be extended: choose another --out",
            out.display(),
            progress.positions,
            sidecar.display()
        ));
    }
    Ok(())
}

/// Run the plan: play the shard's games not yet written, `jobs` at once, writing them in order.
pub fn run(plan: &Plan) -> Result<Progress, String> {
    // One writer per data file: the lock is held until the run ends (a second datagen on
    // the same --out is refused, as a second run or match on one results file is).
    let file: File = crate::harness::results::open_locked(&plan.out)?;
    let mut progress = resume(plan)?;
    let state = resumed_checksum(plan, &progress)?;
    progress.checksum = Some(format!("{state:016x}"));
    let games = shard_games(&plan.provenance);
    let todo: Vec<u64> = games
        .iter()
        .skip(progress.games_done as usize)
        .copied()
        .collect();
    let mut writer = DataWriter {
        file,
        out: &plan.out,
        sidecar: provenance_path(&plan.out),
        run: DataRun {
            progress,
            ..plan.provenance.clone()
        },
        state,
    };
    save(&writer.sidecar, &writer.run)?;
    let bar = ProgressDisplay::new(
        plan.progress.is_some(),
        "datagen",
        games.len() as u64,
        writer.run.progress.games_done,
        "games",
        plan.progress
            .unwrap_or(crate::harness::progress::Every::Count(0)),
    );
    let next = AtomicU64::new(0);
    let variant = Variant {
        label: "datagen".into(),
        spec: plan.provenance.spec.clone(),
        config: plan.provenance.config.clone(),
        engine: None,
        limits: Vec::new(),
    };
    let (send, receive) = mpsc::channel::<(usize, GameData)>();
    let outcome: Result<(), String> = std::thread::scope(|scope| {
        for _ in 0..plan.jobs.max(1) {
            let send = send.clone();
            let (next, todo, variant) = (&next, &todo, &variant);
            scope.spawn(move || {
                let mut players = [
                    Player::of(variant, plan.provenance.hash_mb, plan.provenance.seed),
                    Player::of(variant, plan.provenance.hash_mb, plan.provenance.seed),
                ];
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst) as usize;
                    let Some(&index) = todo.get(k) else { break };
                    let data = game_data(&plan.provenance, &plan.openings, &mut players, index);
                    if send.send((k, data)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Write the games in their order as they arrive.
        let mut waiting: BTreeMap<usize, GameData> = BTreeMap::new();
        let mut written = 0usize;
        for (k, data) in receive {
            waiting.insert(k, data);
            while let Some(data) = waiting.remove(&written) {
                writer.write(&data)?;
                written += 1;
                bar.set_position(writer.run.progress.games_done);
                bar.set_message(format!("{} positions", writer.run.progress.positions));
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    outcome.map(|()| writer.run.progress)
}

/// The checksum of the data already written: the sidecar's, or for a sidecar without one (or
/// a new run) the checksum of what is there, which `resume` kept.
fn resumed_checksum(plan: &Plan, progress: &Progress) -> Result<u64, String> {
    match &progress.checksum {
        Some(hex) => u64::from_str_radix(hex, 16).map_err(|e| format!("{hex}: {e}")),
        None => {
            let bytes =
                std::fs::read(&plan.out).map_err(|e| format!("{}: {e}", plan.out.display()))?;
            Ok(checksum(&bytes))
        }
    }
}

/// The data file being written and its sidecar, which records after each game how far the
/// file got and its checksum, so that a run stopped anywhere resumes at the next game.
struct DataWriter<'a> {
    file: File,
    out: &'a Path,
    sidecar: PathBuf,
    run: DataRun,
    /// The checksum of the file so far.
    state: u64,
}

impl DataWriter<'_> {
    /// Append one game's positions and record it in the sidecar.
    fn write(&mut self, data: &GameData) -> Result<(), String> {
        let bytes: Vec<u8> = data.records.iter().flat_map(|r| r.bytes).collect();
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("{}: {e}", self.out.display()))?;
        self.run.progress.add(&data.counts);
        self.state = checksum_on(self.state, &bytes);
        self.run.progress.checksum = Some(format!("{:016x}", self.state));
        save(&self.sidecar, &self.run)
    }
}
