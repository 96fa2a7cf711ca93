//! The results file of a match: a header (`"type":"match"`: the players, the rules, the
//! openings, the SPRT, the shard) and one record per game pair (`"type":"pair"`), flushed as
//! each pair ends, so a killed match loses only the pairs under way and resumes where it
//! stopped. Shards of one match merge by joining their pairs.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::harness::games::book::openings::{Opening, OpeningOrder};
use crate::harness::games::clock::control::{Control, PlayerControl};
use crate::harness::games::clock::levels::Effort;
use crate::harness::games::clock::reference_speed::{ReferenceClock, SpeedReading};
use crate::harness::games::playing::adjudication::Adjudication;
use crate::harness::games::playing::game::GameRecord;
use crate::harness::games::playing::speeds::{SpeedRecord, speed_warnings};
use crate::harness::games::rating::stats::{Outcome, Sprt};
use crate::harness::provenance::Provenance;
use crate::harness::results::{Shard, append, known_format, open_locked, read_lines};
use crate::harness::variant::Variant;

/// The match results format written by this searchlab.
pub const MATCH_FORMAT: u32 = 1;

/// The first record: what the match is.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MatchHeader {
    /// Always `match`.
    #[serde(rename = "type")]
    pub kind: String,
    /// searchlab's version and commit, the network, when the match started, the cores.
    #[serde(flatten)]
    pub provenance: Provenance,
    /// The players; the first is the baseline every other one plays.
    pub variants: Vec<Variant>,
    /// The match's limit per move: every player's but those in `player_controls`.
    pub control: Control,
    #[serde(default)]
    pub adjudication: Adjudication,
    /// How far a move may overrun its time before it loses, ms.
    pub margin_ms: u64,
    /// Time the in-process players keep in hand per move (`--move-overhead`), ms.
    #[serde(default = "crate::engine::config::default_overhead")]
    pub overhead_ms: u64,
    /// Players with limits of their own (time or node odds), by label.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub player_controls: BTreeMap<String, PlayerControl>,
    /// The limits were scaled to a reference speed (`--reference-nps`): `control` and
    /// `player_controls` are what was played here; this holds them at the reference speed,
    /// the yardstick, what this machine measured and the factor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<ReferenceClock>,
    /// One level of a match played at several levels of effort (`--nodes 2000,8000,32000`):
    /// the levels and which this file is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<Effort>,
    /// The openings file as given, and how many openings it holds.
    pub openings: String,
    pub opening_count: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_plies: Option<usize>,
    /// File order or seeded permutation, and the first opening.
    #[serde(default, skip_serializing_if = "is_default_order")]
    pub opening_order: OpeningOrder,
    /// Games per pairing (the cap, under an SPRT).
    pub games: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
    /// The SPRT is decided on every pair recorded by every shard (`match --shards-dir`, as
    /// `submit` runs it), not on the planned pairs in order.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sprt_pooled: bool,
    /// Seeds the openings' order and every variant's search.
    pub seed: u64,
    /// Transposition table of each in-process player, MiB.
    pub hash_mb: usize,
    pub shard: Option<Shard>,
    pub format: u32,
    /// Pairs of the planned match that no file read holds (a shard not given, a match stopped
    /// early); written by `merge`, so a merged file says it is incomplete.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<PairKey>,
}

fn is_default_order(order: &OpeningOrder) -> bool {
    *order == OpeningOrder::default()
}

impl MatchHeader {
    /// What the player labelled `label` plays under.
    pub fn control_of(&self, label: &str) -> PlayerControl {
        self.player_controls
            .get(label)
            .copied()
            .unwrap_or(PlayerControl {
                control: self.control,
                margin_ms: self.margin_ms,
            })
    }

    /// Two headers describe the same match (date, commit, cores and engines' names aside; a
    /// scaled clock by its reference, not by what each machine measured: shards of one match
    /// run on machines of different speeds).
    pub fn same_match(&self, other: &MatchHeader) -> bool {
        let strip = |h: &MatchHeader| {
            let mut h = h.clone();
            h.provenance = h.provenance.network();
            h.missing.clear();
            if let Some(reference) = h.reference.take() {
                h.control = reference.control;
                h.player_controls = reference.player_controls.clone();
                h.reference = Some(reference.stated());
            }
            for v in &mut h.variants {
                if let Some(engine) = v.engine.as_mut() {
                    engine.name = None;
                }
            }
            h
        };
        strip(self) == strip(other)
    }

