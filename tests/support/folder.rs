//! Files in a folder for tests: walking the shared corpus, the demo or a temporary
//! copy (every walk sorted, so a test reads files in the same order everywhere),
//! copying a tree, writing a file.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file under `root`, sorted. Folders are entered as `Path::is_dir` sees them
/// (a link to a folder is entered); an unreadable folder fails the test.
pub fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The last part of `path`, lossily.
pub fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Every `ORCHESTRATION*.yaml` under `root` (templates and backups included), sorted.
pub fn orchestration_files(root: &Path) -> Vec<PathBuf> {
    files_under(root)
        .into_iter()
        .filter(|path| {
            let name = file_name(path);
            name.starts_with("ORCHESTRATION") && name.ends_with(".yaml")
        })
        .collect()
}

/// `path` relative to `root`, with `/` separators.
pub fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// Every file under `root`, root-relative (`relative`), with its bytes.
pub fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    files_under(root)
        .into_iter()
        .map(|path| (relative(root, &path), std::fs::read(&path).unwrap()))
        .collect()
}

/// Copies the folder `from` into `to` (created), byte for byte.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::write(&target, std::fs::read(&path).unwrap()).unwrap();
        }
    }
}

/// Writes `text` to `root/rel`, creating its folders.
pub fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A temporary folder holding the demo workspace as unpacked at `now`.
pub fn demo_copy(now: resume_tui::core::time::Timestamp) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    resume_tui::io::demo::unpack_into(dir.path(), now).unwrap();
    dir
}
