//! EPD reading: four FEN fields (optionally the two move counters of a full FEN), then opcodes
//! `op operand ...;`. Perft lines `FEN ;D1 20 ;D2 400` read through the same path: `D1` is an
//! opcode with one operand. `bm`/`am` moves are read in SAN (check and mate suffixes, `O-O`
//! or `0-0`, promotions with or without `=`) or UCI notation and must be legal; STS points are
//! read from `c0 "f5=10, Be5+=2"`. Every error names the file, the line and the reason.

use std::fmt;
use std::path::{Path, PathBuf};

use cozy_chess::util::{parse_san_move, parse_uci_move};
use cozy_chess::{Board, Move};

use crate::engine::fen::parse_fen;

/// One EPD operation: an opcode and its operands (quotes removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The opcode, e.g. `bm`, `id`, `D5`.
    pub opcode: String,
    /// The operands, in order.
    pub operands: Vec<String>,
}

/// One position of a suite.
#[derive(Clone, Debug)]
pub struct EpdRecord {
    /// Line number in the file (1-based).
    pub line: usize,
    /// The position.
    pub board: Board,
    /// The position as a full six-field FEN.
    pub fen: String,
    /// The operations, in file order; unknown opcodes are kept.
    pub operations: Vec<Operation>,
    /// The `bm` moves (legal in `board`).
    pub best_moves: Vec<Move>,
    /// The `am` moves (legal in `board`).
    pub avoid_moves: Vec<Move>,
    /// STS points per move, from `c0 "Move=10, Other=3"` (empty when `c0` is no such list).
    pub points: Vec<(Move, u32)>,
}

impl EpdRecord {
    /// The operands of the first operation with `opcode`.
    pub fn operands(&self, opcode: &str) -> Option<&[String]> {
        self.operations
            .iter()
            .find(|op| op.opcode == opcode)
            .map(|op| op.operands.as_slice())
    }

    /// The `id` opcode, or `line N` when there is none.
    pub fn id(&self) -> String {
        match self.operands("id").and_then(|ops| ops.first()) {
            Some(id) => id.clone(),
            None => format!("line {}", self.line),
        }
    }

    /// Perft counts `(depth, nodes)` from `D1 n ;D2 n ...` operations, by increasing depth.
    pub fn perft_counts(&self) -> Vec<(u32, u64)> {
        let mut counts: Vec<(u32, u64)> = self
            .operations
            .iter()
            .filter_map(|op| {
                let depth = op.opcode.strip_prefix('D')?.parse().ok()?;
                let nodes = op.operands.first()?.parse().ok()?;
                Some((depth, nodes))
            })
            .collect();
        counts.sort_unstable();
        counts
    }
}

/// Read a move in SAN (check and mate suffixes, annotation marks, `0-0` castling, promotion
/// with or without `=`) or in UCI notation; it must be legal in `board`.
pub fn parse_move(board: &Board, text: &str) -> Result<Move, String> {
    let trimmed = text.trim_end_matches(['+', '#', '!', '?']);
    let mut san = trimmed.replace('0', "O");
    // A promotion written without `=` or in lower case (`e8q`, `exd8N`) reads as SAN too.
    let bytes: Vec<char> = san.chars().collect();
    if bytes.len() >= 3
        && bytes[bytes.len() - 2].is_ascii_digit()
        && "nbrqNBRQ".contains(bytes[bytes.len() - 1])
    {
        let piece = bytes[bytes.len() - 1].to_ascii_uppercase();
        san = format!("{}={piece}", &san[..san.len() - 1]);
    }
    if let Ok(mv) = parse_san_move(board, &san) {
        return Ok(mv);
    }
    if let Ok(mv) = parse_uci_move(board, text)
        && board.is_legal(mv)
    {
        return Ok(mv);
    }
    Err(format!(
        "illegal or unreadable move '{}'",
        crate::harness::format::clip(text, 40)
    ))
}

/// STS points from a `c0` comment such as `"f5=10, Be5+=2, Bf2=3"`; `None` when it is not such
/// a list.
fn sts_points(board: &Board, comment: &str) -> Option<Vec<(Move, u32)>> {
    comment
        .split(',')
        .map(|item| {
            let (mv, points) = item.trim().rsplit_once('=')?;
            Some((parse_move(board, mv).ok()?, points.trim().parse().ok()?))
        })
        .collect()
}

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdError {
    /// The file (or `<input>`).
    pub file: PathBuf,
    /// Line number, 1-based (0 when the file itself could not be read).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.reason)
        } else {
            write!(f, "{}:{}: {}", self.file.display(), self.line, self.reason)
        }
    }
}

impl std::error::Error for EpdError {}

