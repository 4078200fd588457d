//! The hooks' fsyncs, done after the hook has exited.
//!
//! A hook renames its files into place before it exits: the write is atomic, and
//! the next event, a sibling PreCompact run and the dashboard see it at once. The
//! fsyncs that make it survive a power loss (the file, then its folder) are left
//! to a forked child that outlives the hook. Claude Code waits for the hook, not
//! for the disk: an fsync waits for a journal commit of everything dirty on the
//! file system (docs/performance.md has the figures), and the compaction that
//! follows a PreCompact takes seconds, so the checkpoint is on disk long before
//! the summary replaces the conversation. Where there is no fork (or it fails),
//! the hook fsyncs before it exits.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::io::write::{RealSteps, WriteSteps, sync_folder};

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
/// Anything but a regular file or a folder is never opened, and the open does
/// not wait (a FIFO swapped in after the check cannot hold the child).
pub fn fsync_all(paths: &[PathBuf]) -> Vec<String> {
    fsync_all_with(paths, &RealSteps)
}

/// [`fsync_all`] through `steps`, which tests replace to see what is synced.
pub fn fsync_all_with(paths: &[PathBuf], steps: &dyn WriteSteps) -> Vec<String> {
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
                match open_without_waiting(&target).and_then(|file| steps.sync(&file)) {
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
    for folder in folders.iter().filter(|f| f.is_dir()) {
        sync_folder(folder, steps);
    }
    failures
}

fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::test_support::mkfifo;

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
            // Renamed into place, so that the test never reads it half written.
            let partial = dir.path().join("report.partial");
            let _ = std::fs::write(&partial, failures.join("\n"));
            let _ = std::fs::rename(&partial, &report);
        });
        assert!(
            matches!(synced, Synced::Later { pid } if pid > 0),
            "{synced:?}"
        );
        let started = std::time::Instant::now();
        while !report.exists() && started.elapsed() < std::time::Duration::from_secs(10) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let text = std::fs::read_to_string(&report).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains("state.json/cx-001-checkpoint.json"), "{text}");
    }

    /// Records the inode of every file it is asked to fsync.
    #[cfg(unix)]
    #[derive(Default)]
    struct Recorder(std::cell::RefCell<Vec<u64>>);

    #[cfg(unix)]
    impl WriteSteps for Recorder {
        fn sync(&self, file: &File) -> std::io::Result<()> {
            use std::os::unix::fs::MetadataExt;
            self.0.borrow_mut().push(file.metadata()?.ino());
            Ok(())
        }
    }

    #[cfg(unix)]
    fn inode(path: &Path) -> u64 {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).unwrap().ino()
    }

    /// The file, then its folder once (named twice), through a symlink to what it
    /// names; what is gone and a FIFO are skipped, unopened.
    #[cfg(unix)]
    #[test]
    fn files_then_their_folders_are_fsynced_and_the_rest_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cx-001-checkpoint.json");
        std::fs::write(&file, "{}").unwrap();
        let link = dir.path().join("latest.json");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let gone = dir.path().join("gone.json");
        let recorder = Recorder::default();
        let failures = fsync_all_with(&[link, dir.path().to_path_buf(), gone, fifo], &recorder);
        assert!(failures.is_empty(), "{failures:?}");
        assert_eq!(
            recorder.0.into_inner(),
            vec![inode(&file), inode(dir.path())]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_path_that_cannot_be_reached_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("state.json");
        std::fs::write(&file, "{}").unwrap();
        let beneath_a_file = file.join("cx-001-checkpoint.json");
        let failures = fsync_all(&[beneath_a_file]);
        assert_eq!(failures.len(), 1, "{failures:?}");
        assert!(failures[0].ends_with("(os error 20)"), "{}", failures[0]);
        assert!(failures[0].contains("state.json/cx-001"), "{}", failures[0]);
    }
}
