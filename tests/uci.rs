//! A scripted UCI session through the binary's stdin: identification, position + go, go
//! infinite + stop, bad commands, quit.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use cozy_chess::Board;
use cozy_chess::util::parse_uci_move;

/// Generous: only a hung engine takes this long (no timing is asserted).
const PATIENCE: Duration = Duration::from_secs(30);

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Every line up to and including the first that satisfies `done`.
    fn read_until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("engine hung; saw {seen:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; saw {seen:?}"),
            }
        }
    }

    /// Send `command`, then `isready`; return what came before `readyok`.
    fn answer_to(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }
}

fn bestmove(lines: &[String]) -> &str {
    lines
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .expect("ends with bestmove")
}

#[test]
fn scripted_session() {
    let mut s = Session::start();
    s.send("uci");
    let id = s.read_until(|l| l == "uciok");
    assert!(id.iter().any(|l| l.starts_with("id name searchlab")));
    assert!(
        id.iter()
            .any(|l| l.starts_with("option name Hash type spin"))
    );

    assert!(s.answer_to("ucinewgame").is_empty());

    // position + go depth: info lines with every field, then a legal best move.
    s.send("position startpos moves e2e4 e7e5 g1f3");
    s.send("go depth 4");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(infos[3].contains(field), "missing{field}in {}", infos[3]);
    }
    let mut board = Board::default();
    for m in ["e2e4", "e7e5", "g1f3"] {
        board.play(parse_uci_move(&board, m).unwrap());
    }
    let mv = parse_uci_move(&board, bestmove(&lines)).unwrap();
    assert!(board.is_legal(mv));

    // Bad commands: one `info string` line each, and the engine keeps working. A bad `go`
    // still answers `bestmove 0000`, since a GUI waits for one after every `go`.
    for bad in [
        "foo bar",
        "position startpos moves e2e5",
        "position fen 8/8/8 w",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 1",
        "position",
    ] {
        let reply = s.answer_to(bad);
        assert_eq!(reply.len(), 1, "{bad}: {reply:?}");
        assert!(reply[0].starts_with("info string "), "{bad}: {reply:?}");
    }
    for bad in ["go depth x", "go sideways 3"] {
        let reply = s.answer_to(bad);
        assert_eq!(reply.len(), 2, "{bad}: {reply:?}");
        assert!(reply[0].starts_with("info string "), "{bad}: {reply:?}");
        assert_eq!(reply[1], "bestmove 0000", "{bad}");
    }
    // After a refused `position`, `go` searches nothing rather than the previous position.
    s.send("go depth 1");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&lines), "0000", "{lines:?}");
    assert!(lines[0].contains("was refused"), "{lines:?}");
    // A valid position makes it search again.
    s.send("position startpos moves e2e4 e7e5 g1f3");
    s.send("go depth 1");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    let mv = parse_uci_move(&board, bestmove(&lines)).unwrap();
    assert!(board.is_legal(mv));

    // go infinite runs until stop, then gives a best move.
    s.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    s.send("isready");
    assert_eq!(s.read_until(|l| l == "readyok").last().unwrap(), "readyok");
    s.send("stop");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    let board: Board = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
    assert!(board.is_legal(parse_uci_move(&board, bestmove(&lines)).unwrap()));

    // A clock search returns on its own.
    s.send("position startpos");
    s.send("go wtime 1000 btime 1000 winc 10 binc 10");
    s.read_until(|l| l.starts_with("bestmove"));

    s.send("quit");
    let status = s.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go depth 3");
    s.read_until(|l| l.starts_with("bestmove"));
    drop(s.stdin);
    assert!(s.child.wait().unwrap().success());
}

/// Every best move of a session is legal in the last accepted position (or `0000`).
fn legal_in(fen: &str, moves: &[&str], answer: &str) -> bool {
    let mut board = Board::from_fen(fen, false).unwrap();
    for m in moves {
        board.play(parse_uci_move(&board, m).unwrap());
    }
    parse_uci_move(&board, answer).is_ok_and(|mv| board.is_legal(mv))
}