/// Split the text after the FEN into operations. Operands may be quoted; a quoted operand may
/// hold spaces and semicolons.
fn parse_operations(text: &str) -> Result<Vec<Operation>, String> {
    let mut operations = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == ';') {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(operations);
        }
        let mut opcode = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == ';' {
                break;
            }
            opcode.push(c);
            chars.next();
        }
        if !opcode
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(format!("bad opcode `{opcode}`"));
        }
        let mut operands = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            match chars.peek() {
                None | Some(';') => break,
                Some('"') => {
                    chars.next();
                    let mut operand = String::new();
                    loop {
                        match chars.next() {
                            Some('"') => break,
                            Some(c) => operand.push(c),
                            None => {
                                return Err(format!("unterminated string in opcode `{opcode}`"));
                            }
                        }
                    }
                    operands.push(operand);
                }
                Some(_) => {
                    let mut operand = String::new();
                    while let Some(&c) = chars.peek() {
                        if c.is_whitespace() || c == ';' {
                            break;
                        }
                        operand.push(c);
                        chars.next();
                    }
                    operands.push(operand);
                }
            }
        }
        operations.push(Operation { opcode, operands });
    }
}

/// The standard EPD opcodes (Edwards, PGN standard §16.2) that a move operand never equals:
/// one of them among a `bm`'s operands means a `;` is missing.
const OPCODES: &[&str] = &[
    "acd",
    "acn",
    "acs",
    "am",
    "bm",
    "c0",
    "c1",
    "c2",
    "c3",
    "c4",
    "c5",
    "c6",
    "c7",
    "c8",
    "c9",
    "ce",
    "dm",
    "draw_accept",
    "draw_claim",
    "draw_offer",
    "draw_reject",
    "eco",
    "fmvn",
    "hmvc",
    "id",
    "nic",
    "noop",
    "pm",
    "pv",
    "rc",
    "resign",
    "sm",
    "tcgs",
    "tcri",
    "tcsi",
    "v0",
    "v1",
    "v2",
    "v3",
    "v4",
    "v5",
    "v6",
    "v7",
    "v8",
    "v9",
];

/// Read one EPD line (not blank, not a comment). The error is the reason alone.
pub fn parse_line(text: &str, line: usize) -> Result<EpdRecord, String> {
    let (fields, counters, rest) = fen_fields(text.trim())?;
    let operations = parse_operations(rest)?;
    let find = |op: &str| {
        operations
            .iter()
            .find(|o| o.opcode == op)
            .and_then(|o| o.operands.first().cloned())
    };
    let halfmove = counters
        .first()
        .map(|s| s.to_string())
        .or_else(|| find("hmvc"))
        .unwrap_or_else(|| "0".into());
    let fullmove = counters
        .get(1)
        .map(|s| s.to_string())
        .or_else(|| find("fmvn"))
        .unwrap_or_else(|| "1".into());
    let fen = format!("{} {halfmove} {fullmove}", fields.join(" "));
    let board = parse_fen(&fen).map_err(|e| format!("invalid FEN `{fen}`: {e}"))?;
    let best_moves = operand_moves(&board, &operations, "bm")?;
    let avoid_moves = operand_moves(&board, &operations, "am")?;
    let points = find("c0")
        .and_then(|c0| sts_points(&board, &c0))
        .unwrap_or_default();
    Ok(EpdRecord {
        line,
        board,
        fen,
        operations,
        best_moves,
        avoid_moves,
        points,
    })
}

/// The four FEN fields an EPD line starts with, the halfmove clock and fullmove number when a
/// full FEN gives both (else none), and the rest of the line: its operations.
#[allow(clippy::type_complexity)]
fn fen_fields(text: &str) -> Result<(Vec<&str>, Vec<&str>, &str), String> {
    let mut rest = text;
    let mut fields = Vec::with_capacity(6);
    for _ in 0..4 {
        rest = rest.trim_start();
        let end = rest
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(rest.len());
        if end == 0 {
            return Err(format!(
                "expected 4 FEN fields (placement, side, castling, en passant), found {}",
                fields.len()
            ));
        }
        fields.push(&rest[..end]);
        rest = &rest[end..];
    }
    // Optional halfmove clock and fullmove number of a full FEN.
    let mut counters = Vec::new();
    let mut probe = rest;
    for _ in 0..2 {
        let trimmed = probe.trim_start();
        let end = trimmed
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(trimmed.len());
        if end > 0 && trimmed[..end].chars().all(|c| c.is_ascii_digit()) {
            counters.push(&trimmed[..end]);
            probe = &trimmed[end..];
        } else {
            break;
        }
    }
    if counters.len() == 2 {
        rest = probe;
    } else {
        counters.clear();
    }
    Ok((fields, counters, rest))
}

