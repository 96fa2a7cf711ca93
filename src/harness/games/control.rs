//! How long the players of a match may think: a clock (`--tc MOVES/SECONDS+INC`), a fixed time
//! per move, a node budget or a depth per move; and the adjudication rules that may end a game
//! before the rules of chess do (fastchess's `-draw` and `-resign`, off unless asked for).

use serde::{Deserialize, Serialize};

use crate::engine::config::{Clock, Limits};

/// The limit of every move of a match.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Control {
    /// A game clock: `base_ms` for `moves` moves (the whole game when `None`), `inc_ms` added
    /// after each move.
    Clock {
        moves: Option<u32>,
        base_ms: u64,
        inc_ms: u64,
    },
    /// A fixed time per move, milliseconds: no clock, a move that takes longer loses on time.
    Movetime(u64),
    /// A node budget per move (deterministic).
    Nodes(u64),
    /// A depth per move (deterministic).
    Depth(u32),
}

impl Control {
    /// Parse `--tc`: `SECONDS[+INC]` or `MOVES/SECONDS[+INC]`, seconds with decimals, the base
    /// also as `M:SS` (cutechess's `0:10+0.1`).
    pub fn parse_tc(text: &str) -> Result<Control, String> {
        let bad = || {
            format!(
                "--tc is MOVES/SECONDS+INC, SECONDS+INC or M:SS+INC (e.g. 40/60+0.5, 10+0.1, 0:10+0.1), or inf with --nodes or --depth, got '{text}'"
            )
        };
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves.parse().map_err(|_| bad())?;
                if moves == 0 {
                    return Err(bad());
                }
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let seconds = |s: &str| -> Result<u64, String> {
            let value: f64 = match s.split_once(':') {
                Some((minutes, seconds)) => {
                    let minutes: u32 = minutes.parse().map_err(|_| bad())?;
                    let seconds: f64 = seconds.parse().map_err(|_| bad())?;
                    if !(0.0..60.0).contains(&seconds) {
                        return Err(bad());
                    }
                    f64::from(minutes) * 60.0 + seconds
                }
                None => s.parse().map_err(|_| bad())?,
            };
            if !value.is_finite() || value < 0.0 {
                return Err(bad());
            }
            Ok((value * 1000.0).round() as u64)
        };
        let (base_ms, inc_ms) = (seconds(base)?, seconds(inc)?);
        if base_ms == 0 && inc_ms == 0 {
            return Err(format!("--tc: {text} gives no time at all"));
        }
        Ok(Control::Clock {
            moves,
            base_ms,
            inc_ms,
        })
    }

    /// The control of a match from its options (exactly one given).
    pub fn from_options(
        tc: Option<&str>,
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
    ) -> Result<Control, String> {
        // `--tc inf` (cutechess, fastchess): no clock, the limit is --nodes or --depth.
        if tc == Some("inf") && nodes.is_none() && depth.is_none() {
            return Err("--tc inf plays without a clock: give --nodes or --depth".into());
        }
        let tc = tc.filter(|tc| *tc != "inf");
        let given = [
            tc.is_some(),
            movetime.is_some(),
            nodes.is_some(),
            depth.is_some(),
        ]
        .iter()
        .filter(|&&g| g)
        .count();
        if given != 1 {
            return Err(
                "a match needs exactly one of --tc, --movetime, --nodes, --depth".to_string(),
            );
        }
        Ok(match (tc, movetime, nodes, depth) {
            (Some(tc), ..) => Control::parse_tc(tc)?,
            (_, Some(0), ..) => return Err("--movetime must be at least 1 ms".into()),
            (_, Some(ms), ..) => Control::Movetime(ms),
            (_, _, Some(0), _) => return Err("--nodes must be at least 1".into()),
            (_, _, Some(n), _) => Control::Nodes(n),
            (.., Some(d)) => {
                crate::harness::plan::check_depth(d)?;
                Control::Depth(d)
            }
            _ => unreachable!("one option is given"),
        })
    }

    /// Whether the same games come out of every run (no time limit).
    pub fn deterministic(&self) -> bool {
        matches!(self, Control::Nodes(_) | Control::Depth(_))
    }

