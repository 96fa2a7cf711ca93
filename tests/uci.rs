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

    // Bad commands: one `info string` line each, and the engine keeps working.
    for bad in [
        "foo bar",
        "go depth x",
        "go sideways 3",
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
    // The bad position commands left the position as it was (Black to move after 1.e4 e5 2.Nf3).
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
