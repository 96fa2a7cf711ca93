//! Any UCI engine in the lab: one process per worker in `run`, its options as toggles and
//! parameters (`--ablation`, `--sweep option.NAME`), and its counters through the counters
//! protocol (docs/protocol.md), checked against searchlab's own search in-process.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use searchlab::harness::design::Design;
use searchlab::harness::results::{PositionRecord, read_results};

const BIN: &str = env!("CARGO_BIN_EXE_searchlab");

fn scratch(name: &str) -> PathBuf {
    common::scratch("any-engine", name)
}

fn succeeded(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    stderr
}

/// The first `n` positions of WAC (`suites/wac.epd`).
fn positions(n: usize, name: &str) -> PathBuf {
    let wac = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/wac.epd");
    let text = std::fs::read_to_string(&wac).expect("suites/wac.epd is in the repository");
    let path = scratch(&format!("{name}.epd"));
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let chosen: Vec<&str> = lines
        .iter()
        .cycle()
        .take(n.min(lines.len() * 8))
        .copied()
        .collect();
    std::fs::write(&path, chosen.join("\n") + "\n").unwrap();
    path
}

/// A wrapper around the searchlab binary that logs each start of the engine.
fn logging_wrapper(name: &str) -> (PathBuf, PathBuf) {
    let log = scratch(&format!("{name}.starts"));
    let script = scratch(&format!("{name}.sh"));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho start >> '{}'\nexec '{BIN}' \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&script, permissions).unwrap();
    (script, log)
}

fn by_line<'a>(records: &'a [PositionRecord], variant: &str) -> Vec<&'a PositionRecord> {
    let mut mine: Vec<_> = records.iter().filter(|r| r.variant == variant).collect();
    mine.sort_by_key(|r| r.line);
    mine
}

fn iteration_nodes(record: &PositionRecord) -> Vec<u64> {
    record
        .iterations
        .iter()
        .map(|i| i.interior + i.horizon + i.quiescence)
        .collect()
}

/// The reviewer's check: searchlab driven as an engine with `CounterInfo` on gives the records
/// of the same SPEC searched in-process (`Heuristics=classic` alone is `--variant classic`:
/// one SPEC, one engine), node for node, iteration by iteration, counter for
/// counter; and a 40-position run on two workers starts at most one process per worker.
#[test]
fn searchlab_as_an_engine_equals_the_same_spec_in_process() {
    let suite = positions(40, "equal");
    let (wrapper, starts) = logging_wrapper("equal");
    let out = scratch("equal.jsonl");
    let engine = format!(
        "name=sl cmd={} option.Heuristics=classic option.CounterInfo=true",
        wrapper.display()
    );
    let stderr = succeeded(&common::searchlab(&[
        "run",
        "--suite",
        suite.to_str().unwrap(),
        "--depth",
        "5",
        "--jobs",
        "2",
        "--variant",
        "classic",
        "--engine",
        &engine,
        "--out",
        out.to_str().unwrap(),
    ]));
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    assert!(
        (1..=2).contains(&started),
        "{started} starts for 40 positions on 2 workers (the probe's process is the first): {stderr}"
    );
    let read = read_results(&out).unwrap();
    let header = read.header.unwrap();
    let options = &header.variants[1].engine.as_ref().unwrap().options;
    assert!(
        options.contains(&("Threads".into(), "1".into()))
            && options.contains(&("Hash".into(), "16".into())),
        "Threads and Hash sent by default: {options:?}"
    );
    let (engine, own) = (
        by_line(&read.records, "sl"),
        by_line(&read.records, "classic"),
    );
    assert_eq!(engine.len(), own.len());
    let mut counted = 0;
    for (a, b) in engine.iter().zip(&own) {
        assert_eq!(a.failure, None);
        assert_eq!(iteration_nodes(a), iteration_nodes(b), "line {}", a.line);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.best_move, b.best_move);
        assert_eq!(a.counters, b.counters, "line {}", a.line);
        counted += a.counters.named().count();
    }
    assert!(counted > 0, "classic's counters came through the protocol");
}

