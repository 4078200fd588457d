//! The compaction alert's lifecycle (docs/hooks.md): a checkpoint's alert goes
//! once, to the session that compacted, and its delivery is recorded in
//! `.jerry/alert-deliveries.json`. Delivery is not acknowledgement, which stays the
//! operator's (`ack`, the dashboard). Checkpoints with no session id never alert.
//! The same record says when the checkpoint's "Dropped by compaction" section
//! reached the session: Claude Code runs PostCompact, which brings the summary,
//! after SessionStart(compact), so the section usually goes with the next prompt.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::context::jerry_dir;
use super::output::{HookOutcome, WriteOp};
use crate::core::model::Checkpoint;
use crate::core::render::state;
use crate::core::time::Timestamp;
use crate::io::write::read_snapshot_capped;

/// A deliveries file larger than this is not read (and every alert counts as due).
const MAX_BYTES: u64 = 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Delivery {
    pub session_id: String,
    /// The hook that injected it: `SessionStart(compact)`, `UserPromptSubmit`.
    pub via: String,
    pub delivered_at: String,
    /// When the "Dropped by compaction" section went to the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped_delivered_at: Option<String>,
    /// When an alert SessionStart(compact) printed was found kept in the
    /// session's transcript (proof the client passes it on to the model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_by_client_at: Option<String>,
}

/// Where the refusal of an unusable deliveries file is remembered: it is logged
/// once per file (the link, its target, its change time) and reason, not at
/// every event, which would fill the log on every prompt.
pub fn refusal_path(root: &Path) -> PathBuf {
    jerry_dir(root).join("alert-deliveries.refused")
}

/// No alert can be recorded, so none is due; `why` is logged unless the same
/// refusal of the same file was logged before.
fn blocked(root: &Path, why: String, out: &mut HookOutcome) -> Deliveries {
    let message = format!(
        "{why}; a delivery cannot be recorded there, so the compaction alert is not \
         injected (it would repeat on every prompt); put a regular file or nothing there"
    );
    let seen = format!("{}\n{why}\n", identity(&path(root)));
    let marker = refusal_path(root);
    let said = read_snapshot_capped(&marker, 64 * 1024).ok();
    if said.is_some_and(|s| s.bytes == seen.as_bytes()) {
        out.explain(format!("{message} (logged before)"));
    } else {
        out.error(message);
        match WriteOp::put(&marker, seen.into_bytes()) {
            Ok(op) => out.write_cache(marker, op, "the refusal remembered, to log it once"),
            Err(e) => out.explain(format!("{e}; the refusal will be logged again")),
        }
    }
    Deliveries(BTreeMap::new(), true)
}

/// What tells one file at `path` from another put in its place: the entry's
/// device, inode and change time, and a link's target.
fn identity(path: &Path) -> String {
    let target = std::fs::read_link(path)
        .map(|t| t.display().to_string())
        .unwrap_or_default();
    match std::fs::symlink_metadata(path) {
        #[cfg(unix)]
        Ok(m) => {
            use std::os::unix::fs::MetadataExt;
            format!(
                "{}:{}:{}.{} {target}",
                m.dev(),
                m.ino(),
                m.ctime(),
                m.ctime_nsec()
            )
        }
        #[cfg(not(unix))]
        Ok(m) => format!("{:?} {target}", m.modified().ok()),
        Err(e) => format!("{:?}", e.kind()),
    }
}

/// The mark an alert's text carries, looked for in the transcript.
pub const ALERT_MARK: &str = "<compaction-alert>";

/// What one hook delivered for a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivered {
    pub alert: bool,
    pub dropped: bool,
}

/// Deliveries by checkpoint path (root-relative, as `Checkpoint::path`), and
/// whether a delivery cannot be recorded (the file is a symbolic link, a FIFO,
/// over the cap, unreadable): then no alert is due, since one injected without a
/// record would be injected again on every prompt; the dashboard still shows it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Deliveries(BTreeMap<String, Delivery>, bool);

pub fn path(root: &Path) -> PathBuf {
    jerry_dir(root).join("alert-deliveries.json")
}

