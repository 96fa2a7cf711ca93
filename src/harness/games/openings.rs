//! Openings for a match: an EPD file (one position a line) or a PGN file (the moves of each
//! game, from its `FEN` tag or the start position). Every opening is played twice, once with
//! each side's colours (the field's practice: fishtest, OpenBench, cutechess, fastchess), so an
//! unbalanced opening costs both players the same.

use std::path::Path;

use cozy_chess::{Board, Move};
use serde::{Deserialize, Serialize};

use crate::engine::fen::parse_fen;
use crate::engine::notation;
use crate::harness::epd;

/// Where a game starts: a position, then book moves played from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// The line of the opening in its file (EPD line, or the line where the PGN game starts).
    pub line: usize,
    /// The start position (a full FEN).
    pub fen: String,
    /// Book moves from `fen` (UCI), empty for an EPD position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
}

impl Opening {
    /// The start board.
    pub fn board(&self) -> Board {
        parse_fen(&self.fen).expect("an opening's FEN was checked when it was read")
    }

    /// The book moves, as moves of the boards they are played on.
    pub fn book(&self) -> Vec<Move> {
        let mut board = self.board();
        self.moves
            .iter()
            .map(|text| {
                let mv = epd::parse_move(&board, text).expect("book moves were checked");
                board.play_unchecked(mv);
                mv
            })
            .collect()
    }
}

/// Read the openings of `path`: PGN when it ends in `.pgn`, else EPD. `max_plies` keeps only
/// the first book moves of a PGN game.
pub fn read(path: &Path, max_plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let (text, errors) = epd::read_text(path).map_err(|e| format!("--openings {e}"))?;
    if let Some(first) = errors.first() {
        return Err(format!("--openings {first}"));
    }
    let openings = if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        read_pgn(&text, path, max_plies)?
    } else {
        read_epd(&text, path)?
    };
    if openings.is_empty() {
        return Err(format!(
            "--openings {}: no opening in the file (EPD: one position a line; PGN: games)",
            path.display()
        ));
    }
    Ok(openings)
}

fn read_epd(text: &str, path: &Path) -> Result<Vec<Opening>, String> {
    match epd::parse_text(text, path) {
        Ok(records) => Ok(records
            .into_iter()
            .map(|r| Opening {
                line: r.line,
                fen: r.fen,
                moves: Vec::new(),
            })
            .collect()),
        Err(errors) => Err(errors
            .iter()
            .take(5)
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

/// Read the games of a PGN text: tags (only `FEN` is used), then movetext whose comments,
/// variations, numeric annotation glyphs, move numbers and result are skipped. A move that is
/// not legal is an error naming the line.
fn read_pgn(text: &str, path: &Path, max_plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let name = path.display();
    let mut openings = Vec::new();
    let mut game: Option<(usize, String, Board, Vec<String>)> = None;
    let mut in_movetext = false;
    let mut comment_depth = 0usize;
    let mut variation_depth = 0usize;
    let finish = |game: Option<(usize, String, Board, Vec<String>)>, out: &mut Vec<Opening>| {
        if let Some((line, fen, _, moves)) = game {
            out.push(Opening { line, fen, moves });
        }
    };
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        if comment_depth == 0 && line.starts_with('[') {
            if in_movetext {
                finish(game.take(), &mut openings);
                in_movetext = false;
            }
            let start = game.get_or_insert_with(|| {
                (
                    number,
                    Board::default().to_string(),
                    Board::default(),
                    Vec::new(),
                )
            });
            if let Some(fen) = tag_value(line, "FEN") {
                let board =
                    parse_fen(&fen).map_err(|e| format!("{name}:{number}: FEN tag: {e}"))?;
                start.1 = board.to_string();
                start.2 = board;
            }
            continue;
        }
        if line.starts_with('%') {
            continue;
        }
        for token in pgn_tokens(line, &mut comment_depth, &mut variation_depth) {
            in_movetext = true;
            let game = game.get_or_insert_with(|| {
                (
                    number,
                    Board::default().to_string(),
                    Board::default(),
                    Vec::new(),
                )
            });
            if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                continue;
            }
            if max_plies.is_some_and(|max| game.3.len() >= max) {
                continue;
            }
            let mv =
                epd::parse_move(&game.2, token).map_err(|e| format!("{name}:{number}: {e}"))?;
            game.3.push(notation::uci(&game.2, mv));
            game.2.play_unchecked(mv);
        }
    }
    finish(game.take(), &mut openings);
    Ok(openings)
}

/// The value of `[NAME "value"]`, if the line is that tag.
fn tag_value(line: &str, name: &str) -> Option<String> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (tag, value) = inner.split_once(char::is_whitespace)?;
    (tag == name).then(|| value.trim().trim_matches('"').to_string())
}