    /// The PGN `TimeControl` tag (PGN standard §9.6.1: `moves/seconds`, `seconds+inc`; `-`
    /// when there is no clock).
    pub fn pgn_tag(&self) -> String {
        let seconds = |ms: u64| {
            if ms.is_multiple_of(1000) {
                format!("{}", ms / 1000)
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        match *self {
            Control::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                let base = match moves {
                    Some(moves) => format!("{moves}/{}", seconds(base_ms)),
                    None => seconds(base_ms),
                };
                if inc_ms > 0 {
                    format!("{base}+{}", seconds(inc_ms))
                } else {
                    base
                }
            }
            Control::Movetime(ms) => format!("1/{}", seconds(ms)),
            Control::Nodes(_) | Control::Depth(_) => "-".into(),
        }
    }
}

impl std::fmt::Display for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Control::Clock { .. } => write!(f, "tc {}", self.pgn_tag()),
            Control::Movetime(ms) => write!(f, "{ms} ms per move"),
            Control::Nodes(n) => write!(f, "{n} nodes per move"),
            Control::Depth(d) => write!(f, "depth {d} per move"),
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct SideClock {
    /// Time left, milliseconds (may go below zero: the side lost on time).
    pub left_ms: i64,
    /// Moves this side has made.
    pub moves: u32,
}

impl SideClock {
    pub fn start(control: &Control) -> SideClock {
        let left_ms = match control {
            Control::Clock { base_ms, .. } => *base_ms as i64,
            _ => 0,
        };
        SideClock { left_ms, moves: 0 }
    }

    /// The limits of this side's next search.
    pub fn limits(&self, control: &Control) -> Limits {
        match *control {
            Control::Clock { moves, inc_ms, .. } => Limits {
                clock: Some(Clock {
                    time_ms: self.left_ms.max(0) as u64,
                    inc_ms,
                    movestogo: moves.map(|m| m - self.moves % m),
                    overhead_ms: crate::engine::config::MOVE_OVERHEAD_MS,
                }),
                ..Limits::default()
            },
            Control::Movetime(ms) => Limits {
                movetime_ms: Some(ms),
                ..Limits::default()
            },
            Control::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            Control::Depth(d) => Limits::depth(d),
        }
    }

    /// Charge a move that took `elapsed_ms`; false when the side ran out of time (the
    /// increment comes only with a move made in time).
    pub fn charge(&mut self, control: &Control, elapsed_ms: u64, margin_ms: u64) -> bool {
        self.moves += 1;
        match *control {
            Control::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                self.left_ms -= elapsed_ms as i64;
                if self.left_ms + (margin_ms as i64) < 0 {
                    return false;
                }
                self.left_ms = self.left_ms.max(0) + inc_ms as i64;
                if moves.is_some_and(|m| self.moves.is_multiple_of(m)) {
                    self.left_ms += base_ms as i64;
                }
                true
            }
            Control::Movetime(ms) => elapsed_ms <= ms + margin_ms,
            Control::Nodes(_) | Control::Depth(_) => true,
        }
    }

    /// How long to wait for a move before the side counts as hung: the time it has (plus
    /// the margin and a second of grace) under a clock; generous otherwise.
    pub fn patience_ms(&self, control: &Control, margin_ms: u64) -> u64 {
        match *control {
            Control::Clock { .. } => self.left_ms.max(0) as u64 + margin_ms + 1000,
            Control::Movetime(ms) => ms + margin_ms + 1000,
            Control::Nodes(_) | Control::Depth(_) => 600_000,
        }
    }
}

/// Adjudication (fastchess's options, off by default): a draw once both sides have scored
/// within `±score` cp for `movecount` consecutive moves each, from move `movenumber` on; a
/// resignation once a side has scored at or below `−score` cp for `movecount` consecutive
/// moves of its own (with `twosided`, only when its opponent's scores agree).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Adjudication {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<ResignRule>,
    /// A draw once each side has made this many moves in the game (fastchess's `-maxmoves`;
    /// book moves do not count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_moves: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

/// Read `key=value,...` for an option, with the keys it allows.
fn keyed<'a>(
    option: &str,
    text: &'a str,
    keys: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("{option}: '{item}' is not KEY=VALUE"))?;
        if !keys.contains(&key) {
            return Err(format!(
                "{option}: unknown key '{key}' (expected {})",
                keys.join(", ")
            ));
        }
        out.push((key, value));
    }
    for key in keys.iter().filter(|k| **k != "twosided") {
        if !out.iter().any(|(k, _)| k == key) {
            return Err(format!("{option} needs {key}=N"));
        }
    }
    Ok(out)
}