impl Deliveries {
    pub fn load(root: &Path, out: &mut HookOutcome) -> Deliveries {
        let path = path(root);
        // A link, even one to nothing, is never written through, and a write
        // in its place is refused: see `Deliveries`.
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return blocked(root, format!("{}: a symbolic link", path.display()), out);
        }
        let snapshot = match read_snapshot_capped(&path, MAX_BYTES) {
            Ok(snapshot) => snapshot,
            Err(e) if e.is_missing() => return Deliveries::default(),
            Err(e) => return blocked(root, e.to_string(), out),
        };
        match serde_json::from_slice(&snapshot.bytes) {
            Ok(map) => Deliveries(map, false),
            Err(e) => {
                out.error(format!(
                    "{}: {e}; alerts count as undelivered",
                    path.display()
                ));
                Deliveries::default()
            }
        }
    }

    pub fn delivered(&self, checkpoint: &Checkpoint) -> Option<&Delivery> {
        self.0.get(&checkpoint.path)
    }

    /// The alert due in `session_id`: its newest unacknowledged checkpoint not yet
    /// delivered. Nothing for a payload with no session id.
    pub fn due<'a>(
        &self,
        all: &'a [Checkpoint],
        session_id: Option<&str>,
    ) -> Option<&'a Checkpoint> {
        if self.1 {
            return None;
        }
        let session_id = session_id.filter(|s| !s.is_empty())?;
        state::in_order(all).into_iter().rev().find(|c| {
            !c.acknowledged
                && c.session_id.as_deref() == Some(session_id)
                && self.delivered(c).is_none()
        })
    }

    /// The session's newest checkpoint when its alert went out with
    /// SessionStart(compact) and nothing has shown yet that the client kept it:
    /// Claude Code 2.1.76, after `/compact` in print mode, drops what that hook
    /// printed, so a delivery there proves nothing until the transcript holds it.
    pub fn unproven_compact_alert<'a>(
        &self,
        all: &'a [Checkpoint],
        session_id: Option<&str>,
    ) -> Option<&'a Checkpoint> {
        let session_id = session_id.filter(|s| !s.is_empty())?;
        let newest = state::in_order(all)
            .into_iter()
            .rev()
            .find(|c| c.session_id.as_deref() == Some(session_id))?;
        let delivery = self.delivered(newest)?;
        (!newest.acknowledged
            && delivery.via == "SessionStart(compact)"
            && delivery.kept_by_client_at.is_none())
        .then_some(newest)
    }

    /// Notes that the client kept `checkpoint`'s alert (written by the next `save`
    /// or `record`).
    pub fn mark_kept(&mut self, checkpoint: &Checkpoint, now: Timestamp) {
        if let Some(delivery) = self.0.get_mut(&checkpoint.path) {
            delivery.kept_by_client_at = Some(now.to_iso());
        }
    }

    pub fn save(&self, root: &Path, what: String, out: &mut HookOutcome) {
        let Ok(mut text) = serde_json::to_string_pretty(&self.0) else {
            return;
        };
        text.push('\n');
        let path = path(root);
        match WriteOp::put(&path, text.into_bytes()) {
            Ok(op) => out.write(path, op, what),
            Err(e) => out.error(format!("{e}; delivery not recorded")),
        }
    }

    /// Whether the "Dropped by compaction" section of `checkpoint` went out already.
    pub fn dropped_delivered(&self, checkpoint: &Checkpoint) -> bool {
        self.delivered(checkpoint)
            .is_some_and(|d| d.dropped_delivered_at.is_some())
    }

    /// Plans the write that records what went to `session_id` for `checkpoint`:
    /// the alert, the dropped section, or both. A dropped section alone is
    /// recorded only beside an alert delivered before (an alert still due keeps
    /// the checkpoint undelivered).
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        mut self,
        root: &Path,
        checkpoint: &Checkpoint,
        session_id: &str,
        via: &str,
        now: Timestamp,
        what: Delivered,
        out: &mut HookOutcome,
    ) {
        let at = now.to_iso();
        let previous = self.0.get(&checkpoint.path).cloned();
        let delivery = match (what.alert, previous) {
            (true, previous) => Delivery {
                session_id: session_id.to_string(),
                via: via.to_string(),
                delivered_at: at.clone(),
                dropped_delivered_at: previous.and_then(|p| p.dropped_delivered_at),
                kept_by_client_at: None,
            },
            (false, Some(previous)) => previous,
            (false, None) => return,
        };
        let delivery = Delivery {
            dropped_delivered_at: if what.dropped {
                Some(at)
            } else {
                delivery.dropped_delivered_at.clone()
            },
            ..delivery
        };
        self.0.insert(checkpoint.path.clone(), delivery);
        let what = match (what.alert, what.dropped) {
            (true, true) => "alert and dropped section",
            (true, false) => "alert",
            _ => "dropped section",
        };
        self.save(root, format!("{what} of {} delivered", checkpoint.id), out);
    }
}