/// The move tokens of a movetext line: comments `{...}` (which may span lines) and `;...`,
/// variations `(...)`, glyphs `$n`, and move numbers `12.` / `12...` left out.
fn pgn_tokens<'a>(line: &'a str, comment: &mut usize, variation: &mut usize) -> Vec<&'a str> {
    let mut tokens = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        if *comment > 0 {
            match rest.find('}') {
                Some(end) => {
                    *comment = 0;
                    rest = &rest[end + 1..];
                    continue;
                }
                None => break,
            }
        }
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else {
            break;
        };
        match first {
            '{' => {
                *comment = 1;
                rest = &rest[1..];
            }
            ';' => break,
            '(' => {
                *variation += 1;
                rest = &rest[1..];
            }
            ')' => {
                *variation = variation.saturating_sub(1);
                rest = &rest[1..];
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                    .unwrap_or(rest.len());
                let token = &rest[..end];
                rest = &rest[end..];
                // A move number may be glued to its move (`1.e4`); a result is kept whole.
                let token = if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    token
                } else {
                    token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
                };
                if *variation == 0 && !token.is_empty() && !token.starts_with('$') {
                    tokens.push(token);
                }
            }
        }
    }
    tokens
}

/// The order the openings are played in: a permutation drawn from `seed` (SplitMix64-driven
/// Fisher-Yates), so a match with another seed plays other openings first, and a match that
/// plays fewer pairs than there are openings samples the whole set.
pub fn order(count: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    let mut state = seed ^ 0x6f70_656e_696e_6773;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for i in (1..count).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("searchlab-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn pgn_games_give_their_moves_without_comments_variations_or_numbers() {
        let path = write(
            "book.pgn",
            "[Event \"x\"]\n[White \"a\"]\n\n1. e4 {best by test\nsays who} e5 2.Nf3 (2. f4 exf4) Nc6 $1 3. Bb5 a6 1-0\n\n[Event \"y\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n[SetUp \"1\"]\n\n1... c5 2. Nf3 *\n",
        );
        let openings = read(&path, None).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(
            openings[0].moves,
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
        );
        assert_eq!(openings[0].line, 1);
        assert_eq!(openings[1].moves, ["c7c5", "g1f3"]);
        assert!(openings[1].fen.starts_with("rnbqkbnr/pppppppp/8/8/4P3"));
        assert_eq!(openings[1].book().len(), 2);
        let short = read(&path, Some(3)).unwrap();
        assert_eq!(short[0].moves.len(), 3);
    }

    #[test]
    fn an_illegal_pgn_move_names_the_file_and_line() {
        let path = write("bad.pgn", "[Event \"x\"]\n\n1. e4 e5\n2. Ke3 *\n");
        let err = read(&path, None).unwrap_err();
        assert!(err.contains("bad.pgn:4") && err.contains("Ke3"), "{err}");
    }

    #[test]
    fn epd_openings_and_their_errors() {
        let path = write(
            "book.epd",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n# comment\nrnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n",
        );
        let openings = read(&path, None).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[1].line, 3);
        let bad = write("bad.epd", "not a fen\n");
        assert!(read(&bad, None).unwrap_err().contains("bad.epd:1"));
        let empty = write("empty.epd", "# nothing\n");
        assert!(read(&empty, None).unwrap_err().contains("no opening"));
    }

    #[test]
    fn the_order_is_a_seeded_permutation() {
        let a = order(100, 1);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_eq!(a, order(100, 1));
        assert_ne!(a, order(100, 2));
    }
}
