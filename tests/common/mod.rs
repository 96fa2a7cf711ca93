//! What the integration tests share.

use std::io::Write;

/// Say visibly that a test checked nothing because something it needs is missing. libtest
/// captures `eprintln!` (and shows it only for failures), not writes to the stderr handle, so
/// this line shows in `cargo test`'s output.
#[allow(dead_code)]
pub fn skipped(test: &str, reason: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
}

/// A fresh path `name` in this test file's scratch directory (`group`: the file's name), any
/// old file there removed.
#[allow(dead_code)]
pub fn scratch(group: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("searchlab-{group}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The searchlab binary run with `args` from the repository's root.
#[allow(dead_code)]
pub fn searchlab(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

/// The searchlab binary run with `args`, which must succeed; its standard output.
#[allow(dead_code)]
pub fn ok(args: &[&str]) -> String {
    let output = searchlab(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}
