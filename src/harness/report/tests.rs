//! Report tests on hand-made results files whose statistics are known in advance.

use super::*;
use crate::engine::config::Limits;
use crate::engine::config::SearchConfig;
use crate::harness::results::IterationRecord;
use crate::harness::variant::Variant;
use std::io::Write;

fn header(labels: &[(&str, &str)]) -> Header {
    Header {
        kind: "header".into(),
        provenance: crate::harness::provenance::Provenance {
            searchlab: "test".into(),
            commit: Some("abc1234".into()),
            net: None,
            date: "2026-11-22T10:00:00Z".into(),
            cores: 2,
        },
        limits: Limits::depth(3),
        variants: labels
            .iter()
            .map(|(label, spec)| Variant {
                label: label.to_string(),
                spec: spec.to_string(),
                config: SearchConfig::default(),
                engine: None,
                limits: Vec::new(),
            })
            .collect(),
        suites: vec!["suites/toy.epd".into()],
        format: Some(crate::harness::results::FORMAT),
        seeds: vec![0],
        shard: None,
        positions: Some(vec![(1..=8).collect()]),
        missing: Vec::new(),
        audit: None,
        design: None,
        width: false,
    }
}

fn iteration(depth: u32, nodes: u64, time_ms: f64, cutoffs: u64, first: u64) -> IterationRecord {
    IterationRecord {
        depth,
        seldepth: depth,
        interior: nodes / 2,
        horizon: nodes - nodes / 2,
        quiescence: 0,
        cutoffs,
        first_move_cutoffs: first,
        // The other cut-offs were made by the third move; in quiescence, twice as many
        // cut-offs, all by the first capture.
        cutoff_index_sum: Some(first + 3 * (cutoffs - first)),
        quiescence_cutoffs: Some(2 * cutoffs),
        quiescence_first_move_cutoffs: Some(2 * cutoffs),
        quiescence_cutoff_index_sum: Some(2 * cutoffs),
        time_ms,
        score: 0,
        best_move: Some("e2e4".into()),
        pv: "e2e4".into(),
    }
}

/// A record whose three iterations cost `base`, `3·base`, `9·base` nodes (EBF 3).
fn record(variant: &str, line: usize, base: u64, solved: bool) -> PositionRecord {
    let iterations = vec![
        iteration(1, base, 1.0, 10, 9),
        iteration(2, 3 * base, 2.0, 10, 8),
        iteration(3, 9 * base, 4.0, 20, 16),
    ];
    let mut stats = crate::engine::stats::SearchStats::default();
    for fired in [
        true, true, true, true, false, false, false, false, false, false,
    ] {
        stats.decided(crate::engine::stats::counter!(Killers), fired);
    }
    let counters = stats.heuristics;
    PositionRecord {
        kind: "position".into(),
        variant: variant.into(),
        suite: "suites/toy.epd".into(),
        line,
        id: format!("toy.{line}"),
        seed: 0,
        fen: "startpos".into(),
        nodes: 13 * base,
        time_ms: 4.0,
        iterations,
        counters: counters.into(),
        best_move: Some("e2e4".into()),
        solved: Some(solved),
        points: None,
        time_to_solution_ms: solved.then_some(1.0 + line as f64),
        depth_to_solution: solved.then_some(1 + (line % 3) as u32),
        failure: None,
        audit: None,
        width: None,
    }
}

fn write_results(path: &Path, header: &Header, records: &[PositionRecord]) {
    let mut file = std::fs::File::create(path).unwrap();
    writeln!(file, "{}", serde_json::to_string(header).unwrap()).unwrap();
    for r in records {
        writeln!(file, "{}", serde_json::to_string(r).unwrap()).unwrap();
    }
}

/// Eight positions. On position k `base` costs 1000·k per unit and `half` (40+k)% of that:
/// eight distinct ratios below 1. `half` solves positions 1–6, `base` solves 1–3 and 7–8.
fn toy(dir: &Path) -> PathBuf {
    let mut records = Vec::new();
    for line in 1..=8 {
        let base_nodes = 1000 * line as u64;
        let half_nodes = 10 * line as u64 * (40 + line as u64);
        records.push(record("base", line, base_nodes, line <= 3 || line >= 7));
        records.push(record("half", line, half_nodes, line <= 6));
    }
    let path = dir.join("toy.jsonl");
    write_results(
        &path,
        &header(&[("base", "plain"), ("half", "plain,killers")]),
        &records,
    );
    path
}