/// `--ablation off-one` over the searchlab binary as an engine: one variant per check option
/// on by default (those the engine refuses left out, with the reason), a report as usual;
/// the same flips in-process give the same node counts.
#[test]
fn an_engines_check_options_are_its_ablation() {
    let suite = positions(4, "ablation");
    let out = scratch("ablation.jsonl");
    let engine = format!("name=sl cmd={BIN} option.CounterInfo=true");
    let report = scratch("ablation-report");
    let stderr = succeeded(&common::searchlab(&[
        "run",
        "--suite",
        suite.to_str().unwrap(),
        "--depth",
        "4",
        "--engine",
        &engine,
        "--ablation",
        "off-one",
        "--out",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]));
    let listed =
        String::from_utf8(common::searchlab(&["engine-options", "--engine", &engine]).stdout)
            .unwrap();
    let on: Vec<&str> = listed
        .lines()
        .filter(|l| l.contains(" check ") && l.contains("default true"))
        .filter_map(|l| l.trim().strip_prefix("option."))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert!(on.len() > 20, "{listed}");
    let header = read_results(&out).unwrap().header.unwrap();
    let labels: Vec<&str> = header.variants.iter().map(|v| v.label.as_str()).collect();
    for name in &on {
        let label = format!("sl-{name}");
        let refused = stderr.contains(&format!("variant '{label}' left out"));
        assert!(
            labels.contains(&label.as_str()) != refused,
            "{label}: a variant, or left out with the reason"
        );
    }
    assert!(
        stderr.contains("variant 'sl-tt' left out"),
        "iir needs tt: {stderr}"
    );
    assert!(
        stderr.contains("variant 'sl-quiescence' left out"),
        "quiescence_checks needs quiescence: {stderr}"
    );
    assert!(
        stderr.contains("variant 'sl-continuation_history' left out"),
        "history_pruning needs continuation_history: {stderr}"
    );
    assert_eq!(labels.len(), 1 + on.len() - 3);
    assert!(report.join("report.md").exists() && report.join("heuristic_rates.svg").exists());

    // The same flips of three options in-process: the same nodes, position by position.
    let own = scratch("ablation-own.jsonl");
    let default = format!("sl={}", searchlab::uci::DEFAULT_PRESET);
    succeeded(&common::searchlab(&[
        "run",
        "--suite",
        suite.to_str().unwrap(),
        "--depth",
        "4",
        "--variant",
        &default,
        "--ablation",
        "off-one:lmr,killers,futility",
        "--out",
        own.to_str().unwrap(),
    ]));
    let (a, b) = (read_results(&out).unwrap(), read_results(&own).unwrap());
    for label in ["sl", "sl-lmr", "sl-killers", "sl-futility"] {
        let (x, y) = (by_line(&a.records, label), by_line(&b.records, label));
        assert_eq!(x.len(), y.len(), "{label}");
        for (x, y) in x.iter().zip(&y) {
            assert_eq!((x.nodes, &x.counters), (y.nodes, &y.counters), "{label}");
        }
    }
}

