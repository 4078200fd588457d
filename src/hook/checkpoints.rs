//! The project's `.jerry/checkpoints/` folder as hooks see it: file names listed
//! without a walk, numbers of both namings (`cx-NNN-checkpoint.json`, `cx-NNN.json`),
//! acknowledgement markers, and the few files that need reading.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::checkpoint_budget::{MAX_FILES, read_newest};
use super::output::HookOutcome;
use crate::core::model::Checkpoint;
use crate::core::normalize::checkpoint::normalize_checkpoint;
use crate::io::fence::text_under_root;
use crate::io::write::{Snapshot, read_listed_snapshot_capped, read_snapshot_capped};

/// Checkpoints larger than this are not read by a hook (refused unread).
pub const MAX_CHECKPOINT_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointFile {
    pub number: u32,
    /// `cx-NNN` as named on disk (the digits as written).
    pub id: String,
    pub path: PathBuf,
    /// `cx-NNN-checkpoint.json` (design) rather than `cx-NNN.json` (real Jerry).
    pub design: bool,
    /// A `cx-NNN.acknowledged` marker sits beside it.
    pub marker: bool,
    /// The folder's listing called it a regular file (not a symlink): read
    /// without a look first (`write::read_listed_snapshot_capped`).
    pub listed_regular: bool,
}

/// Checkpoint files in `dir`, oldest first; an unreadable or missing folder is empty.
pub fn list(dir: &Path) -> Vec<CheckpointFile> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    let mut markers = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((digits, rest)) = split_name(&name) else {
            continue;
        };
        let Ok(number) = digits.parse::<u32>() else {
            continue;
        };
        let design = match rest {
            "-checkpoint.json" => true,
            ".json" => false,
            ".acknowledged" => {
                markers.push(number);
                continue;
            }
            _ => continue,
        };
        files.push(CheckpointFile {
            number,
            id: format!("cx-{digits}"),
            path: entry.path(),
            design,
            marker: false,
            listed_regular: entry.file_type().is_ok_and(|t| t.is_file()),
        });
    }
    for file in &mut files {
        file.marker = markers.contains(&file.number);
    }
    files.sort_by_key(|f| (f.number, f.design));
    files
}

fn split_name(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("cx-")?;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    Some((rest.get(..digits)?, rest.get(digits..)?))
}

/// One past the highest number of either naming.
pub fn next_number(files: &[CheckpointFile]) -> u32 {
    files
        .iter()
        .map(|f| f.number)
        .max()
        .unwrap_or(0)
        .saturating_add(1)
}

/// `cx-NNN-checkpoint.json`, zero-padded to three digits.
pub fn design_file_name(number: u32) -> String {
    format!("cx-{number:03}-checkpoint.json")
}

pub fn event_id(number: u32) -> String {
    format!("cx-{number:03}")
}

/// A checkpoint file's bytes, at most 4 MB. One that is there but is not read (a
/// FIFO, too large, unreadable) is `None`, and said in `out`'s log.
fn read(file: &CheckpointFile, out: &mut HookOutcome) -> Option<Snapshot> {
    let read = if file.listed_regular {
        read_listed_snapshot_capped(&file.path, MAX_CHECKPOINT_BYTES)
    } else {
        read_snapshot_capped(&file.path, MAX_CHECKPOINT_BYTES)
    };
    match read {
        Ok(snapshot) => Some(snapshot),
        Err(e) => {
            if !e.is_missing() {
                out.error(format!("{e}; skipped"));
            }
            None
        }
    }
}

/// The newest design checkpoint written for `session_id`, newest first among `files`.
pub fn newest_of_session(
    files: &[CheckpointFile],
    session_id: &str,
    out: &mut HookOutcome,
) -> Option<(CheckpointFile, Snapshot, serde_json::Map<String, Value>)> {
    let may_hold = SessionBytes::new(session_id);
    let mut newest = files.iter().rev().filter(|f| f.design).take(MAX_FILES);
    newest.find_map(|file| {
        let snapshot = read(file, out)?;
        if !may_hold.in_file(&snapshot.bytes) {
            return None;
        }
        let Ok(Value::Object(map)) = serde_json::from_slice(&snapshot.bytes) else {
            return None;
        };
        let same = map.get("session_id").and_then(Value::as_str) == Some(session_id);
        same.then(|| (file.clone(), snapshot, map))
    })
}