#[test]
fn a_refused_position_is_never_replaced_by_the_previous_one() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    // Seven ranks: not a position.
    let reply = s.answer_to("position fen 4k3/8/8/8/8/8/4K3 w - - 0 1");
    assert!(reply[0].contains("7 rank(s)"), "{reply:?}");
    s.send("go depth 2");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(
        bestmove(&lines),
        "0000",
        "searched a stale position: {lines:?}"
    );
    // What the FEN standard accepts is accepted: a halfmove clock of 150, move number 200.
    let fen = "r3k3/8/8/8/8/8/8/4K2R w - - 150 200";
    assert!(s.answer_to(&format!("position fen {fen}")).is_empty());
    s.send("go depth 2");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    assert!(legal_in(
        "r3k3/8/8/8/8/8/8/4K2R w - - 99 200",
        &[],
        bestmove(&lines)
    ));
    // Shredder castling and an EPD-style FEN.
    assert!(
        s.answer_to("position fen r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1")
            .is_empty()
    );
    assert!(
        s.answer_to("position fen 4k3/8/8/8/8/8/8/4K3 w - -")
            .is_empty()
    );
    s.send("quit");
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn hostile_options_and_input_are_answered_and_survived() {
    let mut s = Session::start();
    // The advertised Hash maximum is allocatable; beyond it is refused, the table kept.
    s.send("uci");
    let id = s.read_until(|l| l == "uciok");
    assert!(
        id.iter()
            .any(|l| l.contains("option name Hash") && l.ends_with("max 8192"))
    );
    let reply = s.answer_to("setoption name Hash value 65536");
    assert!(
        reply[0].starts_with("info string") && reply[0].contains("1..8192"),
        "{reply:?}"
    );
    // Spin options check their range.
    let reply = s.answer_to("setoption name Seed value 2147483648");
    assert!(reply[0].contains("Seed is 0..2147483647"), "{reply:?}");
    let reply = s.answer_to("setoption name gsr.red2 value 2000000");
    assert!(reply[0].starts_with("info string"), "{reply:?}");
    // A negative null-move reduction is refused by its declared range, and
    // the engine searches on.
    assert!(
        s.answer_to("setoption name Heuristics value classic")
            .is_empty()
    );
    let reply = s.answer_to("setoption name null_move.reduction value -2");
    assert!(
        reply[0].contains("null_move.reduction is 0..16, got -2"),
        "{reply:?}"
    );
    assert!(
        id.iter()
            .any(|l| l == "option name null_move.reduction type spin default 3 min 0 max 16")
    );
    s.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    s.send("go depth 3");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    assert_ne!(bestmove(&lines), "0000");
    // A line that is not UTF-8 is skipped; the engine keeps serving.
    s.stdin.write_all(&[0xff, 0xfe, b'g', b'o', b'\n']).unwrap();
    s.send("isready");
    let reply = s.read_until(|l| l == "readyok");
    assert!(reply.iter().any(|l| l.contains("not UTF-8")), "{reply:?}");
    // A checkmated side to move: one line, no move.
    s.send("position fen k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    s.send("go depth 5");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines, vec!["info depth 0 score mate 0", "bestmove 0000"]);
    s.send("position fen k7/2Q5/1K6/8/8/8/8/8 b - - 0 1");
    s.send("go depth 5");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines, vec!["info depth 0 score cp 0", "bestmove 0000"]);
    // `go infinite` on a mated position waits for `stop` (UCI), answering isready meanwhile.
    s.send("position fen k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    s.send("go infinite");
    s.send("isready");
    let lines = s.read_until(|l| l == "readyok");
    assert_eq!(lines, vec!["info depth 0 score mate 0", "readyok"]);
    s.send("stop");
    assert_eq!(
        s.read_until(|l| l.starts_with("bestmove")),
        vec!["bestmove 0000"]
    );
    // The largest advertised table is allocated zeroed, pages touched only when used.
    s.send("setoption name Hash value 8192");
    s.send("isready");
    let lines = s.read_until(|l| l == "readyok");
    assert_eq!(lines, vec!["readyok"]);
    s.send("ucinewgame");
    s.send("position startpos");
    s.send("go depth 4");
    assert_ne!(
        bestmove(&s.read_until(|l| l.starts_with("bestmove"))),
        "0000"
    );
    s.send("setoption name Hash value 16");
    s.send("quit");
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn a_megabyte_command_line_is_not_echoed_whole() {
    let mut s = Session::start();
    let lines = s.answer_to(&format!(
        "position startpos moves {}",
        "e2e4".repeat(300_000)
    ));
    assert_eq!(lines.len(), 1, "{}", lines.len());
    assert!(lines[0].len() < 1_000, "{}", lines[0].len());
    assert!(lines[0].contains("more characters"), "{}", lines[0]);
    s.send("quit");
}

#[test]
fn end_of_input_stops_the_search_answers_and_exits() {
    // End of input is `quit` after the running search is stopped and its move printed, as
    // Stockfish reads it: a search whose parent went away must not run on. Each of these
    // would search for minutes (or for ever) if let finish.
    for go in [
        "go mate 2",
        "go depth 60",
        "go nodes 2000000000",
        "go infinite",
    ] {
        let mut s = Session::start();
        s.send("position startpos moves e2e4");
        s.send(go);
        std::thread::sleep(Duration::from_millis(200));
        let Session {
            mut child,
            stdin,
            lines,
        } = s;
        let began = Instant::now();
        drop(stdin);
        let lines: Vec<String> = lines.iter().collect();
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "{go}: the engine ran on for {:?} after its input ended",
            began.elapsed()
        );
        assert!(
            legal_in(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                &["e2e4"],
                bestmove(&lines)
            ),
            "{go}: {lines:?}"
        );
        assert!(child.wait().unwrap().success(), "{go}");
    }
}

#[test]
fn searchmoves_restricts_the_root_and_go_mate_stops_on_a_proof() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go depth 3 searchmoves a2a3 h2h3");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    let answer = bestmove(&lines);
    assert!(answer == "a2a3" || answer == "h2h3", "{lines:?}");
    // Mate in 2 (Rh1-h7 ... Rh8#-style ladder): the search stops by itself once proved.
    s.send("position fen 6k1/8/6K1/8/8/8/8/R6R w - - 0 1");
    s.send("go mate 2");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("score mate 1") || l.contains("score mate 2")),
        "{lines:?}"
    );
    s.send("quit");
    assert!(s.child.wait().unwrap().success());
}