    /// Two headers are levels of one run at several levels of effort: the same match but for
    /// the limit and the level.
    pub fn same_run(&self, other: &MatchHeader) -> bool {
        let level = |h: &MatchHeader| {
            let mut h = h.clone();
            if let Some(reference) = h.reference.as_mut() {
                reference.control = Control::Nodes(1);
                reference.player_controls.clear();
            }
            h.control = Control::Nodes(1);
            h.shard = None;
            if let Some(effort) = h.effort.as_mut() {
                effort.level = 0;
            }
            h
        };
        level(self).same_match(&level(other))
    }

    /// The end of a chart's second line: openings, searchlab's version, the date.
    pub fn caption_tail(&self) -> String {
        format!(
            "{} openings ({}) · searchlab {} · {}",
            self.opening_count,
            Path::new(&self.openings)
                .file_name()
                .map_or(self.openings.clone(), |n| n.to_string_lossy().into_owned()),
            self.provenance.searchlab,
            &self.provenance.date[..self.provenance.date.len().min(10)]
        )
    }

    /// The baseline's label.
    pub fn base(&self) -> &str {
        &self.variants[0].label
    }

    /// The pairings: every other variant against the baseline.
    pub fn devs(&self) -> impl Iterator<Item = &str> {
        self.variants[1..].iter().map(|v| v.label.as_str())
    }

    /// Pairs per pairing: `games` in pairs, but no more than the book's openings when a
    /// replayed opening would replay its games (`openings_replay_games`).
    pub fn pairs(&self) -> usize {
        let asked = self.games.div_ceil(2) as usize;
        if self.openings_replay_games() {
            asked.min(self.opening_count)
        } else {
            asked
        }
    }

    /// Whether a pair is a function of its opening alone, so that an opening played again
    /// gives the same two games move for move: every player is searchlab's own search
    /// (reproducible for any number of threads) under a node or depth limit. Such a pair
    /// counted again is a copy, not evidence: generation 8's first SPRT "accepted H1" on 160
    /// of them, all copies (`reports/elo-network-gen8/`). An external engine is not assumed
    /// deterministic, and at a clock a replayed opening is a new game.
    pub fn openings_replay_games(&self) -> bool {
        openings_replay_games(&self.variants, |label| self.control_of(label).control)
    }

    /// The pairs this file plays, in the order a match plays them: pair 0 of every pairing,
    /// then pair 1, ...; this shard's share.
    pub fn planned(&self) -> Vec<PairKey> {
        let devs: Vec<&str> = self.devs().collect();
        let mut keys = Vec::new();
        for index in 0..self.pairs() {
            for dev in &devs {
                keys.push(PairKey {
                    dev: dev.to_string(),
                    index,
                });
            }
        }
        match self.shard {
            Some(shard) => keys
                .into_iter()
                .enumerate()
                .filter(|(i, _)| i % shard.count == shard.index - 1)
                .map(|(_, k)| k)
                .collect(),
            None => keys,
        }
    }
}

/// `MatchHeader::openings_replay_games` of players before their match has a header.
pub fn openings_replay_games(variants: &[Variant], control_of: impl Fn(&str) -> Control) -> bool {
    variants.iter().all(|v| {
        v.engine.is_none() && matches!(control_of(&v.label), Control::Nodes(_) | Control::Depth(_))
    })
}

/// Which pair a record is: the variant measured and the pair's number in its pairing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PairKey {
    pub dev: String,
    pub index: usize,
}

/// Two games from one opening, the colours reversed: in game 0 the baseline has White, in
/// game 1 the variant measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairRecord {
    /// Always `pair`.
    #[serde(rename = "type")]
    pub kind: String,
    pub base: String,
    pub dev: String,
    pub index: usize,
    pub opening: Opening,
    pub games: [GameRecord; 2],
}

impl PairRecord {
    pub fn key(&self) -> PairKey {
        PairKey {
            dev: self.dev.clone(),
            index: self.index,
        }
    }

    /// The two results for the variant measured.
    pub fn outcomes(&self) -> [Outcome; 2] {
        [
            self.games[0].outcome_of(&self.dev),
            self.games[1].outcome_of(&self.dev),
        ]
    }
}

/// A match results file as read.
#[derive(Debug, Default)]
pub struct MatchFile {
    pub header: Option<MatchHeader>,
    pub pairs: Vec<PairRecord>,
    /// The yardstick's readings after the games (`--reference-nps`), in the order written.
    pub speeds: Vec<SpeedRecord>,
    complete: u64,
    torn_line: Option<usize>,
}

/// Whether the file at `path` is a match results file (its first line says `"type":"match"`).
pub fn is_match_file(path: &Path) -> bool {
    let Ok(file) = File::open(path) else {
        return false;
    };
    let mut first = None;
    let _ = read_lines(path, file, |_, value| {
        first = value.get("type").and_then(|t| t.as_str()).map(String::from);
        Err(String::new())
    });
    first.as_deref() == Some("match")
}

