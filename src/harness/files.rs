//! Writing whole output files (reports, tables, charts, merged results, sidecars) so that a
//! failure leaves either the old file or the new one, never a truncated one: the text goes to
//! `NAME.tmp` beside the target and is renamed over it, and the temporary file is removed when
//! the write fails. A full disk is named as such ("no space left on device: FILE"), not as the
//! operating system's error number.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// Write `bytes` to `path` through a temporary file renamed over it.
pub fn write_atomic(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), String> {
    let temp = temporary(path);
    if let Err(e) = std::fs::write(&temp, bytes.as_ref()) {
        let _ = std::fs::remove_file(&temp);
        return Err(io_error(path, &e));
    }
    std::fs::rename(&temp, path).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        io_error(path, &e)
    })
}

/// The temporary file `write_atomic` writes before renaming: `NAME.tmp` in the same folder,
/// so the rename never crosses a file system.
pub fn temporary(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// An input/output error on `path` as a reader wants it: a full disk said in words.
pub fn io_error(path: &Path, e: &std::io::Error) -> String {
    if e.kind() == ErrorKind::StorageFull {
        format!("no space left on device: {}", path.display())
    } else {
        format!("{}: {e}", path.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("searchlab-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("report.md");
        write_atomic(&path, "old").unwrap();
        write_atomic(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert!(!temporary(&path).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_removes_the_temporary() {
        let dir = std::env::temp_dir().join(format!("searchlab-files-fail-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("report.md");
        write_atomic(&path, "old").unwrap();
        // A folder where the temporary file should go makes the write fail.
        std::fs::create_dir_all(temporary(&path).join("x")).unwrap();
        let error = write_atomic(&path, "new").unwrap_err();
        assert!(error.contains("report.md"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_full_disk_is_said_in_words() {
        let e = std::io::Error::from(ErrorKind::StorageFull);
        assert_eq!(
            io_error(Path::new("r/report.md"), &e),
            "no space left on device: r/report.md"
        );
        let e = std::io::Error::from_raw_os_error(28);
        assert_eq!(
            io_error(Path::new("elo.svg"), &e),
            "no space left on device: elo.svg"
        );
    }
}
