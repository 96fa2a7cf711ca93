//! The benchmark runner: identical nodes for any number of workers, resumption after a kill
//! that leaves every finished record and a half-written line, shards that add up to the whole
//! run, and clear errors for malformed suites.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use searchlab::engine::config::Limits;
use searchlab::engine::spec::configure;
use searchlab::harness::epd;
use searchlab::harness::results::{self, PositionRecord, RecordKey, Shard, read_results};
use searchlab::harness::runner::{self, Run, Suite};
use searchlab::harness::variant::Variant;

fn suite() -> Suite {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/tactics.epd");
    Suite {
        records: epd::read_file(&path).unwrap(),
        path: PathBuf::from("suites/tactics.epd"),
    }
}

fn plan(out: &Path, jobs: usize, shard: Option<Shard>) -> Run {
    let variants = ["plain", "classic", "classic,gsr"]
        .iter()
        .map(|spec| Variant {
            label: spec.to_string(),
            spec: spec.to_string(),
            config: configure(spec, None, 0).unwrap(),
            engine: None,
            limits: Vec::new(),
        })
        .collect();
    Run {
        variants,
        suites: vec![suite()],
        limits: Limits::depth(4),
        seeds: vec![0, 1],
        jobs,
        out: out.to_path_buf(),
        shard,
        progress: None,
        audit: None,
        width: false,
        design: None,
    }
}

/// Records by task, without the wall-clock fields.
fn by_task(records: &[PositionRecord]) -> BTreeMap<RecordKey, PositionRecord> {
    records
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.time_ms = 0.0;
            r.time_to_solution_ms = None;
            r.iterations.iter_mut().for_each(|it| it.time_ms = 0.0);
            (r.key(), r)
        })
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("searchlab-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("results.jsonl")
}

#[test]
fn workers_resume_and_shards_give_identical_records() {
    let one = runner::run(&plan(&scratch("one"), 1, None)).unwrap();
    // 8 positions x (plain + classic + 2 seeds of classic,gsr).
    assert_eq!(one.len(), 8 * 4);
    // Interleaved: on one worker each position's four searches come one after another, in
    // the variants' order, before the next position's.
    let order: Vec<(usize, &str, u64)> = one
        .iter()
        .map(|r| (r.line, r.variant.as_str(), r.seed))
        .collect();
    let lines: Vec<usize> = one.iter().step_by(4).map(|r| r.line).collect();
    let expected: Vec<(usize, &str, u64)> = lines
        .iter()
        .flat_map(|&l| {
            [
                (l, "plain", 0),
                (l, "classic", 0),
                (l, "classic,gsr", 0),
                (l, "classic,gsr", 1),
            ]
        })
        .collect();
    assert_eq!(order, expected);
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
    let two = runner::run(&plan(&scratch("two"), 2, None)).unwrap();
    assert_eq!(by_task(&one), by_task(&two), "--jobs 1 and --jobs 2 differ");

    // A run killed after some records, in the middle of writing the next line.
    let out = scratch("resume");
    runner::run(&plan(&out, 2, None)).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let kept = format!(
        "{}\n{}",
        lines[..11].join("\n"),
        &lines[11][..lines[11].len() / 2]
    );
    std::fs::write(&out, kept).unwrap();
    let resumed = runner::run(&plan(&out, 2, None)).unwrap();
    assert_eq!(by_task(&resumed), by_task(&one), "resumed run differs");
    let on_disk = read_results(&out).unwrap().records;
    assert_eq!(on_disk.len(), one.len(), "the file holds each record once");

    // Shards 1/2 and 2/2 together are the whole run.
    let mut shards =
        runner::run(&plan(&scratch("s1"), 2, Some(Shard { index: 1, count: 2 }))).unwrap();
    let second = runner::run(&plan(&scratch("s2"), 2, Some(Shard { index: 2, count: 2 }))).unwrap();
    assert!(!shards.is_empty() && !second.is_empty());
    shards.extend(second);
    assert_eq!(by_task(&shards), by_task(&one));
    assert_ne!(
        by_task(&one)[&RecordKey::new("classic,gsr", "suites/tactics.epd", 1, 0)].nodes,
        0
    );
}

#[test]
fn a_results_file_of_another_run_is_refused() {
    let out = scratch("other");
    runner::run(&plan(&out, 2, None)).unwrap();
    let mut other = plan(&out, 2, None);
    other.limits = Limits::depth(3);
    let err = runner::run(&other).unwrap_err();
    assert!(err.contains("another run"), "{err}");
}

