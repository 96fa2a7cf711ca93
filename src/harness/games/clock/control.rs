//! How long the players of a match may think: a clock (`--tc MOVES/SECONDS+INC`), a fixed time
//! per move, a node budget or a depth per move, the match's or a player's own (time or node
//! odds).

use serde::{Deserialize, Serialize};

use crate::engine::config::{Clock, Limits};
use crate::harness::external::Deadline;

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

/// What one player plays under: its limit per move and how far a move may overrun it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerControl {
    pub control: Control,
    pub margin_ms: u64,
}

impl std::fmt::Display for PlayerControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}, time margin {} ms", self.control, self.margin_ms)
    }
}

/// A player's control from its own limit keys, over the match's (`default`, from `--tc`,
/// `--movetime`, `--nodes` or `--depth`, and `--timemargin`). A player with no limit of its
/// own plays under the match's; with neither, there is nothing to play under.
pub fn player_control(
    label: &str,
    limits: &[(String, String)],
    default: Option<Control>,
    default_margin_ms: u64,
) -> Result<PlayerControl, String> {
    let fail = |reason: String| format!("player '{label}': {reason}");
    let get = |key: &str| {
        limits
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let whole = |key: &str| -> Result<Option<u64>, String> {
        get(key)
            .map(|v| {
                v.parse::<u64>()
                    .map_err(|_| fail(format!("{key}= needs a whole number, got '{v}'")))
            })
            .transpose()
    };
    let movetime = get("st")
        .map(|v| match v.parse::<f64>() {
            Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => {
                Ok(((s * 1000.0).round() as u64).max(1))
            }
            _ => Err(fail(format!(
                "st= is seconds per move (e.g. st=0.1), got '{v}'"
            ))),
        })
        .transpose()?;
    let nodes = whole("nodes")?;
    let depth = whole("depth")?
        .map(|d| u32::try_from(d).map_err(|_| fail(format!("depth={d} is too deep"))))
        .transpose()?;
    let tc = get("tc");
    let own = tc.is_some() || movetime.is_some() || nodes.is_some() || depth.is_some();
    let control = match (own, default) {
        (true, _) => Control::from_options(tc, movetime, nodes, depth)
            .map_err(|e| fail(format!("{e} (its own tc=, st=, nodes=, depth=)")))?,
        (false, Some(control)) => control,
        (false, None) => {
            return Err(fail(
                "no limit: give the match --tc, --movetime, --nodes or --depth, or this player tc=, st=, nodes= or depth=".into(),
            ));
        }
    };
    Ok(PlayerControl {
        control,
        margin_ms: whole("timemargin")?.unwrap_or(default_margin_ms),
    })
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
    pub fn limits(&self, control: &Control, overhead_ms: u64) -> Limits {
        match *control {
            Control::Clock { moves, inc_ms, .. } => Limits {
                clock: Some(Clock {
                    time_ms: self.left_ms.max(0) as u64,
                    inc_ms,
                    movestogo: moves.map(|m| m - self.moves % m),
                    overhead_ms,
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
    /// the margin and a second of grace) under a clock or a movetime; `None` under a node or
    /// depth limit, where the engine's own deadline (`EngineSpec::deadline`) applies.
    pub fn patience(&self, control: &Control, margin_ms: u64) -> Option<Deadline> {
        let ms = match *control {
            Control::Clock { .. } => self.left_ms.max(0) as u64 + margin_ms + 1000,
            Control::Movetime(ms) => ms + margin_ms + 1000,
            Control::Nodes(_) | Control::Depth(_) => return None,
        };
        Some(Deadline {
            after: std::time::Duration::from_millis(ms),
            why: "of the clock (time left, the margin and a second)",
        })
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
    fn a_players_own_limits_win_over_the_matchs() {
        let pairs = |items: &[(&str, &str)]| -> Vec<(String, String)> {
            items
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let tc = Control::parse_tc("8+0.08").ok();
        let own = player_control("dev", &pairs(&[("tc", "4+0.04")]), tc, 100).unwrap();
        assert_eq!(own.control, Control::parse_tc("4+0.04").unwrap());
        assert_eq!(own.margin_ms, 100);
        let base = player_control("base", &[], tc, 100).unwrap();
        assert_eq!(base.control, tc.unwrap());
        let st = player_control(
            "x",
            &pairs(&[("st", "0.25"), ("timemargin", "20")]),
            None,
            100,
        )
        .unwrap();
        assert_eq!((st.control, st.margin_ms), (Control::Movetime(250), 20));
        assert_eq!(
            player_control("x", &pairs(&[("nodes", "5000")]), tc, 0)
                .unwrap()
                .control,
            Control::Nodes(5000)
        );
        for (items, says) in [
            (vec![("st", "-1")], "st= is seconds"),
            (vec![("nodes", "lots")], "nodes= needs a whole number"),
            (vec![("tc", "8+0.08"), ("depth", "5")], "exactly one"),
            (vec![("tc", "fast")], "--tc is"),
            (
                vec![("timemargin", "-3"), ("depth", "2")],
                "timemargin= needs",
            ),
        ] {
            let err = player_control("x", &pairs(&items), tc, 100).unwrap_err();
            assert!(err.contains("player 'x'") && err.contains(says), "{err}");
        }
        assert!(
            player_control("x", &[], None, 100)
                .unwrap_err()
                .contains("no limit")
        );
    }

    #[test]
    fn the_clock_charges_moves_adds_increments_and_new_periods() {
        let control = Control::parse_tc("2/1+0.1").unwrap();
        let mut clock = SideClock::start(&control);
        assert_eq!(clock.limits(&control, 30).clock.unwrap().movestogo, Some(2));
        assert!(clock.charge(&control, 400, 0));
        assert_eq!(clock.left_ms, 700);
        assert_eq!(clock.limits(&control, 30).clock.unwrap().movestogo, Some(1));
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
}
