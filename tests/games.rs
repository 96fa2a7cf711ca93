//! `searchlab match` and `searchlab sprt` as a user runs them: the same games for any
//! concurrency under fixed nodes, a PGN that reads back, a match killed midway that resumes to
//! the uninterrupted result, a crashing engine that loses its games with the reason while the
//! match goes on, shards that merge, and the SPRT calculator's published values.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use searchlab::harness::games::book::openings;
use searchlab::harness::games::playing::record::{PairRecord, read_match};

fn searchlab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_searchlab"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("searchlab-games-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Five openings a move or two deep.
fn openings_file(dir: &Path) -> PathBuf {
    let path = dir.join("openings.epd");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n\
         rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq -\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n",
    )
    .unwrap();
    path
}

/// Ten openings: the five of `openings_file` and five of the held-out book, for matches of
/// more than ten games under a node limit (which plays each opening once).
fn ten_openings_file(dir: &Path) -> PathBuf {
    let five = std::fs::read_to_string(openings_file(dir)).unwrap();
    let path = dir.join("ten-openings.epd");
    std::fs::write(
        &path,
        five + "\
         rnbqk1nr/pp1pb1pp/2p1p3/5p2/3P4/P4NP1/1PP1PP1P/RNBQKB1R w KQkq -\n\
         rnbqkbnr/pp3p1p/3p2p1/2p1p3/4P3/2N4P/PPPPNPP1/R1BQKB1R w KQkq -\n\
         r1bqk1nr/pppp1ppp/2n5/2b5/4Pp2/2N2N2/PPPP2PP/R1BQKB1R w KQkq -\n\
         rnbqk2r/ppp2ppp/4pn2/3p2B1/1bPP4/2N5/PP2PPPP/R2QKBNR w KQkq -\n\
         rnbqkb1r/pp1p1ppp/5n2/2pp4/8/P1N5/1PP1PPPP/R1BQKBNR w KQkq -\n",
    )
    .unwrap();
    path
}