/// The moves of every `opcode` operation (`bm`, `am`), each checked legal on `board`.
fn operand_moves(
    board: &Board,
    operations: &[Operation],
    opcode: &str,
) -> Result<Vec<Move>, String> {
    operations
        .iter()
        .filter(|op| op.opcode == opcode)
        .flat_map(|op| op.operands.iter())
        .map(|text| {
            parse_move(board, text).map_err(|e| {
                // `c6` is a square as well as an opcode: only a token that is no legal move
                // is read as an opcode that lost its `;`.
                if OPCODES.contains(&text.as_str()) {
                    format!(
                        "{opcode}: '{text}' is an opcode, not a move: is the ';' that ends the {opcode} operation missing?"
                    )
                } else {
                    format!("{opcode}: {e}")
                }
            })
        })
        .collect()
}

/// Read every position of an EPD text. Blank lines and lines starting with `#` are skipped.
/// All bad lines are reported, not just the first.
pub fn parse_text(text: &str, file: &Path) -> Result<Vec<EpdRecord>, Vec<EpdError>> {
    let (records, errors) = parse_text_lenient(text, file);
    if errors.is_empty() {
        Ok(records)
    } else {
        Err(errors)
    }
}

/// Read every readable position of an EPD text and the errors of the others (`--skip-invalid`).
pub fn parse_text_lenient(text: &str, file: &Path) -> (Vec<EpdRecord>, Vec<EpdError>) {
    let mut records = Vec::new();
    let mut errors = Vec::new();
    // A byte-order mark some editors write is not part of the first FEN.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        match parse_line(trimmed, index + 1) {
            Ok(record) => records.push(record),
            Err(reason) => errors.push(EpdError {
                file: file.to_path_buf(),
                line: index + 1,
                // A megabyte line is not echoed whole into the error that quotes it.
                reason: crate::harness::format::clip(&reason, 300),
            }),
        }
    }
    (records, errors)
}

/// Read an EPD file.
pub fn read_file(path: &Path) -> Result<Vec<EpdRecord>, Vec<EpdError>> {
    let (text, mut errors) = read_text(path).map_err(|e| vec![e])?;
    let (records, more) = parse_text_lenient(&text, path);
    errors.extend(more);
    errors.sort_by_key(|e| e.line);
    if errors.is_empty() {
        Ok(records)
    } else {
        Err(errors)
    }
}

