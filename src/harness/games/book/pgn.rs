//! PGN export of a match's games, in the PGN standard's export format: the seven-tag roster,
//! `FEN`/`SetUp` when the game does not start from the initial position, `TimeControl` and
//! `Termination`; moves in SAN, the opening's book moves marked `{book}`, every other move
//! commented with the mover's score (pawns, or `#N` for a mate), depth and time (not under
//! fixed nodes or depth, whose games repeat exactly and whose times do not), and why the
//! game ended in a comment before the result.

use std::fmt::Write as _;

use cozy_chess::Board;

use crate::engine::notation;
use crate::engine::score::{MATE, MATE_BOUND, Score};
use crate::harness::epd;
use crate::harness::games::playing::record::{MatchHeader, PairRecord};

/// `+0.31` or `+#3`/`-#2` (mate in N moves).
fn score_text(score: Score) -> String {
    if score.abs() >= MATE_BOUND {
        let moves = (MATE - score.abs() + 1) / 2;
        format!("{}#{moves}", if score > 0 { '+' } else { '-' })
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

/// What a move's comment holds beyond score, depth and time (fastchess's `-pgnout nodes=true
/// nps=true`): `, n=NODES` and `, nps=N`, as fastchess writes them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveComments {
    pub nodes: bool,
    pub nps: bool,
}

impl MoveComments {
    /// `--pgn-comments nodes,nps`.
    pub fn parse(text: &str) -> Result<MoveComments, String> {
        let mut c = MoveComments::default();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            match item {
                "nodes" => c.nodes = true,
                "nps" => c.nps = true,
                other => {
                    return Err(format!(
                        "--pgn-comments {text}: '{other}' is not recorded per move (nodes, nps)"
                    ));
                }
            }
        }
        Ok(c)
    }

    fn text(&self, nodes: u64, time_ms: u64) -> String {
        let mut out = String::new();
        if self.nodes {
            let _ = write!(out, ", n={nodes}");
        }
        if self.nps && time_ms > 0 {
            let _ = write!(out, ", nps={}", nodes * 1000 / time_ms);
        }
        out
    }
}

/// A played move's comment: `{+0.31/15 0.172s}` (score, depth, time) and the extras.
fn comment(
    m: &crate::harness::games::playing::game::MoveRecord,
    time: &str,
    extras: MoveComments,
) -> String {
    let more = extras.text(m.nodes, m.time_ms);
    match m.score {
        Some(score) => format!("{{{}/{}{time}{more}}}", score_text(score), m.depth),
        None => format!("{{-{time}{more}}}"),
    }
}

/// Write the pair's two games.
pub fn write_pair(
    out: &mut String,
    pair: &PairRecord,
    header: &MatchHeader,
    date: &str,
    extras: MoveComments,
) {
    for (number, game) in pair.games.iter().enumerate() {
        let [white, black] = [&game.white, &game.black].map(|label| header.control_of(label));
        let start = pair.opening.board();
        let tags = [
            ("Event", "searchlab match".to_string()),
            ("Site", "?".to_string()),
            ("Date", date.replace('-', ".")),
            ("Round", format!("{}.{}", pair.index + 1, number + 1)),
            ("White", game.white.clone()),
            ("Black", game.black.clone()),
            ("Result", game.result.clone()),
        ];
        for (tag, value) in tags {
            let _ = writeln!(out, "[{tag} \"{}\"]", escape(&value));
        }
        if start != Board::default() {
            let _ = writeln!(out, "[FEN \"{}\"]", pair.opening.fen);
            let _ = writeln!(out, "[SetUp \"1\"]");
        }
        // Time odds as cutechess writes them: a tag per side when the two differ.
        if white.control == black.control {
            let _ = writeln!(out, "[TimeControl \"{}\"]", white.control.pgn_tag());
        } else {
            let _ = writeln!(out, "[WhiteTimeControl \"{}\"]", white.control.pgn_tag());
            let _ = writeln!(out, "[BlackTimeControl \"{}\"]", black.control.pgn_tag());
        }
        let _ = writeln!(out, "[Termination \"{}\"]", game.termination);
        let plies = pair.opening.moves.len() + game.moves.len();
        let _ = writeln!(out, "[PlyCount \"{plies}\"]");
        out.push('\n');
        let book = pair.opening.moves.iter().map(|m| (m.as_str(), None));
        // Under fixed nodes or depth the games repeat exactly; their times do not, so they are
        // left out of the PGN (the results file keeps them).
        let time = |ms: u64| {
            if white.control.deterministic() && black.control.deterministic() {
                String::new()
            } else {
                format!(" {:.3}s", ms as f64 / 1000.0)
            }
        };
        let played = game
            .moves
            .iter()
            .map(|m| (m.mv.as_str(), Some(comment(m, &time(m.time_ms), extras))));
        let mut tokens = Vec::new();
        let mut board = start;
        for (text, comment) in book.chain(played) {
            let Ok(mv) = epd::parse_move(&board, text) else {
                // A record that does not replay is not printed past the bad move.
                tokens.push(format!("{{unreadable move {text}}}"));
                break;
            };
            let number = board.fullmove_number();
            if board.side_to_move() == cozy_chess::Color::White {
                tokens.push(format!("{number}."));
            } else if tokens.is_empty() || tokens.last().is_some_and(|t| t.ends_with('}')) {
                tokens.push(format!("{number}..."));
            }
            tokens.push(notation::san(&board, mv));
            tokens.push(comment.unwrap_or_else(|| "{book}".into()));
            board.play_unchecked(mv);
        }
        // Why it ended, as cutechess writes it: a comment before the result.
        tokens.push(format!("{{{}}}", game.reason.replace('}', ")")));
        tokens.push(game.result.clone());
        wrap(out, &tokens);
        out.push('\n');
    }
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Lines of at most 79 characters, as the export format asks.
fn wrap(out: &mut String, tokens: &[String]) {
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_read_as_mates() {
        assert_eq!(score_text(MATE - 1), "+#1");
        assert_eq!(score_text(-(MATE - 4)), "-#2");
        assert_eq!(score_text(31), "+0.31");
    }
}
