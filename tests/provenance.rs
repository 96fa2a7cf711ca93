//! Committed reports come from clean commits: every results file under `reports/` (runs,
//! matches, tunes, the any-engine overhead and peers: every `*.jsonl.gz`) and the
//! reproduction names, in its header, a commit of this repository's history built without
//! local changes.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Command;

use flate2::read::GzDecoder;

/// Reports whose committed results still name a build with local changes, each to be searched
/// again from a clean commit. The test fails when one of them is clean (strike it off) and on
/// any other file that is not.
const PENDING: &[&str] = &[];

fn results_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            results_files(&path, found);
        } else if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with(".jsonl.gz"))
        {
            // Every results file: runs and matches, tunes, the any-engine overhead and peer
            // runs, whatever its name.
            found.push(path);
        }
    }
}

/// A gzipped results file's header (its first line).
fn header(path: &Path) -> serde_json::Value {
    let file = std::fs::File::open(path).unwrap();
    let mut first = String::new();
    BufReader::new(GzDecoder::new(file))
        .read_line(&mut first)
        .unwrap();
    serde_json::from_str(&first).unwrap()
}

/// The `commit` of a results file's header.
fn header_commit(path: &Path) -> Option<String> {
    header(path)["commit"].as_str().map(str::to_string)
}