/// A fresh scratch folder for one test of the report module (its children's too).
pub(super) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("searchlab-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn expected_ratio() -> f64 {
    ((41..=48).map(|p| (p as f64 / 100.0).ln()).sum::<f64>() / 8.0).exp()
}

#[test]
fn analysis_of_known_data() {
    let dir = temp_dir("known");
    let data = Dataset::read(&[toy(&dir)]).unwrap();
    let a = analyse(&data, None).unwrap();
    assert_eq!(a.baseline, "base");
    assert_eq!(a.meta.caption(), "toy.epd · depth 3 · 2026-11-22");
    let half = &a.variants[1];
    // The ratio is the geometric mean of (40+k)/100; all eight log ratios are negative and
    // distinct: exact Wilcoxon p = 2/2⁸.
    let ratio = half.node_ratio.unwrap();
    assert!((ratio.ratio.estimate - expected_ratio()).abs() < 1e-12);
    assert!(ratio.ratio.low < ratio.ratio.estimate && ratio.ratio.high < 1.0);
    assert!((ratio.wilcoxon_p.unwrap() - 2.0 / 256.0).abs() < 1e-12);
    // Solved: half 6/8, base 5/8; only-half {4,5,6}, only-base {7,8}: McNemar p = 1.
    assert_eq!(half.solved.unwrap().solved, 6);
    let d = half.solve_difference.unwrap();
    assert_eq!((d.only_variant, d.only_baseline), (3, 2));
    assert_eq!(d.p, 1.0);
    // EBF 3 everywhere; first-move cut-offs (9+8+16)/40.
    assert!((half.ebf.unwrap().estimate - 3.0).abs() < 1e-9);
    assert!((half.first_move_cutoff_rate.unwrap() - 33.0 / 40.0).abs() < 1e-12);
    // Interior and quiescence apart: mean index (33 + 3·7)/40; quiescence all first-move.
    assert!((half.mean_cutoff_index.unwrap() - 54.0 / 40.0).abs() < 1e-12);
    assert_eq!(half.quiescence_first_move_cutoff_rate, Some(1.0));
    assert_eq!(half.quiescence_mean_cutoff_index, Some(1.0));
    // Depth 2 costs 4 units per position: the geometric mean of 40·k·(40+k) over k = 1..8.
    let geo = ((1..=8)
        .map(|k| (40.0 * k as f64 * (40.0 + k as f64)).ln())
        .sum::<f64>()
        / 8.0)
        .exp();
    assert!((half.depth_curve[1].nodes.estimate - geo).abs() < 1e-6);
    assert_eq!(half.solved_by_depth.last().unwrap().1, 6);
    assert_eq!(half.counters.len(), 1);
    assert_eq!(half.counters[0].fired_rate(), Some(0.4));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn report_files_agree_with_the_analysis() {
    let dir = temp_dir("files");
    let results = toy(&dir);
    let a = analyse(&Dataset::read(&[results]).unwrap(), Some("half")).unwrap();
    let out = dir.join("report");
    write_report(&a, &out).unwrap();
    let json: Analysis =
        serde_json::from_str(&std::fs::read_to_string(out.join("analysis.json")).unwrap()).unwrap();
    assert_eq!(json, a);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    // The base/half ratio, printed with its interval and p as in the JSON.
    let r = a.variants[0].node_ratio.unwrap();
    assert!((r.ratio.estimate - 1.0 / expected_ratio()).abs() < 1e-12);
    let printed = format!(
        "{:.3} [{:.3}, {:.3}] (p=0.0078)",
        r.ratio.estimate, r.ratio.low, r.ratio.high
    );
    assert!(md.contains(&printed), "{printed} not in {md}");
    assert!(md.contains(compare::WILSON) && md.contains(compare::MCNEMAR));
    assert!(md.contains("5/8 (62.5% ["));
    for chart in super::CHARTS {
        let svg = std::fs::read_to_string(out.join(format!("{}.svg", chart.file))).unwrap();
        assert!(svg.starts_with("<svg"), "{}", chart.file);
        assert!(
            svg.contains("toy.epd · depth 3 · 2026-11-22"),
            "{}",
            chart.file
        );
        assert!(md.contains(&format!("({}.svg)", chart.file)));
    }
    let nodes = std::fs::read_to_string(out.join("nodes_by_depth.svg")).unwrap();
    assert!(
        nodes.contains("\nbase\n") && nodes.contains("\nhalf (baseline)\n"),
        "legend names the baseline"
    );
    assert!(nodes.contains("depth (plies)"), "axis label");
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        summary
            .lines()
            .next()
            .unwrap()
            .starts_with("variant,spec,positions")
    );
    assert!(summary.contains("\"plain,killers\""), "{summary}");
    // Verdicts by the fixed rules, in the Markdown and in verdicts.json (issue 62 §2): base
    // solves 1-3 and 7-8, half 1-6, so base alone 2 and half alone 3 (McNemar p = 1); every
    // node ratio above 1, p = 0.0078.
    let verdicts: Vec<crate::harness::verdicts::Verdict> =
        serde_json::from_str(&std::fs::read_to_string(out.join("verdicts.json")).unwrap()).unwrap();
    let comparisons: Vec<&str> = verdicts.iter().map(|v| v.comparison.as_str()).collect();
    assert_eq!(
        comparisons,
        [
            "base vs half: positions solved by one only",
            "base vs half: node ratio",
            "base vs half: time ratio"
        ]
    );
    assert_eq!(verdicts[0].estimate, "+2 −3");
    assert_eq!(verdicts[0].verdict, "not significant at 5% (p=1.0000)");
    assert_eq!(
        verdicts[1].verdict,
        "interval excludes 1 (above it): significant at 5%"
    );
    assert!(md.contains("## Verdicts") && md.contains("base vs half: node ratio: "));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_inputs_get_clear_errors() {
    let dir = temp_dir("bad");
    let missing = Dataset::read(&[dir.join("nope.jsonl")]).unwrap_err();
    assert!(missing.contains("nope.jsonl: not found"), "{missing}");
    let results = toy(&dir);
    let data = Dataset::read(std::slice::from_ref(&results)).unwrap();
    let unknown = analyse(&data, Some("zzz")).unwrap_err();
    assert!(
        unknown.contains("baseline 'zzz' is not a variant"),
        "{unknown}"
    );
    let other = dir.join("other.jsonl");
    write_results(&other, &header(&[("half", "classic")]), &[]);
    let clash = Dataset::read(&[results.clone(), other]).unwrap_err();
    assert!(
        clash.contains("variant 'half' is 'classic' here but 'plain,killers'"),
        "{clash}"
    );
    let twice = Dataset::read(&[results.clone(), results.clone()]).unwrap_err();
    assert!(twice.contains("is given twice"), "{twice}");
    let deeper = dir.join("deeper.jsonl");
    let mut deeper_header = header(&[("plain", "plain")]);
    deeper_header.limits = Limits::depth(5);
    write_results(&deeper, &deeper_header, &[record("plain", 1, 100, true)]);
    let limits = Dataset::read(&[results.clone(), deeper]).unwrap_err();
    assert!(
        limits.contains("different limits (depth 5 against depth 3)"),
        "{limits}"
    );
    let elsewhere = dir.join("elsewhere.jsonl");
    let mut elsewhere_header = header(&[("plain", "plain")]);
    elsewhere_header.suites = vec!["suites/other.epd".into()];
    write_results(
        &elsewhere,
        &elsewhere_header,
        &[record("plain", 1, 100, true)],
    );
    let suites = Dataset::read(&[results.clone(), elsewhere]).unwrap_err();
    assert!(suites.contains("different suites"), "{suites}");
    let garbage = dir.join("garbage.jsonl");
    std::fs::write(&garbage, "{\"type\":\"header\"\n").unwrap();
    let bad = Dataset::read(&[garbage]).unwrap_err();
    assert!(bad.contains("garbage.jsonl:1:"), "{bad}");
    // Files that are not results files say so, with the line and what was expected there.
    let epd = dir.join("wac.epd");
    std::fs::write(
        &epd,
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"x\";\n",
    )
    .unwrap();
    let err = Dataset::read(&[epd]).unwrap_err();
    assert!(
        err.contains("wac.epd:1: not a searchlab results file: expected its header record")
            && err.contains("searchlab run --suite"),
        "{err}"
    );
    let reproduction = dir.join("reproduction.json");
    std::fs::write(&reproduction, "{\n  \"rows\": []\n}\n").unwrap();
    let err = Dataset::read(&[reproduction]).unwrap_err();
    assert!(
        err.contains("reproduction.json:1:") && err.contains("reproduce --from"),
        "{err}"
    );
    let blank = dir.join("blank.jsonl");
    let text = std::fs::read_to_string(&results).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    std::fs::write(&blank, format!("{first}\n\n{rest}")).unwrap();
    let err = Dataset::read(&[blank]).unwrap_err();
    assert!(err.contains("blank.jsonl:2: blank line"), "{err}");
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let err = Dataset::read(&[empty]).unwrap_err();
    assert!(err.contains("empty.jsonl: empty"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_terminal_summary_fits_100_columns() {
    let dir = temp_dir("narrow");
    let path = dir.join("wide.jsonl");
    let long = "a-label-far-longer-than-any-column=classic";
    // Two sweep labels that differ at their end only stay apart.
    let (ten, twenty) = ("ContemptDrawPenalty=10", "ContemptDrawPenalty=20");
    let mut records = Vec::new();
    for line in 1..=8 {
        records.push(record("base", line, 1000 * line as u64, line <= 3));
        records.push(record(long, line, 999_999_999, line <= 6));
        records.push(record(ten, line, 2000, line <= 6));
        records.push(record(twenty, line, 3000, line <= 6));
    }
    write_results(
        &path,
        &header(&[
            ("base", "plain"),
            (long, "classic"),
            (ten, "classic"),
            (twenty, "classic"),
        ]),
        &records,
    );
    let a = analyse(&Dataset::read(&[path]).unwrap(), None).unwrap();
    let text = terminal_summary(&a);
    assert_eq!(text.lines().count(), 5);
    for line in text.lines() {
        assert!(
            line.chars().count() <= 100,
            "{} columns: {line}",
            line.chars().count()
        );
    }
    assert!(text.contains("a-label-…n=classic"), "{text}");
    assert!(
        text.contains("Contempt…enalty=10") && text.contains("Contempt…enalty=20"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn damaged_incomplete_and_doubled_files_are_reported_not_joined_silently() {
    let dir = temp_dir("damaged");
    let results = toy(&dir);
    let text = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 17, "header and 16 searches");

    // A torn last line: the file holds 15 of 16 searches, both said with the line.
    let torn = dir.join("torn.jsonl");
    let cut = &lines[16][..lines[16].len() / 2];
    std::fs::write(&torn, format!("{}\n{cut}", lines[..16].join("\n"))).unwrap();
    let read = crate::harness::results::read_existing(&torn).unwrap();
    assert_eq!(read.records.len(), 15);
    let problems = read.problems(&torn).join("\n");
    assert!(
        problems.contains("torn.jsonl:17: the last line is cut short"),
        "{problems}"
    );
    assert!(
        problems.contains("holds 15 of the 16 searches"),
        "{problems}"
    );
    assert!(problems.contains("half on suites/toy.epd:8"), "{problems}");

    // Every record twice (two runs on one --out): counted once, and said.
    let doubled = dir.join("doubled.jsonl");
    std::fs::write(
        &doubled,
        format!(
            "{}\n{}\n{}\n",
            lines[0],
            lines[1..].join("\n"),
            lines[1..].join("\n")
        ),
    )
    .unwrap();
    let read = crate::harness::results::read_existing(&doubled).unwrap();
    let problems = read.problems(&doubled).join("\n");
    assert!(
        problems.contains("16 records repeat a search"),
        "{problems}"
    );
    let data = Dataset::read(&[doubled]).unwrap();
    assert_eq!(data.records.len(), 16);
    let single = Dataset::read(std::slice::from_ref(&results)).unwrap();
    let (a, b) = (
        analyse(&data, None).unwrap(),
        analyse(&single, None).unwrap(),
    );
    assert_eq!(a.variants[1].total_nodes, b.variants[1].total_nodes);
    assert_eq!(
        a.variants[1].node_ratio.unwrap().ratio.n,
        b.variants[1].node_ratio.unwrap().ratio.n
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn gzipped_results_read_the_same() {
    let dir = temp_dir("gz");
    let plain = toy(&dir);
    let gz = dir.join("toy.jsonl.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::best(),
    );
    encoder.write_all(&std::fs::read(&plain).unwrap()).unwrap();
    encoder.finish().unwrap();
    let a = Dataset::read(&[plain]).unwrap();
    let b = Dataset::read(&[gz]).unwrap();
    assert_eq!(a.records, b.records);
    assert_eq!(a.headers, b.headers);
    let _ = std::fs::remove_dir_all(dir);
}

/// Three seeds of one variant: per-seed totals 26k, 39k, 52k nodes (units 2, 3, 4 on one
/// position); mean 39k with t(2) = 4.302653 × 13k/√3 = 32,293.8 either side. Its ratio to the
/// baseline pairs the geometric mean over seeds (∛24 units) with the baseline's one seed.
#[test]
fn seeds_are_summarised_across_seeds() {
    let dir = temp_dir("seeds");
    let mut records = vec![record("base", 1, 1000, true)];
    for (seed, units) in [(0u64, 2u64), (1, 3), (2, 4)] {
        let mut r = record("gsr", 1, 1000 * units, seed != 1);
        r.seed = seed;
        records.push(r);
    }
    let mut h = header(&[("base", "plain"), ("gsr", "classic,gsr")]);
    h.seeds = vec![0, 1, 2];
    let path = dir.join("seeds.jsonl");
    write_results(&path, &h, &records);
    let a = analyse(&Dataset::read(&[path]).unwrap(), None).unwrap();
    let gsr = &a.variants[1];
    let s = gsr.across_seeds.unwrap();
    assert_eq!(s.total_nodes.estimate, 39_000.0);
    assert!(
        (s.total_nodes.high - 39_000.0 - 32_293.8).abs() < 0.1,
        "{s:?}"
    );
    let solved = s.solved.unwrap();
    assert!((solved.estimate - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(gsr.positions, 1);
    assert_eq!(gsr.records, 3);
    let ratio = gsr.node_ratio.unwrap().ratio.estimate;
    assert!((ratio - 24f64.cbrt()).abs() < 1e-9, "{ratio}");
    // McNemar pairs each position's lowest seed: seed 0 solved, as did the baseline.
    assert_eq!(gsr.solve_difference.unwrap().only_baseline, 0);
    assert!(a.variants[0].across_seeds.is_none());
    assert!(markdown(&a).contains("## Across seeds"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn ebf_does_not_flip_with_the_parity_of_the_depth() {
    // Odd depths cost 8x the depth before, even ones 2x: the ratio of consecutive iterations
    // swings between 2 and 8, the two-ply EBF stays at 4.
    let mut r = record("plain", 1, 1, true);
    let nodes = [1u64, 8, 16, 128, 256];
    r.iterations = nodes
        .iter()
        .enumerate()
        .map(|(i, &n)| iteration(i as u32 + 1, n, 1.0, 1, 1))
        .collect();
    let refs = vec![&r];
    let by_depth = super::measures::ebf_by_depth(&refs);
    let depths: Vec<u32> = by_depth.iter().map(|(d, _)| *d).collect();
    assert_eq!(depths, vec![3, 4, 5]);
    for (_, ebf) in &by_depth {
        assert!((ebf.estimate - 4.0).abs() < 1e-9, "{ebf:?}");
    }
    assert_eq!(super::measures::ebfs(&refs), vec![4.0]);
}

#[test]
fn a_time_limited_report_says_how_to_read_its_node_ratio() {
    let dir = temp_dir("timed");
    let path = dir.join("timed.jsonl");
    let mut h = header(&[("base", "plain"), ("half", "plain,killers")]);
    h.limits = Limits {
        movetime_ms: Some(200),
        ..Limits::default()
    };
    let records: Vec<_> = (1..=8)
        .flat_map(|line| {
            [
                record("base", line, 1000, true),
                record("half", line, 900, true),
            ]
        })
        .collect();
    write_results(&path, &h, &records);
    let a = analyse(&Dataset::read(&[path]).unwrap(), None).unwrap();
    let md = markdown(&a);
    assert!(md.contains("a speed, not the size of a tree"), "{md}");
    assert!(
        md.contains("Every variant solves the same positions of the 8"),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_format_this_build_does_not_know_is_refused_and_total_nodes_saturate() {
    let dir = temp_dir("format");
    let path = dir.join("future.jsonl");
    let mut future = header(&[("base", "plain")]);
    future.format = Some(99);
    write_results(&path, &future, &[record("base", 1, 1000, true)]);
    let err = Dataset::read(std::slice::from_ref(&path)).unwrap_err();
    assert!(
        err.contains("future.jsonl:1: results format 99, and this searchlab reads formats up to"),
        "{err}"
    );
    // An engine that reports u64::MAX nodes: the total saturates, it does not wrap.
    let path = dir.join("huge.jsonl");
    let mut huge = record("base", 1, 1000, true);
    huge.nodes = u64::MAX;
    write_results(
        &path,
        &header(&[("base", "plain")]),
        &[huge, record("base", 2, 1000, true)],
    );
    let data = Dataset::read(std::slice::from_ref(&path)).unwrap();
    let analysis = analyse(&data, None).unwrap();
    assert_eq!(analysis.variants[0].total_nodes, u64::MAX);
    write_report(&analysis, &dir).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("saturated (≥ 2⁶⁴−1)"), "{md}");
}
