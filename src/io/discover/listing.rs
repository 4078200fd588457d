//! Lists one folder's entries with their types, reading into a buffer the caller
//! keeps from folder to folder. On Linux that is `open(O_DIRECTORY)` and
//! `getdents64`: no `stat` of the folder and no allocation for each folder (or
//! each entry) as `std::fs::read_dir` has, which is most of a large walk's time.
//! Elsewhere it is `std::fs::read_dir`.

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

/// The reusable buffers of one walking thread.
pub(super) struct Lister {
    #[cfg(target_os = "linux")]
    entries: Vec<u64>,
    #[cfg(target_os = "linux")]
    c_path: Vec<u8>,
}

impl Lister {
    pub(super) fn new() -> Self {
        Lister {
            #[cfg(target_os = "linux")]
            // Not zeroed: the kernel writes what is read, and a page is only
            // touched once a folder fills it (a hook's walk reads a few small
            // folders).
            entries: Vec::with_capacity(32 * 1024 / 8),
            #[cfg(target_os = "linux")]
            c_path: Vec::new(),
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
        use std::os::unix::ffi::OsStrExt;
        let bytes = dir.as_os_str().as_bytes();
        if bytes.contains(&0) {
            let nul = std::io::Error::new(std::io::ErrorKind::InvalidInput, "NUL in the path");
            return Err(ListError::Open(nul));
        }
        self.c_path.clear();
        self.c_path.extend_from_slice(bytes);
        self.c_path.push(0);
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC | libc::O_NONBLOCK;
        // SAFETY: `c_path` is NUL-terminated and has no other NUL.
        let fd = unsafe { libc::open(self.c_path.as_ptr().cast(), flags) };
        if fd < 0 {
            return Err(ListError::Open(std::io::Error::last_os_error()));
        }
        let fd = Fd(fd);
        loop {
            let spare = self.entries.spare_capacity_mut();
            let capacity = std::mem::size_of_val(spare);
            // SAFETY: the buffer is `capacity` bytes, 8-byte aligned as the
            // records are; the kernel only writes to it.
            let read =
                unsafe { libc::syscall(libc::SYS_getdents64, fd.0, spare.as_mut_ptr(), capacity) };
            if read < 0 {
                return Err(ListError::Read(std::io::Error::last_os_error()));
            }
            let Ok(read) = usize::try_from(read) else {
                return Ok(());
            };
            if read == 0 {
                return Ok(());
            }
            // SAFETY: the kernel wrote `read` bytes (at most `capacity`) of
            // records into the buffer.
            let records = unsafe { std::slice::from_raw_parts(spare.as_ptr().cast::<u8>(), read) };
            for (name, d_type) in Records(records) {
                if name == b"." || name == b".." {
                    continue;
                }
                let kind = match d_type {
                    libc::DT_DIR => EntryType::Folder,
                    libc::DT_REG => EntryType::File,
                    libc::DT_LNK => EntryType::Symlink,
                    libc::DT_UNKNOWN => type_by_stat(&fd, name),
                    _ => EntryType::Other,
                };
                each(OsStr::from_bytes(name), kind);
            }
        }
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

#[cfg(target_os = "linux")]
struct Fd(libc::c_int);

#[cfg(target_os = "linux")]
impl Drop for Fd {
    fn drop(&mut self) {
        // SAFETY: the descriptor is ours and closed once.
        unsafe { libc::close(self.0) };
    }
}

/// The `linux_dirent64` records of one `getdents64`: each name (without its NUL)
/// and `d_type`.
#[cfg(target_os = "linux")]
struct Records<'a>(&'a [u8]);

#[cfg(target_os = "linux")]
impl<'a> Iterator for Records<'a> {
    type Item = (&'a [u8], u8);

    fn next(&mut self) -> Option<Self::Item> {
        // d_ino: u64, d_off: i64, d_reclen: u16, d_type: u8, d_name: [u8].
        const NAME_AT: usize = 19;
        let record = self.0;
        let reclen = usize::from(u16::from_ne_bytes([*record.get(16)?, *record.get(17)?]));
        let (this, rest) = record.split_at_checked(reclen)?;
        self.0 = rest;
        let d_type = *this.get(18)?;
        let name = this.get(NAME_AT..)?;
        let name = name.split(|&b| b == 0).next().unwrap_or_default();
        Some((name, d_type))
    }
}

/// The type of an entry the file system did not type (`DT_UNKNOWN`), as `lstat`
/// gives it; an entry that cannot be read is `Other` (passed over, as before).
#[cfg(target_os = "linux")]
fn type_by_stat(dir: &Fd, name: &[u8]) -> EntryType {
    let Ok(c_name) = std::ffi::CString::new(name) else {
        return EntryType::Other;
    };
    // SAFETY: `stat` is plain data, written by the call before it is read.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid descriptor, a NUL-terminated name and a `stat` to fill.
    let done =
        unsafe { libc::fstatat(dir.0, c_name.as_ptr(), &mut stat, libc::AT_SYMLINK_NOFOLLOW) };
    if done != 0 {
        return EntryType::Other;
    }
    match stat.st_mode & libc::S_IFMT {
        libc::S_IFDIR => EntryType::Folder,
        libc::S_IFREG => EntryType::File,
        libc::S_IFLNK => EntryType::Symlink,
        _ => EntryType::Other,
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
