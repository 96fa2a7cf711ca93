//! The analyses from the command line: the pruning audit (`--audit` on `search`,
//! `run`, `bench`), the interaction matrix (`--ablation pairs`) and parameter sweeps
//! (`--sweep`), with their reports, charts and errors.

mod common;
use common::{ok, searchlab};

use std::path::{Path, PathBuf};
use std::process::Command;

use searchlab::harness::report::Analysis;
use searchlab::harness::results::{PositionRecord, read_results};

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("searchlab-analyses-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn analysis(dir: &Path) -> Analysis {
    serde_json::from_str(&std::fs::read_to_string(dir.join("analysis.json")).unwrap()).unwrap()
}

fn svg(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The part of `search`'s output from the audit table on (no times in it).
fn audit_section(out: &str) -> &str {
    &out[out.find("pruning audit").expect("an audit table")..]
}

fn line_starting<'a>(out: &'a str, start: &str) -> &'a str {
    out.lines().find(|l| l.starts_with(start)).unwrap()
}

#[test]
fn search_audit_keeps_the_nodes_and_the_move_and_repeats_with_its_seed() {
    let position = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";
    let base = ["search", position, "--depth", "6", "--heuristics", "modern"];
    let plain = ok(&base);
    let audited = ok(&[&base[..], &["--audit", "1.0"]].concat());
    let nodes = |out: &str| {
        line_starting(out, "total:")
            .split(" nodes")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(nodes(&plain), nodes(&audited));
    assert_eq!(
        line_starting(&plain, "bestmove"),
        line_starting(&audited, "bestmove")
    );
    let table = audit_section(&audited);
    assert!(table.contains("lmr"), "{table}");
    assert!(table.contains("late_move_pruning"), "{table}");
    let sampled = |seed: &str| ok(&[&base[..], &["--audit", "0.1", "--seed", seed]].concat());
    let (first, again) = (sampled("1"), sampled("1"));
    assert_eq!(audit_section(&first), audit_section(&again));
    assert_ne!(audit_section(&first), table, "a tenth of the decisions");
}

#[test]
fn bench_audits_without_changing_its_signature() {
    let plain = ok(&["bench", "--depth", "3", "--heuristics", "classic"]);
    let audited = ok(&[
        "bench",
        "--depth",
        "3",
        "--heuristics",
        "classic",
        "--audit",
        "0.5",
    ]);
    let signature = |out: &str| {
        out.lines()
            .last()
            .unwrap()
            .split(" nodes")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(signature(&plain), signature(&audited));
    assert!(audited.contains("pruning audit"), "{audited}");
    assert!(audited.contains("null_move"), "{audited}");
}

fn without_times(mut r: PositionRecord) -> PositionRecord {
    r.time_ms = 0.0;
    r.time_to_solution_ms = None;
    for it in &mut r.iterations {
        it.time_ms = 0.0;
    }
    r
}

fn records(path: &Path) -> Vec<PositionRecord> {
    let mut records: Vec<PositionRecord> = read_results(path)
        .unwrap()
        .records
        .into_iter()
        .map(without_times)
        .collect();
    records.sort_by_key(|r| r.key());
    records
}

#[test]
fn run_audits_are_reproducible_with_any_jobs_and_reported_with_their_intervals() {
    let dir = temp_dir("audit");
    let run = |jobs: &str, audit: Option<&str>, name: &str| {
        let out = dir.join(name);
        let mut args = vec![
            "run",
            "--suite",
            "suites/tactics.epd",
            "--variant",
            "modern",
            "--variant",
            "all",
            "--depth",
            "4",
            "--jobs",
            jobs,
            "--out",
        ];
        let out_text = out.display().to_string();
        args.push(&out_text);
        if let Some(rate) = audit {
            args.extend(["--audit", rate]);
        }
        let report = dir.join(format!("{name}-report")).display().to_string();
        args.extend(["--report", &report]);
        ok(&args);
        out
    };
    let one = records(&run("1", Some("0.5"), "one.jsonl"));
    let two = records(&run("2", Some("0.5"), "two.jsonl"));
    assert_eq!(one, two, "the same audits with one worker or two");
    let plain = records(&run("2", None, "plain.jsonl"));
    for (a, p) in one.iter().zip(&plain) {
        assert_eq!(
            (a.nodes, &a.best_move, &a.counters),
            (p.nodes, &p.best_move, &p.counters)
        );
        assert!(p.audit.is_none());
    }
    assert!(
        one.iter()
            .any(|r| r.audit.as_ref().is_some_and(|rows| !rows.is_empty()))
    );

    let report = dir.join("one.jsonl-report");
    let a = analysis(&report);
    assert_eq!(a.audits.len(), 2);
    let chart = svg(&report, "audit.svg");
    for v in &a.audits {
        for total in v.totals() {
            let text = format!("{:.1}%", 100.0 * total.error_rate);
            assert!(chart.contains(&text), "{}: {text}", total.decision);
            let interval = format!("[{:.1}–{:.1}]", 100.0 * total.low, 100.0 * total.high);
            assert!(chart.contains(&interval), "{}: {interval}", total.decision);
        }
    }
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("## Pruning audit"), "{md}");
    // `all`'s futility skips at remaining depth 1 are decided by the child's stand pat: not
    // measurable, reported by depth, outside the pooled rate.
    let all = a.audits.iter().find(|v| v.label == "all").unwrap();
    let of = |depth| {
        all.lines
            .iter()
            .find(|l| l.decision == "futility.pre_frontier" && l.depth == depth)
            .unwrap_or_else(|| panic!("futility.pre_frontier at {depth:?}"))
    };
    assert!(!of(Some(1)).measurable() && of(Some(1)).audited > 0);
    let pooled = of(None);
    assert_eq!(pooled.mirrored, of(Some(1)).audited);
    let rate = pooled.wrong as f64 / (pooled.audited - pooled.mirrored) as f64;
    assert!((pooled.error_rate - rate).abs() < 1e-12);
    assert!(md.contains("1: not measurable"), "{md}");
    assert!(md.contains("confirmation rate"), "all's 002 signals: {md}");
    // A resumed file keeps its rate: another one is another run.
    let again = searchlab(&[
        "run",
        "--suite",
        "suites/tactics.epd",
        "--variant",
        "modern",
        "--variant",
        "all",
        "--depth",
        "4",
        "--audit",
        "0.25",
        "--out",
        &dir.join("one.jsonl").display().to_string(),
    ]);
    assert!(!again.status.success());
}

#[test]
fn pairs_make_an_interaction_matrix_with_intervals_in_the_heatmap() {
    let dir = temp_dir("pairs");
    let out = dir.join("pairs.jsonl").display().to_string();
    let report = dir.join("report");
    ok(&[
        "run",
        "--suite",
        "suites/tactics.epd",
        "--ablation",
        "pairs:killers,futility,null_move",
        "--depth",
        "4",
        "--out",
        &out,
        "--report",
        &report.display().to_string(),
    ]);
    let a = analysis(&report);
    let m = a.interactions.expect("an interaction matrix");
    assert_eq!(m.base, "classic");
    assert_eq!(m.singles.len(), 3);
    assert_eq!(m.pairs.len(), 3);
    let chart = svg(&report, "interactions.svg");
    for p in &m.pairs {
        let s = p.synergy.expect("every position searched by all four");
        // The synergy is the pair's ratio over the product of the singles'.
        let single = |h: &str| {
            m.singles
                .iter()
                .find(|x| x.heuristic == h)
                .unwrap()
                .node_ratio
                .unwrap()
                .estimate
        };
        let predicted = single(&p.a) * single(&p.b);
        assert!((p.predicted_ratio.unwrap() - predicted).abs() < 1e-9);
        assert!(
            (s.estimate - p.node_ratio.unwrap().estimate / predicted).abs() < 1e-9,
            "a geometric mean of per-position synergies equals the ratio of the geometric means"
        );
        assert!(s.low <= s.estimate && s.estimate <= s.high);
        for text in [
            format!("{:.3}", s.estimate),
            format!("[{:.3}–{:.3}]", s.low, s.high),
        ] {
            assert!(chart.contains(&text), "{} + {}: {text}", p.a, p.b);
        }
    }
    assert!(svg(&report, "interactions_solves.svg").contains("additive prediction"));
}

#[test]
fn sweeps_chart_node_ratio_and_solve_rate_against_the_value() {
    let dir = temp_dir("sweep");
    let out = dir.join("sweep.jsonl").display().to_string();
    let report = dir.join("report");
    ok(&[
        "run",
        "--suite",
        "suites/tactics.epd",
        "--sweep",
        "futility.margin=0..100:50",
        "--sweep",
        "null_move.reduction=2,3",
        "--depth",
        "4",
        "--out",
        &out,
        "--report",
        &report.display().to_string(),
    ]);
    let a = analysis(&report);
    assert_eq!(a.sweeps.len(), 2);
    let margin = &a.sweeps[0];
    assert_eq!(
        (margin.param.as_str(), margin.default),
        ("futility.margin", 50.0)
    );
    assert_eq!(
        margin.series.len(),
        2,
        "one line per value of null_move.reduction"
    );
    assert_eq!(margin.series[0].points.len(), 3);
    let chart = svg(&report, "sweep_futility_margin.svg");
    assert!(
        chart.contains("default futility.margin = 50"),
        "the default is marked"
    );
    assert!(
        chart.contains("null_move.reduction=2"),
        "the series are named"
    );
    assert!(svg(&report, "sweep_null_move_reduction.svg").contains("Sweep of null_move.reduction"));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(
        md.contains("## Sweep of `futility.margin` (default 50)"),
        "{md}"
    );
    // classic's own values (margin 50, reduction 2) are one of the six points: the base,
    // searched once, not a seventh variant identical to it.
    assert_eq!(a.variants.len(), 6, "the base and five points");
    assert!(
        md.contains("| 50 (default) | classic (the base: searched once) | 1 (itself) |"),
        "{md}"
    );
}

#[test]
fn bad_analysis_arguments_get_clear_errors() {
    let fails = |args: &[&str], expected: &str| {
        let output = searchlab(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    };
    fails(&["search", "startpos", "--audit", "2"], "in (0, 1]");
    fails(&["bench", "--audit", "0"], "in (0, 1]");
    fails(
        &["run", "--audit=-1", "--out", "/tmp/never.jsonl"],
        "in (0, 1]",
    );
    fails(
        &[
            "run",
            "--sweep",
            "futility.nope=1",
            "--out",
            "/tmp/never.jsonl",
        ],
        "unknown parameter 'futility.nope'",
    );
    fails(
        &[
            "run",
            "--sweep",
            "futility.margin=0..10",
            "--out",
            "/tmp/never.jsonl",
        ],
        "FROM..TO:STEP",
    );
    fails(
        &[
            "run",
            "--ablation",
            "pairs:killers",
            "--out",
            "/tmp/never.jsonl",
        ],
        "at least two",
    );
    fails(
        &[
            "run",
            "--ablation",
            "pairs:killers,warp",
            "--out",
            "/tmp/never.jsonl",
        ],
        "unknown heuristic 'warp'",
    );
    fails(
        &[
            "run",
            "--ablation",
            "pairs",
            "--sweep",
            "gsr.red2=1",
            "--out",
            "/tmp/never.jsonl",
        ],
        "not both",
    );
}

/// A report written to a full disk (a tmpfs too small for it, mounted as root, as the cluster
/// tests start Slurm) stops with "no space left on device: FILE" and leaves no empty, truncated
/// or temporary file behind (issue 60).
#[test]
fn a_report_on_a_full_disk_says_so_and_leaves_no_partial_file() {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let dir = temp_dir("full-disk");
    let mounted = root
        && Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=24k", "tmpfs"])
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("SKIPPED a_report_on_a_full_disk: needs root to mount a small tmpfs");
        return;
    }
    let out = dir.join("report");
    let output = searchlab(&[
        "report",
        "reports/elo-ethereal/history/d2fc93c/results.jsonl.gz",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files: Vec<(String, u64)> = std::fs::read_dir(&out)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| {
                    let size = e.metadata().map(|m| m.len()).unwrap_or(0);
                    (e.file_name().to_string_lossy().into_owned(), size)
                })
                .collect()
        })
        .unwrap_or_default();
    let _ = Command::new("umount").arg(&dir).status();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("no space left on device: ") && !stderr.contains("Os {"),
        "{stderr}"
    );
    for (name, size) in &files {
        assert!(
            !name.ends_with(".tmp") && *size > 0,
            "left behind: {files:?}"
        );
    }
}