/// Read a match results file; an absent file is empty.
pub fn read_match(path: &Path) -> Result<MatchFile, String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(MatchFile::default()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let name = path.display();
    let mut out = MatchFile::default();
    let lines = read_lines(path, file, |number, value| {
        match (number, value.get("type").and_then(|t| t.as_str())) {
            (1, Some("match")) => {
                let header: MatchHeader = serde_json::from_value(value)
                    .map_err(|e| format!("{name}:1: damaged match header: {e}"))?;
                known_format(
                    &name.to_string(),
                    "match",
                    Some(header.format),
                    MATCH_FORMAT,
                )?;
                out.header = Some(header);
            }
            (1, _) => {
                return Err(format!(
                    "{name}:1: not a match results file: expected its header, one JSON line with \"type\":\"match\""
                ));
            }
            (_, Some("pair")) => out.pairs.push(
                serde_json::from_value(value)
                    .map_err(|e| format!("{name}:{number}: damaged pair record: {e}"))?,
            ),
            (_, Some("speed")) => out.speeds.push(
                serde_json::from_value(value)
                    .map_err(|e| format!("{name}:{number}: damaged speed record: {e}"))?,
            ),
            _ => {
                return Err(format!(
                    "{name}:{number}: not a match record (expected \"type\":\"pair\" or \"speed\")"
                ));
            }
        }
        Ok(())
    })?;
    out.complete = lines.complete;
    out.torn_line = lines.torn_line;
    Ok(out)
}

