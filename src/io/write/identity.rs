//! What a replaced file keeps of itself, and who may replace it.
//!
//! A replace writes a new file and renames it over the old one, which the folder
//! allows even when the file itself is not writable; so the file's own write
//! permission is checked first ([`may_write`]): an edit the user could not make in
//! place is refused. So is a file with more than one hard link: the rename would
//! split them, the other names keeping the old content. The new file then gets
//! the old one's mode, owner, group and extended attributes (ACLs, SELinux
//! labels, user attributes), as far as the user may set them ([`keep`]); a file
//! whose owner or group the new file could not have (another user's, or one in
//! a group the user is not in) is refused rather than silently changed: first by
//! chown(2)'s rules ([`may_replace`], `who`), before anything is written, then by
//! chown itself on the temporary file, before the rename.

use std::fs::{File, Metadata};
use std::path::Path;

use super::WriteError;

mod who;

/// Whether the user may replace `target` (described by `meta`) with a new file:
/// write it in place ([`may_write`]), with no other hard link (unless
/// `split_links`: the hooks' own files), and keep its owner and group. Refused
/// with why, naming `shown`, before anything is written.
pub fn may_replace(
    target: &Path,
    shown: &Path,
    meta: &Metadata,
    split_links: bool,
) -> Result<(), WriteError> {
    may_write(target, shown, meta)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Some(reason) = links_refusal(meta.nlink()).filter(|_| !split_links) {
            return Err(refused(shown, reason));
        }
        keepable(target, shown, meta)?;
    }
    Ok(())
}

fn refused(shown: &Path, reason: String) -> WriteError {
    WriteError::Refused {
        path: shown.to_path_buf(),
        reason,
    }
}

/// Why a file with `links` hard links may not be replaced; `None` for one link.
fn links_refusal(links: u64) -> Option<String> {
    let others = links.checked_sub(1).filter(|&n| n > 0)?;
    let (names, keep) = if others == 1 {
        ("the other name", "keeps")
    } else {
        ("the other names", "keep")
    };
    Some(format!(
        "it has {links} hard links (link count {links}), and an edit writes a new file and \
         renames it over this name, which would split the links: {names} {keep} the old \
         content; nothing was written. Break the links first (copy the file and move the \
         copy over it) or edit it in place by hand"
    ))
}

/// Refuses a file whose owner or group a new file of the user's could not have.
#[cfg(unix)]
fn keepable(target: &Path, shown: &Path, meta: &Metadata) -> Result<(), WriteError> {
    use rustix::process::{getegid, geteuid};
    use std::os::unix::fs::MetadataExt;
    let egid = getegid().as_raw();
    if meta.uid() == geteuid().as_raw() && meta.gid() == egid {
        return Ok(());
    }
    let new_gid = new_file_gid(target, egid);
    match who::Editor::current().would_lose(new_gid, meta.uid(), meta.gid()) {
        None => Ok(()),
        Some(who::Lost::Owner) => Err(owner_refusal(shown, meta.uid())),
        Some(who::Lost::Group) => Err(group_refusal(shown, meta.gid(), new_gid)),
    }
}

/// The group a new file in `target`'s folder gets: on Linux the folder's when it
/// has the set-group-ID bit, else the user's effective group `egid`; on macOS and
/// the BSDs always the folder's.
#[cfg(unix)]
fn new_file_gid(target: &Path, egid: u32) -> u32 {
    use std::os::unix::fs::MetadataExt;
    let bsd = cfg!(any(
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    ));
    match std::fs::metadata(super::parent_dir(target)) {
        Ok(folder) if bsd || folder.mode() & 0o2000 != 0 => folder.gid(),
        _ => egid,
    }
}

fn owner_refusal(shown: &Path, uid: u32) -> WriteError {
    refused(
        shown,
        format!("owned by user {uid} and replacing it would make it yours; nothing was written"),
    )
}

/// The file is in group `gid`, which a new file of the user's (in group
/// `new_gid`) cannot be given.
fn group_refusal(shown: &Path, gid: u32, new_gid: u32) -> WriteError {
    let group = who::describe_group(gid);
    refused(
        shown,
        format!(
            "its group is {group}, which you are not in: you could write the file in place, \
             but an edit replaces it with a new file, which could not keep that group (it \
             would be in group {}, which would get the access the file gives its group); \
             nothing was written. Edit it as a member of that group, or change its group \
             first (chgrp)",
            who::describe_group(new_gid)
        ),
    )
}

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
/// `target` (described by `meta`); refused when the owner or the group cannot be
/// kept (chown(2) says so, whatever [`may_replace`] judged).
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
        return Err(owner_refusal(shown, meta.uid()));
    }
    // Our own file: its group, if we are in it.
    fchown(temp, None, Some(meta.gid())).map_err(|_| group_refusal(shown, meta.gid(), mine.gid()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_link_is_fine_and_more_are_refused_saying_how_many() {
        assert_eq!(links_refusal(0), None);
        assert_eq!(links_refusal(1), None);
        let two = links_refusal(2).unwrap();
        assert!(
            two.starts_with("it has 2 hard links (link count 2)"),
            "{two}"
        );
        assert!(two.contains("split the links: the other name keeps the old content"));
        assert!(two.contains("nothing was written"), "{two}");
        let three = links_refusal(3).unwrap();
        assert!(
            three.contains("the other names keep the old content"),
            "{three}"
        );
    }
}