#[test]
fn malformed_suite_lines_are_listed_with_file_and_line() {
    let dir = scratch("bad").parent().unwrap().to_path_buf();
    let suite = dir.join("bad.epd");
    let mut text = b"4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+;\nnot a position\n4k3/8/8/8/8/8/8/4K2R w K - bm Qd4;\n".to_vec();
    // A line that is not UTF-8 is one bad line, named, not the whole file refused.
    text.extend_from_slice(b"4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+; id \"caf\xe9\";\n");
    std::fs::write(&suite, text).unwrap();
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .args(["run", "--variant", "plain", "--depth", "2", "--suite"])
            .arg(&suite)
            .arg("--out")
            .arg(dir.join("out.jsonl"))
            .args(extra)
            .output()
            .unwrap()
    };
    let failed = run(&[]);
    assert!(!failed.status.success());
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(err.contains("bad.epd:2: expected 4 FEN fields"), "{err}");
    assert!(
        err.contains("bad.epd:3: bm: illegal or unreadable move 'Qd4'"),
        "{err}"
    );
    assert!(err.contains("bad.epd:4: not UTF-8 text"), "{err}");
    let skipped = run(&["--skip-invalid"]);
    assert!(
        skipped.status.success(),
        "{}",
        String::from_utf8_lossy(&skipped.stderr)
    );
    assert!(String::from_utf8_lossy(&skipped.stderr).contains("3 line(s)"));
    let summary = String::from_utf8_lossy(&skipped.stdout);
    assert!(
        summary
            .lines()
            .any(|l| l.starts_with("plain ") && l.split_whitespace().nth(1) == Some("1")),
        "{summary}"
    );
}

#[test]
fn merged_shards_equal_the_unsharded_run() {
    let whole = runner::run(&plan(&scratch("whole"), 2, None)).unwrap();
    let s1 = scratch("m1");
    let s2 = scratch("m2");
    runner::run(&plan(&s1, 2, Some(Shard { index: 1, count: 2 }))).unwrap();
    runner::run(&plan(&s2, 2, Some(Shard { index: 2, count: 2 }))).unwrap();
    let merged = scratch("merged");
    let merge = |files: Vec<PathBuf>, out: &Path| {
        searchlab::cli::merge(&searchlab::cli::MergeArgs {
            files,
            out: out.to_path_buf(),
        })
    };
    merge(vec![s1.clone(), s2], &merged).unwrap();
    let read = read_results(&merged).unwrap();
    let (header, records) = (read.header, read.records);
    assert_eq!(header.unwrap().shard, None);
    assert_eq!(by_task(&records), by_task(&whole));
    // A shard merged with itself is refused.
    assert!(merge(vec![s1.clone(), s1], &scratch("twice")).is_err());
}

#[test]
fn external_engines_share_the_results_file_and_failures_are_recorded() {
    let dir = scratch("engines").parent().unwrap().to_path_buf();
    let run = |engines: &[String], out: &Path| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_searchlab"));
        command.args([
            "run",
            "--variant",
            "plain",
            "--depth",
            "3",
            "--suite",
            "suites/tactics.epd",
        ]);
        for engine in engines {
            command.arg("--engine").arg(engine);
        }
        command
            .args(["--uci-option", "Hash=1", "--out"])
            .arg(out)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    let this = format!("self={}", env!("CARGO_BIN_EXE_searchlab"));

    // A command that does not speak UCI stops the run before anything is written.
    let refused = dir.join("refused.jsonl");
    let output = run(&[this.clone(), "broken=/bin/true".into()], &refused);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("player 'broken'") && stderr.contains("does not speak UCI"),
        "{stderr}"
    );
    assert!(!refused.exists(), "nothing written");

    // An engine that answers `uci` and `isready` but dies when asked to search fails position
    // by position, each time started again.
    let crashy = "crashy=sh -c 'while read l; do case \"$l\" in uci) echo id name Crashy; echo uciok;; isready) echo readyok;; go*) exit 3;; esac; done'".to_string();
    let out = dir.join("engines.jsonl");
    let output = run(&[this, crashy], &out);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let read = read_results(&out).unwrap();
    let (header, records) = (read.header, read.records);
    let header = header.unwrap();
    assert_eq!(header.variants.len(), 3);
    let name = |label: &str| {
        let v = header.variants.iter().find(|v| v.label == label).unwrap();
        v.engine.as_ref().unwrap().name.clone().unwrap()
    };
    assert!(name("self").starts_with("searchlab"), "id name recorded");
    assert_eq!(name("crashy"), "Crashy");
    let mut mine: Vec<_> = records.iter().filter(|r| r.variant == "self").collect();
    let mut plain: Vec<_> = records.iter().filter(|r| r.variant == "plain").collect();
    mine.sort_by_key(|r| r.line);
    plain.sort_by_key(|r| r.line);
    assert_eq!(mine.len(), 8);
    for (a, b) in mine.iter().zip(&plain) {
        assert_eq!(a.failure, None);
        assert_eq!(
            a.best_move, b.best_move,
            "searchlab over UCI plays as in process"
        );
        assert_eq!(a.iterations.len(), 3);
    }
    let broken: Vec<_> = records.iter().filter(|r| r.variant == "crashy").collect();
    assert_eq!(broken.len(), 8);
    assert!(
        broken
            .iter()
            .all(|r| r.failure.is_some() && r.solved.is_none())
    );

    // Nodes of another engine are not set against searchlab's.
    let data = searchlab::harness::report::Dataset::read(std::slice::from_ref(&out)).unwrap();
    let analysis = searchlab::harness::report::analyse(&data, Some("plain")).unwrap();
    let this = analysis
        .variants
        .iter()
        .find(|v| v.label == "self")
        .unwrap();
    assert!(this.other_engine && this.node_ratio.is_none());
    assert!(this.engine.as_deref().unwrap().starts_with("searchlab"));
    assert!(searchlab::harness::report::summary_table(&analysis).contains("– (another engine)"));
}

