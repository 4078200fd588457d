//! The live context records read off disk for the gauge (`tui::live`) and the
//! order of urgency (`core::urgency`, which `resume-tui list` sorts by too):
//! besides the hooks' `.jerry/context-monitor-state.json`, which the load reads, the status
//! line's per-session records `<launch base>/.jerry/context-window/<session>.json`
//! (`resume-tui statusline`, `io::context_fill::statusline_record`), taken into the
//! workspace's context states as readings of their own. A record the watcher
//! reports changed is read again alone: the hooks and the status line rewrite them
//! on every prompt, which must not cost a load of the whole workspace.

use std::collections::BTreeSet;
use std::path::Path;

use crate::core::launch;
use crate::core::model::{ContextState, Workspace};
use crate::core::normalize::context_state::normalize_context_state;
use crate::core::time::Timestamp;
use crate::io::context_fill::statusline_record;

pub use crate::core::session_fill::STATUSLINE_DIR;
/// At most this many records of one folder are read, the most recently written:
/// a folder keeps one per session ever run, and only the recent ones are live.
const MAX_RECORDS_PER_FOLDER: usize = 64;

/// Whether `rel` (root-relative) is a live record: the hooks' monitor state or a
/// status-line record.
pub fn is_record(rel: &str) -> bool {
    let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let dir_is = |want: &str| dir == want || dir.ends_with(&format!("/{want}"));
    (name == "context-monitor-state.json" && dir_is(".jerry"))
        || (name.ends_with(".json") && dir_is(STATUSLINE_DIR))
}

/// The status-line records of every folder the workspace's projects run Claude
/// Code in, as context states (root-relative paths).
pub fn statusline_states(root: &Path, workspace: &Workspace) -> Vec<ContextState> {
    let bases: BTreeSet<String> = workspace.projects.iter().map(launch::launch_base).collect();
    let mut out = Vec::new();
    for base in bases {
        let folder = launch::join(&base, STATUSLINE_DIR);
        let Ok(entries) = std::fs::read_dir(root.join(&folder)) else {
            continue;
        };
        let mut files: Vec<(std::time::SystemTime, String)> = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let modified = e.metadata().ok()?.modified().ok()?;
                name.ends_with(".json").then_some((modified, name))
            })
            .collect();
        files.sort_unstable_by(|a, b| b.cmp(a));
        files.truncate(MAX_RECORDS_PER_FOLDER);
        out.extend(
            files
                .into_iter()
                .filter_map(|(_, name)| read(root, &format!("{folder}/{name}"))),
        );
    }
    out
}

/// Reads one live record (root-relative `rel`); `None` when it is gone or holds no
/// reading.
pub fn read(root: &Path, rel: &str) -> Option<ContextState> {
    let (dir, name) = rel.rsplit_once('/')?;
    if let Some(session) = name
        .strip_suffix(".json")
        .filter(|_| dir.ends_with(STATUSLINE_DIR))
    {
        let base = dir.strip_suffix(STATUSLINE_DIR)?.trim_end_matches('/');
        let record = statusline_record::read(&root.join(base), session)?;
        return Some(from_statusline(rel, record));
    }
    let bytes = crate::io::write::read_snapshot_capped(&root.join(rel), 64 * 1024).ok()?;
    normalize_context_state(rel, &String::from_utf8_lossy(&bytes.bytes)).ok()
}

fn from_statusline(rel: &str, record: statusline_record::Record) -> ContextState {
    ContextState {
        path: rel.to_string(),
        fill: record
            .used_percentage
            .filter(|p| p.is_finite())
            .map(|p| p / 100.0),
        window: record
            .context_window_size
            .and_then(|w| i64::try_from(w).ok()),
        session_id: Some(record.session_id),
        updated_at: Timestamp::parse(&record.updated_at),
        updated_at_raw: Some(record.updated_at),
        ..ContextState::default()
    }
}

/// Puts records read again into the workspace: replaced by path, dropped when gone.
pub fn apply(workspace: &mut Workspace, read: Vec<(String, Option<ContextState>)>) {
    for (path, state) in read {
        workspace.context_states.retain(|s| s.path != path);
        workspace.context_states.extend(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_told_by_their_folder_and_name() {
        assert!(is_record(".jerry/context-monitor-state.json"));
        assert!(is_record("repo/.jerry/context-monitor-state.json"));
        assert!(is_record("repo/.jerry/context-window/s-1.json"));
        assert!(is_record(".jerry/context-window/abc.json"));
        assert!(!is_record(".jerry/checkpoints/cx-001.json"));
        assert!(!is_record("context-monitor-state.json"));
        assert!(!is_record("x.jerry/context-window/s.json"));
    }

    #[test]
    fn a_statusline_record_is_a_reading_of_its_session() {
        let dir = tempfile::tempdir().unwrap();
        let record = statusline_record::Record {
            session_id: "s-1".into(),
            context_window_size: Some(200_000),
            used_percentage: Some(42.5),
            model: None,
            updated_at: "2026-03-01T12:00:00Z".into(),
        };
        statusline_record::put(&dir.path().join("repo"), &record).unwrap();
        let state = read(dir.path(), "repo/.jerry/context-window/s-1.json").unwrap();
        assert_eq!(state.fill, Some(0.425));
        assert_eq!(state.session_id.as_deref(), Some("s-1"));
        assert_eq!(state.updated_at, Timestamp::parse("2026-03-01T12:00:00Z"));
        assert!(read(dir.path(), "repo/.jerry/context-window/s-2.json").is_none());
        let mut ws = Workspace::default();
        apply(&mut ws, vec![(state.path.clone(), Some(state.clone()))]);
        apply(&mut ws, vec![(state.path.clone(), Some(state.clone()))]);
        assert_eq!(ws.context_states.len(), 1);
        apply(&mut ws, vec![(state.path.clone(), None)]);
        assert!(ws.context_states.is_empty());
    }
}
