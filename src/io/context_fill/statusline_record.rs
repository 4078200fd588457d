//! What `resume-tui statusline` records per session, so the hooks and `monitor`
//! take Claude Code's own window size and fill: one small JSON file per session in
//! `<project>/.jerry/context-window/<session_id>.json` (format in docs/hooks.md).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::io::write::{self, WriteError};

/// Records larger than this are not read.
const MAX_RECORD_BYTES: u64 = 16 * 1024;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub session_id: String,
    /// `context_window.context_window_size`.
    pub context_window_size: Option<u64>,
    /// `context_window.used_percentage` (0–100).
    pub used_percentage: Option<f64>,
    /// `model.id`.
    pub model: Option<String>,
    pub updated_at: String,
}

/// The record's path, or `None` for a session id that is not a plain file name.
pub fn path(project_dir: &Path, session_id: &str) -> Option<PathBuf> {
    plain_session_id(session_id)
        .then(|| records_dir(project_dir).join(format!("{session_id}.json")))
}

/// The folder of every session's records (this one and `session_evidence`'s).
pub fn records_dir(project_dir: &Path) -> PathBuf {
    project_dir.join(".jerry").join("context-window")
}

/// Whether a session id is a plain file name, the only ones recorded: letters,
/// digits, `-`, `_`, at most 128 characters.
pub fn plain_session_id(session_id: &str) -> bool {
    !session_id.is_empty()
        && session_id.len() <= 128
        && session_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

pub fn read(project_dir: &Path, session_id: &str) -> Option<Record> {
    let snapshot =
        write::read_snapshot_capped(&path(project_dir, session_id)?, MAX_RECORD_BYTES).ok()?;
    let record: Record = serde_json::from_slice(&snapshot.bytes).ok()?;
    (record.session_id == session_id).then_some(record)
}

/// Writes `record` atomically, without fsync (`cache_options`); nothing when the
/// figures are unchanged. Returns whether the file was written.
pub fn put(project_dir: &Path, record: &Record) -> Result<bool, WriteError> {
    let Some(path) = path(project_dir, &record.session_id) else {
        return Ok(false);
    };
    let mut bytes = serde_json::to_vec_pretty(record).unwrap_or_default();
    bytes.push(b'\n');
    match write::read_snapshot_capped(&path, MAX_RECORD_BYTES) {
        Ok(snapshot) => {
            let old: Option<Record> = serde_json::from_slice(&snapshot.bytes).ok();
            if old.is_some_and(|o| same_figures(&o, record)) {
                return Ok(false);
            }
            write::replace_cache_with(&snapshot, &bytes, &cache_options())?;
        }
        Err(e) if e.is_missing() => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| WriteError::io(dir, e))?;
            }
            write::create_new_with(&path, &bytes, Some(write::OWNER_ONLY), &cache_options())?;
        }
        Err(e) => return Err(e),
    }
    Ok(true)
}

/// The record is a cache, rewritten whenever Claude Code's figures change (after
/// every response), like the hooks' window evidence: not fsynced. Lost in a crash,
/// it is written again at the next refresh, and the monitor meanwhile falls back
/// on the other evidence.
fn cache_options() -> write::Options<'static> {
    write::Options {
        durable: false,
        lock_timeout: write::HOOK_LOCK_WAIT,
        // The hooks' own files: a hard-link snapshot's copy keeps the old content.
        split_links: true,
        ..write::Options::default()
    }
}

fn same_figures(a: &Record, b: &Record) -> bool {
    a.context_window_size == b.context_window_size
        && a.used_percentage == b.used_percentage
        && a.model == b.model
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, pct: f64) -> Record {
        Record {
            session_id: id.into(),
            context_window_size: Some(200_000),
            used_percentage: Some(pct),
            model: Some("claude-sonnet-4-5".into()),
            updated_at: "2026-03-01T12:00:00Z".into(),
        }
    }

    #[test]
    fn written_once_per_change_and_read_back_for_its_session_only() {
        let dir = tempfile::tempdir().unwrap();
        assert!(put(dir.path(), &record("s-1", 42.0)).unwrap());
        assert!(!put(dir.path(), &record("s-1", 42.0)).unwrap());
        assert!(put(dir.path(), &record("s-1", 43.5)).unwrap());
        assert_eq!(read(dir.path(), "s-1").unwrap().used_percentage, Some(43.5));
        assert!(read(dir.path(), "s-2").is_none());
        assert!(path(dir.path(), "../escape").is_none());
        assert!(!put(dir.path(), &record("a/b", 1.0)).unwrap());
    }
}
