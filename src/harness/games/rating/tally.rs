//! What a match's pairs add up to, pairing by pairing: the counts, Elo, and the SPRT read
//! sequentially. The SPRT is a sequential test: its decision is taken at the first pair after
//! which the LLR crosses a bound, reading the pairs in their planned order. Pairs played after
//! that (a concurrent match finishes the games under way) are recorded but not counted, so a
//! match gives the same decision and the same counts whatever its `--concurrency`.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::harness::games::book::openings::Opening;
use crate::harness::games::playing::record::{MatchHeader, PairKey, PairRecord};
use crate::harness::games::rating::elo::{EloEstimate, elo};
use crate::harness::games::rating::replays::{ReplayedOpenings, replayed_openings};
use crate::harness::games::rating::stats::{Counts, Decision, Outcome, Sprt};

/// An SPRT read pair by pair.
#[derive(Clone, Debug)]
pub struct Sequential {
    pub sprt: Option<Sprt>,
    pub counts: Counts,
    pub llr: f64,
    pub decision: Decision,
    /// `(games, LLR)` after each pair.
    pub path: Vec<(u64, f64)>,
}

impl Sequential {
    pub fn new(sprt: Option<Sprt>) -> Self {
        Sequential {
            sprt,
            counts: Counts::default(),
            llr: 0.0,
            decision: Decision::Continue,
            path: Vec::new(),
        }
    }

    /// Count the next pair, unless the test has decided.
    pub fn push(&mut self, outcomes: [Outcome; 2]) {
        if self.decision != Decision::Continue {
            return;
        }
        self.counts.add_pair(outcomes[0], outcomes[1]);
        if let Some(sprt) = self.sprt {
            self.llr = sprt.llr(&self.counts);
            self.decision = sprt.decide(self.llr);
            self.path.push((self.counts.games(), self.llr));
        }
    }

    pub fn decided(&self) -> bool {
        self.decision != Decision::Continue
    }

    /// Count a pair whatever the test says (a pooled SPRT's), deciding on the counts so far.
    fn push_pooled(&mut self, outcomes: [Outcome; 2]) {
        self.counts.add_pair(outcomes[0], outcomes[1]);
        if let Some(sprt) = self.sprt {
            self.llr = sprt.llr(&self.counts);
            self.decision = sprt.decide(self.llr);
            self.path.push((self.counts.games(), self.llr));
        }
    }
}

/// One pairing's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PairingResult {
    pub base: String,
    pub dev: String,
    /// The counted pairs, from the variant measured's side.
    pub counts: Counts,
    /// Pairs recorded, counted or not.
    pub recorded_pairs: usize,
    pub estimate: Option<EloEstimate>,
    pub sprt: Option<SprtResult>,
    /// How the counted games ended, by reason class (checkmate, repetition, time forfeit, ...).
    pub endings: BTreeMap<String, u64>,
    /// Failures (crash, hang, illegal move, time loss) of each side in counted games.
    pub failures: BTreeMap<String, u64>,
    /// Mean nodes and depth per move of each side in counted games: (base, dev).
    pub nodes_per_move: (f64, f64),
    pub depth_per_move: (f64, f64),
    /// Mean thinking time per move, ms: (base, dev).
    #[serde(default)]
    pub time_per_move_ms: (f64, f64),
    /// Each side's branching factor, `N^(1/d)` of a move's nodes and depth, the geometric mean
    /// over its moves searched to `BRANCHING_MIN_DEPTH` or deeper (CPW, "Branching Factor":
    /// the effective branching factor of a search of depth `d` and `N` nodes). Each engine
    /// counts its nodes its own way, so it is compared within one engine (across clocks, or
    /// builds) rather than between two. (base, dev); 0 without such moves.
    #[serde(default)]
    pub branching: (f64, f64),
    /// Counted pairs that started from an opening already played, once the book ran out (such
    /// a pair is not independent of the earlier one; issue 62).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reused_openings: u64,
    /// The counted pairs read with each opening as one cluster, when some opening was played
    /// more than once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replayed: Option<ReplayedOpenings>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// An SPRT's standing.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SprtResult {
    pub sprt: Sprt,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: Decision,
    /// `(games, LLR)` after each counted pair.
    pub path: Vec<(u64, f64)>,
}