/// A session id searched for as bytes, to skip unparsed the files that cannot
/// hold it: only when every writer writes it as it is (`verbatim_in_json`);
/// otherwise every file may hold it.
struct SessionBytes<'a>(Option<memchr::memmem::Finder<'a>>);

impl<'a> SessionBytes<'a> {
    fn new(session_id: &'a str) -> SessionBytes<'a> {
        SessionBytes(verbatim_in_json(session_id).then(|| memchr::memmem::Finder::new(session_id)))
    }

    fn in_file(&self, bytes: &[u8]) -> bool {
        self.0
            .as_ref()
            .is_none_or(|finder| finder.find(bytes).is_some())
    }
}

/// Whether every JSON writer writes `text` as it is inside a string (printable
/// ASCII without a quote or backslash: nothing to escape, even for writers that
/// escape non-ASCII), so a file that does not hold its bytes cannot hold it as a
/// value: such files are skipped without parsing.
fn verbatim_in_json(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\' && b != b'/')
}

/// Every checkpoint in the folder, normalised, oldest first (those not read or
/// not valid skipped).
pub fn load_all(
    files: &[CheckpointFile],
    project_dir: &Path,
    out: &mut HookOutcome,
) -> Vec<Checkpoint> {
    read_newest(files, out, read)
        .into_iter()
        .filter_map(|(file, snapshot)| normalize(file, &snapshot, project_dir))
        .collect()
}

/// The checkpoints written in `session_id`, normalised, oldest first: a subset
/// of [`load_all`]'s, in its order. Files that cannot hold the id are skipped
/// unparsed (see `verbatim_in_json`).
pub fn load_of_session(
    files: &[CheckpointFile],
    project_dir: &Path,
    session_id: &str,
    out: &mut HookOutcome,
) -> Vec<Checkpoint> {
    let may_hold = SessionBytes::new(session_id);
    read_newest(files, out, read)
        .into_iter()
        .filter_map(|(file, snapshot)| {
            if !may_hold.in_file(&snapshot.bytes) {
                return None;
            }
            normalize(file, &snapshot, project_dir)
        })
        .filter(|c| c.session_id.as_deref() == Some(session_id))
        .collect()
}

fn normalize(file: &CheckpointFile, snapshot: &Snapshot, project_dir: &Path) -> Option<Checkpoint> {
    // `from_utf8` checks ASCII a word at a time; the lossy decoder, only for the
    // files that need it, goes a character at a time.
    let text = match std::str::from_utf8(&snapshot.bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(&snapshot.bytes),
    };
    let rel = relative(project_dir, &file.path);
    normalize_checkpoint(&rel, &text, file.marker).ok()
}

/// `path` relative to `root` with `/` separators, or the path as given.
pub fn relative(root: &Path, path: &Path) -> String {
    // The usual case, a path joined onto `root`: its text after `root/`, when
    // that has only plain components (what the component walk below would give).
    if let Some(rest) = path.to_str().and_then(|path| text_under_root(root, path))
        && !rest.contains('\\')
        && rest.split('/').all(|part| !matches!(part, "" | "." | ".."))
    {
        return rest.to_string();
    }
    match path.strip_prefix(root) {
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_both_namings_and_markers_and_numbers_past_both() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "cx-001.json",
            "cx-002-checkpoint.json",
            "cx-036.json",
            "cx-036.acknowledged",
            "cx-x.json",
            "notes.md",
            "cx-1000-checkpoint.json.lock",
        ] {
            std::fs::write(dir.path().join(name), "{}").unwrap();
        }
        let files = list(dir.path());
        let ids: Vec<(&str, bool, bool)> = files
            .iter()
            .map(|f| (f.id.as_str(), f.design, f.marker))
            .collect();
        assert_eq!(
            ids,
            [
                ("cx-001", false, false),
                ("cx-002", true, false),
                ("cx-036", false, true)
            ]
        );
        assert_eq!(next_number(&files), 37);
        assert_eq!(design_file_name(37), "cx-037-checkpoint.json");
        assert_eq!(design_file_name(1234), "cx-1234-checkpoint.json");
        assert_eq!(next_number(&[]), 1);
        assert!(list(&dir.path().join("missing")).is_empty());
    }

