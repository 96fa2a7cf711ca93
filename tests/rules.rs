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
