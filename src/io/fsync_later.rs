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
//!
//! The child also inherits the hook's open handles on the files its replaces
//! renamed over (`write::replace_holding_old`): the last close frees a file's
//! blocks, and it is the child's, after the hook has exited.

use std::path::{Path, PathBuf};

use crate::io::log::append_lines;
use crate::io::write::{RealSteps, WriteSteps, open_read_only, sync_folder};

/// Who did the fsyncs.
#[derive(Debug, PartialEq, Eq)]
pub enum Synced {
    /// A detached child with this pid, which reports its own failures.
    Later { pid: u32 },
    /// This process, before returning; with these failures.
    Now { failures: Vec<String> },
}

/// Where failures found after the hook went on are written: the log, one line
/// each, made by `line` from a message.
pub struct FailureLog<'a> {
    pub path: Option<PathBuf>,
    pub max_bytes: u64,
    pub line: &'a dyn Fn(&str) -> String,
}

impl FailureLog<'_> {
    fn append(&self, failures: &[String]) {
        if let Some(path) = self.path.as_deref().filter(|_| !failures.is_empty()) {
            let lines: Vec<String> = failures.iter().map(|f| (self.line)(f)).collect();
            let _ = append_lines(path, self.max_bytes, &lines);
        }
    }
}

/// Fsyncs `paths` (see [`fsync_all`]) in a detached child, which logs its
/// failures to `log`; or here when no child can be made.
///
/// The paths are resolved here; the child only opens, fsyncs and closes. What
/// cannot be resolved is logged here when a child is made, else returned with
/// the rest. The child is forked (sharing this process's memory through
/// `clone3(CLONE_VM)` saved 0.4 ms, under 0.1 % of a run in Claude Code:
/// docs/performance.md, "Hand-written system calls"). The child closes stdin, stdout and stderr (Claude Code reads the hook's output until
/// every copy of it is closed) and takes a process group of its own (a signal to
/// the hook's group does not reach it).
pub fn detach(paths: &[PathBuf], log: &FailureLog<'_>) -> Synced {
    let resolved = Resolved::of(paths);
    if let Some(pid) = spawn_resolved(&resolved, log) {
        log.append(&resolved.failures);
        return Synced::Later { pid };
    }
    Synced::Now {
        failures: resolved.sync_all(&RealSteps),
    }
}

/// The child that fsyncs what `resolved` holds and logs its failures; its pid,
/// or `None` when none could be made.
fn spawn_resolved(resolved: &Resolved, log: &FailureLog<'_>) -> Option<u32> {
    #[cfg(unix)]
    if let Ok(pid) = fork_child(|| log.append(&resolved.sync(&RealSteps))) {
        return Some(pid);
    }
    None
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
    Resolved::of(paths).sync_all(steps)
}

/// The paths to fsync, resolved: the regular files (symlinks followed), then the
/// folders that hold them or were named, each once; and what could not be
/// resolved.
struct Resolved {
    files: Vec<PathBuf>,
    folders: Vec<PathBuf>,
    failures: Vec<String>,
}

impl Resolved {
    fn of(paths: &[PathBuf]) -> Resolved {
        let mut resolved = Resolved {
            files: Vec::new(),
            folders: Vec::new(),
            failures: Vec::new(),
        };
        for path in paths {
            let report = |e: std::io::Error| format!("{}: {e}", path.display());
            let target = match std::fs::canonicalize(path) {
                Ok(target) => target,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => {
                    resolved.failures.push(report(e));
                    continue;
                }
            };
            let folder = match std::fs::metadata(&target) {
                Ok(meta) if meta.is_dir() => Some(target),
                Ok(meta) if meta.is_file() => {
                    let folder = target.parent().map(Path::to_path_buf);
                    resolved.files.push(target);
                    folder
                }
                Ok(_) => None,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => {
                    resolved.failures.push(report(e));
                    None
                }
            };
            if let Some(folder) = folder.filter(|f| !resolved.folders.contains(f)) {
                resolved.folders.push(folder);
            }
        }
        resolved
    }

