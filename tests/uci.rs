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
    s.send("quit");
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn a_search_with_a_limit_finishes_at_the_end_of_input() {
    // The README's example: the depth-6 search completes before the engine exits.
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    s.send("go depth 6");
    let Session {
        mut child,
        stdin,
        lines,
    } = s;
    drop(stdin);
    let lines: Vec<String> = lines.iter().collect();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 6 ")),
        "{lines:?}"
    );
    assert!(legal_in(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["e2e4"],
        bestmove(&lines)
    ));
    assert!(child.wait().unwrap().success());
}
