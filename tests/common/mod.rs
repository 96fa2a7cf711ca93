//! What the integration tests share.

use std::io::Write;

/// Say visibly that a test checked nothing because something it needs is missing. libtest
/// captures `eprintln!` (and shows it only for failures), not writes to the stderr handle, so
/// this line shows in `cargo test`'s output.
pub fn skipped(test: &str, reason: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
}
