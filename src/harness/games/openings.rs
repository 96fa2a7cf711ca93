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
/// Read the games of a PGN text: tags (only `FEN` is used), then movetext whose comments,
/// variations, numeric annotation glyphs, move numbers and result are skipped; a result (or
/// the next tags) ends a game. A move that is not legal is an error naming the line.
fn read_pgn(text: &str, path: &Path, max_plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let name = path.display();
    let mut openings = Vec::new();
    let mut game: Option<(Opening, Board)> = None;
    let mut in_movetext = false;
    let mut comment_depth = 0usize;
    let mut comment_opened = 0usize;
    let mut variation_depth = 0usize;
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
        // A comment still open at the next game's tags was never closed: reading on would
        // swallow games (or play an opening cut at the comment).
        if comment_depth > 0 && line.starts_with("[Event ") {
            return Err(format!(
                "{name}:{comment_opened}: a '{BRACE}' comment is not closed before the next game's tags at line {number}"
            ));
        }
        if comment_depth == 0 && line.starts_with('[') {
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
        let open_before = comment_depth > 0;
        let tokens = pgn_tokens(line, &mut comment_depth, &mut variation_depth)
            .map_err(|e| format!("{name}:{number}: {e}"))?;
        if !open_before && comment_depth > 0 {
            comment_opened = number;
        }
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
    if comment_depth > 0 {
        return Err(format!(
            "{name}:{comment_opened}: a '{BRACE}' comment is never closed (the file ends inside it)"
        ));
    }
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
            ')' => {
                *variation = variation.saturating_sub(1);
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
    fn openings_in_file_order_or_shuffled_from_a_start() {
        let sequential = OpeningOrder {
            sequential: true,
            start: 3,
        };
        assert_eq!(arrange(5, 9, sequential), vec![2, 3, 4, 0, 1]);
        let shuffled = arrange(5, 9, OpeningOrder::default());
        assert_eq!(shuffled, order(5, 9));
        let from_two = arrange(
            5,
            9,
            OpeningOrder {
                sequential: false,
                start: 2,
            },
        );
        assert_eq!(from_two[0], shuffled[1]);
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

    /// A comment never closed is refused with the line that opened it, at the end of the file
    /// or at the next game's tags, instead of playing the opening cut at the brace.
    #[test]
    fn an_unclosed_comment_is_refused_with_its_line() {
        let open = write(
            "open.pgn",
            "[Event \"a\"]\n\n1. e4 { never closed e5 2. Nf3\nNc6 3. Bb5 *\n",
        );
        let err = read(&open, None).unwrap_err();
        assert!(
            err.contains("open.pgn:3: a '{' comment is never closed"),
            "{err}"
        );
        let next = write(
            "next.pgn",
            "[Event \"a\"]\n\n1. e4 { never closed e5 *\n\n[Event \"b\"]\n\n1. d4 {fine} d5 *\n",
        );
        let err = read(&next, None).unwrap_err();
        assert!(
            err.contains(
                "next.pgn:3: a '{' comment is not closed before the next game's tags at line 5"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_stray_brace_is_refused_and_castling_with_zeros_is_read() {
        let stray = write("stray.pgn", "1. e4 e5 } 2. Nf3 *\n");
        let err = read(&stray, None).unwrap_err();
        assert!(err.contains("stray.pgn:1") && err.contains("'}'"), "{err}");
        let zeros = write(
            "zeros.pgn",
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6 5. d3 0-0 *\n",
        );
        let openings = read(&zeros, None).unwrap();
        assert_eq!(openings[0].moves.len(), 10);
        assert_eq!(openings[0].moves[6], "e1g1");
    }

    #[test]
    fn openings_already_over_are_left_out() {
        let path = write("over.pgn", "1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e5 *\n");
        let openings = read(&path, None).unwrap();
        assert_eq!(openings.len(), 1, "the fool's mate is over");
        assert_eq!(openings[0].line, 3);
        let mated = write("mated.epd", "k7/1Q6/1K6/8/8/8/8/8 b - -\n");
        assert!(read(&mated, None).unwrap_err().contains("no opening"));
    }

    /// 10,000 mutated PGN and EPD openings files: each is read or refused, and none hangs (a
    /// worker reads them; one that takes past a generous bound is a hang, named with its text).
    #[test]
    fn mutated_openings_files_are_read_or_refused_never_hung() {
        let pgn = "[Event \"x\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\n1... e5 {a (comment)} 2. Nf3 (2. f4 exf4; aside\n) Nc6 $1 3. Bb5 a6 4. 0-0 Nf6 1/2-1/2\n";
        let epd: String = include_str!("../../../suites/openings.epd")
            .lines()
            .take(6)
            .map(|l| format!("{l}\n"))
            .collect();
        let alphabet: Vec<char> = "{}()[];$.0123456789-/*\"\n eNxKQO=+#%abh8"
            .chars()
            .collect();
        let mut state = 0x5eed_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut texts = Vec::new();
        for i in 0..10_000 {
            let base = if i % 2 == 0 { pgn } else { epd.as_str() };
            let mut chars: Vec<char> = base.chars().collect();
            for _ in 0..1 + next() % 4 {
                let at = (next() as usize) % (chars.len() + 1);
                match next() % 4 {
                    0 => chars.insert(at, alphabet[(next() as usize) % alphabet.len()]),
                    1 if at < chars.len() => {
                        chars.remove(at);
                    }
                    2 => chars.truncate(at),
                    _ => {
                        let piece: Vec<char> = chars[at..].iter().take(12).copied().collect();
                        chars.splice(at..at, piece);
                    }
                }
            }
            let ext = if i % 2 == 0 { "pgn" } else { "epd" };
            texts.push((ext, chars.into_iter().collect::<String>()));
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let work = texts.clone();
        std::thread::spawn(move || {
            for (ext, text) in work {
                let began = std::time::Instant::now();
                let path = std::path::Path::new("fuzz").with_extension(ext);
                let read = if ext == "pgn" {
                    read_pgn(&text, &path, None).and_then(|o| without_finished(o, &path))
                } else {
                    read_epd(&text, &path).and_then(|o| without_finished(o, &path))
                };
                if tx.send((read.is_ok(), began.elapsed())).is_err() {
                    break;
                }
            }
        });
        let (mut read, mut refused, mut longest) = (0, 0, std::time::Duration::ZERO);
        for (ext, text) in &texts {
            match rx.recv_timeout(std::time::Duration::from_secs(10)) {
                Ok((ok, took)) => {
                    if ok {
                        read += 1;
                    } else {
                        refused += 1;
                    }
                    longest = longest.max(took);
                }
                Err(_) => panic!("a mutated {ext} file hangs the reader:\n{text}"),
            }
        }
        assert_eq!(read + refused, 10_000);
        assert!(read > 0 && refused > 0, "{read} read, {refused} refused");
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "openings fuzz: {read} read, {refused} refused, the longest {longest:?}"
        );
    }
}