/// Read the answer to a `go` and check it against the last accepted position: legal there,
/// or `0000` when that position was refused, has no move, or (`may_refuse`) the `go` itself
/// was malformed.
fn check_bestmove(s: &Session, current: &Option<Board>, may_refuse: bool) {
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    let answer = bestmove(&lines);
    match current {
        None => assert_eq!(answer, "0000", "searched a refused position: {lines:?}"),
        Some(board) if !board.generate_moves(|_| true) => assert_eq!(answer, "0000"),
        Some(_) if may_refuse && answer == "0000" => {}
        Some(board) => {
            let mv = parse_uci_move(board, answer)
                .unwrap_or_else(|_| panic!("'{answer}' in {board}: {lines:?}"));
            assert!(board.is_legal(mv), "{answer} illegal in {board}");
        }
    }
}

/// A bounded, seeded fuzz of the UCI loop: a few thousand lines mixing valid commands, broken
/// FENs, illegal moves, bad options and garbage. The engine never exits, answers every
/// `isready` with `readyok`, and every `bestmove` is legal in the last accepted position, or
/// `0000` when the last `position` was refused.
#[test]
fn uci_fuzz_keeps_answering_for_the_right_position() {
    use searchlab::engine::fen::parse_fen;

    const FENS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k3/8/8/8/8/8/8/4K2R w - - 150 200",
        "r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - -",
        "4k3/8/8/8/8/8/4K3 w - - 0 1",
        "4K3/4k3 w - - 0 1",
        "8/8/8 w",
        "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ];
    const GARBAGE: &[&str] = &[
        "",
        "foo",
        "go sideways",
        "go depth",
        "go depth -3",
        "go nodes x",
        "setoption",
        "setoption name",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999",
        "setoption name Seed value -1",
        "setoption name gsr.red2 value 7000000",
        "setoption name Heuristics value classic,killerz",
        "setoption name killers value maybe",
        "stop",
        "ponderhit",
        "debug on",
    ];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut s = Session::start();
    // The last accepted position: its board, or None after a refused `position`.
    let mut current: Option<Board> = Some(Board::default());
    let mut lines_sent = 0;
    while lines_sent < 2500 {
        let line = match next(10) {
            0..=2 => {
                let (text, board) = if next(2) == 0 {
                    ("position startpos".to_string(), Some(Board::default()))
                } else {
                    let fen = FENS[next(FENS.len())];
                    (format!("position fen {fen}"), parse_fen(fen).ok())
                };
                // Random moves: legal ones from the board, or nonsense.
                let mut board = board;
                let mut text = text;
                let count = next(4);
                if count > 0 {
                    text.push_str(" moves");
                }
                for _ in 0..count {
                    let legal: Vec<cozy_chess::Move> = board.as_ref().map_or(Vec::new(), |b| {
                        let mut moves = Vec::new();
                        b.generate_moves(|list| {
                            moves.extend(list);
                            false
                        });
                        moves
                    });
                    if !legal.is_empty() && next(5) != 0 {
                        let mv = legal[next(legal.len())];
                        let b = board.as_mut().unwrap();
                        text.push_str(&format!(" {}", searchlab::engine::notation::uci(b, mv)));
                        b.play(mv);
                    } else {
                        text.push_str(" e2e5");
                        board = None;
                    }
                }
                current = board;
                text
            }
            3..=5 => {
                let limit = match next(3) {
                    0 => format!("depth {}", 1 + next(2)),
                    1 => format!("nodes {}", 100 + next(2000)),
                    _ => format!("movetime {}", 5 + next(30)),
                };
                s.send(&format!("go {limit}"));
                lines_sent += 1;
                check_bestmove(&s, &current, false);
                continue;
            }
            6 => {
                s.send("isready");
                lines_sent += 1;
                s.read_until(|l| l == "readyok");
                continue;
            }
            7 => {
                current = Some(Board::default());
                "ucinewgame".to_string()
            }
            _ => GARBAGE[next(GARBAGE.len())].to_string(),
        };
        s.send(&line);
        lines_sent += 1;
        if line.starts_with("go") {
            // A malformed `go` still answers: `0000`, or a move when it was a valid search.
            check_bestmove(&s, &current, true);
        }
    }
    s.send("isready");
    s.read_until(|l| l == "readyok");
    s.send("quit");
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn every_advertised_option_configures_through_python_chess() {
    let has_python_chess = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_python_chess {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED every_advertised_option_configures_through_python_chess: python-chess is not installed (python3 -m pip install chess)"
        );
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/uci_options.py");
    let output = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_searchlab")])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains(" passed, 0 failed"), "{text}");
}

/// `go ponder` gives no `bestmove` before `ponderhit` or `stop`: on a mated position, on a
/// position with moves under a clock (which applies from `ponderhit`), and `Ponder` is
/// advertised.
#[test]
fn go_ponder_waits_for_ponderhit_or_stop() {
    let mut s = Session::start();
    let ids = s.answer_to("uci");
    assert!(
        ids.iter()
            .any(|l| l == "option name Ponder type check default false")
    );
    s.answer_to("setoption name Ponder value true");
    // Fool's mate: White is mated.
    s.answer_to("position startpos moves f2f3 e7e5 g2g4 d8h4");
    s.send("go ponder");
    let early = s.answer_to("isready");
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    std::thread::sleep(Duration::from_millis(200));
    let still = s.answer_to("isready");
    assert!(
        still.iter().all(|l| !l.starts_with("bestmove")),
        "{still:?}"
    );
    s.send("stop");
    assert_eq!(
        bestmove(&s.read_until(|l| l.starts_with("bestmove"))),
        "0000"
    );
    // `ponderhit` in a mated (or stalemated) position answers at once, as Stockfish does.
    for fen_moves in [
        "startpos moves f2f3 e7e5 g2g4 d8h4",
        "fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        s.answer_to(&format!("position {fen_moves}"));
        s.send("go wtime 1000 btime 1000 ponder");
        std::thread::sleep(Duration::from_millis(100));
        s.send("ponderhit");
        assert_eq!(
            bestmove(&s.read_until(|l| l.starts_with("bestmove"))),
            "0000",
            "{fen_moves}"
        );
    }
    // A short clock: without pondering it would answer within about 50 ms.
    s.answer_to("position startpos moves e2e4");
    s.send("go wtime 1000 btime 1000 ponder");
    std::thread::sleep(Duration::from_millis(300));
    let waiting = s.answer_to("isready");
    assert!(
        waiting.iter().all(|l| !l.starts_with("bestmove")),
        "{waiting:?}"
    );
    s.send("ponderhit");
    let lines = s.read_until(|l| l.starts_with("bestmove"));
    let mv = bestmove(&lines);
    assert!(
        legal_in(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            &[],
            mv
        ),
        "{mv}"
    );
    s.send("quit");
}

/// However soon `stop` follows `go`, the best move is that of a finished depth-1 search at
/// least, printed with its `info` line: `bestmove` equals the first move of the last `info …
/// pv`.
#[test]
fn an_immediate_stop_answers_a_finished_iteration() {
    let mut s = Session::start();
    s.answer_to("uci");
    for go in ["go", "go infinite", "go wtime 100000 btime 100000"] {
        for moves in ["", " moves e2e4", " moves e2e4 e7e5 g1f3 b8c6"] {
            s.answer_to(&format!("position startpos{moves}"));
            s.send(go);
            s.send("stop");
            let lines = s.read_until(|l| l.starts_with("bestmove"));
            let best = bestmove(&lines).to_string();
            let last_pv = lines
                .iter()
                .rev()
                .find_map(|l| l.split(" pv ").nth(1))
                .unwrap_or_else(|| panic!("{go}{moves}: no info line with a PV: {lines:?}"));
            assert_eq!(
                last_pv.split_whitespace().next(),
                Some(best.as_str()),
                "{go}{moves}: {lines:?}"
            );
        }
    }
    s.send("quit");
}
