//! Elo against effort as a user runs it: a match with a limit given as a list of levels
//! (`--nodes 1000,4000`) plays every pairing at every level, each level a match of its own in
//! a folder of its own; a second run resumes level by level; shards of each level join; the
//! report of the levels draws Elo against effort with its table and words; bad level lists
//! stop before any game.

mod common;
use common::{ok, searchlab};

use std::path::{Path, PathBuf};
use std::process::Output;

use searchlab::harness::games::clock::control::Control;
use searchlab::harness::games::playing::record::read_match;

fn folder(name: &str) -> PathBuf {
    let dir = common::scratch("effort", name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `match` of the off-one ablation of LMR and null move over `modern` at `levels` nodes,
/// `games` a pairing, with `extra`.
fn levels_match(out: &Path, levels: &str, games: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "match",
        "--variant",
        "modern",
        "--ablation",
        "off-one:lmr,null_move",
        "--nodes",
        levels,
        "--games",
        games,
        "--openings",
        "suites/openings.epd",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    searchlab(&args)
}

#[test]
fn every_pairing_is_played_at_every_level_and_the_report_draws_elo_against_effort() {
    let dir = folder("four-cells");
    let out = dir.join("m.jsonl");
    let output = levels_match(&out, "1000,4000", "4", &[]);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("2 levels of --nodes: 1000, 4000"), "{said}");
    let files = [
        dir.join("nodes-1000/m.jsonl"),
        dir.join("nodes-4000/m.jsonl"),
    ];
    for (level, (file, nodes)) in files.iter().zip([1000, 4000]).enumerate() {
        let read = read_match(file).unwrap();
        let header = read.header.unwrap();
        assert_eq!(header.control, Control::Nodes(nodes));
        let effort = header.effort.unwrap();
        assert_eq!((effort.option.as_str(), effort.level), ("nodes", level));
        assert_eq!(effort.levels, ["1000", "4000"]);
        // Two pairings of two pairs each: four cells of four games over the two levels.
        assert_eq!(read.pairs.len(), 4, "{}", file.display());
    }
    // A second run finds every level complete: nothing is played again, nothing rewritten.
    let before: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert!(levels_match(&out, "1000,4000", "4", &[]).status.success());
    let after: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert_eq!(before, after);
    // A run killed before its last level resumes there, the first level kept as it was.
    std::fs::remove_file(&files[1]).unwrap();
    assert!(levels_match(&out, "1000,4000", "4", &[]).status.success());
    assert_eq!(std::fs::read(&files[0]).unwrap(), before[0]);
    assert_eq!(read_match(&files[1]).unwrap().pairs.len(), 4);
    let report = dir.join("report");
    let table = ok(&[
        "report",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
    ]);
    for row in [
        "| modern-lmr vs modern | 1000 | 4 |",
        "| modern-lmr vs modern | 4000 | 4 |",
        "| modern-null_move vs modern | 1000 | 4 |",
        "| modern-null_move vs modern | 4000 | 4 |",
    ] {
        assert!(table.contains(row), "{row} missing from {table}");
    }
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.starts_with("# Elo against effort"), "{md}");
    assert!(md.contains("![Elo against effort](effort.svg)"), "{md}");
    assert!(md.contains("| variant | first level → last | Elo change ± 95% |"));
    // Four games a cell give no interval: no change is claimed, each variant is named untested.
    assert!(
        md.contains(
            "Not tested (no interval at the first or the last level): modern-lmr, modern-null_move."
        ),
        "{md}"
    );
    let svg = std::fs::read_to_string(report.join("effort.svg")).unwrap();
    assert!(svg.contains("nodes per move (log scale)"), "{svg}");
    assert!(svg.contains("modern-null_move"));
    for level in ["nodes-1000", "nodes-4000"] {
        assert!(report.join(level).join("report.md").is_file(), "{level}");
    }
    let analysis: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("analysis.json")).unwrap())
            .unwrap();
    assert_eq!(analysis["variants"].as_array().unwrap().len(), 2);
    assert_eq!(
        analysis["variants"][0]["cells"].as_array().unwrap().len(),
        2
    );
}