    /// The text shortcut gives what the component walk gives, and leaves every
    /// path it cannot vouch for to it.
    #[test]
    fn relative_paths_agree_with_the_component_walk() {
        let walk = |root: &str, path: &str| match Path::new(path).strip_prefix(root) {
            Ok(rel) => rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/"),
            Err(_) => path.to_string(),
        };
        for (root, path) in [
            ("/ws", "/ws/.jerry/checkpoints/cx-001.json"),
            ("/ws/", "/ws/.jerry/checkpoints/cx-001.json"),
            ("/ws/.", "/ws/./.jerry/x.json"),
            ("/ws", "/ws//.jerry/x.json"),
            ("/ws", "/ws/a/./b/../c.json"),
            ("/ws", "/wsx/a.json"),
            ("/ws", "/elsewhere/a.json"),
            ("/ws", "/ws/a\\b.json"),
            ("ws", "ws/a/b.json"),
            ("/", "/a/b.json"),
        ] {
            assert_eq!(
                relative(Path::new(root), Path::new(path)),
                walk(root, path),
                "{root} {path}"
            );
        }
    }

    /// A session's checkpoints are exactly those of `load_all` with its id, in the
    /// same order, whether or not the id can be searched for as bytes.
    #[test]
    fn a_sessions_checkpoints_are_load_alls_with_its_id() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, body: &str| std::fs::write(dir.path().join(name), body).unwrap();
        write(
            "cx-001.json",
            r#"{"checkpoint_id": "cx-001", "session_id": "s-1"}"#,
        );
        write(
            "cx-002.json",
            r#"{"checkpoint_id": "cx-002", "session_id": "s-2"}"#,
        );
        write(
            "cx-003.json",
            r#"{"checkpoint_id": "cx-003", "note": "s-1 only named"}"#,
        );
        write(
            "cx-004.json",
            r#"{"checkpoint_id": "cx-004", "session_id": "s-1"}"#,
        );
        write(
            "cx-005.json",
            r#"{"checkpoint_id": "cx-005", "session_id": "s-\u00e9"}"#,
        );
        write("cx-006.json", "not json s-1");
        let files = list(dir.path());
        let mut out = HookOutcome::default();
        let all = load_all(&files, dir.path(), &mut out);
        for session in ["s-1", "s-2", "s-é", "s-3"] {
            let expected: Vec<&str> = all
                .iter()
                .filter(|c| c.session_id.as_deref() == Some(session))
                .map(|c| c.id.as_str())
                .collect();
            let got = load_of_session(&files, dir.path(), session, &mut out);
            let got: Vec<&str> = got.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(got, expected, "{session}");
        }
        let ids = |s| load_of_session(&files, dir.path(), s, &mut HookOutcome::default()).len();
        assert_eq!((ids("s-1"), ids("s-é"), ids("s-3")), (2, 1, 0));
    }

    /// Past the budget, the oldest checkpoints are left unread, and the log says so.
    #[test]
    fn a_hook_reads_only_the_newest_checkpoints() {
        let dir = tempfile::tempdir().unwrap();
        let extra = 5;
        for n in 1..=MAX_FILES + extra {
            let body = format!(r#"{{"checkpoint_id": "cx-{n:03}", "session_id": "s-1"}}"#);
            std::fs::write(dir.path().join(format!("cx-{n:03}.json")), body).unwrap();
        }
        let files = list(dir.path());
        let mut out = HookOutcome::default();
        let all = load_all(&files, dir.path(), &mut out);
        assert_eq!(all.len(), MAX_FILES);
        assert_eq!(all.first().map(|c| c.id.as_str()), Some("cx-006"));
        assert!(
            out.log
                .iter()
                .any(|(_, m)| m.starts_with("5 older checkpoint(s) left unread")),
            "{:?}",
            out.log
        );
        let mine = load_of_session(&files, dir.path(), "s-1", &mut HookOutcome::default());
        assert_eq!(mine.len(), MAX_FILES);
    }

    /// A file the listing called regular is read without a look first; what
    /// has taken its place since is still checked: a FIFO is refused without
    /// waiting, a symlink is read through as a listed symlink is.
    #[cfg(unix)]
    #[test]
    fn files_listed_regular_are_read_and_what_replaced_them_is_checked() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let body = |id: &str| format!(r#"{{"checkpoint_id": "{id}", "session_id": "s-1"}}"#);
        std::fs::write(dir.path().join("cx-001.json"), body("cx-001")).unwrap();
        std::fs::write(outside.path().join("real.json"), body("cx-002")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("real.json"),
            dir.path().join("cx-002.json"),
        )
        .unwrap();
        let files = list(dir.path());
        let listed: Vec<bool> = files.iter().map(|f| f.listed_regular).collect();
        assert_eq!(listed, [true, false]);
        let ids = |out: &mut HookOutcome| -> Vec<String> {
            load_all(&files, dir.path(), out)
                .into_iter()
                .map(|c| c.id)
                .collect()
        };
        assert_eq!(ids(&mut HookOutcome::default()), ["cx-001", "cx-002"]);

        let first = dir.path().join("cx-001.json");
        std::fs::remove_file(&first).unwrap();
        crate::io::test_support::mkfifo(&first);
        let mut out = HookOutcome::default();
        assert_eq!(ids(&mut out), ["cx-002"]);
        assert!(
            out.log
                .iter()
                .any(|(_, line)| line.contains("not a regular file")),
            "{:?}",
            out.log
        );

        std::fs::remove_file(&first).unwrap();
        std::fs::write(outside.path().join("first.json"), body("cx-001")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("first.json"), &first).unwrap();
        assert_eq!(ids(&mut HookOutcome::default()), ["cx-001", "cx-002"]);
    }

    #[test]
    fn the_newest_checkpoint_of_a_session_is_found_among_others() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, body: &str| std::fs::write(dir.path().join(name), body).unwrap();
        write("cx-001-checkpoint.json", r#"{"session_id": "s-1", "n": 1}"#);
        write("cx-002-checkpoint.json", r#"{"session_id": "s-2", "n": 2}"#);
        write(
            "cx-003-checkpoint.json",
            r#"{"note": "s-1 mentioned, not its session"}"#,
        );
        write(
            "cx-004-checkpoint.json",
            r#"{"session_id": "s-\u00e9", "n": 4}"#,
        );
        let files = list(dir.path());
        let mut out = HookOutcome::default();
        let n = |found: Option<(CheckpointFile, Snapshot, serde_json::Map<String, Value>)>| {
            found.and_then(|(_, _, map)| map.get("n").and_then(Value::as_u64))
        };
        assert_eq!(n(newest_of_session(&files, "s-1", &mut out)), Some(1));
        assert_eq!(n(newest_of_session(&files, "s-2", &mut out)), Some(2));
        assert_eq!(n(newest_of_session(&files, "s-3", &mut out)), None);
        // An id a writer may escape is compared after parsing.
        assert_eq!(n(newest_of_session(&files, "s-é", &mut out)), Some(4));
        assert!(verbatim_in_json("0b6f1c2e-2f0a-4c53-9a61-6f1b0f1d2e3c"));
        for escaped in ["", "a\"b", "a\\b", "a/b", "é", "a\nb"] {
            assert!(!verbatim_in_json(escaped), "{escaped:?}");
        }
    }
}