/// Why an alert was not recorded as delivered: the injection cap cut it, so it
/// stays due for the session's next event.
pub fn cut_alert(checkpoint: &Checkpoint) -> String {
    format!(
        "the compaction alert for {} did not fit whole under the injection cap; not recorded as delivered (due again at the next event)",
        checkpoint.path
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::normalize::checkpoint::normalize_checkpoint;

    fn checkpoint(n: u32, session: Option<&str>, acked: bool) -> Checkpoint {
        let session = session.map_or("null".to_string(), |s| format!("\"{s}\""));
        let text = format!(
            r#"{{"checkpoint_id":"cx-{n:03}","created_at":"2026-03-01T12:0{n}:00Z","trigger":"auto","session_id":{session}}}"#
        );
        let path = format!(".jerry/checkpoints/cx-{n:03}.json");
        normalize_checkpoint(&path, &text, acked).unwrap()
    }

    #[test]
    fn due_only_in_its_own_session_and_once() {
        let all = [
            checkpoint(1, Some("s1"), false),
            checkpoint(2, None, false),
            checkpoint(3, Some("s2"), false),
            checkpoint(4, Some("s1"), true),
        ];
        let mut ds = Deliveries::default();
        assert_eq!(
            ds.due(&all, Some("s1")).map(|c| c.id.as_str()),
            Some("cx-001")
        );
        assert_eq!(
            ds.due(&all, Some("s2")).map(|c| c.id.as_str()),
            Some("cx-003")
        );
        assert!(ds.due(&all, Some("s3")).is_none());
        assert!(ds.due(&all, None).is_none());
        ds.0.insert(
            all[0].path.clone(),
            Delivery {
                session_id: "s1".into(),
                via: "UserPromptSubmit".into(),
                delivered_at: "2026-03-01T12:10:00Z".into(),
                dropped_delivered_at: None,
                kept_by_client_at: None,
            },
        );
        assert!(ds.due(&all, Some("s1")).is_none());
    }

    /// Issue 33 item 7: a linked deliveries file cannot hold a record, so no
    /// alert is injected (it would repeat on every prompt), and why is logged
    /// once per link, not at every event.
    #[cfg(unix)]
    #[test]
    fn a_linked_deliveries_file_blocks_the_alert_instead_of_repeating_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(jerry_dir(root)).unwrap();
        let elsewhere = root.join("elsewhere.json");
        std::fs::write(&elsewhere, "{}").unwrap();
        let all = [checkpoint(1, Some("s1"), false)];
        // As the hook would: run the writes it planned.
        let load = || {
            let mut out = HookOutcome::default();
            let ds = Deliveries::load(root, &mut out);
            for w in &out.writes {
                std::fs::write(&w.path, w.op.bytes().unwrap()).unwrap();
            }
            (ds, out)
        };
        for target in [&elsewhere, &root.join("missing.json")] {
            let _ = std::fs::remove_file(path(root));
            std::os::unix::fs::symlink(target, path(root)).unwrap();
            for event in 0..3 {
                let (ds, out) = load();
                assert!(ds.due(&all, Some("s1")).is_none(), "{target:?}");
                if event == 0 {
                    assert_eq!(out.log.len(), 1, "{:?}", out.log);
                    assert!(out.log[0].1.contains("symbolic link"), "{:?}", out.log);
                } else {
                    assert!(out.log.is_empty(), "logged again: {:?}", out.log);
                    assert!(out.explain.iter().any(|e| e.contains("logged before")));
                }
            }
        }
        assert!(
            std::fs::symlink_metadata(&elsewhere).is_ok()
                && std::fs::read_to_string(&elsewhere).unwrap() == "{}",
            "never written through"
        );
        std::fs::remove_file(path(root)).unwrap();
        let (ds, out) = load();
        assert!(ds.due(&all, Some("s1")).is_some());
        assert!(out.log.is_empty());
    }
}
