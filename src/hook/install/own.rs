//! Which file this binary is. A settings entry is resume-tui's when its program is
//! named `resume-tui`, or when it is this very file under another name: a release
//! download (`resume-tui-x86_64-linux`), a renamed copy, a symlink or a hard link
//! to it. `hooks install` and `doctor` build one [`OwnExe`] from the running
//! executable and pass it down, so the matching itself can be tested on any file.

use std::path::{Path, PathBuf};

/// The running binary, as far as it could be resolved. The default knows no
/// file: only the name `resume-tui` then makes an entry ours.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OwnExe {
    /// Its path (canonical when it could be resolved).
    path: Option<PathBuf>,
    /// Its (device, inode), when it could be read (Unix).
    id: Option<(u64, u64)>,
}

impl OwnExe {
    /// The running executable (`std::env::current_exe`); nothing known when it
    /// cannot be found.
    pub fn current() -> OwnExe {
        std::env::current_exe()
            .map(|exe| OwnExe::at(&exe))
            .unwrap_or_default()
    }

    /// The file at `path`: its canonical path and file id, read now. A path that
    /// cannot be resolved is kept as given (then only that text matches).
    pub fn at(path: &Path) -> OwnExe {
        OwnExe {
            path: Some(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())),
            id: file_id(path),
        }
    }

    /// Whether `program`, as a settings entry names it, is this file: the same
    /// text, or (an absolute path) the same file once resolved, or the same
    /// (device, inode).
    pub fn is(&self, program: &str) -> bool {
        let Some(mine) = &self.path else {
            return false;
        };
        let theirs = Path::new(program);
        if theirs == mine.as_path() {
            return true;
        }
        if !theirs.is_absolute() {
            // Found through PATH at run time: not resolved here.
            return false;
        }
        if self.id.is_some() && self.id == file_id(theirs) {
            return true;
        }
        std::fs::canonicalize(theirs).is_ok_and(|theirs| theirs == *mine)
    }
}

#[cfg(unix)]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_path: &Path) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_known_matches_nothing() {
        assert!(!OwnExe::default().is("/opt/bin/rt"));
        assert!(!OwnExe::default().is(""));
    }

    #[test]
    fn the_same_text_matches_without_the_file() {
        let own = OwnExe::at(Path::new("/nowhere/rt-h15"));
        assert!(own.is("/nowhere/rt-h15"));
        assert!(!own.is("/nowhere/rt-h16"));
        assert!(!own.is("rt-h15"), "a bare name is not resolved");
    }

    #[test]
    fn another_path_to_the_same_file_matches() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("resume-tui-x86_64-linux");
        std::fs::write(&exe, "binary").unwrap();
        let other = dir.path().join("other-tool");
        std::fs::write(&other, "binary").unwrap();
        let own = OwnExe::at(&exe);
        assert!(own.is(exe.to_str().unwrap()));
        let dotted = dir.path().join(".").join("resume-tui-x86_64-linux");
        assert!(
            own.is(dotted.to_str().unwrap()),
            "same file, other spelling"
        );
        assert!(!own.is(other.to_str().unwrap()), "same bytes, other file");
        #[cfg(unix)]
        {
            let link = dir.path().join("rt");
            std::os::unix::fs::symlink(&exe, &link).unwrap();
            assert!(own.is(link.to_str().unwrap()), "symlink");
            let hard = dir.path().join("rt-hard");
            std::fs::hard_link(&exe, &hard).unwrap();
            assert!(own.is(hard.to_str().unwrap()), "hard link");
            // Built from the symlink: still the file it leads to.
            assert!(OwnExe::at(&link).is(exe.to_str().unwrap()));
        }
    }
}