/// Open `path` for the match `header` (locked): a new file gets the header; a file of the same
/// match is resumed and its pairs returned (a line cut short is dropped and its pair played
/// again), with the yardstick's reading on resuming (`resumed`) recorded after them; a file
/// of another match is refused.
pub fn open_for_match(
    path: &Path,
    header: &MatchHeader,
    resumed: Option<&SpeedReading>,
) -> Result<(File, Vec<PairRecord>), String> {
    let mut file = open_locked(path)?;
    let existing = read_match(path)?;
    // The same match with more games planned extends it: its header is written anew.
    let extended = existing.header.as_ref().is_some_and(|old| {
        let mut same = old.clone();
        same.games = header.games;
        header.games > old.games && same.same_match(header)
    });
    if let Some(old) = &existing.header
        && !old.same_match(header)
        && !extended
    {
        return Err(format!(
            "{} holds another match (different players, rules, openings, games, SPRT, seed or shard; more --games than it planned extends it); choose another --out",
            path.display()
        ));
    }
    if let Some(old) = &existing.header {
        header.provenance.resumes(path, &old.provenance)?;
    }
    if existing.torn_line.is_some() {
        eprintln!(
            "{}: the last line was cut short by the previous match's end; that pair is played again",
            path.display()
        );
    }
    file.set_len(existing.complete)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if existing.header.is_none() {
        append(&mut file, header).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if extended {
        rewrite_header(&mut file, path, header, &existing)?;
        eprintln!(
            "{}: extended to {} games per pairing",
            path.display(),
            header.games
        );
    }
    if let (Some(_), Some(reading)) = (&existing.header, resumed) {
        append(&mut file, &SpeedRecord::new(existing.pairs.len(), reading))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok((file, existing.pairs))
}

/// Write `path` again (its lock held through `file`) with `header` and what `existing` read:
/// its pairs and its yardstick's readings.
fn rewrite_header(
    file: &mut File,
    path: &Path,
    header: &MatchHeader,
    existing: &MatchFile,
) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    file.set_len(0).map_err(fail)?;
    append(file, header).map_err(fail)?;
    for pair in &existing.pairs {
        append(file, pair).map_err(fail)?;
    }
    for speed in &existing.speeds {
        append(file, speed).map_err(fail)?;
    }
    Ok(())
}

/// A file (`path`, header `h`) may join the match `first` read from `first_path`: the same
/// build and the same match, else refused naming the difference.
fn joins(
    first: &MatchHeader,
    first_path: &Path,
    h: &MatchHeader,
    path: &Path,
) -> Result<(), String> {
    first.provenance.joins(first_path, &h.provenance, path)?;
    let mut same = h.clone();
    same.shard = first.shard;
    if first.same_match(&same) {
        return Ok(());
    }
    Err(format!(
        "{} is another match than {}: a report joins only the shards of one match ({})",
        path.display(),
        first_path.display(),
        crate::harness::results::difference(first, &same)
    ))
}

/// Several match files read as one match: a whole match, or shards of one. Refuses files of
/// different matches and a shard given twice; the first record of each pair is kept.
pub fn read_matches(
    paths: &[PathBuf],
) -> Result<(MatchHeader, Vec<PairRecord>, Vec<String>), String> {
    let mut header: Option<(MatchHeader, &PathBuf)> = None;
    let mut shards: BTreeMap<usize, &PathBuf> = BTreeMap::new();
    let mut pairs = Vec::new();
    let mut warnings = Vec::new();
    for path in paths {
        let read = read_match(path)?;
        let h = read.header.ok_or_else(|| match read.torn_line {
            Some(_) => format!(
                "{}:1: not a searchlab match file: the file holds no complete line",
                path.display()
            ),
            None => format!("{}: empty or not found", path.display()),
        })?;
        if let Some(line) = read.torn_line {
            warnings.push(format!(
                "{}:{line}: the last line is cut short (the match was stopped while writing it): that pair is not counted",
                path.display()
            ));
        }
        warnings.extend(speed_warnings(path, h.reference.as_ref(), &read.speeds));
        if let Some((first, first_path)) = &header {
            joins(first, first_path, &h, path)?;
        } else {
            header = Some((h.clone(), path));
        }
        if let Some(shard) = h.shard
            && let Some(other) = shards.insert(shard.index, path)
        {
            return Err(format!(
                "{} and {} are both shard {}/{}: give each shard once",
                other.display(),
                path.display(),
                shard.index,
                shard.count
            ));
        }
        pairs.extend(read.pairs);
    }
    let (mut header, _) = header.ok_or("no match files given")?;
    if paths.len() > 1 || header.shard.is_some() {
        check_shards(&header, &shards, paths.len(), &mut warnings)?;
        header.shard = None;
    }
    let mut seen = HashSet::new();
    let before = pairs.len();
    pairs.retain(|p: &PairRecord| seen.insert(p.key()));
    if pairs.len() < before {
        warnings.push(format!(
            "{} pair records repeat a pair already read: only the first of each is used",
            before - pairs.len()
        ));
    }
    pairs.sort_by(|a, b| (a.index, &a.dev).cmp(&(b.index, &b.dev)));
    let missing = missing_pairs(&header, &pairs);
    if !missing.is_empty() {
        warnings.push(format!(
            "{} of {} planned pairs are in no file read (the first: {}): the result is of the pairs played only",
            missing.len(),
            header.planned().len(),
            missing
                .iter()
                .take(3)
                .map(|k| format!("{} pair {}", k.dev, k.index + 1))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    header.missing = missing;
    Ok((header, pairs, warnings))
}

/// Shards and whole files are not mixed, and each shard not given is named.
fn check_shards(
    header: &MatchHeader,
    shards: &BTreeMap<usize, &PathBuf>,
    files: usize,
    warnings: &mut Vec<String>,
) -> Result<(), String> {
    let count = header.shard.map_or(0, |s| s.count);
    if shards.len() != files {
        return Err(format!(
            "{} of the {files} match files are whole matches and the others shards of one: give the shards of one match, or one whole match",
            files - shards.len()
        ));
    }
    let absent: Vec<String> = (1..=count)
        .filter(|i| !shards.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !absent.is_empty() {
        warnings.push(format!(
            "shard{} {} of {count} not given: their pairs are missing",
            if absent.len() > 1 { "s" } else { "" },
            absent.join(", ")
        ));
    }
    Ok(())
}

/// The planned pairs (of the whole match) that `pairs` lacks. Under an SPRT a pairing stops
/// at its decision, so only the pairs before its last one read count as missing there.
fn missing_pairs(header: &MatchHeader, pairs: &[PairRecord]) -> Vec<PairKey> {
    // A pooled SPRT's shards stop together wherever each had got to: the gaps between
    // them are not missing pairs (a shard not given at all is named by `check_shards`).
    if header.sprt_pooled {
        return Vec::new();
    }
    let have: HashSet<PairKey> = pairs.iter().map(PairRecord::key).collect();
    let last: BTreeMap<&str, usize> = pairs.iter().fold(BTreeMap::new(), |mut last, p| {
        let entry = last.entry(p.dev.as_str()).or_insert(0);
        *entry = (*entry).max(p.index);
        last
    });
    header
        .planned()
        .into_iter()
        .filter(|k| !have.contains(k))
        .filter(|k| header.sprt.is_none() || last.get(k.dev.as_str()).is_some_and(|&l| k.index < l))
        .collect()
}

/// `searchlab merge` for match files: the shards' pairs under one header without a shard.
pub fn merge_matches(paths: &[PathBuf], out: &Path) -> Result<(usize, Vec<String>), String> {
    let (header, pairs, warnings) = read_matches(paths)?;
    let mut text = serde_json::to_string(&header).expect("header serialises") + "\n";
    for pair in &pairs {
        text += &(serde_json::to_string(pair).expect("pair serialises") + "\n");
    }
    crate::harness::files::write_atomic(out, text)?;
    Ok((pairs.len(), warnings))
}
