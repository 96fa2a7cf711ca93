//! Move generation checks: perft on the project's perft suite, `--divide` output, and the
//! shared standard suite (ignored by default: it needs `../shared/suites/standard.epd`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use searchlab::engine::perft::perft;
use searchlab::harness::epd;

/// Deepest count checked in the normal test run, so CI stays fast.
const CI_MAX_NODES: u64 = 100_000_000;

fn manifest_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

#[test]
fn perft_suite_matches_published_counts() {
    let records = epd::read_file(&manifest_path("suites/perft.epd")).expect("perft suite reads");
    assert_eq!(records.len(), 6);
    let mut checked = 0;
    for record in &records {
        let counts = record.perft_counts();
        assert!(counts.len() >= 5, "{} lists too few depths", record.id());
        for (depth, expected) in counts {
            if expected > CI_MAX_NODES {
                continue;
            }
            assert_eq!(
                perft(&record.board, depth),
                expected,
                "{} depth {depth}",
                record.id()
            );
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} counts checked");
}

#[test]
fn divide_prints_each_root_move_and_the_total() {
    let output = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["perft", "startpos", "3", "--divide"])
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(lines.len(), 20);
    assert!(lines.contains(&"e2e4: 600"), "{text}");
    assert!(lines.contains(&"g1f3: 440"), "{text}");
    assert!(text.trim_end().ends_with("perft(3) = 8902"), "{text}");
}

#[test]
fn bad_position_is_a_clear_error() {
    let output = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["perft", "rnbqkbnr/pppppppp", "3"])
        .output()
        .expect("the binary runs");
    assert!(!output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("invalid position"), "{err}");
}

/// `cargo test --release -- --ignored standard_suite`: every position of the shared standard
/// suite (128 positions) at every listed depth up to 5.
#[test]
#[ignore]
fn standard_suite_to_depth_5() {
    let path = manifest_path("../shared/suites/standard.epd");
    if !path.exists() {
        common::skipped(
            "standard_suite_to_depth_5",
            &format!(
                "{} not found (the shared suites are not here)",
                path.display()
            ),
        );
        return;
    }
    let records = epd::read_file(&path).expect("standard suite reads");
    assert_eq!(records.len(), 128);
    for record in &records {
        for (depth, expected) in record.perft_counts() {
            if depth <= 5 {
                assert_eq!(
                    perft(&record.board, depth),
                    expected,
                    "line {} depth {depth}",
                    record.line
                );
            }
        }
    }
}
