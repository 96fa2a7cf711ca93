//! The openings reader on hand-written books: PGN and EPD, their errors, the orders.

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
fn an_unclosed_variation_is_refused_with_its_line_and_a_bom_is_read() {
    let open = write(
        "variation.pgn",
        "[Event \"a\"]\n\n1. e4 e5 (1... c5 2. Nf3\n2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n",
    );
    let err = read(&open, None).unwrap_err();
    assert!(
        err.contains(
            "variation.pgn:3: a '(' variation is not closed before the next game's tags at line 6"
        ),
        "{err}"
    );
    for (file, text, says) in [
        (
            "end.pgn",
            "1. e4 e5 (1... c5 2. Nf3 *\n",
            "end.pgn:1: a '(' variation is never closed",
        ),
        (
            "stray.pgn",
            "1. e4 e5) 2. Nf3 *\n",
            "stray.pgn:1: a ')' outside any variation",
        ),
    ] {
        let err = read(&write(file, text), None).unwrap_err();
        assert!(err.contains(says), "{err}");
    }
    let closed = write(
        "closed.pgn",
        "1. e4 e5 (1... c5 (1... e6) 2. Nf3) 2. Nf3 *\n",
    );
    assert_eq!(
        read(&closed, None).unwrap()[0].moves,
        ["e2e4", "e7e5", "g1f3"]
    );
    let bom = write("bom.pgn", "\u{feff}[Event \"a\"]\n\n1. e4 e5 *\n");
    assert_eq!(read(&bom, None).unwrap()[0].moves, ["e2e4", "e7e5"]);
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
    let epd: String = include_str!("../../../../../suites/openings.epd")
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

/// The openings' order every committed match drew: pinned, so that a change of its random
/// stream (now rand_xoshiro's SplitMix64) cannot reorder the openings of a resumed match.
#[test]
fn the_order_stream_is_the_one_every_match_drew() {
    assert_eq!(super::order(12, 0), [10, 7, 5, 3, 6, 8, 11, 4, 0, 2, 1, 9]);
    assert_eq!(super::order(12, 58), [5, 9, 6, 11, 0, 10, 3, 2, 4, 7, 8, 1]);
}
