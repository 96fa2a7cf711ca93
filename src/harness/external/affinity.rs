//! `--use-affinity` (fastchess's `-use-affinity`): each game thread stays on one core, and so
//! do the engine processes it starts, so that two games at once on a shared machine do not
//! trade cores mid-move (what makes concurrency honest). Linux only, through `taskset`
//! (util-linux): a thread is pinned by its id from `/proc/thread-self`, an engine by starting
//! it under `taskset -c CORE`.

use std::cell::Cell;

thread_local! {
    /// The core this thread was pinned to.
    static CORE: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Pin the calling thread to `core`; the engines it starts from now on run there too.
pub fn pin_this_thread(core: usize) -> Result<(), String> {
    let link = std::fs::read_link("/proc/thread-self")
        .map_err(|e| format!("--use-affinity: /proc/thread-self: {e} (Linux only)"))?;
    let tid = link
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or("--use-affinity: no thread id in /proc/thread-self")?;
    let status = std::process::Command::new("taskset")
        .args(["-p", "-c", &core.to_string(), &tid])
        .stdout(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("--use-affinity: taskset: {e} (util-linux)"))?;
    if !status.success() {
        return Err(format!(
            "--use-affinity: taskset could not pin thread {tid} to core {core}"
        ));
    }
    CORE.set(Some(core));
    Ok(())
}

/// The prefix that starts an engine on this thread's core (empty when not pinned).
pub fn command_prefix() -> String {
    CORE.get()
        .map_or(String::new(), |core| format!("taskset -c {core} "))
}

/// The core this thread runs on, when pinned.
pub fn pinned_core() -> Option<usize> {
    CORE.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_thread_reports_its_core_and_prefixes_its_engines() {
        if !std::path::Path::new("/proc/thread-self").exists() {
            return;
        }
        std::thread::spawn(|| {
            assert_eq!(command_prefix(), "");
            pin_this_thread(0).unwrap();
            assert_eq!(pinned_core(), Some(0));
            assert_eq!(command_prefix(), "taskset -c 0 ");
            let allowed = std::fs::read_to_string("/proc/thread-self/status").unwrap();
            let line = allowed
                .lines()
                .find(|l| l.starts_with("Cpus_allowed_list:"))
                .unwrap();
            assert_eq!(line.split_whitespace().nth(1), Some("0"), "{line}");
        })
        .join()
        .unwrap();
    }
}