fn number<T: std::str::FromStr>(option: &str, key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{option}: {key} needs a whole number, got '{value}'"))
}

impl DrawRule {
    /// Parse `movenumber=N,movecount=N,score=CP`.
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let mut rule = DrawRule {
            movenumber: 0,
            movecount: 0,
            score: 0,
        };
        for (key, value) in keyed("--draw", text, &["movenumber", "movecount", "score"])? {
            match key {
                "movenumber" => rule.movenumber = number("--draw", key, value)?,
                "movecount" => rule.movecount = number("--draw", key, value)?,
                _ => rule.score = number("--draw", key, value)?,
            }
        }
        if rule.movecount == 0 {
            return Err("--draw: movecount must be at least 1".into());
        }
        Ok(rule)
    }
}

impl ResignRule {
    /// Parse `movecount=N,score=CP[,twosided=true|false]`.
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let mut rule = ResignRule {
            movecount: 0,
            score: 0,
            twosided: false,
        };
        for (key, value) in keyed("--resign", text, &["movecount", "score", "twosided"])? {
            match key {
                "movecount" => rule.movecount = number("--resign", key, value)?,
                "score" => rule.score = number("--resign", key, value)?,
                _ => {
                    rule.twosided = value.parse().map_err(|_| {
                        format!("--resign: twosided is true or false, got '{value}'")
                    })?
                }
            }
        }
        if rule.movecount == 0 || rule.score <= 0 {
            return Err("--resign: movecount and score must be positive".into());
        }
        Ok(rule)
    }
}

