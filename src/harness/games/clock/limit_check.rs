//! Whether each player searches to the limit it plays under. An engine may ignore a limit:
//! Ethereal 12 answers `go nodes 2000` (and 50,000) at depth 1, a few nodes a move, so a match
//! at 2,000 nodes measured nothing but that and went 20-0-0 (issue 61). fastchess users report
//! the same under fixed nodes. After each pair the match holds every player to its node or
//! depth limit by the median of its moves so far; the report repeats the finding.
//!
//! Time limits are not judged here: a move that overruns its clock already loses on time, and
//! one that stops early is the engine's time management, not a limit ignored.

use std::collections::BTreeMap;

use crate::harness::games::clock::control::Control;
use crate::harness::games::playing::record::{MatchHeader, PairRecord};

/// A node limit is ignored when a player's median move searched less than this share of it
/// (a tenth: a search that stops on a node budget checks it every few thousand nodes at
/// most, and mates and single replies are too rare to move a median)...
const NODES_BELOW: f64 = 0.1;
/// ...or more than this multiple of it (twice: overshooting a budget by one iteration's
/// check is normal, by a whole iteration is not honouring it).
const NODES_ABOVE: f64 = 2.0;

/// A player whose moves do not honour its limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Breach {
    pub label: String,
    /// The limit, as the report states it ("nodes 2000").
    pub limit: String,
    /// What the player's median move did ("searched a median of 6 nodes").
    pub median: String,
    /// Moves the median is of.
    pub moves: usize,
}

impl Breach {
    /// The finding, the same in the live match and in its report.
    pub fn warning(&self) -> String {
        format!(
            "player '{}' plays under {} a move but {} over its {} moves so far: it does not honour the limit, and its games measure something else",
            self.label, self.limit, self.median, self.moves
        )
    }
}

/// Every player of `pairs` that searched outside its node or depth limit, by the median of
/// its moves: nodes below a tenth or above twice the budget, or depth below the depth limit.
pub fn breaches(header: &MatchHeader, pairs: &[PairRecord]) -> Vec<Breach> {
    let mut moves = MovesByPlayer::default();
    pairs.iter().for_each(|pair| moves.add(pair));
    moves.breaches(header)
}

/// The pairs a match judges its players on as it plays: the first games tell, and judging
/// every pair of a long match would cost more than the games (its report judges them all).
const LIVE_PAIRS: usize = 50;

/// The live match's watch: each breach warned once, as soon as it shows, and under
/// `--strict-limits` the reason to stop.
pub struct LimitWatch {
    moves: MovesByPlayer,
    pairs: usize,
    warned: Vec<String>,
    strict: bool,
}

impl LimitWatch {
    pub fn new(strict: bool) -> Self {
        LimitWatch {
            moves: MovesByPlayer::default(),
            pairs: 0,
            warned: Vec::new(),
            strict,
        }
    }

    /// Take a finished pair in; print a warning for each player newly found ignoring its
    /// limit. Under `--strict-limits` a breach is the error that stops the match.
    pub fn after_pair(&mut self, header: &MatchHeader, pair: &PairRecord) -> Result<(), String> {
        if self.pairs >= LIVE_PAIRS {
            return Ok(());
        }
        self.pairs += 1;
        self.moves.add(pair);
        for breach in self.moves.breaches(header) {
            if self.warned.contains(&breach.label) {
                continue;
            }
            self.warned.push(breach.label.clone());
            if self.strict {
                return Err(format!(
                    "{} (--strict-limits: the match stops; the pairs recorded are kept)",
                    breach.warning()
                ));
            }
            eprintln!(
                "WARNING: {} (--strict-limits makes this an error)",
                breach.warning()
            );
        }
        Ok(())
    }
}

/// Each player's nodes and depth of every move, by label.
#[derive(Default)]
struct MovesByPlayer(BTreeMap<String, (Vec<u64>, Vec<u64>)>);

impl MovesByPlayer {
    fn add(&mut self, pair: &PairRecord) {
        let first_is_white = white_moves_first(pair);
        for game in &pair.games {
            for (i, mv) in game.moves.iter().enumerate() {
                let white = (i % 2 == 0) == first_is_white;
                let label = if white { &game.white } else { &game.black };
                let entry = self.0.entry(label.clone()).or_default();
                entry.0.push(mv.nodes);
                entry.1.push(u64::from(mv.depth));
            }
        }
    }

    fn breaches(&self, header: &MatchHeader) -> Vec<Breach> {
        self.0
            .iter()
            .filter_map(|(label, (nodes, depths))| {
                let control = header.control_of(label).control;
                breach(label, control, nodes, depths)
            })
            .collect()
    }
}

/// Whether the first move after the book is White's.
fn white_moves_first(pair: &PairRecord) -> bool {
    let start_white = pair.opening.board().side_to_move() == cozy_chess::Color::White;
    start_white == pair.opening.moves.len().is_multiple_of(2)
}

fn breach(label: &str, control: Control, nodes: &[u64], depths: &[u64]) -> Option<Breach> {
    let count = nodes.len();
    let (limit, median, honoured) = match control {
        Control::Nodes(budget) => {
            let m = median(nodes)?;
            let ratio = m as f64 / budget as f64;
            (
                format!("nodes {budget}"),
                format!("searched a median of {m} nodes"),
                (NODES_BELOW..=NODES_ABOVE).contains(&ratio),
            )
        }
        Control::Depth(depth) => {
            let m = median(depths)?;
            (
                format!("depth {depth}"),
                format!("reached a median depth of {m}"),
                m >= u64::from(depth),
            )
        }
        Control::Clock { .. } | Control::Movetime(_) => return None,
    };
    (!honoured).then(|| Breach {
        label: label.to_string(),
        limit,
        median,
        moves: count,
    })
}

/// The median (the lower of the middle two): `None` for no moves.
fn median(values: &[u64]) -> Option<u64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    let middle = (sorted.len() - 1) / 2;
    Some(*sorted.select_nth_unstable(middle).1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_limit_is_honoured_between_a_tenth_and_twice_the_budget() {
        let at = |nodes: Vec<u64>| breach("p", Control::Nodes(2000), &nodes, &[5]);
        assert!(at(vec![2000, 2100, 1990]).is_none());
        assert!(at(vec![200, 3999]).is_none());
        let low = at(vec![6, 6, 7, 2000]).expect("searched far below the budget");
        assert_eq!(low.limit, "nodes 2000");
        assert_eq!(low.median, "searched a median of 6 nodes");
        assert_eq!(low.moves, 4);
        assert!(at(vec![5000, 6000, 4100]).is_some(), "far above");
        assert!(at(Vec::new()).is_none(), "no moves, nothing to judge");
    }

    #[test]
    fn a_depth_limit_needs_the_median_at_the_depth_and_time_is_not_judged() {
        let at = |d: Vec<u64>| breach("p", Control::Depth(6), &[1], &d);
        assert!(at(vec![6, 7, 6]).is_none());
        assert!(at(vec![1, 1, 6]).is_some());
        let clock = Control::Clock {
            moves: None,
            base_ms: 1000,
            inc_ms: 10,
        };
        assert!(breach("p", clock, &[1], &[1]).is_none());
        assert!(breach("p", Control::Movetime(100), &[1], &[1]).is_none());
    }
}
