//! Clocks scaled to a reference speed (`--reference-nps`, `--reference-bench`) as a user runs
//! them: the factor comes from the yardstick's measurement and is recorded with both speeds; a
//! resumed match keeps its header's factor and records the reading; bad references and absurd
//! or failing yardsticks stop before any game.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use searchlab::harness::games::clock::control::Control;
use searchlab::harness::games::playing::record::read_match;

fn searchlab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_searchlab"))
}

/// A fresh folder of this file's scratch directory.
fn folder(name: &str) -> PathBuf {
    let dir = common::scratch("scaling", name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Two openings.
fn openings_file(dir: &Path) -> PathBuf {
    let path = dir.join("openings.epd");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n",
    )
    .unwrap();
    path
}

/// A yardstick that prints `nps` nodes a second the way Ethereal's bench does.
fn yardstick(dir: &Path, nps: u64) -> String {
    let path = dir.join(format!("bench-{nps}.sh"));
    std::fs::write(
        &path,
        format!("echo 'Time  : 1000ms'\necho 'Nodes : {nps}'\necho 'NPS   : {nps}'\n"),
    )
    .unwrap();
    format!("sh {}", path.display())
}

/// A two-game match of `classic` against itself without futility under `limit`, with `extra`.
fn play(dir: &Path, limit: &[&str], extra: &[&str]) -> std::process::Output {
    searchlab()
        .args([
            "match",
            "--variant",
            "a=classic",
            "--variant",
            "b=classic,-futility",
        ])
        .args(["--openings", openings_file(dir).to_str().unwrap()])
        .args(limit)
        .arg("--quiet")
        .args(["--out", dir.join("m.jsonl").to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_clock_is_scaled_by_the_measured_yardstick_and_recorded() {
    let dir = folder("scaled");
    let bench = yardstick(&dir, 1_000_000);
    let out = play(
        &dir,
        &["--tc", "0.5+0.005", "--games", "2"],
        &["--reference-nps", "2000000", "--reference-bench", &bench],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "0.5+0.005 at 2.00 M nodes/s of {bench}: 1+0.01 here, measured 1.00 M"
        )),
        "{stderr}"
    );
    let file = read_match(&dir.join("m.jsonl")).unwrap();
    let header = file.header.unwrap();
    let reference = header.reference.expect("the header records the scaling");
    assert_eq!(reference.factor, 2.0);
    assert_eq!(reference.reference_nps, 2e6);
    assert_eq!(reference.measured.nps, 1e6);
    assert_eq!(reference.measured.runs, vec![1e6; 3]);
    assert_eq!(reference.yardstick, bench);
    assert_eq!(reference.control, Control::parse_tc("0.5+0.005").unwrap());
    assert_eq!(header.control, Control::parse_tc("1+0.01").unwrap());
    assert_eq!(file.pairs.len(), 1);
    assert_eq!(file.speeds.len(), 1, "measured again at the end");
    // The report names the reference clock.
    let md = report_of(&dir);
    assert!(
        md.contains("tc 0.5+0.005 at a reference speed of 2.00 M nodes/s"),
        "{md}"
    );
    assert!(
        md.contains("- Players: `a`: searchlab `classic`; `b`: searchlab `classic,-futility`\n"),
        "{md}"
    );
}

#[test]
fn a_resumed_match_keeps_its_factor_and_warns_of_a_changed_machine() {
    let dir = folder("resumed");
    let slow = yardstick(&dir, 1_000_000);
    let out = play(
        &dir,
        &["--tc", "0.5+0.005", "--games", "2"],
        &["--reference-nps", "2000000", "--reference-bench", &slow],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same yardstick command, now printing a speed 60% higher: another machine.
    std::fs::write(dir.join("bench-1000000.sh"), "echo 'NPS   : 1600000'\n").unwrap();
    let out = play(
        &dir,
        &["--tc", "0.5+0.005", "--games", "4"],
        &["--reference-nps", "2000000", "--reference-bench", &slow],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("warning: ") && l.contains("on resuming")),
        "{stderr}"
    );
    assert!(
        stderr.contains("the header's factor 2.0000 is kept"),
        "{stderr}"
    );
    let file = read_match(&dir.join("m.jsonl")).unwrap();
    assert_eq!(file.header.unwrap().reference.unwrap().factor, 2.0);
    assert_eq!(file.pairs.len(), 2);
    // The readings kept through the extension: the first run's end, the resumption's (after
    // the one pair already played) and the second run's end.
    let readings: Vec<(usize, f64)> = file
        .speeds
        .iter()
        .map(|s| (s.after_pairs, s.reading.nps))
        .collect();
    assert_eq!(readings, vec![(1, 1e6), (1, 1.6e6), (2, 1.6e6)]);
    // The report says how far the machine had moved when the games went on.
    let md = report_of(&dir);
    assert!(md.contains("measured 1.60 M nodes/s after 1 pairs"), "{md}");
    assert!(
        !md.contains("m.jsonl: warning:"),
        "one 'warning' a line: {md}"
    );
}

#[test]
fn bad_references_and_yardsticks_stop_before_any_game() {
    let dir = folder("bad");
    let good = yardstick(&dir, 1_000_000);
    let cases: Vec<(Vec<&str>, Vec<String>, &str)> = vec![
        (
            vec!["--tc", "1+0.01"],
            vec!["--reference-nps".into(), "0".into()],
            "--reference-nps is",
        ),
        (
            vec!["--tc", "1+0.01"],
            vec!["--reference-nps=-5".into()],
            "--reference-nps is",
        ),
        (
            vec!["--nodes", "1000"],
            vec!["--reference-nps".into(), "2000000".into()],
            "no clock to scale",
        ),
        (
            vec!["--depth", "3"],
            vec![
                "--reference-nps".into(),
                "2000000".into(),
                "--reference-bench".into(),
                good.clone(),
            ],
            "no clock to scale",
        ),
        (
            vec!["--tc", "1+0.01"],
            vec![
                "--reference-nps".into(),
                "2000000000".into(),
                "--reference-bench".into(),
                good.clone(),
            ],
            "outside 0.01..100",
        ),
        (
            vec!["--tc", "1+0.01"],
            vec![
                "--reference-nps".into(),
                "2000".into(),
                "--reference-bench".into(),
                good.clone(),
            ],
            "outside 0.01..100",
        ),
        (
            vec!["--tc", "1+0.01"],
            vec![
                "--reference-nps".into(),
                "2000000".into(),
                "--reference-bench".into(),
                "sh -c 'exit 3'".into(),
            ],
            "failed",
        ),
        (
            vec!["--tc", "1+0.01"],
            vec![
                "--reference-nps".into(),
                "2000000".into(),
                "--reference-bench".into(),
                "echo hello".into(),
            ],
            "printed no nodes a second",
        ),
        (
            vec!["--tc", "1+0.01"],
            vec!["--reference-bench".into(), good.clone()],
            "needs --reference-nps",
        ),
    ];
    for (limit, extra, expected) in cases {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let mut limit = limit.clone();
        limit.extend(["--games", "2"]);
        let out = play(&dir, &limit, &extra);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?} was accepted");
        assert!(stderr.contains(expected), "{extra:?}: {stderr}");
        assert!(
            read_match(&dir.join("m.jsonl")).unwrap().pairs.is_empty(),
            "{extra:?}: a game was played"
        );
    }
}

/// The report of the match in `dir` (`m.jsonl`), drawn into `dir/report/`: its `report.md`.
fn report_of(dir: &Path) -> String {
    let report = searchlab()
        .args(["report", dir.join("m.jsonl").to_str().unwrap()])
        .args(["--out", dir.join("report").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(report.status.success());
    std::fs::read_to_string(dir.join("report/report.md")).unwrap()
}
