//! The sidecar lock `<file>.lock`, and opening files a writer does not trust.
//!
//! A lock file is opened without following a symbolic link (a link planted in its
//! place would make writers create files elsewhere) and without blocking (a FIFO
//! in its place would hang every writer, the hooks included), and is used only if
//! it is a regular file; anything else is refused with what to remove.

use std::cell::RefCell;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::WriteError;

const LOCK_POLL: Duration = Duration::from_millis(5);

/// The path of the sidecar lock for `path`: `<file>.lock` beside it.
pub fn lock_path(path: &Path) -> PathBuf {
    super::parent_dir(path).join(format!("{}.lock", super::file_name(path)))
}

/// Opens (creating, mode 0600) `path` for appending or locking: never through a
/// symbolic link, never blocking on a FIFO or a device, and only a regular file.
pub fn open_regular(path: &Path, append: bool) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(false);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    let file = options.open(path).map_err(|e| refused_kind(path, e))?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(std::io::Error::other(format!(
            "{} is not a regular file ({}); remove it",
            path.display(),
            describe(kind)
        )));
    }
    Ok(file)
}

/// The error for a symbolic link in the way (`O_NOFOLLOW` fails with `ELOOP`), or a
/// FIFO without a reader (`ENXIO`), said as such.
fn refused_kind(path: &Path, e: std::io::Error) -> std::io::Error {
    let what = std::fs::symlink_metadata(path)
        .ok()
        .map(|m| m.file_type())
        .filter(|kind| !kind.is_file());
    match what {
        Some(kind) => std::io::Error::other(format!(
            "{} is not a regular file ({}); remove it",
            path.display(),
            describe(kind)
        )),
        None => e,
    }
}

fn describe(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

thread_local! {
    /// The lock files this thread holds: taking one again (an edit that holds the
    /// lock across its read and its write, then replaces) nests instead of waiting
    /// for itself.
    static HELD: RefCell<Vec<PathBuf>> = const { RefCell::new(Vec::new()) };
}

/// An exclusive lock on `<file>.lock`, held until dropped; the holder removes the
/// file. A nested acquisition by the same thread holds nothing of its own.
pub(super) struct SidecarLock {
    path: PathBuf,
    file: Option<File>,
}

impl SidecarLock {
    /// Waits for the lock, polling, for at most `timeout`.
    pub(super) fn acquire(target: &Path, timeout: Duration) -> Result<SidecarLock, WriteError> {
        let path = lock_path(target);
        if HELD.with(|held| held.borrow().contains(&path)) {
            return Ok(SidecarLock { path, file: None });
        }
        let started = Instant::now();
        loop {
            let file = open_regular(&path, false).map_err(|e| WriteError::io(target, e))?;
            match file.try_lock() {
                Ok(()) if same_file(&file, &path) => {
                    HELD.with(|held| held.borrow_mut().push(path.clone()));
                    return Ok(SidecarLock {
                        path,
                        file: Some(file),
                    });
                }
                // The previous holder removed this lock file: start over with a fresh one.
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => return Err(WriteError::io(target, e)),
            }
            if started.elapsed() >= timeout {
                return Err(WriteError::LockTimeout {
                    path: target.to_path_buf(),
                    lock: path,
                    waited: started.elapsed(),
                });
            }
            std::thread::sleep(LOCK_POLL);
        }
    }
}

impl Drop for SidecarLock {
    fn drop(&mut self) {
        let Some(file) = &self.file else {
            return;
        };
        HELD.with(|held| held.borrow_mut().retain(|p| *p != self.path));
        // Remove while still holding the lock, so a waiter sees the removal.
        let _ = std::fs::remove_file(&self.path);
        let _ = file.unlock();
    }
}

#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(held), Ok(named)) => held.dev() == named.dev() && held.ino() == named.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}