/// The match of these tests, classic against classic+gsr at 2,000 nodes a move, with `extra`.
fn match_output(dir: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let openings = ten_openings_file(dir);
    searchlab()
        .args([
            "match",
            "--variant",
            "classic",
            "--variant",
            "gsr=classic,+gsr",
        ])
        .args([
            "--openings",
            openings.to_str().unwrap(),
            "--nodes",
            "2000",
            "--quiet",
        ])
        .args(["--out", dir.join(out).to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap()
}

/// A command's output, which must be a success (its stderr shown otherwise).
fn succeeded(output: &std::process::Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `searchlab report RESULTS --out DIR/report`, which must succeed: the folder and its
/// report.md.
fn report_of(results: &Path, dir: &Path) -> (PathBuf, String) {
    let report = dir.join("report");
    let output = searchlab()
        .arg("report")
        .arg(results)
        .arg("--out")
        .arg(&report)
        .output()
        .unwrap();
    succeeded(&output);
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    (report, md)
}

/// `match_output`, which must succeed.
fn run_match(dir: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let output = match_output(dir, out, extra);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The games of a file without their times (the only part that varies between runs).
fn games(path: &Path) -> Vec<(usize, Vec<String>, Vec<String>)> {
    let mut pairs: Vec<PairRecord> = read_match(path).unwrap().pairs;
    pairs.sort_by_key(|p| p.index);
    pairs
        .iter()
        .map(|p| {
            (
                p.index,
                p.games
                    .iter()
                    .map(|g| format!("{} {} {}", g.white, g.result, g.reason))
                    .collect(),
                p.games
                    .iter()
                    .flat_map(|g| g.moves.iter().map(|m| format!("{}:{}", m.mv, m.nodes)))
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn fixed_node_games_are_the_same_for_any_concurrency_and_the_pgn_reads_back() {
    let dir = scratch("concurrency");
    let one = dir.join("one.pgn");
    let two = dir.join("two.pgn");
    run_match(
        &dir,
        "one.jsonl",
        &[
            "--games",
            "20",
            "--concurrency",
            "1",
            "--pgn",
            one.to_str().unwrap(),
        ],
    );
    run_match(
        &dir,
        "two.jsonl",
        &[
            "--games",
            "20",
            "--concurrency",
            "2",
            "--pgn",
            two.to_str().unwrap(),
        ],
    );
    assert_eq!(
        std::fs::read_to_string(&one).unwrap(),
        std::fs::read_to_string(&two).unwrap(),
        "the PGN depends on the concurrency"
    );
    assert_eq!(games(&dir.join("one.jsonl")), games(&dir.join("two.jsonl")));
    // The PGN reads back: 20 games whose moves are all legal, each with the standard tags.
    let text = std::fs::read_to_string(&one).unwrap();
    let read = openings::read_all(&one, None).unwrap();
    assert_eq!(read.len(), 20);
    for tag in [
        "[Event ",
        "[White ",
        "[Black ",
        "[Result ",
        "[FEN ",
        "[SetUp \"1\"]",
        "[TimeControl \"-\"]",
        "[Termination ",
    ] {
        assert_eq!(text.matches(tag).count(), 20, "{tag}");
    }
    // The report reads the results.
    let report = searchlab()
        .args([
            "report",
            dir.join("one.jsonl").to_str().unwrap(),
            "--out",
            dir.join("report").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        report.status.success(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    for file in ["report.md", "analysis.json", "elo.svg"] {
        assert!(dir.join("report").join(file).exists(), "{file}");
    }
    let table = String::from_utf8_lossy(&report.stdout);
    assert!(table.contains("| gsr vs classic | 20 |"), "{table}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_match_killed_midway_resumes_to_the_uninterrupted_result() {
    let dir = scratch("resume");
    let openings = ten_openings_file(&dir);
    let whole = dir.join("whole.jsonl");
    run_match(&dir, "whole.jsonl", &["--games", "16"]);
    let killed = dir.join("killed.jsonl");
    let mut child = searchlab()
        .args([
            "match",
            "--variant",
            "classic",
            "--variant",
            "gsr=classic,+gsr",
        ])
        .args([
            "--openings",
            openings.to_str().unwrap(),
            "--nodes",
            "2000",
            "--quiet",
        ])
        .args(["--out", killed.to_str().unwrap(), "--games", "16"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    // Kill it once a pair or more is written (or at once if it is that fast).
    while start.elapsed() < Duration::from_secs(30) {
        let lines = std::fs::read_to_string(&killed).map_or(0, |t| t.lines().count());
        if lines >= 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    // And a torn line, as a kill during a write leaves.
    let mut text = std::fs::read_to_string(&killed).unwrap();
    text.push_str("{\"type\":\"pair\",\"base\":\"cl");
    std::fs::write(&killed, text).unwrap();
    run_match(&dir, "killed.jsonl", &["--games", "16"]);
    assert_eq!(games(&killed), games(&whole));
    assert_eq!(read_match(&killed).unwrap().pairs.len(), 8);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_crashing_engine_loses_its_games_with_the_reason_and_the_match_goes_on() {
    let dir = scratch("crash");
    // It answers `uci`, so the match starts, then dies at its first `go`.
    let crasher = "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; go*) exit 1;; esac; done'";
    let output = run_match(
        &dir,
        "crash.jsonl",
        &["--games", "4", "--engine", &format!("bad={crasher}")],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("bad vs classic: games 4  W-D-L 0-0-4"),
        "{stdout}"
    );
    assert!(stdout.contains("bad: crash ×4"), "{stdout}");
    assert!(stdout.contains("gsr vs classic: games 4"), "{stdout}");
    let pairs = read_match(&dir.join("crash.jsonl")).unwrap().pairs;
    let reasons: Vec<&str> = pairs
        .iter()
        .filter(|p| p.dev == "bad")
        .flat_map(|p| p.games.iter().map(|g| g.reason.as_str()))
        .collect();
    assert_eq!(reasons.len(), 4);
    assert!(
        reasons.iter().all(|r| r.contains("(bad) crashed")),
        "{reasons:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_that_does_not_start_or_answer_stops_the_match_before_its_first_game() {
    let dir = scratch("nostart");
    let openings = openings_file(&dir);
    for (engine, says) in [
        (
            "bad=/bin/false",
            "player 'bad': engine '/bin/false' does not speak UCI",
        ),
        (
            "name=gone cmd=/nonexistent/engine",
            "player 'gone': engine program '/nonexistent/engine' not found",
        ),
    ] {
        let out = dir.join("x.jsonl");
        let output = searchlab()
            .args(["match", "--variant", "classic", "--engine", engine])
            .args(["--openings", openings.to_str().unwrap(), "--nodes", "1000"])
            .args(["--out", out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(!output.status.success(), "{engine}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains(says), "{engine}: {err}");
        assert!(!out.exists(), "{engine}: no game was played");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_external_searchlab_in_fastchess_form_plays_the_in_process_games() {
    // The UCI engine and the in-process player are the same player: `Heuristics` set through
    // the engine's options gives the games the in-process variants play, move for move (the
    // SPEC names `eval=full`: the engine's own default evaluation is the network).
    let dir = scratch("sameplayer");
    let exe = env!("CARGO_BIN_EXE_searchlab");
    let openings = openings_file(&dir);
    let play = |players: &[&str], out: &str| {
        let pgn = dir.join(format!("{out}.pgn"));
        let output = searchlab()
            .arg("match")
            .args(players)
            .args([
                "--openings",
                openings.to_str().unwrap(),
                "--nodes",
                "3000",
                "--games",
                "4",
            ])
            .args([
                "--out",
                dir.join(out).to_str().unwrap(),
                "--pgn",
                pgn.to_str().unwrap(),
                "--quiet",
            ])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let text = std::fs::read_to_string(pgn).unwrap();
        // The moves only: the tags name the players and engines differently.
        text.lines()
            .filter(|l| !l.starts_with('[') && !l.is_empty())
            .map(|l| {
                l.split(' ')
                    .filter(|w| !w.starts_with('{') && !w.ends_with('}'))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
    };
    let engines = play(
        &[
            "--engine",
            &format!("name=a cmd={exe} option.Heuristics=classic,eval=full"),
            "--engine",
            &format!("name=b cmd={exe} option.Heuristics=classic,-killers,eval=full"),
        ],
        "engines.jsonl",
    );
    let variants = play(
        &["--variant", "a=classic", "--variant", "b=classic,-killers"],
        "variants.jsonl",
    );
    assert_eq!(engines, variants);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn node_and_time_odds_are_one_command() {
    let dir = scratch("odds");
    let openings = openings_file(&dir);
    // Node odds with no match-level limit: every move within its own player's budget.
    let output = searchlab()
        .arg("match")
        .args(["--variant", "name=small spec=classic nodes=400"])
        .args(["--variant", "name=large spec=classic nodes=4000"])
        .args(["--openings", openings.to_str().unwrap(), "--games", "4"])
        .args([
            "--out",
            dir.join("nodes.jsonl").to_str().unwrap(),
            "--quiet",
        ])
        .output()
        .unwrap();
    succeeded(&output);
    let file = read_match(&dir.join("nodes.jsonl")).unwrap();
    assert_eq!(
        file.header.as_ref().unwrap().control_of("large").control,
        searchlab::harness::games::clock::control::Control::Nodes(4000)
    );
    let mut most = [0, 0];
    for game in file.pairs.iter().flat_map(|p| &p.games) {
        for (ply, m) in game.moves.iter().enumerate() {
            let label = if ply % 2 == 0 {
                &game.white
            } else {
                &game.black
            };
            let side = usize::from(label == "large");
            most[side] = most[side].max(m.nodes);
        }
    }
    assert!(
        most[0] <= 400 && most[1] <= 4000 && most[1] > 400,
        "{most:?}"
    );
    // Time odds against an engine: each side's clock and increment in `go`, and a
    // TimeControl tag per side in the PGN.
    let exe = env!("CARGO_BIN_EXE_searchlab");
    let (log, pgn) = (dir.join("log.txt"), dir.join("time.pgn"));
    let output = searchlab()
        .arg("match")
        .args(["--variant", "name=base spec=classic"])
        .args(["--engine", &format!("name=quick cmd={exe} tc=1+0.05")])
        .args(["--tc", "2+0.02", "--maxmoves", "6", "--games", "2"])
        .args(["--openings", openings.to_str().unwrap()])
        .args(["--out", dir.join("time.jsonl").to_str().unwrap()])
        .args([
            "--pgn",
            pgn.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ])
        .arg("--quiet")
        .output()
        .unwrap();
    succeeded(&output);
    let log = std::fs::read_to_string(log).unwrap();
    let go = log.lines().find(|l| l.contains("> go wtime")).unwrap();
    // The log holds the probe's handshake before the first `go`, and names the engine's
    // processes by the player's name= (`quick[PID]`), not by its program.
    let position = |needle: &str| {
        log.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {log}"))
    };
    assert!(position(" quick[") < position("> go wtime"), "{log}");
    assert!(position("> uci\n") < position("> go wtime"), "{log}");
    assert!(position("> isready") < position("> go wtime"), "{log}");
    assert!(go.contains(" quick["), "{go}");
    assert!(
        go.contains("winc 20 binc 50") || go.contains("winc 50 binc 20"),
        "{go}"
    );
    let pgn = std::fs::read_to_string(pgn).unwrap();
    assert!(pgn.contains("[WhiteTimeControl \"2+0.02\"]\n[BlackTimeControl \"1+0.05\"]"));
    assert!(pgn.contains("[WhiteTimeControl \"1+0.05\"]\n[BlackTimeControl \"2+0.02\"]"));
    // `run` searches every player alike: a player's own limit is refused there.
    let output = searchlab()
        .args([
            "run",
            "--variant",
            "name=a spec=classic tc=1",
            "--depth",
            "2",
        ])
        .args(["--suite", openings.to_str().unwrap()])
        .args(["--out", dir.join("run.jsonl").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("tc= is a match's per-player limit"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_finished_match_extends_and_the_new_match_options_apply() {
    let dir = scratch("extend");
    run_match(&dir, "grown.jsonl", &["--games", "4"]);
    let output = run_match(&dir, "grown.jsonl", &["--games", "8"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("extended to 8 games"));
    run_match(&dir, "whole.jsonl", &["--games", "8"]);
    assert_eq!(
        games(&dir.join("grown.jsonl")),
        games(&dir.join("whole.jsonl"))
    );
    // Fewer games than planned is another match.
    let openings = openings_file(&dir);
    let fewer = match_output(&dir, "grown.jsonl", &["--games", "2"]);
    assert!(!fewer.status.success());
    // --maxmoves ends every game by adjudication; the openings in file order from the second.
    run_match(
        &dir,
        "short.jsonl",
        &[
            "--games",
            "2",
            "--maxmoves",
            "3",
            "--openings-order",
            "sequential",
            "--openings-start",
            "2",
        ],
    );
    let pairs = read_match(&dir.join("short.jsonl")).unwrap().pairs;
    let reasons: Vec<&str> = pairs
        .iter()
        .flat_map(|p| p.games.iter().map(|g| g.reason.as_str()))
        .collect();
    assert!(
        reasons.iter().all(|r| r.contains("adjudicated")),
        "{reasons:?}"
    );
    let first = std::fs::read_to_string(&openings).unwrap();
    let second_line = first
        .lines()
        .filter(|l| !l.trim().is_empty())
        .nth(1)
        .unwrap();
    assert!(
        second_line.starts_with(pairs[0].opening.fen.split(' ').next().unwrap()),
        "{second_line}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shards_merge_into_the_whole_match() {
    let dir = scratch("shards");
    run_match(&dir, "whole.jsonl", &["--games", "12"]);
    run_match(&dir, "s1.jsonl", &["--games", "12", "--shard", "1/2"]);
    run_match(&dir, "s2.jsonl", &["--games", "12", "--shard", "2/2"]);
    let merged = dir.join("merged.jsonl");
    let status = searchlab()
        .args(["merge", "--out", merged.to_str().unwrap()])
        .arg(dir.join("s1.jsonl"))
        .arg(dir.join("s2.jsonl"))
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(games(&merged), games(&dir.join("whole.jsonl")));

    // A shard missing is named, recorded in the merged header and said by the report.
    let partial = dir.join("partial.jsonl");
    let output = searchlab()
        .args(["merge", "--out", partial.to_str().unwrap()])
        .arg(dir.join("s1.jsonl"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("shard 2 of 2 not given"), "{err}");
    assert!(
        err.contains("3 of 6 planned pairs are in no file read"),
        "{err}"
    );
    let header = std::fs::read_to_string(&partial).unwrap();
    assert!(
        header.lines().next().unwrap().contains("\"missing\""),
        "{header}"
    );
    let report = dir.join("report");
    let status = searchlab()
        .args(["report", "--out", report.to_str().unwrap()])
        .arg(&partial)
        .status()
        .unwrap();
    assert!(status.success());
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("holds 3 of 6 planned pairs"), "{md}");

    // A whole match among shards is refused.
    let output = searchlab()
        .args(["merge", "--out", dir.join("mixed.jsonl").to_str().unwrap()])
        .arg(dir.join("s1.jsonl"))
        .arg(dir.join("whole.jsonl"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("whole matches and the others shards"), "{err}");

    // Strangers are refused, naming the difference: a shard of another commit (a `-dirty`
    // build among them), of another version, of another configuration.
    let s2 = std::fs::read_to_string(dir.join("s2.jsonl")).unwrap();
    let (header, rest) = s2.split_once('\n').unwrap();
    let mut value: serde_json::Value = serde_json::from_str(header).unwrap();
    let commit = value["commit"].as_str().unwrap_or("abc").to_string();
    let strangers: [(&str, serde_json::Value, &str); 5] = [
        (
            "format",
            99.into(),
            "match format 99, and this searchlab reads formats up to 1",
        ),
        (
            "commit",
            format!("{}-dirty", commit.trim_end_matches("-dirty")).into(),
            "different builds (commit",
        ),
        (
            "commit",
            "0123456789abcdef0123456789abcdef01234567".into(),
            "different builds (commit",
        ),
        (
            "searchlab",
            "9.9.9".into(),
            "different builds (version 9.9.9",
        ),
        ("seed", 99.into(), "seed is 0 in one and 99 in the other"),
    ];
    for (key, stranger, says) in strangers {
        let original = value[key].clone();
        if original == stranger {
            continue;
        }
        value[key] = stranger;
        let path = dir.join("stranger.jsonl");
        std::fs::write(&path, format!("{value}\n{rest}")).unwrap();
        value[key] = original;
        let output = searchlab()
            .args(["merge", "--out", dir.join("joined.jsonl").to_str().unwrap()])
            .arg(dir.join("s1.jsonl"))
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{key}: merged");
        assert!(err.contains(says), "{key}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_sprt_calculator_refuses_bounds_and_counts_it_cannot_compute() {
    for (args, says) in [
        (["10,10,10", "0", "inf"], "elo1 must be a finite Elo"),
        (["10,10,10", "0", "5000"], "elo1 must be a finite Elo"),
        (["10,10,10", "-inf", "5"], "elo0 must be a finite Elo"),
        (["10,10,10", "NaN", "5"], "--elo0 must be a number, got NaN"),
        (
            ["18446744073709551615,1,1", "0", "5"],
            "add up to more than",
        ),
    ] {
        let output = searchlab()
            .args([
                "sprt",
                "--wdl",
                args[0],
                &format!("--elo0={}", args[1]),
                "--elo1",
                args[2],
            ])
            .output()
            .unwrap();
        let (out, err) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        assert!(!output.status.success(), "{args:?}: {out}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!out.contains("NaN"), "{args:?}: {out}");
    }
}

#[test]
fn the_sprt_calculator_prints_fishtests_values() {
    let output = searchlab()
        .args([
            "sprt",
            "--wdl",
            "4307,8620,4063",
            "--elo0",
            "0",
            "--elo1",
            "3",
            "--model",
            "logistic",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.starts_with("LLR 2.99 (-2.94, 2.94)\nH1 accepted"),
        "{text}"
    );
    let output = searchlab()
        .args([
            "sprt",
            "--penta",
            "127,4883,10712,5150,104",
            "--elo0",
            "-1.75",
            "--elo1",
            "0.25",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("LLR 3.01 (-2.94, 2.94)"), "{text}");
    let output = searchlab()
        .args(["sprt", "--penta", "1,2,3", "--elo0", "0", "--elo1", "2"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--penta takes 5 numbers"));
}

#[test]
fn bad_match_options_are_refused_with_the_reason() {
    let dir = scratch("bad");
    let openings = openings_file(&dir);
    for (args, says) in [
        (
            vec!["--variant", "classic", "--nodes", "100"],
            "at least two players",
        ),
        (
            vec![
                "--variant",
                "classic",
                "--variant",
                "plain",
                "--nodes",
                "100",
                "--tc",
                "10",
            ],
            "exactly one",
        ),
        (
            vec!["--variant", "classic", "--variant", "plain", "--tc", "ten"],
            "--tc",
        ),
        (
            vec![
                "--variant",
                "classic",
                "--variant",
                "plain",
                "--nodes",
                "100",
                "--games",
                "3",
            ],
            "even",
        ),
        (
            vec![
                "--variant",
                "classic",
                "--variant",
                "bogus",
                "--nodes",
                "100",
            ],
            "bogus",
        ),
        (
            vec![
                "--variant",
                "classic",
                "--variant",
                "plain",
                "--nodes",
                "100",
                "--sprt",
                "elo0=2,elo1=1",
            ],
            "below",
        ),
        (
            vec![
                "--variant",
                "name=a spec=classic nodes=100",
                "--variant",
                "plain",
            ],
            "player 'plain': no limit",
        ),
        (
            vec![
                "--variant",
                "name=a spec=classic st=fast",
                "--variant",
                "plain",
                "--nodes",
                "100",
            ],
            "player 'a': st= is seconds per move",
        ),
    ] {
        let output = searchlab()
            .arg("match")
            .args(&args)
            .args([
                "--openings",
                openings.to_str().unwrap(),
                "--out",
                dir.join("x.jsonl").to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(!output.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn make_builds_an_engine_whose_bench_ends_with_nodes_and_nps() {
    if Command::new("make").arg("--version").output().is_err() {
        common::skipped("make_builds_an_engine", "make is not installed");
        return;
    }
    let dir = scratch("make");
    let exe = dir.join("engine");
    // The tests' own release build, so that `make` only copies it (the default `engine`
    // profile would compile the whole crate again with fat LTO).
    let status = Command::new("make")
        .arg(format!("EXE={}", exe.display()))
        .arg("PROFILE=release")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let output = Command::new(&exe).arg("bench").output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let last = text.lines().last().unwrap_or("");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert!(
        words.len() == 4
            && words[1] == "nodes"
            && words[3] == "nps"
            && words[0].parse::<u64>().is_ok()
            && words[2].parse::<u64>().is_ok(),
        "last line: {last}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Without a terminal (stdout to a file or a pipe, as in a cluster job), a match prints a
/// status line every `--rating-interval` games while it plays: games, W-D-L, Elo, time left.
#[test]
fn a_match_without_a_terminal_prints_status_lines_as_it_plays() {
    let dir = scratch("status-lines");
    let out = dir.join("m.jsonl");
    let output = searchlab()
        .args([
            "match",
            "--variant",
            "plain",
            "--variant",
            "classic",
            "--depth",
            "2",
        ])
        .args([
            "--games",
            "20",
            "--rating-interval",
            "10",
            "--openings",
            "suites/openings.epd",
        ])
        .args(["--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let status: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("left at this rate"))
        .collect();
    assert_eq!(status.len(), 2, "{stdout}");
    assert!(
        status[0].contains("games 10  W-D-L") && status[1].contains("games 20"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A fastchess line names no results file: it goes under `matches/`, named by the date and
/// the engines, so a second line with other engines in the same folder is no refusal.
#[test]
fn a_fastchess_line_without_out_writes_under_matches_named_by_its_engines() {
    let dir = scratch("fastchess-out");
    let exe = env!("CARGO_BIN_EXE_searchlab");
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/openings.epd");
    for (a, b) in [("a", "b"), ("c", "d")] {
        let line = format!(
            "-engine cmd={exe} name={a} -engine cmd={exe} name={b} -each nodes=200 -rounds 1 -repeat -openings file={} format=epd",
            openings.display()
        );
        let output = searchlab()
            .current_dir(&dir)
            .arg("match")
            .arg("--")
            .args(line.split_whitespace())
            .output()
            .unwrap();
        succeeded(&output);
        let err = String::from_utf8_lossy(&output.stderr);
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("results: matches/")
                && first.ends_with(&format!("-{a}-vs-{b}.jsonl (no --out given)")),
            "{err}"
        );
    }
    let files: Vec<String> = std::fs::read_dir(dir.join("matches"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(!dir.join("match.jsonl").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_fastchess_command_line_plays_as_typed() {
    // The reviewer's line from issue 43, with searchlab as both engines.
    let dir = scratch("fastchess");
    let exe = env!("CARGO_BIN_EXE_searchlab");
    let pgn = dir.join("G.pgn");
    let line = format!(
        "-engine cmd={exe} name=a -engine cmd={exe} name=b option.Heuristics=classic \
         -each tc=1+0.01 -rounds 2 -repeat -openings file=suites/openings.epd format=epd \
         order=random -pgnout file={} -concurrency 1 -recover",
        pgn.display()
    );
    let output = searchlab()
        .args([
            "match",
            "--out",
            dir.join("m.jsonl").to_str().unwrap(),
            "--",
        ])
        .args(line.split_whitespace())
        .output()
        .unwrap();
    succeeded(&output);
    let err = String::from_utf8_lossy(&output.stderr);
    let equivalent = err
        .lines()
        .find(|l| l.starts_with("equivalent: searchlab match "))
        .unwrap_or_else(|| panic!("the equivalent command first: {err}"));
    assert!(
        equivalent.contains("--games 4") && equivalent.contains("--openings-order random"),
        "{equivalent}"
    );
    assert!(err.contains("note: -recover"), "{err}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Result ").count(), 4, "{games}");
    // What has no counterpart is refused by name, before any game.
    let output = searchlab()
        .args([
            "match",
            "--",
            "-engine",
            &format!("cmd={exe}"),
            "-wait",
            "5",
        ])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("-wait: not supported"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_keeps_one_process_across_pairs() {
    // Three pairs on one thread: one process of the engine plays all six games (a process
    // is started afresh only after a failure), as the log's process ids show.
    assert_eq!(engine_processes("one-process", "", 6), (6, 1));
}

/// A match of `games` games of searchlab as an engine (`extra` keys added to it) against
/// `classic` on one thread: the games the engine began and the processes that played them,
/// by the log's process ids.
fn engine_processes(name: &str, extra: &str, games: u32) -> (usize, usize) {
    let dir = scratch(name);
    let openings = openings_file(&dir);
    let log = dir.join("engines.log");
    let exe = env!("CARGO_BIN_EXE_searchlab");
    let output = searchlab()
        .args(["match", "--engine", &format!("name=a cmd={exe} {extra}")])
        .args(["--variant", "b=classic", "--games", &games.to_string()])
        .args(["--openings", openings.to_str().unwrap()])
        .args(["--nodes", "300", "--quiet", "--log", log.to_str().unwrap()])
        .args(["--out", dir.join("m.jsonl").to_str().unwrap()])
        .output()
        .unwrap();
    succeeded(&output);
    let text = std::fs::read_to_string(&log).unwrap();
    let pids: std::collections::BTreeSet<&str> = text
        .lines()
        .filter(|l| l.contains("> ucinewgame"))
        .filter_map(|l| l.split(['[', ']']).nth(1))
        .collect();
    let began = text.matches("> ucinewgame").count();
    std::fs::remove_dir_all(&dir).ok();
    (began, pids.len())
}

/// A player configured exactly as the baseline is named before the first game (the games of
/// an A/A test measure nothing but noise); players that differ are not.
#[test]
fn a_player_identical_to_the_baseline_is_named() {
    let dir = scratch("identical");
    let play = |second: &str| {
        searchlab()
            .args(["match", "--variant", "a=modern", "--variant", second])
            .args(["--nodes", "200", "--games", "2", "--quiet"])
            .args(["--openings", "suites/openings.epd", "--out"])
            .arg(dir.join(format!("{}.jsonl", second.len())))
            .output()
            .unwrap()
    };
    let output = play("b=modern");
    succeeded(&output);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("warning: 'b' is configured exactly as the baseline 'a'"),
        "{err}"
    );
    let output = play("b=modern,-lmr");
    succeeded(&output);
    assert!(!String::from_utf8_lossy(&output.stderr).contains("configured exactly"));
    std::fs::remove_dir_all(&dir).ok();
}

/// An engine that answers `go nodes N` at depth 1, as Ethereal 12 does, is warned of after
/// the first pair, named in the report's warnings, and under `--strict-limits` stops the
/// match with the pairs already recorded kept.
#[test]
fn an_engine_that_ignores_its_node_limit_is_warned_of_and_strict_limits_stop_the_match() {
    let dir = scratch("ignores-nodes");
    let openings = openings_file(&dir);
    let exe = env!("CARGO_BIN_EXE_searchlab");
    let lazy = format!("lazy=sh -c \"sed -u 's/^go nodes.*/go depth 1/' | {exe}\"");
    let play = |out: &str, extra: &[&str]| {
        searchlab()
            .args(["match", "--variant", "classic", "--engine", &lazy])
            .args(["--openings", openings.to_str().unwrap(), "--nodes", "2000"])
            .args(["--quiet", "--out", dir.join(out).to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap()
    };
    let output = play("warned.jsonl", &["--games", "4"]);
    succeeded(&output);
    let err = String::from_utf8_lossy(&output.stderr);
    let warning = "WARNING: player 'lazy' plays under nodes 2000 a move but searched a median of";
    assert_eq!(
        err.matches(warning).count(),
        1,
        "once, at the first breach: {err}"
    );
    assert!(!err.contains("player 'classic'"), "{err}");
    let (_, md) = report_of(&dir.join("warned.jsonl"), &dir);
    assert!(md.contains("player 'lazy' plays under nodes 2000"), "{md}");

    let output = play("strict.jsonl", &["--games", "8", "--strict-limits"]);
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("--strict-limits: the match stops"), "{err}");
    let pairs = read_match(&dir.join("strict.jsonl")).unwrap().pairs;
    // The pair that showed it is kept, and the one the game thread had begun meanwhile
    // finishes; none of the other two begins.
    assert!((1..=2).contains(&pairs.len()), "{} pairs", pairs.len());
    std::fs::remove_dir_all(&dir).ok();
}

/// Six pairs from a book of five openings at a clock (where an opening played again is a new
/// game): the report says one pair started from an opening already played, and analysis.json
/// counts it.
#[test]
fn a_report_says_when_the_book_ran_out_and_openings_were_reused() {
    let dir = scratch("reused");
    let openings = openings_file(&dir);
    let out = dir.join("m.jsonl");
    let output = searchlab()
        .args([
            "match",
            "--variant",
            "a=classic",
            "--variant",
            "b=classic,-killers",
        ])
        .args(["--openings", openings.to_str().unwrap(), "--movetime", "10"])
        .args(["--games", "12", "--quiet", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    succeeded(&output);
    let (report, md) = report_of(&out, &dir);
    assert!(
        md.contains("the book's 5 openings ran out, and 1 of the counted pairs started from an opening already played"),
        "{md}"
    );
    // The results table stands apart from the note (Markdown would read it into the item).
    assert!(md.contains(".\n\n| variant vs baseline |"), "{md}");
    let json = std::fs::read_to_string(report.join("analysis.json")).unwrap();
    assert!(json.contains("\"reused_openings\": 1"), "{json}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Under a node limit searchlab's games are a function of the opening, so a replayed opening
/// would replay them move for move: `--games` past the book is refused, an SPRT stops
/// undecided at the book's end, and a file that holds replays (written before the cap) has
/// them left out of its counts.
#[test]
fn a_deterministic_match_plays_each_opening_once() {
    let dir = scratch("book-once");
    let openings = openings_file(&dir);
    let play = |name: &str, extra: &[&str]| {
        searchlab()
            .args([
                "match",
                "--variant",
                "a=classic",
                "--variant",
                "b=classic,-killers",
            ])
            .args(["--openings", openings.to_str().unwrap(), "--nodes", "200"])
            .args(["--quiet", "--out", dir.join(name).to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap()
    };
    let output = play("past.jsonl", &["--games", "12"]);
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("--games 12: ") && err.contains("holds 5 openings, so 10 games at most"),
        "{err}"
    );
    assert!(
        !dir.join("past.jsonl").exists()
            || read_match(&dir.join("past.jsonl"))
                .unwrap()
                .pairs
                .is_empty()
    );

    // Bounds no five pairs can cross: the SPRT ends with the book, undecided, and says why.
    let output = play(
        "sprt.jsonl",
        &["--sprt", "elo0=0,elo1=5,alpha=0.001,beta=0.001"],
    );
    succeeded(&output);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains(
            "stops undecided if it has not decided when the book's 5 openings (10 games) are played"
        ),
        "{err}"
    );
    assert!(
        err.contains("'b': the SPRT is undecided after each of the book's 5 openings"),
        "{err}"
    );
    let file = read_match(&dir.join("sprt.jsonl")).unwrap();
    assert_eq!(file.pairs.len(), 5);

    // A file of the old kind: ten games asked of five openings, the last pairs replays. Its
    // replays repeat the first pairs exactly, and the counts leave them out.
    let text = std::fs::read_to_string(dir.join("sprt.jsonl")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let first_pair = lines
        .iter()
        .position(|l| l.contains("\"type\":\"pair\""))
        .unwrap();
    let replay = lines[first_pair].replacen("\"index\":0", "\"index\":5", 1);
    assert_ne!(replay, lines[first_pair], "{}", lines[first_pair]);
    lines.push(replay);
    std::fs::write(dir.join("old.jsonl"), lines.join("\n") + "\n").unwrap();
    let (report, md) = report_of(&dir.join("old.jsonl"), &dir);
    assert!(
        md.contains("plays each of the book's 5 openings once (10 games per pairing at most)"),
        "{md}"
    );
    assert!(!md.contains("Openings reused"), "{md}");
    let json = std::fs::read_to_string(report.join("analysis.json")).unwrap();
    assert!(
        json.contains("\"recorded_pairs\": 6") && json.contains("\"games\": 10,"),
        "{json}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// fastchess's `restart=on`: a fresh process of the engine for every game, as the log's
/// process ids show (the probe's process plays the first).
#[test]
fn restart_on_gives_an_engine_a_fresh_process_every_game() {
    assert_eq!(engine_processes("restart-on", "restart=on", 4), (4, 4));
}

/// fastchess's -use-affinity pins the engines a game thread starts (the engine's own process
/// reports its allowed cores on stderr, which the log keeps), -epdout writes every game's
/// final position, and -report, -autosaveinterval and -openings policy=round are noted.
#[test]
fn a_fastchess_line_with_affinity_epdout_and_notes_plays() {
    let dir = scratch("fastchess-affinity");
    let exe = env!("CARGO_BIN_EXE_searchlab");
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/openings.epd");
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\ngrep Cpus_allowed_list /proc/self/status >&2\nexec {exe}\n"),
    )
    .unwrap();
    let (log, epd) = (dir.join("log.txt"), dir.join("final.epd"));
    let line = format!(
        "-engine cmd=sh args={} name=a -engine cmd={exe} name=b -each nodes=200 -rounds 2 -repeat \
         -openings file={} format=epd policy=round -use-affinity -epdout file={} \
         -report penta=true -autosaveinterval 10 -log file={}",
        script.display(),
        openings.display(),
        epd.display(),
        log.display()
    );
    let output = searchlab()
        .current_dir(&dir)
        .args(["match", "--"])
        .args(line.split_whitespace())
        .output()
        .unwrap();
    succeeded(&output);
    let err = String::from_utf8_lossy(&output.stderr);
    for note in ["-report:", "-autosaveinterval:", "policy=round"] {
        assert!(err.contains(note), "{note}: {err}");
    }
    let finals = std::fs::read_to_string(&epd).unwrap();
    assert_eq!(finals.lines().count(), 4, "{finals}");
    assert!(
        finals
            .lines()
            .all(|l| l.contains(" id \"") && l.contains("c0 \""))
    );
    // The game thread's engine runs under taskset: its allowed cores are one core.
    let log = std::fs::read_to_string(&log).unwrap();
    let pinned: Vec<&str> = log
        .lines()
        .filter(|l| l.contains(" ! Cpus_allowed_list:"))
        .collect();
    assert!(pinned.len() >= 2, "the probe's and a game's: {log}");
    let game = pinned.last().unwrap();
    let cores = game
        .rsplit('\t')
        .next()
        .unwrap()
        .split_whitespace()
        .last()
        .unwrap();
    assert!(cores.parse::<usize>().is_ok(), "one core: {game}");
    std::fs::remove_dir_all(&dir).ok();
}

/// fastchess's `-pgnout … nodes=true nps=true` puts `, n=` and `, nps=` in every move's
/// comment, what searchlab does not record is noted, `notation=lan` is refused, and
/// `-log … level=info` keeps the traffic but the engines' `info` lines.
#[test]
fn a_fastchess_line_with_pgn_comments_and_a_log_level_plays() {
    let dir = scratch("fastchess-pgnout");
    let exe = env!("CARGO_BIN_EXE_searchlab");
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/openings.epd");
    let (pgn, log) = (dir.join("g.pgn"), dir.join("log.txt"));
    let line = |pgnout: &str| {
        format!(
            "-engine cmd={exe} name=a -engine cmd={exe} name=b -each tc=1+0.01 -rounds 1 -repeat \
             -openings file={} format=epd -pgnout file={} {pgnout} -log file={} level=info",
            openings.display(),
            pgn.display(),
            log.display()
        )
    };
    let output = searchlab()
        .current_dir(&dir)
        .args(["match", "--"])
        .args(line("nodes=true nps=true seldepth=true").split_whitespace())
        .output()
        .unwrap();
    succeeded(&output);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("does not record a move's seldepth"), "{err}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        games.contains("s, n=") && games.contains(", nps="),
        "{games}"
    );
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains("> go "), "{log}");
    assert!(
        !log.contains(" < info "),
        "level=info leaves out search output: {log}"
    );
    let output = searchlab()
        .current_dir(&dir)
        .args(["match", "--"])
        .args(line("notation=lan").split_whitespace())
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("notation=lan"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `docs/games.md`'s sample of `searchlab sprt` is what the binary prints (issue 61 item 12).
#[test]
fn the_documented_sprt_sample_is_what_the_binary_prints() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games.md"))
        .unwrap();
    let block: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("$ searchlab sprt "))
        .take_while(|l| !l.starts_with("```"))
        .collect();
    let args: Vec<&str> = block[0]
        .trim_start_matches("$ searchlab ")
        .split_whitespace()
        .collect();
    let printed = common::ok(&args);
    assert_eq!(printed.trim_end(), block[1..].join("\n"));
}