impl Adjudication {
    /// Whether the game ends here, given every move's score (from its mover's side, `None`
    /// when the player gave none) and the full moves played so far. `Some(None)` is a draw;
    /// `Some(Some(won))` a resignation, `won` telling whether the side that made the last
    /// move is the winner.
    pub fn verdict(&self, scores: &[Option<i32>], full_moves: u32) -> Option<Option<bool>> {
        let n = scores.len();
        if self.max_moves.is_some_and(|max| n >= 2 * max as usize) {
            return Some(None);
        }
        if let Some(rule) = self.draw {
            let needed = 2 * rule.movecount as usize;
            if full_moves >= rule.movenumber
                && n >= needed
                && scores[n - needed..]
                    .iter()
                    .all(|s| s.is_some_and(|s| s.abs() <= rule.score))
            {
                return Some(None);
            }
        }
        if let Some(rule) = self.resign {
            let count = rule.movecount as usize;
            // The last mover's own scores, and its opponent's in between.
            let own: Vec<Option<i32>> = scores
                .iter()
                .rev()
                .step_by(2)
                .take(count)
                .copied()
                .collect();
            let other: Vec<Option<i32>> = scores
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .take(count)
                .copied()
                .collect();
            let losing = |s: &[Option<i32>]| {
                s.len() == count && s.iter().all(|s| s.is_some_and(|s| s <= -rule.score))
            };
            let winning = |s: &[Option<i32>]| {
                s.len() == count && s.iter().all(|s| s.is_some_and(|s| s >= rule.score))
            };
            let last_mover_lost = losing(&own) && (!rule.twosided || winning(&other));
            let other_lost = losing(&other) && (!rule.twosided || winning(&own));
            if last_mover_lost || other_lost {
                // Encoded relative to the last mover: true = the last mover wins.
                return Some(Some(other_lost && !last_mover_lost));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_as_cutechess_and_fastchess_write_them() {
        assert_eq!(
            Control::parse_tc("40/60+0.5").unwrap(),
            Control::Clock {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 500
            }
        );
        assert_eq!(
            Control::parse_tc("10+0.1").unwrap(),
            Control::Clock {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100
            }
        );
        assert_eq!(Control::parse_tc("8").unwrap().pgn_tag(), "8");
        assert_eq!(Control::parse_tc("10+0.1").unwrap().pgn_tag(), "10+0.1");
        assert_eq!(
            Control::parse_tc("40/60+0.5").unwrap().pgn_tag(),
            "40/60+0.5"
        );
        assert_eq!(
            Control::parse_tc("0:10+0.1").unwrap(),
            Control::parse_tc("10+0.1").unwrap()
        );
        assert_eq!(
            Control::parse_tc("40/1:30").unwrap(),
            Control::parse_tc("40/90").unwrap()
        );
        for bad in ["", "x", "0/10", "10+y", "-5", "0+0", "1:60", "a:10", "inf"] {
            assert!(Control::parse_tc(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Control::from_options(Some("inf"), None, Some(500), None).unwrap(),
            Control::Nodes(500)
        );
        assert!(
            Control::from_options(Some("inf"), None, None, None)
                .unwrap_err()
                .contains("--nodes or --depth")
        );
        assert!(Control::from_options(Some("10"), Some(5), None, None).is_err());
        assert!(Control::from_options(None, None, None, None).is_err());
        assert_eq!(
            Control::from_options(None, None, Some(500), None).unwrap(),
            Control::Nodes(500)
        );
    }

    #[test]
    fn the_clock_charges_moves_adds_increments_and_new_periods() {
        let control = Control::parse_tc("2/1+0.1").unwrap();
        let mut clock = SideClock::start(&control);
        assert_eq!(clock.limits(&control).clock.unwrap().movestogo, Some(2));
        assert!(clock.charge(&control, 400, 0));
        assert_eq!(clock.left_ms, 700);
        assert_eq!(clock.limits(&control).clock.unwrap().movestogo, Some(1));
        assert!(clock.charge(&control, 300, 0));
        // 700 - 300 + 100, and a new period of 1000 after the second move.
        assert_eq!(clock.left_ms, 1500);
        assert!(!clock.charge(&control, 1600, 0), "a flag fall");
        let movetime = Control::Movetime(100);
        let mut clock = SideClock::start(&movetime);
        assert!(clock.charge(&movetime, 100, 0));
        assert!(!clock.charge(&movetime, 101, 0));
        assert!(clock.charge(&movetime, 101, 5));
    }

    #[test]
    fn adjudication_rules() {
        let capped = Adjudication {
            max_moves: Some(2),
            ..Adjudication::default()
        };
        assert_eq!(capped.verdict(&[Some(0); 3], 3), None, "a move short");
        assert_eq!(
            capped.verdict(&[Some(900); 4], 3),
            Some(None),
            "each side moved twice"
        );
        let draw = Adjudication {
            draw: Some(DrawRule::parse("movenumber=10,movecount=2,score=5").unwrap()),
            resign: None,
            ..Adjudication::default()
        };
        let quiet = [Some(3), Some(-2), Some(0), Some(4)];
        assert_eq!(draw.verdict(&quiet, 10), Some(None));
        assert_eq!(draw.verdict(&quiet, 9), None, "too early");
        assert_eq!(
            draw.verdict(&[Some(3), Some(-2), Some(9), Some(4)], 12),
            None
        );
        let resign = Adjudication {
            draw: None,
            resign: Some(ResignRule::parse("movecount=2,score=500").unwrap()),
            ..Adjudication::default()
        };
        // The last mover scored -600 twice: it resigns, its opponent wins.
        assert_eq!(
            resign.verdict(&[Some(-600), Some(100), Some(-700)], 2),
            Some(Some(false))
        );
        // Its opponent scored -600 on each of its moves: the last mover wins.
        assert_eq!(
            resign.verdict(&[Some(-600), Some(0), Some(-650), Some(20)], 2),
            Some(Some(true))
        );
        let twosided = Adjudication {
            draw: None,
            resign: Some(ResignRule::parse("movecount=2,score=500,twosided=true").unwrap()),
            ..Adjudication::default()
        };
        assert_eq!(
            twosided.verdict(&[Some(100), Some(-600), Some(100), Some(-700)], 2),
            None,
            "the winner does not agree"
        );
        assert_eq!(
            twosided.verdict(&[Some(600), Some(-600), Some(550), Some(-700)], 2),
            Some(Some(false))
        );
        assert!(
            DrawRule::parse("movecount=2")
                .unwrap_err()
                .contains("movenumber")
        );
        assert!(ResignRule::parse("movecount=2,score=5,bad=1").is_err());
    }
}
