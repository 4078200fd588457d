//! Writes asked for by the dashboard, done by `io::project_edit` (the same path as
//! the `ack`, `merge` and `decision` commands): comment-preserving, re-validated,
//! locked and atomic. The target carries the hash of the state file as the
//! dashboard read it, so a file that changed since is refused, never overwritten.

use std::path::{Path, PathBuf};

use super::effect::{StateChange, WriteRequest};
use super::msg::{Msg, NotWritten, Undo};
use crate::core::edit::EditIntent;
use crate::core::model::Checkpoint;
use crate::core::time::Timestamp;
use crate::io::clock;
use crate::io::project_edit::Revert;
use crate::io::project_edit::{self, FileChange, Outcome};
use crate::io::write::WriteError as IoError;

/// Does the write and says how it went; a change `u` can take back comes with
/// what it needs: every file the change wrote, before and after.
pub fn perform(root: &Path, request: WriteRequest) -> Msg {
    let what = request.op.describe();
    let mut undo = None;
    let restore = matches!(request.op, StateChange::Restore { .. });
    let result = match apply(root, &request, clock::now()) {
        Ok(outcome) if outcome.changes.is_empty() && !restore => {
            Err(NotWritten::Unchanged(outcome.brief()))
        }
        Ok(outcome) => {
            if request.op.undoable() {
                undo = Some(Box::new(Undo {
                    project_id: request.target.as_ref().map(|t| t.project_id.clone()),
                    what: what.clone(),
                    files: outcome.changes.iter().map(revert_of).collect(),
                }));
            }
            Ok(outcome.brief())
        }
        Err(IoError::ChangedOnDisk { path }) if restore => {
            // Nothing to read again and apply: the change stays, and says why.
            let path = relative_to(root, IoError::ChangedOnDisk { path });
            let path = match path {
                IoError::ChangedOnDisk { path } => path.display().to_string(),
                other => other.to_string(),
            };
            Err(NotWritten::Failed(format!(
                "{path} changed since; nothing undone"
            )))
        }
        Err(e) => Err(match relative_to(root, e) {
            IoError::ChangedOnDisk { path } => NotWritten::ChangedOnDisk {
                path: path.display().to_string(),
            },
            other => NotWritten::Failed(other.to_string()),
        }),
    };
    Msg::Written { what, result, undo }
}

/// The error with its paths relative to the root, as the status bar names files.
fn relative_to(root: &Path, error: IoError) -> IoError {
    let rel = |path: PathBuf| match path.strip_prefix(root) {
        Ok(inside) => inside.to_path_buf(),
        Err(_) => path,
    };
    match error {
        IoError::ChangedOnDisk { path } => IoError::ChangedOnDisk { path: rel(path) },
        IoError::LockTimeout { path, lock, waited } => IoError::LockTimeout {
            path: rel(path),
            lock: rel(lock),
            waited,
        },
        IoError::ReadOnly { path } => IoError::ReadOnly { path: rel(path) },
        IoError::AlreadyExists { path } => IoError::AlreadyExists { path: rel(path) },
        IoError::Io { path, source } => IoError::Io {
            path: rel(path),
            source,
        },
        IoError::Refused { path, reason } => IoError::Refused {
            path: rel(path),
            reason,
        },
        IoError::NotApplicable { path, message } => IoError::NotApplicable {
            path: rel(path),
            message,
        },
        IoError::Invalid(diagnostic) => IoError::Invalid(diagnostic),
        IoError::Partial { written, failed } => IoError::Partial {
            written,
            failed: Box::new(relative_to(root, *failed)),
        },
    }
}

