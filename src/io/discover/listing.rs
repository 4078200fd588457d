//! Lists one folder's entries with their types, reading into a buffer the caller
//! keeps from folder to folder. On Linux that is `open(O_DIRECTORY)` and
//! `getdents64` (rustix's `RawDir`): no `stat` of the folder and no allocation for
//! each folder (or each entry) as `std::fs::read_dir` has, which is most of a large
//! walk's time (docs/performance.md, round 8). Elsewhere it is `std::fs::read_dir`.

use std::ffi::OsStr;
use std::path::Path;

/// What an entry is, by the type the listing gives (symlinks are not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum EntryType {
    Folder,
    File,
    Symlink,
    Other,
}

/// Why a folder could not be listed (wholly, or from some entry on).
#[derive(Debug)]
pub(super) enum ListError {
    Open(std::io::Error),
    Read(std::io::Error),
}

/// The reusable buffer of one walking thread.
pub(super) struct Lister {
    #[cfg(target_os = "linux")]
    entries: Vec<u8>,
}

impl Lister {
    pub(super) fn new() -> Self {
        Lister {
            #[cfg(target_os = "linux")]
            // Not zeroed: the kernel writes what is read, and a page is only
            // touched once a folder fills it (a hook's walk reads a few small
            // folders).
            entries: Vec::with_capacity(32 * 1024),
        }
    }

    /// Calls `each` with the name and type of every entry of `dir` but `.` and
    /// `..`, in the order the file system gives them.
    #[cfg(target_os = "linux")]
    pub(super) fn list(
        &mut self,
        dir: &Path,
        mut each: impl FnMut(&OsStr, EntryType),
    ) -> Result<(), ListError> {
        use rustix::fs::{FileType, Mode, OFlags, RawDir};
        use std::os::unix::ffi::OsStrExt;
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK;
        let fd =
            rustix::fs::open(dir, flags, Mode::empty()).map_err(|e| ListError::Open(e.into()))?;
        let mut entries = RawDir::new(&fd, self.entries.spare_capacity_mut());
        while let Some(entry) = entries.next() {
            let entry = entry.map_err(|e| ListError::Read(e.into()))?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::Directory => EntryType::Folder,
                FileType::RegularFile => EntryType::File,
                FileType::Symlink => EntryType::Symlink,
                FileType::Unknown => type_by_stat(&fd, entry.file_name()),
                _ => EntryType::Other,
            };
            each(OsStr::from_bytes(name), kind);
        }
        Ok(())
    }

    #[cfg(not(target_os = "linux"))]
    pub(super) fn list(
        &mut self,
        dir: &Path,
        mut each: impl FnMut(&OsStr, EntryType),
    ) -> Result<(), ListError> {
        for entry in std::fs::read_dir(dir).map_err(ListError::Open)? {
            let entry = entry.map_err(ListError::Read)?;
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            let kind = if file_type.is_dir() {
                EntryType::Folder
            } else if file_type.is_file() {
                EntryType::File
            } else if file_type.is_symlink() {
                EntryType::Symlink
            } else {
                EntryType::Other
            };
            each(&entry.file_name(), kind);
        }
        Ok(())
    }
}

/// The type of an entry the file system did not type (`DT_UNKNOWN`), as `lstat`
/// gives it; an entry that cannot be read is `Other` (passed over, as before).
#[cfg(target_os = "linux")]
fn type_by_stat(dir: &rustix::fd::OwnedFd, name: &std::ffi::CStr) -> EntryType {
    use rustix::fs::{AtFlags, FileType};
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => match FileType::from_raw_mode(stat.st_mode) {
            FileType::Directory => EntryType::Folder,
            FileType::RegularFile => EntryType::File,
            FileType::Symlink => EntryType::Symlink,
            _ => EntryType::Other,
        },
        Err(_) => EntryType::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::{EntryType, ListError, Lister};

    fn listed(lister: &mut Lister, dir: &std::path::Path) -> Vec<(String, EntryType)> {
        let mut entries = Vec::new();
        lister
            .list(dir, |name, kind| {
                entries.push((name.to_string_lossy().into_owned(), kind));
            })
            .unwrap();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries
    }

    #[test]
    fn lists_every_entry_with_its_type_and_reuses_the_buffer() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir(root.join("folder")).unwrap();
        std::fs::write(root.join("file"), "x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("folder"), root.join("link")).unwrap();
        let mut lister = Lister::new();
        let mut expected = vec![
            ("file".to_string(), EntryType::File),
            ("folder".to_string(), EntryType::Folder),
        ];
        #[cfg(unix)]
        expected.push(("link".to_string(), EntryType::Symlink));
        assert_eq!(listed(&mut lister, root), expected);
        assert_eq!(listed(&mut lister, &root.join("folder")), []);
    }

    /// More entries than one read of the buffer holds: every one, once.
    #[test]
    fn a_folder_larger_than_the_buffer_is_read_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let long = "n".repeat(200);
        let mut expected = Vec::new();
        for i in 0..400 {
            let name = format!("{long}-{i:03}");
            std::fs::write(tmp.path().join(&name), "").unwrap();
            expected.push((name, EntryType::File));
        }
        expected.sort();
        assert_eq!(listed(&mut Lister::new(), tmp.path()), expected);
    }

    #[test]
    fn a_missing_folder_or_a_file_cannot_be_opened() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("file"), "").unwrap();
        let mut lister = Lister::new();
        for path in [tmp.path().join("missing"), tmp.path().join("file")] {
            let result = lister.list(&path, |_, _| panic!("no entry"));
            assert!(matches!(result, Err(ListError::Open(_))), "{result:?}");
        }
        let error = match lister.list(&tmp.path().join("missing"), |_, _| {}) {
            Err(ListError::Open(e)) => e.to_string(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            error,
            std::fs::read_dir(tmp.path().join("missing"))
                .unwrap_err()
                .to_string(),
            "the diagnostic reads as before"
        );
    }
}
