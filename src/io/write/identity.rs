//! What a replaced file keeps of itself, and who may replace it.
//!
//! A replace writes a new file and renames it over the old one, which the folder
//! allows even when the file itself is not writable; so the file's own write
//! permission is checked first ([`may_write`]): an edit the user could not make in
//! place is refused. The new file then gets the old one's mode, owner, group and
//! extended attributes (ACLs, SELinux labels, user attributes), as far as the
//! user may set them ([`keep`]); a file owned by someone else, whose owner the
//! user cannot keep, is refused rather than silently taken over.

use std::fs::{File, Metadata};
use std::path::Path;

use super::WriteError;

/// Whether the user may write `target` in place (`access(2)` with `W_OK`).
pub fn may_write(target: &Path, shown: &Path, meta: &Metadata) -> Result<(), WriteError> {
    let read_only = || WriteError::ReadOnly {
        path: shown.to_path_buf(),
    };
    if meta.permissions().readonly() {
        return Err(read_only());
    }
    #[cfg(unix)]
    match rustix::fs::access(target, rustix::fs::Access::WRITE_OK) {
        Ok(()) => {}
        Err(rustix::io::Errno::ACCESS | rustix::io::Errno::PERM | rustix::io::Errno::ROFS) => {
            return Err(read_only());
        }
        Err(e) => return Err(WriteError::io(shown, e.into())),
    }
    Ok(())
}

/// Gives `temp` the permissions, owner, group and extended attributes of
/// `target` (described by `meta`).
pub fn keep(target: &Path, shown: &Path, meta: &Metadata, temp: &File) -> Result<(), WriteError> {
    temp.set_permissions(meta.permissions())
        .map_err(|e| WriteError::io(shown, e))?;
    #[cfg(unix)]
    {
        keep_owner(shown, meta, temp)?;
        keep_xattrs(target, temp);
        // chown may clear set-id bits: the mode once more.
        temp.set_permissions(meta.permissions())
            .map_err(|e| WriteError::io(shown, e))?;
    }
    #[cfg(not(unix))]
    let _ = target;
    Ok(())
}

#[cfg(unix)]
fn keep_owner(shown: &Path, meta: &Metadata, temp: &File) -> Result<(), WriteError> {
    use std::os::unix::fs::{MetadataExt, fchown};
    let mine = temp.metadata().map_err(|e| WriteError::io(shown, e))?;
    if mine.uid() == meta.uid() && mine.gid() == meta.gid() {
        return Ok(());
    }
    if fchown(temp, Some(meta.uid()), Some(meta.gid())).is_ok() {
        return Ok(());
    }
    if mine.uid() != meta.uid() {
        return Err(WriteError::Refused {
            path: shown.to_path_buf(),
            reason: format!(
                "owned by user {} and replacing it would make it yours; nothing was written",
                meta.uid()
            ),
        });
    }
    // Our own file in a group we are not in: keep what can be kept.
    let _ = fchown(temp, None, Some(meta.gid()));
    Ok(())
}

/// Copies every extended attribute the user may set; the others are left (a
/// `security.` or `trusted.` one needs privileges the user may not have).
#[cfg(unix)]
fn keep_xattrs(target: &Path, temp: &File) {
    let Ok(size) = rustix::fs::listxattr_query(target) else {
        return;
    };
    if size == 0 {
        return;
    }
    let mut names = vec![0u8; size];
    let Ok(len) = rustix::fs::listxattr(target, &mut names[..]) else {
        return;
    };
    for name in names.get(..len).unwrap_or_default().split(|&b| b == 0) {
        if name.is_empty() {
            continue;
        }
        let Ok(name) = std::ffi::CString::new(name) else {
            continue;
        };
        let Ok(size) = rustix::fs::getxattr_query(target, name.as_c_str()) else {
            continue;
        };
        let mut value = vec![0u8; size];
        if let Ok(len) = rustix::fs::getxattr(target, name.as_c_str(), &mut value[..]) {
            let value = value.get(..len).unwrap_or_default();
            let _ = rustix::fs::fsetxattr(
                temp,
                name.as_c_str(),
                value,
                rustix::fs::XattrFlags::empty(),
            );
        }
    }
}