fn apply(root: &Path, request: &WriteRequest, now: Timestamp) -> Result<Outcome, IoError> {
    let Some(target) = &request.target else {
        return apply_loose(root, &request.op, now);
    };
    let edit = |intent: EditIntent| project_edit::edit_state(root, target, &intent, false);
    match &request.op {
        StateChange::AddDecision(draft) => edit(EditIntent::AddDecision(draft.to_new(now))),
        StateChange::EditDecision { id, draft } => edit(EditIntent::EditDecision {
            id: id.clone(),
            fields: draft.to_fields(),
        }),
        StateChange::SetApplied { id, applied } => edit(EditIntent::SetDecisionApplied {
            id: id.clone(),
            applied: *applied,
        }),
        StateChange::DeleteDecision { id } => edit(EditIntent::DeleteDecision { id: id.clone() }),
        StateChange::Restore { files, .. } => project_edit::revert(root, target, files),
        StateChange::Merge { checkpoint } => project_edit::merge(root, target, checkpoint, false),
        StateChange::Acknowledge { checkpoint } => {
            project_edit::acknowledge(root, target, &[checkpoint.as_ref()], false, now, false)
        }
        StateChange::AcknowledgeAll { checkpoints } => {
            let all: Vec<&Checkpoint> = checkpoints.iter().collect();
            project_edit::acknowledge(root, target, &all, true, now, false)
        }
    }
}

/// A change to checkpoints tied to no project: their own files only.
fn apply_loose(root: &Path, op: &StateChange, now: Timestamp) -> Result<Outcome, IoError> {
    match op {
        StateChange::Acknowledge { checkpoint } => {
            project_edit::acknowledge_loose(root, &[checkpoint.as_ref()], now, false)
        }
        StateChange::AcknowledgeAll { checkpoints } => {
            let all: Vec<&Checkpoint> = checkpoints.iter().collect();
            project_edit::acknowledge_loose(root, &all, now, false)
        }
        StateChange::Restore { files, .. } => project_edit::revert_loose(root, files),
        other => Err(IoError::NotApplicable {
            path: root.to_path_buf(),
            message: format!(
                "{} needs a project's state file; these checkpoints are tied to no project",
                other.describe()
            ),
        }),
    }
}