/// The header records the commit the binary was built from, also when the run starts in a
/// directory outside the repository (or inside another one).
#[test]
fn header_records_the_binary_commit_from_any_directory() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(head) = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(manifest)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    else {
        common::skipped(
            "baked_commit",
            "no git here: nothing to compare the baked commit with",
        );
        return;
    };
    let out = scratch("outside");
    let dir = out.parent().unwrap().to_path_buf();
    let status = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .current_dir(&dir)
        .args([
            "run",
            "--variant",
            "plain",
            "--depth",
            "1",
            "--jobs",
            "1",
            "--out",
        ])
        .arg(&out)
        .arg("--suite")
        .arg(manifest.join("suites/tactics.epd"))
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let header = read_results(&out).unwrap().header;
    let commit = header
        .unwrap()
        .provenance
        .commit
        .expect("a commit is recorded");
    assert!(
        commit == head || commit == format!("{head}-dirty"),
        "recorded {commit}, built from {head}"
    );
}

#[test]
fn a_second_run_on_the_same_out_is_refused_while_the_first_holds_it() {
    let out = scratch("locked");
    let first = runner::run(&plan(&out, 2, None)).unwrap();
    // Hold the file as a running searchlab does (the handle open_for_run returns is locked).
    let header = read_results(&out).unwrap().header.unwrap();
    let (held, _) = results::open_for_run(&out, &header).unwrap();
    let err = runner::run(&plan(&out, 2, None)).unwrap_err();
    assert!(
        err.contains("being written by another searchlab run"),
        "{err}"
    );
    drop(held);
    // Once it is free, the same command resumes a complete run: nothing added, nothing twice.
    let again = runner::run(&plan(&out, 2, None)).unwrap();
    assert_eq!(again.len(), first.len());
    assert_eq!(read_results(&out).unwrap().records.len(), first.len());
}

#[test]
fn what_is_not_a_results_file_or_has_no_positions_is_refused_before_anything_is_written() {
    // `--out /dev/full` reads endless zero bytes: bounded, and refused.
    if Path::new("/dev/full").exists() {
        let err = runner::run(&plan(Path::new("/dev/full"), 1, None)).unwrap_err();
        assert!(err.contains("not a results file"), "{err}");
    }
    // An empty suite: said before the results file is created.
    let out = scratch("empty");
    let mut empty = plan(&out, 1, None);
    empty.suites[0].records.clear();
    let err = runner::run(&empty).unwrap_err();
    assert!(err.contains("no positions in suites/tactics.epd"), "{err}");
    assert!(!out.exists(), "nothing written");
}