#[test]
fn committed_results_come_from_clean_commits_of_this_history() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    results_files(&root.join("reports"), &mut files);
    files.retain(|f| !f.starts_with(root.join("reports/latest")));
    files.sort();
    assert!(
        files.len() >= 10,
        "the committed results are found: {files:?}"
    );
    let reproduction: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("reports/reproduction/reproduction.json")).unwrap(),
    )
    .unwrap();
    let mut commits: Vec<(String, Option<String>)> = files
        .iter()
        .map(|f| {
            let name = f.strip_prefix(root).unwrap().display().to_string();
            (name, header_commit(f))
        })
        .collect();
    commits.push((
        "reports/reproduction/reproduction.json".into(),
        reproduction["commit"].as_str().map(str::to_string),
    ));
    let git = Command::new("git")
        .args(["rev-parse", "--is-shallow-repository"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "false");
    if git != Some(true) {
        common::skipped(
            "committed_results_come_from_clean_commits (history part)",
            "no git checkout with its whole history here: the commits are not looked up",
        );
    }
    let mut failures = Vec::new();
    for (name, commit) in &commits {
        let Some(commit) = commit else {
            failures.push(format!("{name}: no commit in its header"));
            continue;
        };
        let pending = PENDING.contains(&name.as_str());
        let dirty = commit.ends_with("-dirty");
        if dirty && !pending {
            failures.push(format!("{name}: built from {commit}, with local changes"));
        }
        if pending && !dirty {
            failures.push(format!("{name}: clean now; strike it off PENDING"));
        }
        let hash = commit.trim_end_matches("-dirty");
        if git == Some(true) {
            let known = Command::new("git")
                .args(["cat-file", "-e", &format!("{hash}^{{commit}}")])
                .current_dir(root)
                .status()
                .is_ok_and(|s| s.success());
            if !known {
                failures.push(format!("{name}: commit {hash} is not in this history"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The networks of a results header's `nnue` variants are the network embedded at the commit
/// it names (a variant's own `net=` file and a `--net` replacement aside, which the header
/// says): a results file cannot claim one network and have played another.
#[test]
fn committed_results_name_the_network_embedded_at_their_commit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    results_files(&root.join("reports"), &mut files);
    files.retain(|f| !f.starts_with(root.join("reports/latest")));
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &files {
        let header = header(path);
        let Some(commit) = header["commit"].as_str() else {
            continue;
        };
        if header.get("net").is_some_and(|n| !n.is_null()) {
            continue;
        }
        let claimed: Vec<&str> = header["variants"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|v| v["config"]["eval"] == "nnue")
            .filter(|v| !v["spec"].as_str().unwrap_or("").contains("net="))
            .filter_map(|v| v["config"]["net"].as_str())
            .collect();
        let Some(first_claim) = claimed.first() else {
            continue;
        };
        let shown = Command::new("git")
            .args([
                "show",
                &format!(
                    "{}:src/engine/nnue/net/searchlab.nnue",
                    commit.trim_end_matches("-dirty")
                ),
            ])
            .current_dir(root)
            .output();
        let Some(bytes) = shown.ok().filter(|o| o.status.success()).map(|o| o.stdout) else {
            common::skipped(
                "committed_results_name_the_network_embedded_at_their_commit",
                "no git history with the commits' networks here",
            );
            return;
        };
        let embedded = format!(
            "{:016x}",
            searchlab::engine::nnue::network::checksum(&bytes)
        );
        checked += 1;
        let name = path.strip_prefix(root).unwrap().display();
        if claimed.iter().any(|c| *c != embedded) {
            failures.push(format!(
                "{name}: names network {first_claim}, and commit {commit} embeds {embedded}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{checked} results files' networks checked against their commits");
}

/// The index of `reports/README.md` and the top-level README, and every report README's "As
/// of" line, are what `searchlab report --index reports` writes today (issue 62).
#[test]
fn the_index_and_every_as_of_line_are_fresh() {
    use searchlab::harness::report::index;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readmes = [
        (root.join("reports/README.md"), String::new()),
        (root.join("README.md"), "reports/".to_string()),
    ];
    let stale = index::stale(&root.join("reports"), &readmes).unwrap();
    let names: Vec<String> = stale.iter().map(|(p, _)| p.display().to_string()).collect();
    assert!(
        names.is_empty(),
        "not fresh (run `searchlab report --index reports`): {names:?}"
    );
    let reports = index::reports(&root.join("reports")).unwrap();
    assert!(reports.len() >= 15, "{}", reports.len());
    assert!(
        reports.iter().any(|r| r.describes() == Some(true)),
        "some report describes today's default"
    );
}

/// Every report folder under `reports/` holding a `verdicts.json`, at any depth (a level of a
/// match of levels, a run kept in `history/`).
fn folders_with_verdicts(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    entries.sort();
    for sub in entries {
        if sub.join("verdicts.json").is_file() {
            out.push(sub.clone());
        }
        folders_with_verdicts(&sub, out);
    }
}

/// Every committed `verdicts.json` of a match or run report (one beside its
/// `results.jsonl.gz`), at any depth, is what `report` writes today from its results, with the
/// goals it judged (read back from it); readings are held to it by `tests/readings.rs`.
/// (`depth-gap/width-100ms/` has verdicts from its script, not from `report`.)
#[test]
fn committed_verdicts_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    let mut folders = Vec::new();
    folders_with_verdicts(&root.join("reports"), &mut folders);
    for dir in folders {
        let verdicts = dir.join("verdicts.json");
        if !dir.join("results.jsonl.gz").is_file() {
            assert!(
                dir.ends_with("depth-gap/width-100ms"),
                "{}: verdicts without results.jsonl.gz",
                dir.display()
            );
            continue;
        }
        let committed = std::fs::read_to_string(&verdicts).unwrap();
        let goals: Vec<String> = serde_json::from_str::<Vec<serde_json::Value>>(&committed)
            .unwrap()
            .iter()
            .filter_map(|v| v["goal"].as_str().map(String::from))
            .collect();
        let out = common::scratch("verdicts", &checked.to_string());
        std::fs::create_dir_all(&out).unwrap();
        let results = dir.join("results.jsonl.gz");
        let mut args = vec![
            "report".to_string(),
            results.to_str().unwrap().to_string(),
            "--out".to_string(),
            out.to_str().unwrap().to_string(),
        ];
        for g in goals {
            args.extend(["--goal".to_string(), g]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        common::ok(&args);
        let fresh = std::fs::read_to_string(out.join("verdicts.json")).unwrap();
        assert_eq!(committed, fresh, "{}: not fresh", verdicts.display());
        checked += 1;
    }
    assert!(checked >= 50, "{checked} reports with verdicts");
}
