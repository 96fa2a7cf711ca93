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
    let openings = without_finished(read_all(path, max_plies)?, path)?;
    if openings.is_empty() {
        return Err(format!(
            "--openings {}: no opening in the file (EPD: one position a line; PGN: games)",
            path.display()
        ));
    }
    Ok(openings)
}

/// Every game (PGN) or position (EPD) of `path`, finished ones included.
pub fn read_all(path: &Path, max_plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let (text, errors) = epd::read_text(path).map_err(|e| format!("--openings {e}"))?;
    if let Some(first) = errors.first() {
        return Err(format!("--openings {first}"));
    }
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        read_pgn(&text, path, max_plies)
    } else {
        read_epd(&text, path)
    }
}

/// The openings whose position after the book moves has a legal move; the others (mate or
/// stalemate already) are left out with a warning that names their lines.
fn without_finished(openings: Vec<Opening>, path: &Path) -> Result<Vec<Opening>, String> {
    let mut kept = Vec::with_capacity(openings.len());
    let mut over = Vec::new();
    for opening in openings {
        let mut board = parse_fen(&opening.fen)
            .map_err(|e| format!("--openings {}:{}: {e}", path.display(), opening.line))?;
        for text in &opening.moves {
            let mv = epd::parse_move(&board, text)
                .map_err(|e| format!("--openings {}:{}: {e}", path.display(), opening.line))?;
            board.play_unchecked(mv);
        }
        if board.generate_moves(|_| true) {
            kept.push(opening);
        } else {
            over.push(opening.line.to_string());
        }
    }
    if !over.is_empty() {
        eprintln!(
            "warning: --openings {}: {} opening(s) already over (mate or stalemate after their book moves) are left out: line(s) {}",
            path.display(),
            over.len(),
            over.join(", ")
        );
    }
    Ok(kept)
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

/// The brace that opens a PGN comment, as messages quote it.
const BRACE: char = '{';
/// What a PGN reader has open across lines: a comment and a variation (their depth, and the
/// line each was opened on).
#[derive(Default)]
struct Open {
    comment: usize,
    comment_line: usize,
    variation: usize,
    variation_line: usize,
}

impl Open {
    /// Read a movetext line's tokens, noting where a comment or a variation opens.
    fn tokens<'a>(&mut self, line: &'a str, number: usize) -> Result<Vec<&'a str>, String> {
        let (comment_before, variation_before) = (self.comment > 0, self.variation > 0);
        let tokens = pgn_tokens(line, &mut self.comment, &mut self.variation)?;
        if !comment_before && self.comment > 0 {
            self.comment_line = number;
        }
        if !variation_before && self.variation > 0 {
            self.variation_line = number;
        }
        Ok(tokens)
    }

    /// A comment or a variation still open at the next game's tags (`at`: their line) or at
    /// the end of the file (`None`) was never closed: reading on would swallow games, or leave
    /// the moves after it and the next game's unread.
    fn unclosed(&self, name: &str, at: Option<usize>) -> Result<(), String> {
        let (line, what) = if self.comment > 0 {
            (self.comment_line, format!("a '{BRACE}' comment"))
        } else if self.variation > 0 {
            (self.variation_line, "a '(' variation".to_string())
        } else {
            return Ok(());
        };
        Err(match at {
            Some(tags) => format!(
                "{name}:{line}: {what} is not closed before the next game's tags at line {tags}"
            ),
            None => format!("{name}:{line}: {what} is never closed (the file ends inside it)"),
        })
    }
}

