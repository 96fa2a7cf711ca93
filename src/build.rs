//! Bakes the source's git commit into the binary (`SEARCHLAB_COMMIT`), with `-dirty` when the
//! tracked files differ from it, so that a results file records the commit of the code that
//! searched, whatever directory the binary runs from. Outside a git checkout (a crate
//! tarball) it is empty and results record no commit.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    // Re-run when the commit or any source changes (the dirty flag follows the sources).
    for path in [".git/HEAD", ".git/index", "src", "Cargo.toml"] {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
        println!("cargo:rerun-if-changed=.git/{head}");
    }
    let commit = git(&["rev-parse", "HEAD"]).map_or_else(String::new, |commit| {
        let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
            .is_some_and(|status| !status.is_empty());
        if dirty {
            format!("{commit}-dirty")
        } else {
            commit
        }
    });
    println!("cargo:rustc-env=SEARCHLAB_COMMIT={commit}");
}
