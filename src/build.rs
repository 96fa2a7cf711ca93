//! Bakes the source's git commit into the binary (`SEARCHLAB_COMMIT`), with `-dirty` when the
//! files the binary is built from (`src/`, `Cargo.toml`, `Cargo.lock`) differ from it, so that
//! a results file records the commit of the code that searched, whatever directory the binary
//! runs from. Outside a git checkout (a crate tarball) it is empty and results record no commit.
//!
//! It watches only what can change that answer: the checked-out commit and the build's own
//! sources. Not `.git/index`, which every `git status` rewrites: watching it made a fresh
//! clone compile twice (`cargo test`, then `cargo run`).

use std::path::Path;
use std::process::Command;

/// The files whose changes make the binary differ from its commit.
const SOURCES: [&str; 3] = ["src", "Cargo.toml", "Cargo.lock"];

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    for path in SOURCES {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={git_dir}/HEAD");
        // The branch's ref moves on each commit; a packed ref lives in packed-refs.
        let head = git(&["symbolic-ref", "-q", "HEAD"]);
        match head.map(|head| format!("{git_dir}/{head}")) {
            Some(loose) if Path::new(&loose).exists() => {
                println!("cargo:rerun-if-changed={loose}")
            }
            _ => println!("cargo:rerun-if-changed={git_dir}/packed-refs"),
        }
    }
    let commit = git(&["rev-parse", "HEAD"]).map_or_else(String::new, |commit| {
        let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
        status.extend(SOURCES);
        let dirty = git(&status).is_some_and(|status| !status.is_empty());
        if dirty {
            format!("{commit}-dirty")
        } else {
            commit
        }
    });
    println!("cargo:rustc-env=SEARCHLAB_COMMIT={commit}");
}