#[test]
fn merge_takes_shards_in_any_order_and_says_what_is_missing() {
    let whole = runner::run(&plan(&scratch("mw"), 2, None)).unwrap();
    let shard = |i: usize, name: &str| {
        let out = scratch(name);
        runner::run(&plan(&out, 2, Some(Shard { index: i, count: 3 }))).unwrap();
        out
    };
    let (s1, s2, s3) = (shard(1, "ms1"), shard(2, "ms2"), shard(3, "ms3"));

    // Any order gives the whole run, with nothing missing.
    let out = scratch("merged-any");
    let merged = results::merge(&[s3.clone(), s1.clone(), s2.clone()], &out).unwrap();
    assert!(merged.missing.is_empty() && merged.warnings.is_empty());
    assert_eq!(
        by_task(&read_results(&out).unwrap().records),
        by_task(&whole)
    );

    // A shard cut short: the merge says which searches are missing, and so does its header.
    let cut = scratch("ms2-cut");
    let text = std::fs::read_to_string(&s2).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&cut, format!("{}\n", lines[..5].join("\n"))).unwrap();
    let out = scratch("merged-cut");
    let merged = results::merge(&[s1.clone(), cut.clone(), s3.clone()], &out).unwrap();
    let expected_missing = lines.len() - 5;
    assert_eq!(merged.missing.len(), expected_missing);
    assert_eq!(merged.records + expected_missing, whole.len());
    assert!(
        merged.warnings.iter().any(|w| w.contains("holds 4 of the")),
        "{:?}",
        merged.warnings
    );
    let read = read_results(&out).unwrap();
    assert_eq!(read.header.as_ref().unwrap().missing, merged.missing);
    let problems = read.problems(&out).join("\n");
    assert!(problems.contains("missing"), "{problems}");

    // A shard not given at all.
    let merged = results::merge(&[s1.clone(), s3.clone()], &scratch("merged-two")).unwrap();
    assert!(
        merged
            .warnings
            .iter()
            .any(|w| w.contains("shard 2 of 3 not given"))
    );
    assert_eq!(merged.records + merged.missing.len(), whole.len());
    // `report` of two of the three shards says so, at the top of the report too.
    let data = searchlab::harness::report::Dataset::read(&[s1.clone(), s3.clone()]).unwrap();
    assert_eq!(
        data.incomplete,
        [
            "2 of 3 shards given: shard 2/3 missing, so the report covers part of the run (merge every shard, or report them all)"
        ]
    );
    let analysis = searchlab::harness::report::analyse(&data, None).unwrap();
    let markdown = searchlab::harness::report::markdown(&analysis);
    assert!(
        markdown.contains("**Incomplete:** 2 of 3 shards given"),
        "{markdown}"
    );
    // Random bytes are not a results file (nor an empty one).
    let noise = scratch("noise.jsonl");
    std::fs::write(
        &noise,
        (0..4000u32)
            .map(|i| (i * 7919 % 251) as u8 | 1)
            .filter(|b| *b != b'\n')
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let err = results::merge(std::slice::from_ref(&noise), &scratch("m-noise")).unwrap_err();
    assert!(err.contains("not a searchlab results file"), "{err}");

    // Refused: a whole run among shards, a shard twice (both named), a file that is not there.
    let unsharded = scratch("unsharded");
    runner::run(&plan(&unsharded, 2, None)).unwrap();
    let err = results::merge(&[s1.clone(), unsharded], &scratch("m-x")).unwrap_err();
    assert!(err.contains("a whole run"), "{err}");
    let err = results::merge(&[s1.clone(), s1.clone()], &scratch("m-y")).unwrap_err();
    assert!(err.contains("are both shard 1/3"), "{err}");
    let err = results::merge(
        &[s1, PathBuf::from("/nonexistent/s.jsonl")],
        &scratch("m-z"),
    )
    .unwrap_err();
    assert!(err.contains("/nonexistent/s.jsonl: not found"), "{err}");
}

/// The arguments of a small run, for the tests that start searchlab as separate processes.
const SMALL_RUN: [&str; 9] = [
    "--suite",
    "suites/tactics.epd",
    "--variant",
    "plain",
    "--variant",
    "classic,gsr",
    "--seeds",
    "2",
    "--depth=3",
];

fn searchlab_run(extra: &[String]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .arg("run")
        .args(SMALL_RUN)
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// The small run in one process, into `dir/whole.jsonl`.
fn whole_run(dir: &Path) -> PathBuf {
    let whole = dir.join("whole.jsonl");
    let status = searchlab_run(&["--out".into(), whole.display().to_string()])
        .wait()
        .unwrap();
    assert!(status.success());
    whole
}

#[test]
fn shards_run_as_separate_processes_at_once_merge_to_the_unsharded_run() {
    let dir = scratch("processes").parent().unwrap().to_path_buf();
    let whole = whole_run(&dir);
    let shards: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("s{i}.jsonl"))).collect();
    let mut children: Vec<_> = shards
        .iter()
        .enumerate()
        .map(|(i, out)| {
            searchlab_run(&[
                format!("--shard={}/3", i + 1),
                "--jobs=1".into(),
                "--out".into(),
                out.display().to_string(),
            ])
        })
        .collect();
    for child in &mut children {
        assert!(child.wait().unwrap().success());
    }
    let merged = dir.join("merged.jsonl");
    let m = results::merge(&shards, &merged).unwrap();
    assert!(m.missing.is_empty());
    let whole = read_results(&whole).unwrap().records;
    assert_eq!(
        by_task(&read_results(&merged).unwrap().records),
        by_task(&whole)
    );
}

