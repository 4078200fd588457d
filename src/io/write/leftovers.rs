//! Temporary files a crashed writer left beside a file (`.<name>.XXXXXX.tmp`) are
//! removed by the next write of that file. Only those older than [`STALE_AFTER`]
//! go: a younger one may belong to a writer still at work.

use std::path::Path;
use std::time::{Duration, SystemTime};

/// No writer takes this long between creating its temporary file and renaming it.
pub const STALE_AFTER: Duration = Duration::from_secs(60);

/// The temporary files of `path` that are stale at `now`, removed; how many.
pub fn remove_stale(path: &Path, now: SystemTime) -> usize {
    let prefix = format!(".{}.", super::file_name(path));
    let Ok(entries) = std::fs::read_dir(super::parent_dir(path)) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let random = name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"));
        // tempfile's random part: six letters or digits.
        let ours =
            random.is_some_and(|r| r.len() == 6 && r.bytes().all(|b| b.is_ascii_alphanumeric()));
        if !ours {
            continue;
        }
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let age = meta
            .modified()
            .ok()
            .and_then(|at| now.duration_since(at).ok())
            .unwrap_or_default();
        if meta.is_file() && age >= STALE_AFTER && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}