    /// Fsyncs what was resolved; the failures to resolve, then to fsync.
    fn sync_all(self, steps: &dyn WriteSteps) -> Vec<String> {
        let mut failures = self.sync(steps);
        failures.splice(0..0, self.failures);
        failures
    }

    /// Fsyncs the files, then the folders; one message per file that failed.
    fn sync(&self, steps: &dyn WriteSteps) -> Vec<String> {
        let mut failures = Vec::new();
        for file in &self.files {
            match open_read_only(file).and_then(|f| steps.sync(&f)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    failures.push(format!("{}: {e}", file.display()));
                }
                _ => {}
            }
        }
        for folder in self.folders.iter().filter(|f| f.is_dir()) {
            sync_folder(folder, steps);
        }
        failures
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::test_support::mkfifo;
    use std::fs::File;

    /// A log the tests read: every failure line as `line` made it.
    fn failure_log(path: &Path) -> FailureLog<'static> {
        FailureLog {
            path: Some(path.to_path_buf()),
            max_bytes: 1 << 20,
            line: &|message| format!("fsync: {message}"),
        }
    }

    /// The log's lines once it holds `count` whole ones (the child writes after
    /// `detach` has returned).
    fn lines_once(log: &Path, count: usize) -> Vec<String> {
        let started = std::time::Instant::now();
        loop {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            let whole = text.ends_with('\n') || text.is_empty();
            if (whole && text.lines().count() >= count)
                || started.elapsed() > std::time::Duration::from_secs(10)
            {
                return text.lines().map(str::to_string).collect();
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// What cannot be resolved is logged before `detach` returns; the rest is
    /// left to a child.
    #[cfg(unix)]
    #[test]
    fn a_path_that_cannot_be_resolved_is_logged_at_once_and_the_rest_left_to_a_child() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("state.json");
        std::fs::write(&file, "{}").unwrap();
        let log = dir.path().join("hook.log");
        let paths = [file.clone(), file.join("cx-001-checkpoint.json")];
        let synced = detach(&paths, &failure_log(&log));
        assert!(
            matches!(synced, Synced::Later { pid } if pid > 0),
            "{synced:?}"
        );
        let text = std::fs::read_to_string(&log).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(
            text.starts_with("fsync: ") && text.contains("state.json/cx-001-checkpoint.json"),
            "{text}"
        );
        assert!(text.ends_with("(os error 20)\n"), "{text}");
    }

    /// A file that fails its fsync in the child (here a FIFO swapped in after
    /// the paths were resolved: fsync refuses it) is logged by the child, one
    /// whole line each, after `detach` has returned.
    #[cfg(unix)]
    #[test]
    fn the_child_logs_each_failed_fsync_on_a_line_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("hook.log");
        let mut paths = Vec::new();
        for i in 0..20 {
            let file = dir.path().join(format!("cx-{i:03}-checkpoint.json"));
            std::fs::write(&file, "{}").unwrap();
            paths.push(file);
        }
        let resolved = Resolved::of(&paths);
        for path in &paths {
            std::fs::remove_file(path).unwrap();
            mkfifo(path);
        }
        let synced = spawn_resolved(&resolved, &failure_log(&log));
        assert!(matches!(synced, Some(pid) if pid > 0), "{synced:?}");
        let lines = lines_once(&log, paths.len());
        assert_eq!(lines.len(), paths.len(), "{lines:?}");
        for path in &paths {
            let line = format!("fsync: {}: ", path.display());
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&line) && l.ends_with("(os error 22)")),
                "{line} in {lines:?}"
            );
        }
    }

    /// Many children at once, as parallel PreCompact firings make them: each
    /// runs and reports, none is lost.
    #[cfg(unix)]
    #[test]
    fn children_in_a_row_each_run_to_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("hook.log");
        let runs = 50;
        for i in 0..runs {
            let file = dir.path().join(format!("fifo-{i}.json"));
            std::fs::write(&file, "{}").unwrap();
            let resolved = Resolved::of(std::slice::from_ref(&file));
            std::fs::remove_file(&file).unwrap();
            mkfifo(&file);
            assert!(spawn_resolved(&resolved, &failure_log(&log)).is_some());
        }
        assert_eq!(lines_once(&log, runs).len(), runs);
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