/// The class of a game's ending, for the endings table.
fn ending_class(reason: &str) -> String {
    let classes = [
        ("mates", "checkmate"),
        ("stalemate", "stalemate"),
        ("repetition", "threefold repetition"),
        ("fifty-move", "fifty-move rule"),
        ("insufficient", "insufficient material"),
        ("on time", "time forfeit"),
        ("hung", "hang"),
        ("crashed", "crash"),
        ("illegal", "illegal move"),
        ("resigns", "resign adjudication"),
        ("adjudicated a draw", "draw adjudication"),
    ];
    classes
        .iter()
        .find(|(needle, _)| reason.contains(needle))
        .map_or(reason.to_string(), |(_, class)| class.to_string())
}

/// Tally every pairing of a match from its pairs (any order).
pub fn tally(header: &MatchHeader, pairs: &[PairRecord]) -> Vec<PairingResult> {
    let by_key: HashMap<PairKey, &PairRecord> = pairs.iter().map(|p| (p.key(), p)).collect();
    let planned = header.planned();
    header
        .devs()
        .map(|dev| {
            let mut sequential = Sequential::new(header.sprt);
            let mut counted: Vec<&PairRecord> = Vec::new();
            let mut in_order = planned.iter().filter(|k| k.dev == dev);
            // A pair recorded past the plan is not counted: a deterministic match's file from
            // before `pairs` stopped at the book's end holds copies there.
            let in_plan = |p: &&PairRecord| p.dev == dev && p.index < header.pairs();
            if header.sprt_pooled {
                // The SPRT of a match played by several tasks at once (`submit`): every pair
                // recorded counts, as fishtest pools its workers' results; the LLR is a
                // function of the counts, the same as one process's over the same pairs.
                let mut mine: Vec<&PairRecord> = pairs.iter().filter(in_plan).collect();
                mine.sort_by_key(|p| p.index);
                for pair in mine {
                    sequential.push_pooled(pair.outcomes());
                    counted.push(pair);
                }
            } else if header.sprt.is_some() {
                // Sequential: the planned pairs in order, up to the first not yet played.
                for key in in_order.by_ref() {
                    let Some(pair) = by_key.get(key) else { break };
                    if sequential.decided() {
                        break;
                    }
                    sequential.push(pair.outcomes());
                    counted.push(pair);
                }
            } else {
                for pair in pairs.iter().filter(in_plan) {
                    sequential.push(pair.outcomes());
                    counted.push(pair);
                }
            }
            pairing_result(header, dev, &sequential, &counted, pairs)
        })
        .collect()
}

fn pairing_result(
    header: &MatchHeader,
    dev: &str,
    sequential: &Sequential,
    counted: &[&PairRecord],
    pairs: &[PairRecord],
) -> PairingResult {
    let mut endings = BTreeMap::new();
    let mut failures = BTreeMap::new();
    let (mut moves, mut nodes, mut depth) = ([0u64; 2], [0u64; 2], [0f64; 2]);
    let (mut time, mut branching) = ([0u64; 2], [Branching::default(); 2]);
    for pair in counted {
        let first_mover = first_mover(&pair.opening);
        for game in &pair.games {
            let labels = [&game.white, &game.black];
            for (i, m) in game.moves.iter().enumerate() {
                let who = usize::from(labels[(first_mover + i) % 2] == dev);
                branching[who].add(m.nodes, m.depth);
            }
            let class = ending_class(&game.reason);
            *endings.entry(class.clone()).or_insert(0) += 1;
            if matches!(
                class.as_str(),
                "time forfeit" | "hang" | "crash" | "illegal move"
            ) {
                let loser = if game.result == "1-0" {
                    &game.black
                } else {
                    &game.white
                };
                *failures.entry(format!("{loser}: {class}")).or_insert(0) += 1;
            }
            for (colour, side) in game.sides.iter().enumerate() {
                let label = if colour == 0 {
                    &game.white
                } else {
                    &game.black
                };
                let who = usize::from(label == dev);
                moves[who] += u64::from(side.moves);
                nodes[who] += side.nodes;
                time[who] += side.time_ms;
                depth[who] += side.mean_depth * f64::from(side.moves);
            }
        }
    }
    let per = |total: f64, n: u64| if n == 0 { 0.0 } else { total / n as f64 };
    PairingResult {
        base: header.base().to_string(),
        dev: dev.to_string(),
        counts: sequential.counts,
        recorded_pairs: pairs.iter().filter(|p| p.dev == dev).count(),
        estimate: elo(&sequential.counts),
        sprt: header.sprt.map(|sprt| {
            let (lower, upper) = sprt.bounds();
            SprtResult {
                sprt,
                llr: sequential.llr,
                lower,
                upper,
                decision: sequential.decision,
                path: sequential.path.clone(),
            }
        }),
        endings,
        failures,
        nodes_per_move: (
            per(nodes[0] as f64, moves[0]),
            per(nodes[1] as f64, moves[1]),
        ),
        depth_per_move: (per(depth[0], moves[0]), per(depth[1], moves[1])),
        time_per_move_ms: (per(time[0] as f64, moves[0]), per(time[1] as f64, moves[1])),
        branching: (branching[0].mean(), branching[1].mean()),
        reused_openings: (sequential.counts.games() / 2)
            .saturating_sub(header.opening_count as u64),
        replayed: replayed(&sequential.counts, counted),
    }
}

