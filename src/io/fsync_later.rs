//! The hooks' fsyncs, done after the hook has exited.
//!
//! A hook renames its files into place before it exits: the write is atomic, and
//! the next event, a sibling PreCompact run and the dashboard see it at once. The
//! fsyncs that make it survive a power loss (the file, then its folder) are left
//! to a forked child that outlives the hook. Claude Code waits for the hook, not
//! for the disk: an fsync waits for a journal commit of everything dirty on the
//! file system (0.5–8 ms on the benchmark machine), and the compaction that
//! follows a PreCompact takes seconds, so the checkpoint is on disk long before
//! the summary replaces the conversation. Where there is no fork (or it fails),
//! the hook fsyncs before it exits.

use std::fs::File;
use std::path::{Path, PathBuf};

/// Who did the fsyncs.
#[derive(Debug, PartialEq, Eq)]
pub enum Synced {
    /// A detached child with this pid, which reports its own failures.
    Later { pid: u32 },
    /// This process, before returning; with these failures.
    Now { failures: Vec<String> },
}

/// Fsyncs `paths` (see [`fsync_all`]) in a forked child, which passes its
/// failures to `report` and exits; or here when the child cannot be made.
///
/// The child gets `/dev/null` for stdin, stdout and stderr (Claude Code reads the
/// hook's output until every copy of it is closed) and a process group of its own
/// (a signal to the hook's group does not reach it).
pub fn detach(paths: &[PathBuf], report: impl FnOnce(&[String])) -> Synced {
    #[cfg(unix)]
    if let Ok(pid) = fork_child(|| report(&fsync_all(paths))) {
        return Synced::Later { pid };
    }
    #[cfg(not(unix))]
    drop(report);
    Synced::Now {
        failures: fsync_all(paths),
    }
}

/// Runs `work` in a forked child that never returns here: it ends with `_exit`.
#[cfg(unix)]
fn fork_child(work: impl FnOnce()) -> std::io::Result<u32> {
    use std::os::fd::AsRawFd;
    let null = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")?;
    // SAFETY: fork has no memory-safety preconditions. The child runs only the
    // thread that forked; it calls `work` (file system calls and allocation,
    // which glibc keeps usable across fork) and leaves with `_exit`, so no
    // destructor, buffered output or atexit handler of the parent runs twice.
    let pid = unsafe { libc::fork() };
    match pid {
        -1 => Err(std::io::Error::last_os_error()),
        0 => {
            // SAFETY: plain system calls on descriptors this process owns.
            unsafe {
                libc::setpgid(0, 0);
                for fd in 0..=2 {
                    libc::dup2(null.as_raw_fd(), fd);
                }
            }
            drop(null);
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            // SAFETY: ends the child at once, as above.
            unsafe { libc::_exit(0) }
        }
        pid => Ok(pid.unsigned_abs()),
    }
}

/// Fsyncs each written file, then the folders that hold them (a path that is a
/// folder, e.g. where a file was removed, is fsynced as a folder). Symlinks are
/// followed to what they name. Returns one message per failure. A path that is
/// gone is skipped: a later write replaced or removed it, with its own fsync.
/// Anything but a regular file or a folder (a FIFO swapped in) is never opened.
pub fn fsync_all(paths: &[PathBuf]) -> Vec<String> {
    let mut failures = Vec::new();
    let mut folders: Vec<PathBuf> = Vec::new();
    for path in paths {
        let report = |e: std::io::Error| format!("{}: {e}", path.display());
        let target = match std::fs::canonicalize(path) {
            Ok(target) => target,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                failures.push(report(e));
                continue;
            }
        };
        let folder = match std::fs::metadata(&target) {
            Ok(meta) if meta.is_dir() => Some(target),
            Ok(meta) if meta.is_file() => {
                match File::open(&target).and_then(|file| file.sync_all()) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => failures.push(report(e)),
                    _ => {}
                }
                target.parent().map(Path::to_path_buf)
            }
            Ok(_) => None,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                failures.push(report(e));
                None
            }
        };
        if let Some(folder) = folder.filter(|f| !folders.contains(f)) {
            folders.push(folder);
        }
    }
    for folder in &folders {
        // Best effort: some file systems refuse to fsync a folder.
        if folder.is_dir()
            && let Ok(dir) = File::open(folder)
        {
            let _ = dir.sync_all();
        }
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// The child does the fsyncs after `detach` has returned, and reports its
    /// failures itself (the hook gives it the log).
    #[cfg(unix)]
    #[test]
    fn a_detached_child_fsyncs_and_reports_after_the_caller_went_on() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("state.json");
        std::fs::write(&file, "{}").unwrap();
        let report = dir.path().join("report.txt");
        let paths = [file.clone(), file.join("cx-001-checkpoint.json")];
        let synced = detach(&paths, |failures| {
            let _ = std::fs::write(&report, failures.join("\n"));
        });
        assert!(
            matches!(synced, Synced::Later { pid } if pid > 0),
            "{synced:?}"
        );
        let started = std::time::Instant::now();
        while !report.exists() && started.elapsed() < std::time::Duration::from_secs(10) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        let text = std::fs::read_to_string(&report).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains("state.json/cx-001-checkpoint.json"), "{text}");
    }

    #[test]
    fn files_and_folders_are_fsynced_and_what_is_gone_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cx-001-checkpoint.json");
        std::fs::write(&file, "{}").unwrap();
        let gone = dir.path().join("gone.json");
        assert!(fsync_all(&[file.clone(), dir.path().to_path_buf(), gone]).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_never_opened_and_a_path_that_cannot_be_reached_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        // Opening a FIFO for reading would block until a writer came.
        assert!(fsync_all(std::slice::from_ref(&fifo)).is_empty());

        let file = dir.path().join("state.json");
        std::fs::write(&file, "{}").unwrap();
        let beneath_a_file = file.join("cx-001-checkpoint.json");
        let failures = fsync_all(&[beneath_a_file]);
        assert_eq!(failures.len(), 1, "{failures:?}");
        assert!(failures[0].ends_with("(os error 20)"), "{}", failures[0]);
        assert!(failures[0].contains("state.json/cx-001"), "{}", failures[0]);
    }
}
