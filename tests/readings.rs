//! Readings held to their numbers (issue 62 §2): a report folder's README quotes what the
//! folder's generated files (each `report.md`, `verdicts.json`, `analysis.json`, CSV table
//! and measurement log below it) hold, and says no more.
//!
//! - Every number in bold is a number those files hold.
//! - Every sentence that says "significant", "confirms" or "more" quotes at least one
//!   number those files hold: a comparison is stated with its evidence.
//! - An SPRT's decision ("H1 accepted", "H0 accepted") is one its reports hold.
//!
//! Numbers are compared as tokens (`−7.5`, `1,604`, `69.75`), signs and thousands separators
//! aside, so that a README cannot round, re-derive or invent a number and bold it.

use std::collections::BTreeSet;
use std::path::Path;

/// The numbers in `text`: an optional sign, digits with thousands separators, an optional
/// decimal part. Normalised: no `+`, `−` as `-`, no separators, no sign for the comparison.
fn numbers(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() || (i > 0 && chars[i - 1].is_ascii_alphanumeric()) {
            i += 1;
            continue;
        }
        let mut token = String::new();
        while i < chars.len() {
            let c = chars[i];
            let next_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if c.is_ascii_digit() || (c == '.' && next_digit) {
                token.push(c);
            } else if c != ',' || !next_digit {
                break;
            }
            i += 1;
        }
        // A number inside a word or an identifier (a commit, a checksum) is not a reading.
        if !chars.get(i).is_some_and(|c| c.is_ascii_alphabetic()) {
            out.push(token);
        }
    }
    out
}

/// What the folder's generated files hold: every number in them.
fn held_numbers(dir: &Path) -> BTreeSet<String> {
    let mut held = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let generated = [".md", ".json", ".csv", ".txt"]
                .iter()
                .any(|ext| name.ends_with(ext));
            if p.is_dir() {
                stack.push(p);
            } else if generated && !(d == dir && name == "README.md") {
                held.extend(numbers(&std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    held
}

/// The folder's report texts (each `report.md` and `verdicts.json` below it).
fn held_text(dir: &Path) -> String {
    let mut text = String::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                stack.push(p);
            } else if name == "report.md" || name == "verdicts.json" {
                text.push_str(&std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    text
}

/// The sentences of a README: split at a full stop before a space or a line end, at blank
/// lines and at list items (a table row is one sentence).
fn sentences(readme: &str) -> Vec<String> {
    let mut out = Vec::new();
    for block in readme.split("\n\n").flat_map(|b| b.split("\n- ")) {
        if block.trim_start().starts_with('|') {
            out.extend(block.lines().map(String::from));
            continue;
        }
        let flat = block.split_whitespace().collect::<Vec<_>>().join(" ");
        out.extend(flat.split(". ").map(String::from));
    }
    out
}

/// The comparative words a sentence may say only with a number beside it, as the starts of
/// words ("significantly", "confirms", "more").
const COMPARATIVES: &[&str] = &["significant", "confirm", "more"];

/// The words of a sentence that start with `stem` ("more" is a word, not "moreover").
fn says(sentence: &str, stem: &str) -> bool {
    sentence.split(|c: char| !c.is_alphabetic()).any(|w| {
        let w = w.to_lowercase();
        if stem == "more" {
            w == "more"
        } else {
            w.starts_with(stem)
        }
    })
}

/// Every way a README says more than its reports, as `folder: what`.
fn unheld(dir: &Path) -> Vec<String> {
    let folder = dir.file_name().unwrap().to_string_lossy().to_string();
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let held = held_numbers(dir);
    let is_held = |n: &String| held.contains(n);
    let mut out = Vec::new();
    for bold in readme.split("**").skip(1).step_by(2) {
        for n in numbers(bold).into_iter().filter(|n| !is_held(n)) {
            out.push(format!(
                "{folder}: **{bold}** quotes {n}, which no report holds"
            ));
        }
    }
    for sentence in sentences(&readme) {
        for word in COMPARATIVES.iter().filter(|w| says(&sentence, w)) {
            if !numbers(&sentence).iter().any(is_held) {
                out.push(format!(
                    "{folder}: says '{word}' with no number a report holds: {sentence}"
                ));
            }
        }
    }
    let text = held_text(dir);
    for decision in [
        "H1 accepted",
        "H0 accepted",
        "H1 is accepted",
        "H0 is accepted",
    ] {
        let as_reported = decision.replace(" is ", " ");
        if readme.contains(decision) && !text.contains(&as_reported) {
            out.push(format!("{folder}: says {decision}, which no report holds"));
        }
    }
    out
}

#[test]
fn numbers_are_read_as_tokens() {
    assert_eq!(
        numbers("**−7.5 ± 9.1**, 1,604 of 2,679 (p=0.058), 1.054×, ECM.812, b6c6b4a45"),
        ["7.5", "9.1", "1604", "2679", "0.058", "1.054", "812"]
    );
    assert_eq!(numbers("at 100 ms, 3.1 plies. Then"), ["100", "3.1"]);
}

#[test]
fn every_reading_quotes_its_reports() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut failures = Vec::new();
    let mut folders = 0;
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let dir = entry.path();
        if dir.join("README.md").is_file() {
            failures.extend(unheld(&dir));
            folders += 1;
        }
    }
    assert!(folders >= 15, "{folders} report folders");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The rules catch what they are for: a rounded number in bold, a comparison without its
/// number, a decision no report holds.
#[test]
fn the_rules_catch_an_unheld_reading() {
    let dir = std::env::temp_dir().join(format!("searchlab-readings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("report.md"),
        "Elo +20.9 ± 11.7, p=0.0012, H0 accepted\n",
    )
    .unwrap();
    let readme = "Elo **+20.9 ± 11.7** (p=0.0012 is significant). H0 is accepted.\n";
    std::fs::write(dir.join("README.md"), readme).unwrap();
    assert!(unheld(&dir).is_empty(), "{:?}", unheld(&dir));
    let readme = "Elo **+21 ± 12**. It solves more. H1 accepted.\n";
    std::fs::write(dir.join("README.md"), readme).unwrap();
    let found = unheld(&dir);
    assert_eq!(found.len(), 4, "{found:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