/// The clustered reading of the counted pairs, only where the pentanomial estimate has an
/// interval to set it beside.
fn replayed(counts: &Counts, counted: &[&PairRecord]) -> Option<ReplayedOpenings> {
    elo(counts)
        .filter(|e| e.no_interval().is_none())
        .and_then(|_| replayed_openings(&pair_scores(counted)))
}

/// Each counted pair's opening (its FEN and book moves) and score for the measured side, in
/// the planned order (whatever order the file holds them in).
fn pair_scores(counted: &[&PairRecord]) -> Vec<(String, f64)> {
    let mut in_order = counted.to_vec();
    in_order.sort_by_key(|pair| pair.index);
    in_order
        .iter()
        .map(|pair| {
            let [a, b] = pair.outcomes();
            let key = format!("{} {}", pair.opening.fen, pair.opening.moves.join(" "));
            (key, f64::from(a.half_points() + b.half_points()) / 4.0)
        })
        .collect()
}

/// The least depth of a move counted in the branching factor: shallower replies are the
/// instant ones (a single legal move, a mate found at once), whose `N^(1/d)` is no branching.
pub const BRANCHING_MIN_DEPTH: u32 = 5;

/// `ln N / d` summed over a side's moves, and how many.
#[derive(Clone, Copy, Default)]
struct Branching {
    log_sum: f64,
    moves: u64,
}

impl Branching {
    fn add(&mut self, nodes: u64, depth: u32) {
        if depth >= BRANCHING_MIN_DEPTH && nodes > 0 {
            self.log_sum += (nodes as f64).ln() / f64::from(depth);
            self.moves += 1;
        }
    }

    fn mean(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            (self.log_sum / self.moves as f64).exp()
        }
    }
}

/// Which side plays a game's first recorded move (0: White): the opening's side to move,
/// turned once per book move (book moves are not the players' and are not recorded).
fn first_mover(opening: &Opening) -> usize {
    let black = opening.fen.split_whitespace().nth(1) == Some("b");
    (usize::from(black) + opening.moves.len()) % 2
}

/// One line for a pairing: games, W-D-L, Elo ±, LLR and its bounds.
pub fn status_line(result: &PairingResult) -> String {
    let c = &result.counts;
    let mut line = format!(
        "{} vs {}: games {}  W-D-L {}-{}-{}",
        result.dev,
        result.base,
        c.games(),
        c.wins,
        c.draws,
        c.losses
    );
    if let Some(e) = &result.estimate {
        line += &format!("  Elo {}", e.elo_text(1));
    }
    if let Some(s) = &result.sprt {
        line += &format!("  LLR {:.2} ({:.2}, {:.2})", s.llr, s.lower, s.upper);
        if s.decision != Decision::Continue {
            line += &format!(" {}", s.decision);
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opening(fen: &str, moves: &[&str]) -> Opening {
        Opening {
            line: 1,
            fen: fen.to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn the_first_recorded_move_is_the_side_to_move_after_the_book() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(first_mover(&opening(start, &[])), 0);
        assert_eq!(first_mover(&opening(black, &[])), 1);
        assert_eq!(first_mover(&opening(start, &["e2e4"])), 1);
        assert_eq!(first_mover(&opening(black, &["e7e5"])), 0);
    }

    #[test]
    fn the_branching_factor_is_the_geometric_mean_of_each_moves() {
        let mut b = Branching::default();
        assert_eq!(b.mean(), 0.0, "no moves, no factor");
        b.add(1_000_000, BRANCHING_MIN_DEPTH - 1);
        b.add(0, 9);
        assert_eq!(b.mean(), 0.0, "shallow or empty searches are left out");
        b.add(32, 5);
        b.add(1024, 10);
        assert!((b.mean() - 2.0).abs() < 1e-12);
        b.add(243, 5);
        b.add(243, 5);
        // 2, 2, 3, 3: the geometric mean is √6.
        assert!((b.mean() - 6f64.sqrt()).abs() < 1e-12, "{}", b.mean());
    }
}