fn revert_of(change: &FileChange) -> Revert {
    Revert {
        path: change.label.clone(),
        written: change.edited.new.clone(),
        before: (!change.created).then(|| change.edited.old.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::core::model::{CheckpointFormat, Project};
    use crate::io::env::Env;
    use crate::io::load;
    use crate::io::project_edit::Target;
    use crate::tui::form::DecisionDraft;

    const NOW: Timestamp = Timestamp(1_771_331_696);
    const PAYOUTS: &str = "payouts-v2-20260302-001";
    const DOCS: &str = "docs-rewrite-20260225-001";

    fn demo() -> (tempfile::TempDir, Vec<Project>) {
        let dir = tempfile::tempdir().unwrap();
        crate::io::demo::unpack_into(dir.path(), NOW).unwrap();
        let ws = load::load_workspace(dir.path(), &Env::default(), NOW, &Config::default());
        (dir, ws.projects)
    }

    fn run(root: &Path, project: &Project, op: StateChange) -> Result<String, NotWritten> {
        let request = WriteRequest {
            target: Some(Target::of(project)),
            op,
        };
        match perform(root, request) {
            Msg::Written { result, .. } => result,
            other => panic!("{other:?}"),
        }
    }

    fn reload(root: &Path, project: &Project) -> Project {
        load::load_project_file(root, &project.source, NOW, &Config::default())
            .0
            .unwrap()
    }

    fn find<'a>(projects: &'a [Project], id: &str) -> &'a Project {
        projects.iter().find(|p| p.id == id).unwrap()
    }

    #[test]
    fn acknowledging_sets_the_flag_of_a_design_checkpoint() {
        let (dir, projects) = demo();
        let payouts = find(&projects, PAYOUTS);
        let waiting = payouts.unacknowledged_checkpoints().next().unwrap().clone();
        assert_eq!(waiting.format, CheckpointFormat::Design);
        let written = run(
            dir.path(),
            payouts,
            StateChange::Acknowledge {
                checkpoint: Box::new(waiting.clone()),
            },
        )
        .unwrap();
        let name = waiting.path.rsplit('/').next().unwrap();
        assert!(written.contains(&format!("{name}: ")), "{written}");
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(&waiting.path)).unwrap())
                .unwrap();
        assert_eq!(
            json["metadata"]["acknowledged"],
            serde_json::Value::Bool(true)
        );
        assert!(
            reload(dir.path(), payouts)
                .unacknowledged_checkpoints()
                .next()
                .is_none()
        );
    }

    #[test]
    fn acknowledging_a_real_jerry_checkpoint_writes_its_marker() {
        let dir = tempfile::tempdir().unwrap();
        crate::io::demo::unpack_into(dir.path(), NOW).unwrap();
        let load_ws = || load::load_workspace(dir.path(), &Env::default(), NOW, &Config::default());
        let ws = load_ws();
        let docs = find(&ws.projects, DOCS);
        // Real Jerry checkpoints name no workflow; the timeline finds them by id.
        let rows = crate::core::timeline::rows(docs, &ws.unassigned_checkpoints);
        let waiting: Vec<Checkpoint> = rows
            .iter()
            .filter_map(|r| r.checkpoint)
            .filter(|c| !c.acknowledged && c.format == CheckpointFormat::Jerry)
            .cloned()
            .collect();
        assert!(
            !waiting.is_empty(),
            "the demo's docs workflow has a waiting Jerry checkpoint"
        );
        let written = run(
            dir.path(),
            docs,
            StateChange::AcknowledgeAll {
                checkpoints: waiting.clone(),
            },
        )
        .unwrap();
        for cp in &waiting {
            let marker = project_edit::marker_path(&cp.path, &cp.id);
            let name = marker.rsplit('/').next().unwrap();
            assert!(written.contains(&format!("{name}: created")), "{written}");
            assert!(dir.path().join(&marker).exists());
        }
        let ws = load_ws();
        let rows =
            crate::core::timeline::rows(find(&ws.projects, DOCS), &ws.unassigned_checkpoints);
        assert!(
            rows.iter()
                .filter_map(|r| r.checkpoint)
                .all(|c| c.acknowledged)
        );
    }

    /// The dashboard's edits go through the same refusals as the CLI's: a state
    /// file or a checkpoint with another hard link is left alone, and the status bar
    /// says why, naming the file by its path under the root.
    #[test]
    fn hard_linked_files_are_refused_and_left_alone() {
        let (dir, projects) = demo();
        let payouts = find(&projects, PAYOUTS);
        let state = dir.path().join(&payouts.source);
        let twin = dir.path().join("state-twin.yaml");
        std::fs::hard_link(&state, &twin).unwrap();
        let before = std::fs::read(&state).unwrap();
        let draft = DecisionDraft {
            decision: "Retry with jitter".into(),
            rationale: None,
            affects_phases: vec![],
            gate: None,
            iteration: None,
        };
        let Err(NotWritten::Failed(why)) =
            run(dir.path(), payouts, StateChange::AddDecision(draft))
        else {
            panic!("not refused")
        };
        assert!(
            why.starts_with(&format!("{}: refused: it has 2 hard links", payouts.source)),
            "{why}"
        );
        std::fs::remove_file(&twin).unwrap();

        let waiting = payouts.unacknowledged_checkpoints().next().unwrap().clone();
        let checkpoint = dir.path().join(&waiting.path);
        std::fs::hard_link(&checkpoint, dir.path().join("checkpoint-twin.json")).unwrap();
        let checkpoint_before = std::fs::read(&checkpoint).unwrap();
        let Err(NotWritten::Failed(why)) = run(
            dir.path(),
            payouts,
            StateChange::Acknowledge {
                checkpoint: Box::new(waiting.clone()),
            },
        ) else {
            panic!("not refused")
        };
        assert!(
            why.starts_with(&format!("{}: refused: it has 2 hard links", waiting.path)),
            "{why}"
        );
        // Refused before anything was written: the state file's section too.
        assert_eq!(std::fs::read(&state).unwrap(), before);
        assert_eq!(std::fs::read(&checkpoint).unwrap(), checkpoint_before);
    }

    #[test]
    fn decisions_are_added_and_marked_applied_with_comments_intact() {
        let (dir, projects) = demo();
        let payouts = find(&projects, PAYOUTS);
        let path = dir.path().join(&payouts.source);
        let before = std::fs::read_to_string(&path).unwrap();
        let draft = DecisionDraft {
            decision: "Retry with jitter".into(),
            rationale: Some("Herds".into()),
            affects_phases: vec![2, 3],
            gate: Some("qg-2".into()),
            iteration: Some(2),
        };
        let summary = run(dir.path(), payouts, StateChange::AddDecision(draft)).unwrap();
        assert!(
            summary.starts_with("ORCHESTRATION.yaml: ") && summary.contains("changed (+"),
            "the status bar gets the change summary: {summary}"
        );
        let after = std::fs::read_to_string(&path).unwrap();
        let comments = |t: &str| t.lines().filter(|l| l.contains('#')).count();
        assert!(comments(&after) >= comments(&before), "comments survive");
        let reloaded = reload(dir.path(), payouts);
        let decisions = &reloaded.resumption.as_ref().unwrap().decisions;
        let added = decisions
            .iter()
            .find(|d| d.decision == "Retry with jitter")
            .unwrap();
        assert_eq!(added.affects_phases, [2, 3]);
        let id = added.id.clone().unwrap();
        run(
            dir.path(),
            &reloaded,
            StateChange::SetApplied {
                id: id.clone(),
                applied: true,
            },
        )
        .unwrap();
        let again = reload(dir.path(), payouts);
        let applied = again
            .resumption
            .unwrap()
            .decisions
            .into_iter()
            .find(|d| d.id.as_deref() == Some(&id))
            .unwrap();
        assert_eq!(applied.applied, Some(true));
    }

    #[test]
    fn merging_a_merged_checkpoint_writes_nothing_and_edits_of_unknown_decisions_fail_clearly() {
        let (dir, projects) = demo();
        let payouts = find(&projects, PAYOUTS);
        let cp = payouts.checkpoints.first().unwrap().clone();
        let before = std::fs::read(dir.path().join(&payouts.source)).unwrap();
        let merged = run(
            dir.path(),
            payouts,
            StateChange::Merge {
                checkpoint: Box::new(cp.clone()),
            },
        );
        assert!(
            matches!(&merged, Err(NotWritten::Unchanged(m)) if m.contains("cx-001 is already in compaction_events")),
            "a merge with nothing to write says so, not \"saved\": {merged:?}"
        );
        assert_eq!(
            std::fs::read(dir.path().join(&payouts.source)).unwrap(),
            before
        );
        let err = run(
            dir.path(),
            payouts,
            StateChange::EditDecision {
                id: "RD-999".into(),
                draft: DecisionDraft {
                    decision: "x".into(),
                    ..Default::default()
                },
            },
        )
        .unwrap_err();
        assert!(
            matches!(&err, NotWritten::Failed(m) if m.contains("RD-999")),
            "{err:?}"
        );
        let root = dir.path().display().to_string();
        assert!(
            matches!(&err, NotWritten::Failed(m) if m.starts_with(&payouts.source) && !m.contains(&root)),
            "the file is named relative to the root, as on screen: {err:?}"
        );
        let err = run(
            dir.path(),
            payouts,
            StateChange::Acknowledge {
                checkpoint: Box::new(Checkpoint {
                    id: "cx-404".into(),
                    path: ".jerry/checkpoints/cx-404-checkpoint.json".into(),
                    format: CheckpointFormat::Design,
                    ..cp
                }),
            },
        )
        .unwrap_err();
        assert!(
            matches!(&err, NotWritten::Failed(m) if m.contains("cx-404")),
            "{err:?}"
        );
    }

    #[test]
    fn a_deleted_decision_comes_back_byte_for_byte_with_undo() {
        let (dir, projects) = demo();
        let payouts = find(&projects, PAYOUTS);
        let file = dir.path().join(&payouts.source);
        let before = std::fs::read_to_string(&file).unwrap();
        let request = WriteRequest {
            target: Some(Target::of(payouts)),
            op: StateChange::DeleteDecision {
                id: "RD-002".into(),
            },
        };
        let Msg::Written { result, undo, .. } = perform(dir.path(), request) else {
            panic!()
        };
        result.unwrap();
        let after = std::fs::read_to_string(&file).unwrap();
        assert!(!after.contains("\"RD-002\""), "{after}");
        assert!(after.contains("\"RD-001\""));
        let undo = undo.expect("a decision's change can be undone");
        assert_eq!(undo.files.len(), 1);
        assert_eq!(undo.files[0].before.as_deref(), Some(before.as_str()));
        let expected = Some(crate::io::write::ContentHash::of(after.as_bytes()));
        let restore = WriteRequest {
            target: Some(Target::of(payouts).expecting(expected)),
            op: StateChange::Restore {
                what: undo.what,
                files: undo.files,
            },
        };
        let Msg::Written { result, undo, .. } = perform(dir.path(), restore) else {
            panic!()
        };
        result.unwrap();
        assert!(undo.is_none(), "an undo is not itself undone");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    }

    fn undo_of(root: &Path, project: &Project, op: StateChange) -> Box<Undo> {
        let request = WriteRequest {
            target: Some(Target::of(project)),
            op,
        };
        let Msg::Written { result, undo, .. } = perform(root, request) else {
            panic!()
        };
        result.unwrap();
        undo.expect("an acknowledge can be undone")
    }

    fn restore(root: &Path, project: &Project, undo: Undo) -> Result<String, NotWritten> {
        run(
            root,
            project,
            StateChange::Restore {
                what: undo.what,
                files: undo.files,
            },
        )
    }

    #[test]
    fn an_acknowledge_is_undone_file_by_file_and_its_markers_removed() {
        let (dir, projects) = demo();
        let ws = load::load_workspace(dir.path(), &Env::default(), NOW, &Config::default());
        let docs = find(&projects, DOCS);
        let rows = crate::core::timeline::rows(docs, &ws.unassigned_checkpoints);
        let waiting: Vec<Checkpoint> = rows
            .iter()
            .filter_map(|r| r.checkpoint)
            .filter(|c| !c.acknowledged)
            .cloned()
            .collect();
        let files: Vec<String> = std::iter::once(docs.source.clone())
            .chain(waiting.iter().map(|c| c.path.clone()))
            .collect();
        let read_all = || -> Vec<Option<String>> {
            files
                .iter()
                .map(|f| std::fs::read_to_string(dir.path().join(f)).ok())
                .collect()
        };
        let before = read_all();
        let markers = || {
            std::fs::read_dir(dir.path().join(".jerry/checkpoints"))
                .unwrap()
                .count()
        };
        let markers_before = markers();
        let undo = undo_of(
            dir.path(),
            docs,
            StateChange::AcknowledgeAll {
                checkpoints: waiting,
            },
        );
        assert_ne!(markers(), markers_before, "a marker was written");
        let said = restore(dir.path(), docs, *undo).unwrap();
        assert!(said.contains(".acknowledged: removed"), "{said}");
        assert_eq!(read_all(), before);
        assert_eq!(markers(), markers_before);
    }

    #[test]
    fn an_acknowledge_is_not_undone_once_its_checkpoint_changed() {
        let (dir, projects) = demo();
        let payouts = find(&projects, PAYOUTS);
        let waiting = payouts.unacknowledged_checkpoints().next().unwrap().clone();
        let state_before = std::fs::read_to_string(dir.path().join(&payouts.source)).unwrap();
        let checkpoint = dir.path().join(&waiting.path);
        let undo = undo_of(
            dir.path(),
            payouts,
            StateChange::Acknowledge {
                checkpoint: Box::new(waiting),
            },
        );
        let state_acked = std::fs::read_to_string(dir.path().join(&payouts.source)).unwrap();
        assert_ne!(state_acked, state_before);
        let changed = std::fs::read_to_string(&checkpoint)
            .unwrap()
            .replace('}', " }");
        std::fs::write(&checkpoint, &changed).unwrap();
        match restore(dir.path(), payouts, *undo) {
            Err(NotWritten::Failed(why)) => assert!(
                why.contains("-checkpoint.json changed since; nothing undone"),
                "{why}"
            ),
            other => panic!("{other:?}"),
        }
        // Nothing was put back: neither the section nor the checkpoint.
        let state_now = std::fs::read_to_string(dir.path().join(&payouts.source)).unwrap();
        assert_eq!(state_now, state_acked);
        assert_eq!(std::fs::read_to_string(&checkpoint).unwrap(), changed);
    }

    /// One write path: the dashboard edits files only through `io::project_edit`.
    #[test]
    fn the_dashboard_writes_only_through_project_edit() {
        let tui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
        let mut offenders = Vec::new();
        let mut dirs = vec![tui];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                // Split, so that this test does not find itself.
                let needles = [
                    concat!("yaml", "_edit::"),
                    concat!("write::", "replace"),
                    concat!("write::", "create_new"),
                    concat!("edit::", "json::"),
                ];
                for needle in needles {
                    if text.contains(needle) {
                        offenders.push(format!("{}: {needle}", path.display()));
                    }
                }
            }
        }
        assert!(offenders.is_empty(), "{offenders:#?}");
    }
}