/// Read the games of a PGN text: tags (only `FEN` is used), then movetext whose comments,
/// variations, numeric annotation glyphs, move numbers and result are skipped; a result (or
/// the next tags) ends a game. A move that is not legal is an error naming the line.
fn read_pgn(text: &str, path: &Path, max_plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let name = path.display().to_string();
    // A byte-order mark some editors write is not part of the first tag (as in EPD).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut openings = Vec::new();
    let mut game: Option<(Opening, Board)> = None;
    let mut in_movetext = false;
    let mut open = Open::default();
    let start = |line: usize| {
        let board = Board::default();
        let opening = Opening {
            line,
            fen: board.to_string(),
            moves: Vec::new(),
        };
        (opening, board)
    };
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        if (open.comment > 0 && line.starts_with("[Event "))
            || (open.comment == 0 && line.starts_with('['))
        {
            open.unclosed(&name, Some(number))?;
        }
        if open.comment == 0 && line.starts_with('[') {
            if in_movetext {
                openings.extend(game.take().map(|(opening, _)| opening));
                in_movetext = false;
            }
            let (opening, board) = game.get_or_insert_with(|| start(number));
            if let Some(fen) = tag_value(line, "FEN") {
                *board = parse_fen(&fen).map_err(|e| format!("{name}:{number}: FEN tag: {e}"))?;
                opening.fen = board.to_string();
            }
            continue;
        }
        if line.starts_with('%') {
            continue;
        }
        let tokens = open
            .tokens(line, number)
            .map_err(|e| format!("{name}:{number}: {e}"))?;
        for token in tokens {
            in_movetext = true;
            // A result ends the game: what follows is the next one, tags or not.
            if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                openings.extend(game.take().map(|(opening, _)| opening));
                in_movetext = false;
                continue;
            }
            let (opening, board) = game.get_or_insert_with(|| start(number));
            if max_plies.is_some_and(|max| opening.moves.len() >= max) {
                continue;
            }
            let mv = epd::parse_move(board, token).map_err(|e| format!("{name}:{number}: {e}"))?;
            opening.moves.push(notation::uci(board, mv));
            board.play_unchecked(mv);
        }
    }
    open.unclosed(&name, None)?;
    openings.extend(game.take().map(|(opening, _)| opening));
    Ok(openings)
}

/// The value of `[NAME "value"]`, if the line is that tag.
fn tag_value(line: &str, name: &str) -> Option<String> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (tag, value) = inner.split_once(char::is_whitespace)?;
    (tag == name).then(|| value.trim().trim_matches('"').to_string())
}

/// The move tokens of a movetext line: comments `{...}` (which may span lines) and `;...`,
/// variations `(...)`, glyphs `$n`, and move numbers `12.` / `12...` left out. A `}` outside a
/// comment is an error (every step of the loop consumes at least one character, so no input
/// makes it loop).
fn pgn_tokens<'a>(
    line: &'a str,
    comment: &mut usize,
    variation: &mut usize,
) -> Result<Vec<&'a str>, String> {
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
            ')' if *variation == 0 => return Err("a ')' outside any variation".into()),
            ')' => {
                *variation -= 1;
                rest = &rest[1..];
            }
            '}' => return Err("a '}' outside any comment".into()),
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                    .unwrap_or(rest.len());
                let token = &rest[..end];
                rest = &rest[end..];
                // A move number may be glued to its move (`1.e4`); a result and castling
                // written with zeros (`0-0`) are kept whole.
                let token = strip_move_number(token);
                if *variation == 0 && !token.is_empty() && !token.starts_with('$') {
                    tokens.push(token);
                }
            }
        }
    }
    Ok(tokens)
}

/// A token without its leading move number (`12.`, `12...`): digits only count as one when a
/// dot follows them.
fn strip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after = &token[digits..];
    if digits > 0 && after.starts_with('.') {
        after.trim_start_matches('.')
    } else {
        token
    }
}

/// How the openings are taken (fastchess's `-openings order= start=`): in file order or a
/// seeded permutation, from the `start`-th (1-based), wrapping around.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningOrder {
    /// In the file's order; `false`: the permutation `order` draws from the seed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sequential: bool,
    /// The first opening played, 1-based.
    #[serde(default = "first", skip_serializing_if = "is_first")]
    pub start: usize,
}

impl Default for OpeningOrder {
    fn default() -> Self {
        OpeningOrder {
            sequential: false,
            start: first(),
        }
    }
}

fn first() -> usize {
    1
}

fn is_first(start: &usize) -> bool {
    *start == 1
}

/// The indexes of `count` openings in the order they are played.
pub fn arrange(count: usize, seed: u64, how: OpeningOrder) -> Vec<usize> {
    let mut indexes = if how.sequential {
        (0..count).collect()
    } else {
        order(count, seed)
    };
    if count > 0 {
        indexes.rotate_left((how.start.max(1) - 1) % count);
    }
    indexes
}

/// The order the openings are played in: a permutation drawn from `seed` (Fisher-Yates driven
/// by rand_xoshiro's SplitMix64, the stream every committed match drew; a test pins it), so a
/// match with another seed plays other openings first, and a match that plays fewer pairs
/// than there are openings samples the whole set.
pub fn order(count: usize, seed: u64) -> Vec<usize> {
    use rand_core::{Rng, SeedableRng};
    let mut order: Vec<usize> = (0..count).collect();
    let mut rng = rand_xoshiro::SplitMix64::seed_from_u64(seed ^ 0x6f70_656e_696e_6773);
    for i in (1..count).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests;