#[test]
fn the_command_line_for_a_newcomer() {
    let dir = scratch("newcomer").parent().unwrap().to_path_buf();
    let searchlab = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    let out = dir.join("hyphen.jsonl");
    let out = out.to_str().unwrap();
    // A label and a SPEC that start with '-'.
    let args = [
        "run",
        "--suite",
        "suites/tactics.epd",
        "--depth",
        "1",
        "--variant",
        "-killers=classic,-killers",
        "--out",
        out,
    ];
    let first = searchlab(&args);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let summary = String::from_utf8_lossy(&first.stdout);
    assert!(
        summary.lines().any(|l| l.starts_with("-killers ")),
        "{summary}"
    );
    assert!(
        summary.lines().all(|l| l.chars().count() <= 100),
        "{summary}"
    );
    // The same command again: the run is complete, and it says so.
    let again = searchlab(&args);
    assert!(again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("the run is already complete (8 searches)"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    // One rule for limits: depth 0 and two limits are refused by run and search alike.
    for args in [
        &["run", "--depth", "0", "--out", out][..],
        &["search", "startpos", "--depth", "0"][..],
        &["run", "--jobs", "0", "--out", out][..],
    ] {
        let refused = searchlab(args);
        assert!(!refused.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&refused.stderr).contains("must be"),
            "{args:?}"
        );
    }
    for args in [
        &["run", "--depth", "3", "--nodes", "9", "--out", out][..],
        &["search", "startpos", "--depth", "3", "--nodes", "9"][..],
    ] {
        assert!(!searchlab(args).status.success(), "{args:?}");
    }
    // search: milliseconds for a short search, standard SAN in the PV.
    let search = searchlab(&["search", "startpos", "--depth", "3"]);
    let text = String::from_utf8_lossy(&search.stdout);
    assert!(text.starts_with("depth/seldepth  time"), "{text}");
    assert!(text.lines().nth(1).unwrap().contains(" ms "), "{text}");
    assert!(
        text.contains(" Nc3") || text.contains(" e4") || text.contains(" Nf3"),
        "{text}"
    );
    assert!(
        !text.contains("Nb1c3"),
        "long notation is the documents' format only: {text}"
    );
}

/// Without a terminal (the test's pipes), long commands print status lines on stdout: `run`
/// and `datagen` every `--status-interval` seconds, `tune` every `--rating-interval` games.
#[test]
fn status_lines_without_a_terminal() {
    let dir = common::scratch("runner", "status");
    let status = |args: &[&str], prefix: &str| -> usize {
        let output = common::searchlab(args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let out = String::from_utf8_lossy(&output.stdout).to_string();
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with(prefix)).collect();
        for line in &lines {
            assert!(line.contains("elapsed") && line.contains('%'), "{line}");
        }
        lines.len()
    };
    let run_at = |name: &str, interval: &str| -> Vec<String> {
        let out = dir.join(name).display().to_string();
        let args = [
            "run",
            "--suite",
            "suites/tactics.epd",
            "--depth",
            "3",
            "--out",
        ];
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args.extend([out, "--status-interval".into(), interval.into()]);
        args
    };
    let run = run_at("run.jsonl", "0.000001");
    let run: Vec<&str> = run.iter().map(String::as_str).collect();
    assert!(
        status(&run, "run: ") >= 5,
        "a line per search at this interval"
    );
    let silent = run_at("run2.jsonl", "0");
    let silent: Vec<&str> = silent.iter().map(String::as_str).collect();
    assert_eq!(status(&silent, "run: "), 0);
    let data = dir.join("data.bin").display().to_string();
    let datagen = [
        "datagen",
        "--out",
        &data,
        "--nodes",
        "300",
        "--games",
        "4",
        "--jobs",
        "1",
        "--status-interval",
        "0.000001",
    ];
    assert!(status(&datagen, "datagen: ") >= 3);
    let tuned = dir.join("tune.jsonl").display().to_string();
    let tune = [
        "tune",
        "--variant",
        "modern",
        "--param",
        "futility.margin=60,0,200,10",
        "--iterations",
        "6",
        "--nodes",
        "200",
        "--openings",
        "suites/openings.epd",
        "--rating-interval",
        "4",
        "--out",
        &tuned,
    ];
    assert_eq!(status(&tune, "tune: "), 3, "every 2 iterations of 2 games");
    std::fs::remove_dir_all(&dir).ok();
}
