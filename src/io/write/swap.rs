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

use std::path::Path;

/// Swaps `temp` (the new file) with `target` and removes what then sits at `temp`.
/// `Ok(false)` when the system cannot swap (another OS, a file system without
/// the flag): the caller renames instead. Anything but a regular file swapped out
/// (put there since the caller's check) is swapped back, and an error returned.
pub fn swap_in(temp: &Path, target: &Path) -> std::io::Result<bool> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, temp, CWD, target, RenameFlags::EXCHANGE) {
            Ok(()) => {}
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => return Ok(false),
            Err(e) => return Err(e.into()),
        }
        if std::fs::symlink_metadata(temp).is_ok_and(|m| !m.is_file()) {
            renameat_with(CWD, temp, CWD, target, RenameFlags::EXCHANGE)?;
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "no longer a regular file",
            ));
        }
        // The new file is in place: an old one that cannot be removed now is a
        // stale temporary file, removed by a later write (`leftovers`).
        let _ = std::fs::remove_file(temp);
        Ok(true)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = (temp, target);
        Ok(false)
    }
}