/// A spin option is swept within its advertised range; a value outside is refused with the
/// range before anything runs.
#[test]
fn an_engines_spin_options_are_swept_within_their_range() {
    let suite = positions(3, "sweep");
    let out = scratch("sweep.jsonl");
    let engine = format!("name=sl cmd={BIN}");
    let refused = common::searchlab(&[
        "run",
        "--suite",
        suite.to_str().unwrap(),
        "--engine",
        &engine,
        "--sweep",
        "option.lmr.divisor=50,100000",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(stderr.contains("outside the option's range"), "{stderr}");
    assert!(!out.exists(), "nothing written");
    succeeded(&common::searchlab(&[
        "run",
        "--suite",
        suite.to_str().unwrap(),
        "--depth",
        "4",
        "--engine",
        &engine,
        "--sweep",
        "sl.option.lmr.divisor=225,300",
        "--out",
        out.to_str().unwrap(),
    ]));
    let header = read_results(&out).unwrap().header.unwrap();
    let Some(Design::Sweep { params, points, .. }) = header.design else {
        panic!("a sweep design")
    };
    assert_eq!(params[0].key, "lmr.divisor");
    assert_eq!(points.len(), 2);
    // 225 is the engine's advertised default: that point is the base, searched once.
    assert_eq!(points[0].label, "sl");
    assert_eq!(header.variants.len(), 2, "the base and the point at 300");
    let last = header.variants.last().unwrap().engine.as_ref().unwrap();
    assert_eq!(
        last.options.last(),
        Some(&("lmr.divisor".to_string(), "300".to_string()))
    );
}

/// An engine's counters under names searchlab does not know are kept and reported; an engine
/// that crashes fails that position only, with the reason, and is started again.
#[test]
fn unknown_counters_are_kept_and_a_crash_costs_one_position() {
    let suite = scratch("crash.epd");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;\n";
    std::fs::write(&suite, start.repeat(6)).unwrap();
    // Every search gives a counter of its own; the third search of a process crashes it.
    let script = scratch("toy-engine.sh");
    std::fs::write(
        &script,
        "n=0\nwhile read l; do case \"$l\" in\n uci) echo id name Toy; echo uciok;;\n isready) echo readyok;;\n go*) n=$((n+1)); if [ $n -eq 3 ]; then exit 4; fi\n   echo info depth 1 score cp 0 nodes 7 time 1 pv e2e4\n   echo info string counter my_probcut tested 9 fired 3\n   echo bestmove e2e4;;\n quit) exit 0;;\n esac; done\n",
    )
    .unwrap();
    let out = scratch("crash.jsonl");
    let report = scratch("crash-report");
    let stderr = succeeded(&common::searchlab(&[
        "run",
        "--suite",
        suite.to_str().unwrap(),
        "--jobs",
        "1",
        "--engine",
        &format!("toy=sh {}", script.display()),
        "--out",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]));
    let records = by_line(&read_results(&out).unwrap().records, "toy")
        .into_iter()
        .cloned()
        .collect::<Vec<_>>();
    let failed: Vec<usize> = records
        .iter()
        .filter(|r| r.failure.is_some())
        .map(|r| r.line)
        .collect();
    assert_eq!(failed, [3, 6], "the third search of each process: {stderr}");
    assert!(records[2].failure.as_deref().unwrap().contains("engine"));
    assert!(stderr.contains("engine toy: 2 processes"), "{stderr}");
    for r in records.iter().filter(|r| r.failure.is_none()) {
        assert_eq!(r.counters.other["my_probcut"].fired, 3);
    }
    let markdown = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(markdown.contains("my_probcut"), "reported: {markdown}");
}

/// `match` takes the same designs: each variant of the engine's options plays the base.
#[test]
fn a_match_plays_the_engines_variants_against_its_base() {
    let out = scratch("match.jsonl");
    let stdout = succeeded_stdout(&common::searchlab(&[
        "match",
        "--engine",
        &format!("name=sl cmd={BIN}"),
        "--ablation",
        "off-one:lmr",
        "--sweep",
        "option.lmr.divisor=200",
        "--nodes",
        "500",
        "--games",
        "2",
        "--openings",
        "suites/openings.epd",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]));
    assert!(
        stdout.is_empty(),
        "--ablation and --sweep together are refused"
    );
    let stdout = succeeded_stdout(&common::searchlab(&[
        "match",
        "--engine",
        &format!("name=sl cmd={BIN}"),
        "--ablation",
        "off-one:lmr",
        "--nodes",
        "500",
        "--games",
        "2",
        "--openings",
        "suites/openings.epd",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]));
    assert!(stdout.contains("sl-lmr vs sl: games 2"), "{stdout}");
    // The header tells two builds apart: the engine's `id name` carries its commit, and its
    // program's checksum is recorded.
    let text = std::fs::read_to_string(&out).unwrap();
    let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let engine = &header["variants"][0]["engine"];
    assert!(
        engine["name"]
            .as_str()
            .unwrap()
            .starts_with("searchlab 0.1.0"),
        "{engine}"
    );
    let bytes = std::fs::read(BIN).unwrap();
    let checksum = format!("{:016x}", searchlab::engine::nnue::checksum(&bytes));
    assert_eq!(engine["program_checksum"].as_str(), Some(checksum.as_str()));
    // The report names each engine the way the header does.
    let report = scratch("match-report");
    succeeded(&common::searchlab(&[
        "report",
        out.to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
    ]));
    let markdown = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(
        markdown.contains(&format!("; program checksum {checksum})")),
        "{markdown}"
    );
}

/// A command's stdout when it succeeded, empty when it failed.
fn succeeded_stdout(output: &Output) -> String {
    if output.status.success() {
        String::from_utf8_lossy(&output.stdout).into_owned()
    } else {
        String::new()
    }
}

/// An engine that answers `uci` and `isready` but never `go`: each search of `run` and each
/// game of `match` under a depth or node limit fails by its deadline, named in the record,
/// and the run goes on (the engine restarted) instead of waiting forever.
#[test]
fn a_hung_engine_fails_each_search_by_its_deadline() {
    let script = scratch("hung-engine.sh");
    std::fs::write(
        &script,
        "while read l; do case \"$l\" in\n uci) echo id name Hung; echo uciok;;\n isready) echo readyok;;\n quit) exit 0;;\n esac; done\n",
    )
    .unwrap();
    let suite = scratch("hung.epd");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;\n";
    std::fs::write(&suite, start.repeat(3)).unwrap();
    let out = scratch("hung.jsonl");
    let stderr = succeeded(&common::searchlab(&[
        "run",
        "--suite",
        suite.to_str().unwrap(),
        "--jobs",
        "1",
        "--depth",
        "3",
        "--engine",
        &format!("name=hung cmd=sh args={} timeout=0.5", script.display()),
        "--out",
        out.to_str().unwrap(),
    ]));
    let records = read_results(&out).unwrap().records;
    assert_eq!(records.len(), 3, "{stderr}");
    for record in &records {
        let failure = record.failure.as_deref().unwrap_or("");
        assert!(
            failure.contains("no bestmove within 0.5 s (the deadline timeout="),
            "{failure}"
        );
    }
    let games = scratch("hung-match.jsonl");
    let stdout = succeeded_stdout(&common::searchlab(&[
        "match",
        "--engine",
        &format!("name=hung cmd=sh args={}", script.display()),
        "--variant",
        "plain",
        "--each",
        "timeout=0.5",
        "--nodes",
        "1000",
        "--games",
        "2",
        "--openings",
        "suites/openings.epd",
        "--out",
        games.to_str().unwrap(),
        "--quiet",
    ]));
    assert!(stdout.contains("hung: hang"), "{stdout}");
}