#[test]
fn shards_of_each_level_join_and_a_missing_level_or_another_run_is_said() {
    let dir = folder("shards");
    for shard in ["1/2", "2/2"] {
        let out = dir.join(format!("s{}.jsonl", &shard[..1]));
        let output = levels_match(&out, "500,1000,2000", "20", &["--shard", shard]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let level = |n: u32, s: u32| dir.join(format!("nodes-{n}/s{s}.jsonl"));
    let files: Vec<PathBuf> = [500, 2000]
        .iter()
        .flat_map(|&n| [level(n, 1), level(n, 2)])
        .collect();
    let mut args = vec!["report"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let report = dir.join("report");
    args.extend(["--out", report.to_str().unwrap()]);
    let output = searchlab(&args);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(
        said.contains("the run has levels 500, 1000, 2000 and no file read holds 1000"),
        "{said}"
    );
    // Each level's two shards are one match of 20 games a pairing.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("| modern-lmr vs modern | 500 | 20 |"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| modern-lmr vs modern | 2000 | 20 |"),
        "{stdout}"
    );
    // Twenty games a cell give intervals: each variant's change is tested.
    assert!(stdout.contains("| modern-lmr | 500 → 2000 |"), "{stdout}");
    assert!(!stdout.contains("Not tested"), "{stdout}");
    // A level of another run (another seed) is refused by name.
    let other = dir.join("other.jsonl");
    assert!(
        levels_match(&other, "500,1000", "2", &["--seed", "7"])
            .status
            .success()
    );
    let output = searchlab(&[
        "report",
        level(500, 1).to_str().unwrap(),
        dir.join("nodes-1000/other.jsonl").to_str().unwrap(),
        "--out",
        dir.join("mixed").to_str().unwrap(),
    ]);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(said.contains("are not levels of one run"), "{said}");
}

#[test]
fn bad_level_lists_stop_before_any_game() {
    let dir = folder("bad");
    let out = dir.join("m.jsonl");
    for (levels, extra, says) in [
        (
            "2000,",
            &[][..],
            "a list of levels needs two levels or more",
        ),
        ("2000,2000", &[][..], "the same limit"),
        ("0,2000", &[][..], "--nodes must be at least 1"),
        ("2000,many", &[][..], "not a whole number: 'many'"),
        ("8000,2000", &[][..], "from the least effort to the most"),
        (
            "1000,2000",
            &["--depth", "3,4"][..],
            "levels vary one limit",
        ),
    ] {
        let output = levels_match(&out, levels, "2", extra);
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{levels}: {said}");
        assert!(said.contains(says), "{levels}: {said}");
        assert!(
            std::fs::read_dir(&dir).unwrap().next().is_none(),
            "{levels}: a file was written"
        );
    }
    // `tune` plays one limit.
    let output = searchlab(&[
        "tune",
        "--variant",
        "modern",
        "--param",
        "lmr.base",
        "--iterations",
        "2",
        "--nodes",
        "1000,2000",
        "--openings",
        "suites/openings.epd",
        "--out",
        out.to_str().unwrap(),
    ]);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        said.contains("levels of effort are played by `match`"),
        "{said}"
    );
}

#[test]
fn a_goal_is_judged_at_every_level_and_never_dropped_without_a_word() {
    let dir = folder("goals");
    let out = dir.join("m.jsonl");
    let output = levels_match(&out, "1000,2000", "2", &[]);
    assert!(output.status.success());
    let files = [
        dir.join("nodes-1000/m.jsonl"),
        dir.join("nodes-2000/m.jsonl"),
    ];
    let report = dir.join("report");
    let report_of = |extra: &[&str]| {
        let mut args = vec![
            "report",
            files[0].to_str().unwrap(),
            files[1].to_str().unwrap(),
            "--out",
            report.to_str().unwrap(),
        ];
        args.extend(extra);
        searchlab(&args)
    };
    // The goal is judged at both levels, each level's verdicts keeping it.
    let done = report_of(&["--goal", "modern<=60%"]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    for level in ["nodes-1000", "nodes-2000"] {
        let verdicts = std::fs::read_to_string(report.join(level).join("verdicts.json")).unwrap();
        assert!(
            verdicts.contains("\"goal\": \"modern<=60%\""),
            "{level}: {verdicts}"
        );
        // Two games a pairing give no interval (one pair, or both games won by one side): the
        // goal is named, not judged.
        let rows: Vec<serde_json::Value> = serde_json::from_str(&verdicts).unwrap();
        let goal = rows
            .iter()
            .find(|row| row["goal"] == "modern<=60%")
            .and_then(|row| row["verdict"].as_str())
            .unwrap_or_default();
        assert!(
            goal.starts_with("no interval (") && goal.ends_with("): the goal is not judged"),
            "{level}: {verdicts}"
        );
    }
    // Written again without it, the report is refused, naming the file and the goal, and the
    // level's verdicts are as they were.
    let before = std::fs::read(report.join("nodes-1000/verdicts.json")).unwrap();
    let refused = report_of(&[]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        said.contains("nodes-1000/verdicts.json judges the goal modern<=60%, which this report would drop: pass --goal 'modern<=60%'"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(report.join("nodes-1000/verdicts.json")).unwrap(),
        before
    );
    // One level alone, with the goal, renders into its folder as before.
    let one = searchlab(&[
        "report",
        files[0].to_str().unwrap(),
        "--out",
        report.join("nodes-1000").to_str().unwrap(),
        "--goal",
        "modern<=60%",
    ]);
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
}