/// The text of a file line by line: a line that is not UTF-8 is an error naming it (and reads
/// as an empty line, so the other lines keep their numbers); a file that cannot be read is
/// one error.
pub fn read_text(path: &Path) -> Result<(String, Vec<EpdError>), EpdError> {
    let bytes = std::fs::read(path).map_err(|e| EpdError {
        file: path.to_path_buf(),
        line: 0,
        reason: format!("cannot read: {e}"),
    })?;
    let mut text = String::with_capacity(bytes.len());
    let mut errors = Vec::new();
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        match std::str::from_utf8(line) {
            Ok(line) => text.push_str(line),
            Err(e) => errors.push(EpdError {
                file: path.to_path_buf(),
                line: index + 1,
                reason: format!("not UTF-8 text (byte {} of the line)", e.valid_up_to() + 1),
            }),
        }
        text.push('\n');
    }
    Ok((text, errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_opcodes_and_quoted_operands() {
        let r = parse_line(
            r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001"; c0 "a; b";"#,
            1,
        )
        .unwrap();
        assert_eq!(r.operands("bm").unwrap(), ["Qg6"]);
        assert_eq!(r.id(), "WAC.001");
        assert_eq!(r.operands("c0").unwrap(), ["a; b"]);
        assert!(r.fen.ends_with(" 0 1"));
    }

    #[test]
    fn reads_perft_lines_with_full_fen() {
        let r = parse_line(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902",
            3,
        )
        .unwrap();
        assert_eq!(r.perft_counts(), vec![(1, 20), (2, 400), (3, 8902)]);
        assert_eq!(r.board, Board::default());
    }

    #[test]
    fn hmvc_and_fmvn_set_the_counters() {
        let r = parse_line("4k3/8/8/8/8/8/8/4K2R w K - hmvc 12; fmvn 40;", 1).unwrap();
        assert_eq!(r.board.halfmove_clock(), 12);
        assert_eq!(r.board.fullmove_number(), 40);
    }

    #[test]
    fn errors_name_file_and_line() {
        let text = "4k3/8/8/8/8/8/8/4K2R w K - id \"ok\";\n\n# comment\nnot a fen\n4k3/8/8/8/8/8/8/4K2R w K - c0 \"open;\n";
        let errors = parse_text(text, Path::new("x.epd")).unwrap_err();
        assert_eq!(errors.len(), 2);
        assert!(
            errors[0].to_string().starts_with("x.epd:4: "),
            "{}",
            errors[0]
        );
        assert!(
            errors[1]
                .to_string()
                .starts_with("x.epd:5: unterminated string"),
            "{}",
            errors[1]
        );
    }

    #[test]
    fn a_missing_semicolon_and_a_byte_order_mark_are_named() {
        let text =
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7# id \"x\";\n";
        let errors = parse_text(text, Path::new("x.epd")).unwrap_err();
        assert!(
            errors[0]
                .to_string()
                .contains("x.epd:1: bm: 'id' is an opcode, not a move: is the ';'"),
            "{}",
            errors[0]
        );
        let bom =
            "\u{feff}r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#;\n";
        let records = parse_text(bom, Path::new("bom.epd")).unwrap();
        assert_eq!(records[0].best_moves.len(), 1);
        // A move that is also an opcode's name (`c6`, a pawn push) stays a move.
        let pawn = "4k3/8/8/8/8/8/2P5/4K3 w - - bm c4; c0 \"c4\";\n";
        assert_eq!(
            parse_text(pawn, Path::new("p.epd")).unwrap()[0]
                .best_moves
                .len(),
            1
        );
    }

    #[test]
    fn moves_in_every_notation() {
        let board: Board = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        let castle: Move = "e1h1".parse().unwrap();
        for text in ["O-O", "0-0", "O-O+", "e1g1"] {
            assert_eq!(parse_move(&board, text), Ok(castle), "{text}");
        }
        let promo: Move = "b7a8q".parse().unwrap();
        for text in ["bxa8=Q", "bxa8Q", "bxa8=Q+", "b7a8q", "bxa8q!"] {
            assert_eq!(parse_move(&board, text), Ok(promo), "{text}");
        }
        assert_eq!(parse_move(&board, "O-O-O"), Ok("e1a1".parse().unwrap()));
        assert!(parse_move(&board, "Qd4").is_err());
        assert!(parse_move(&board, "e2e4").is_err(), "illegal UCI");
    }

    #[test]
    fn bm_am_and_sts_points_are_read() {
        let r = parse_line(
            r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; am Qe1; id "STS(v1.0) Undermine.001"; c0 "f5=10, Be5+=2, Bf2=3, Bg4=2";"#,
            1,
        )
        .unwrap();
        assert_eq!(r.best_moves, vec!["f4f5".parse::<Move>().unwrap()]);
        assert_eq!(r.avoid_moves, vec!["e2e1".parse::<Move>().unwrap()]);
        assert_eq!(r.points.len(), 4);
        assert_eq!(r.points[1], ("d4e5".parse().unwrap(), 2));
        // A c0 that is a plain comment gives no points.
        let r = parse_line(r#"4k3/8/8/8/8/8/8/4K2R w K - c0 "a comment";"#, 1).unwrap();
        assert!(r.points.is_empty());
    }

    #[test]
    fn illegal_bm_is_an_error_with_the_reason() {
        let text = "4k3/8/8/8/8/8/8/4K2R w K - bm Qh5; id \"x\";\n";
        let errors = parse_text(text, Path::new("s.epd")).unwrap_err();
        assert_eq!(
            errors[0].to_string(),
            "s.epd:1: bm: illegal or unreadable move 'Qh5'"
        );
        let (records, errors) = parse_text_lenient(
            &format!("{text}4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+;\n"),
            Path::new("s.epd"),
        );
        assert_eq!((records.len(), errors.len()), (1, 1));
    }

    #[test]
    fn mutated_lines_never_panic() {
        use rand_core::{Rng, SeedableRng};
        let sources: Vec<&str> = include_str!("../../suites/tactics.epd")
            .lines()
            .chain(include_str!("../../suites/perft.epd").lines())
            .chain(include_str!("../../suites/bench.epd").lines().take(10))
            .collect();
        let alphabet: Vec<char> = "rnbqkpRNBQKP12345678/ -;\"=+#xOo0abcdefgh.wD"
            .chars()
            .collect();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2026);
        let mut read = 0;
        for _ in 0..10_000 {
            let mut line: Vec<char> = sources[rng.next_u32() as usize % sources.len()]
                .chars()
                .collect();
            for _ in 0..=(rng.next_u32() % 4) {
                let at = rng.next_u32() as usize % (line.len() + 1);
                let c = alphabet[rng.next_u32() as usize % alphabet.len()];
                match rng.next_u32() % 4 {
                    0 if at < line.len() => line[at] = c,
                    1 => line.insert(at, c),
                    2 if at < line.len() => {
                        line.remove(at);
                    }
                    _ => line.truncate(at),
                }
            }
            let text: String = line.into_iter().collect();
            read += usize::from(parse_line(&text, 1).is_ok());
        }
        assert!(read > 0, "some mutations stay valid");
    }

    #[test]
    fn missing_file_is_an_error_not_a_panic() {
        let errors = read_file(Path::new("/nonexistent/suite.epd")).unwrap_err();
        assert!(errors[0].to_string().contains("cannot read"));
    }
}
