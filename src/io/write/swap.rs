//! The last step of a cache's replace: the new file swapped in by name
//! (`RENAME_EXCHANGE`), then the old one, now under the temporary name, removed.
//!
//! Readers see the old file or the new one whole, as with a rename over it. What
//! differs is ext4's `auto_da_alloc`: a rename over an existing file makes the
//! kernel allocate and start writing the new file's blocks before it returns (the
//! cost is in docs/performance.md), so that a crash shortly after leaves the old or
//! the new content rather than an empty file; the swap does not. Only for files that are never
//! fsynced and may be lost (caches rewritten on every run): a crash within the
//! kernel's writeback delay may leave such a file empty, which every reader
//! takes as absent. Durable files keep the rename.

use std::fs::File;
use std::path::Path;

/// What [`swap_in`] did.
#[derive(Debug)]
pub enum Swapped {
    /// The system cannot swap: nothing changed, the caller renames instead.
    No,
    /// The new file is in place; the old one, removed, still open when asked for.
    Yes { old: Option<File> },
}

/// Swaps `temp` (the new file) with `target` and removes what then sits at `temp`;
/// with `hold_old`, that old file is opened first and returned, so that its last
/// close, not the removal, frees its blocks (see `write::replace_holding_old`).
/// [`Swapped::No`] when the system cannot swap (another OS, a file system without
/// the flag). Anything but a regular file swapped out (put there since the
/// caller's check) is swapped back, and an error returned.
pub fn swap_in(temp: &Path, target: &Path, hold_old: bool) -> std::io::Result<Swapped> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, temp, CWD, target, RenameFlags::EXCHANGE) {
            Ok(()) => {}
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => return Ok(Swapped::No),
            Err(e) => return Err(e.into()),
        }
        if std::fs::symlink_metadata(temp).is_ok_and(|m| !m.is_file()) {
            renameat_with(CWD, temp, CWD, target, RenameFlags::EXCHANGE)?;
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "no longer a regular file",
            ));
        }
        // Checked a regular file just now; never waits or follows.
        let old = hold_old.then(|| super::open_read_only(temp).ok()).flatten();
        // The new file is in place: an old one that cannot be removed now is a
        // stale temporary file, removed by a later write (`leftovers`).
        let _ = std::fs::remove_file(temp);
        Ok(Swapped::Yes { old })
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = (temp, target, hold_old);
        Ok(Swapped::No)
    }
}
