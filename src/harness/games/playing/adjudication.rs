//! The adjudication rules that may end a game before the rules of chess do (fastchess's
//! `-draw`, `-resign` and `-maxmoves`, off unless asked for).

use serde::{Deserialize, Serialize};

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
