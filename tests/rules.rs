//! The project's rule checks catch what they exist to catch: a planted violation fails them.

use std::path::Path;
use std::process::Command;

/// Copy `src` to a scratch folder, let `plant` change it, and run the mention rule on it.
fn mention_rule_on(name: &str, plant: impl FnOnce(&Path)) -> (bool, String) {
    let root = std::env::temp_dir().join(format!("searchlab-rules-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    copy_dir(&src, &root);
    plant(&root);
    let output = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/heuristic_mentions.py"))
        .arg(&root)
        .output()
        .expect("python3 runs the rule");
    let _ = std::fs::remove_dir_all(&root);
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Add a function reading `read` to `file`, before its test module (where the rule reads).
fn plant_read(root: &Path, file: &str, read: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find("#[cfg(test)]").unwrap_or(text.len());
    let function = format!(
        "#[allow(dead_code)]\nfn planted(config: &crate::engine::config::SearchConfig) -> bool {{\n    {read}\n}}\n\n"
    );
    std::fs::write(path, format!("{}{function}{}", &text[..at], &text[at..])).unwrap();
}

#[test]
fn the_mention_rule_passes_the_tree_and_fails_a_planted_configuration_read() {
    let (clean, out) = mention_rule_on("clean", |_| {});
    assert!(clean, "the repository passes its own rule:\n{out}");
    // `tt`'s row does not declare quiescence.rs: a read of its configuration there is a
    // mention the rule must see, as it sees `Id::Tt`.
    let (passed, out) = mention_rule_on("field", |root| {
        plant_read(
            root,
            "engine/search/quiescence.rs",
            "config.heuristics.tt.enabled",
        )
    });
    assert!(!passed, "a planted field read passes:\n{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("tt ") && l.contains("engine/search/quiescence.rs")),
        "{out}"
    );
    let (passed, _) = mention_rule_on("alias", |root| {
        plant_read(
            root,
            "engine/search/quiescence.rs",
            "let h = &config.heuristics; h.lmr.enabled",
        )
    });
    assert!(!passed, "a read through the `h` alias passes");
}

/// `text` names `word` as a whole word (not inside a longer identifier).
fn names(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// The limit `scripts/long_functions.py --check` enforces for `variable` (`limit_file`,
/// `limit_fn`).
fn enforced_limit(script: &str, variable: &str) -> u32 {
    let line = script
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{variable} = ")))
        .unwrap_or_else(|| panic!("{variable} in scripts/long_functions.py"));
    let value = line
        .split('=')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    value.parse().unwrap_or_else(|_| panic!("{line}"))
}

/// What a newcomer reads about the tree holds: `docs/development.md`'s layout names every
/// folder under `src/` and every source file of `src/`, `src/cli`, `src/uci`, `src/engine` and
/// `src/harness`, and every suite; the README's reports table links every folder of
/// `reports/`; the README and `docs/development.md` state the limits CI enforces.
#[test]
fn the_documented_layout_limits_and_reports_match_the_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap();
    let development = read("docs/development.md");
    let layout = development
        .split("## Layout")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
        .expect("docs/development.md has a Layout block");
    let mut missing = Vec::new();
    let mut folders = vec![root.join("src")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().map(Result::unwrap) {
            let path = entry.path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let relative = path.strip_prefix(root).unwrap().display().to_string();
            if path.is_dir() {
                if !names(layout, &name) {
                    missing.push(relative);
                }
                folders.push(path);
                continue;
            }
            let shallow = ["src", "src/cli", "src/uci", "src/engine", "src/harness"]
                .iter()
                .any(|dir| folder == root.join(dir));
            let stem = name.trim_end_matches(".rs");
            if shallow && name.ends_with(".rs") && stem != "mod" && !names(layout, stem) {
                missing.push(relative);
            }
        }
    }
    for entry in std::fs::read_dir(root.join("suites"))
        .unwrap()
        .map(Result::unwrap)
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".epd") && !names(layout, &name.replace(".epd", "")) {
            missing.push(format!("suites/{name}"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/development.md's layout leaves out {missing:?}"
    );

    let readme = read("README.md");
    let unlisted: Vec<String> = std::fs::read_dir(root.join("reports"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "latest" && !readme.contains(&format!("](reports/{name}/")))
        .collect();
    assert!(
        unlisted.is_empty(),
        "the README's reports table leaves out {unlisted:?}"
    );

    let script = read("scripts/long_functions.py");
    let (file, function) = (
        enforced_limit(&script, "limit_file"),
        enforced_limit(&script, "limit_fn"),
    );
    let readme_rule = format!("{file} lines and no function over {function}");
    assert!(readme.contains(&readme_rule), "README.md: '{readme_rule}'");
    let development_rule = format!("over {file} lines or a function over {function}");
    assert!(
        development.contains(&development_rule),
        "docs/development.md: '{development_rule}'"
    );
}

/// The arguments of a call or a signature's parameters, split at the top level's commas.
fn top_level_arguments(list: &str) -> usize {
    let (mut depth, mut count) = (0i32, 1);
    for c in list.chars() {
        match c {
            '(' | '<' | '[' | '{' => depth += 1,
            ')' | '>' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => count += 1,
            _ => {}
        }
    }
    count
}

/// docs/development.md's recipe calls the gate as `search/gate.rs` defines it: as many
/// arguments as the function takes besides `self` (issue 61 item 12).
#[test]
fn the_recipes_gate_call_matches_the_gate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/development.md")).unwrap();
    let call = doc
        .split("`self.gate(")
        .nth(1)
        .and_then(|rest| rest.split(")`").next())
        .expect("the recipe shows a gate call");
    let gate = std::fs::read_to_string(root.join("src/engine/search/gate.rs")).unwrap();
    let signature = gate
        .split("fn gate<T: Claim>(")
        .nth(1)
        .and_then(|rest| rest.split(") -> Option<T>").next())
        .expect("gate.rs defines the gate");
    let parameters: Vec<&str> = signature
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty() && *p != "&mut self")
        .collect();
    assert_eq!(
        top_level_arguments(call),
        top_level_arguments(&parameters.join(",")),
        "docs/development.md calls `self.gate({call})`; gate.rs takes {parameters:?}"
    );
}

/// docs/sources.md has a section for every document a registry row cites, and that section
/// names the row; every preset named after a document's engine is named in it too (issue 63
/// item 1).
#[test]
fn every_cited_document_has_a_section_naming_its_rows() {
    use searchlab::engine::heuristics::REGISTRY;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/sources.md")).unwrap();
    let section = |number: &str| -> String {
        let start = text
            .find(&format!("## {number}:"))
            .unwrap_or_else(|| panic!("docs/sources.md has no section for document {number}"));
        let rest = &text[start + 3..];
        let end = rest.find("\n## ").map_or(rest.len(), |i| i + 3);
        assert!(
            text.contains(&format!("<a id=\"{number}\"></a>")),
            "document {number}: no anchor for docs/sources.md#{number}"
        );
        rest[..end].to_string()
    };
    let mut cited = 0;
    for info in REGISTRY.iter().filter(|i| i.source != "modern") {
        for number in info.source.split(", ") {
            assert!(
                section(number).contains(&format!("`{}`", info.name)),
                "docs/sources.md § {number} does not name `{}`",
                info.name
            );
            cited += 1;
        }
    }
    assert!(cited > 30, "{cited} citations");
    for (preset, number) in [
        ("minimax", "000"),
        ("centurion", "001"),
        ("kornilov", "002"),
        ("ifrit-killers", "003"),
    ] {
        assert!(section(number).contains(&format!("`{preset}`")), "{preset}");
    }
}
