//! Writes asked for by the dashboard: `core::edit` intents applied to the state file
//! by `io::yaml_edit` (comment-preserving, re-validated) through `io::write`
//! (locked, atomic, refusing a file that changed since it was read). Acknowledging
//! also marks the checkpoint itself: `metadata.acknowledged` in a design checkpoint,
//! a `cx-NNN.acknowledged` marker beside a real Jerry one.

use std::path::Path;

use super::effect::{WriteOp, WriteRequest};
use super::form::DecisionDraft;
use super::msg::{Msg, WriteError};
use crate::core::edit::{self, CheckpointEvent, DecisionFields, EditIntent, NewDecision};
use crate::core::model::{Checkpoint, CheckpointFormat};
use crate::core::time::Timestamp;
use crate::io::write::{self as io_write, WriteError as IoError};
use crate::io::{clock, yaml_edit};

pub fn perform(root: &Path, request: WriteRequest) -> Msg {
    let what = request.op.describe();
    let now = clock::now();
    let result = apply(root, &request, now).map_err(|e| match e {
        IoError::ChangedOnDisk { path } => WriteError::ChangedOnDisk {
            path: relative(root, &path),
        },
        other => WriteError::Failed(other.to_string()),
    });
    Msg::Written { what, result }
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Does the write; returns the files changed, for the status bar.
fn apply(root: &Path, request: &WriteRequest, now: Timestamp) -> Result<String, IoError> {
    let source = &request.source;
    let state_file = root.join(source);
    let edit_state =
        |intent: &EditIntent| yaml_edit::edit_file(&state_file, source, intent, now, false);
    match &request.op {
        WriteOp::AddDecision(draft) => {
            edit_state(&EditIntent::AddDecision(new_decision(draft, now)))?;
            Ok(source.clone())
        }
        WriteOp::EditDecision { id, draft } => {
            edit_state(&EditIntent::EditDecision {
                id: id.clone(),
                fields: fields(draft),
            })?;
            Ok(source.clone())
        }
        WriteOp::SetApplied { id, applied } => {
            edit_state(&EditIntent::SetDecisionApplied {
                id: id.clone(),
                applied: *applied,
            })?;
            Ok(source.clone())
        }
        WriteOp::Merge { checkpoint } => {
            edit_state(&EditIntent::MergeCheckpoint(event_of(checkpoint)))?;
            Ok(source.clone())
        }
        WriteOp::Acknowledge { checkpoint } => {
            let marked = acknowledge_file(root, checkpoint, now)?;
            let intent = EditIntent::AcknowledgeCheckpoint {
                id: checkpoint.id.clone(),
            };
            section_ack(&state_file, source, &intent, now)?;
            Ok(marked)
        }
        WriteOp::AcknowledgeAll { checkpoints } => {
            let mut marked = Vec::new();
            for cp in checkpoints {
                marked.push(acknowledge_file(root, cp, now)?);
            }
            section_ack(&state_file, source, &EditIntent::AcknowledgeAll, now)?;
            Ok(marked.join(", "))
        }
    }
}

/// The section's own record of the event is updated when it has one; a section
/// without compaction events (or without this one) is left alone.
fn section_ack(
    state_file: &Path,
    source: &str,
    intent: &EditIntent,
    now: Timestamp,
) -> Result<(), IoError> {
    match yaml_edit::edit_file(state_file, source, intent, now, false) {
        Ok(_) | Err(IoError::NotApplicable { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Marks the checkpoint file itself; returns what was written (root-relative).
fn acknowledge_file(root: &Path, cp: &Checkpoint, now: Timestamp) -> Result<String, IoError> {
    let path = root.join(&cp.path);
    match cp.format {
        CheckpointFormat::Design => {
            let snapshot = io_write::read_snapshot(&path)?;
            let text = snapshot.text()?;
            let refused = |reason: String| IoError::Refused {
                path: path.clone(),
                reason,
            };
            let doc = edit::json::parse(text).map_err(|e| refused(e.to_string()))?;
            let ops =
                edit::json::plan_acknowledge(&doc, now).map_err(|e| refused(e.to_string()))?;
            if !ops.is_empty() {
                let new = edit::json::edit(text, &ops).map_err(|e| refused(e.to_string()))?;
                io_write::replace(&snapshot, new.as_bytes())?;
            }
            Ok(cp.path.clone())
        }
        CheckpointFormat::Jerry => {
            let marker = marker_path(&cp.path, &cp.id);
            match io_write::create_new(&root.join(&marker), b"", None) {
                Ok(()) | Err(IoError::AlreadyExists { .. }) => Ok(marker),
                Err(e) => Err(e),
            }
        }
    }
}

/// `…/cx-007.json` → `…/cx-007.acknowledged`.
fn marker_path(checkpoint_path: &str, id: &str) -> String {
    match checkpoint_path.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{id}.acknowledged"),
        None => format!("{id}.acknowledged"),
    }
}

fn new_decision(draft: &DecisionDraft, now: Timestamp) -> NewDecision {
    NewDecision {
        decision: draft.decision.clone(),
        rationale: draft.rationale.clone(),
        affects_phases: draft.affects_phases.clone(),
        gate: draft.gate.clone(),
        iteration: draft.iteration,
        date: Some(now),
    }
}

fn fields(draft: &DecisionDraft) -> DecisionFields {
    DecisionFields {
        decision: Some(draft.decision.clone()),
        rationale: draft.rationale.clone(),
        affects_phases: Some(draft.affects_phases.clone()),
        gate: draft.gate.clone(),
        iteration: draft.iteration,
    }
}

fn event_of(cp: &Checkpoint) -> CheckpointEvent {
    CheckpointEvent {
        id: cp.id.clone(),
        number: cp.number,
        timestamp: cp.created_at_raw.clone(),
        trigger: cp.trigger.clone(),
        fill: cp.fill,
        tier: cp.tier.clone(),
        session_id: cp.session_id.clone(),
        active_phase: cp.current_phase.clone(),
        active_gate: cp.current_gate.clone(),
        active_gate_iteration: cp.current_gate_iteration,
        checkpoint_file: Some(cp.path.clone()),
        acknowledged: cp.acknowledged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::core::model::Project;
    use crate::io::env::Env;
    use crate::io::load;
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

    fn run(root: &Path, project: &Project, op: WriteOp) -> Result<String, WriteError> {
        let request = WriteRequest {
            project_id: project.id.clone(),
            source: project.source.clone(),
            op,
        };
        match perform(root, request) {
            Msg::Written { result, .. } => result,
            other => panic!("{other:?}"),
        }
    }

    fn reload(root: &Path, project: &Project) -> Project {
        load::load_project_file(
            root,
            &Env::default(),
            &project.source,
            NOW,
            &Config::default(),
        )
        .unwrap()
    }

    fn find<'a>(projects: &'a [Project], id: &str) -> &'a Project {
        projects.iter().find(|p| p.id == id).unwrap()
    }

    #[test]
    fn markers_sit_beside_their_checkpoint() {
        assert_eq!(
            marker_path(".jerry/checkpoints/cx-007.json", "cx-007"),
            ".jerry/checkpoints/cx-007.acknowledged"
        );
        assert_eq!(marker_path("cx-001.json", "cx-001"), "cx-001.acknowledged");
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
            WriteOp::Acknowledge {
                checkpoint: Box::new(waiting.clone()),
            },
        )
        .unwrap();
        assert_eq!(written, waiting.path);
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
        let rows = crate::tui::timeline::rows(docs, &ws.unassigned_checkpoints);
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
            WriteOp::AcknowledgeAll {
                checkpoints: waiting.clone(),
            },
        )
        .unwrap();
        for cp in &waiting {
            let marker = marker_path(&cp.path, &cp.id);
            assert!(written.contains(&marker), "{written}");
            assert!(dir.path().join(&marker).exists());
        }
        let ws = load_ws();
        let rows = crate::tui::timeline::rows(find(&ws.projects, DOCS), &ws.unassigned_checkpoints);
        assert!(
            rows.iter()
                .filter_map(|r| r.checkpoint)
                .all(|c| c.acknowledged)
        );
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
        run(dir.path(), payouts, WriteOp::AddDecision(draft)).unwrap();
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
            WriteOp::SetApplied {
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
    fn merging_a_checkpoint_succeeds_and_edits_of_unknown_decisions_fail_clearly() {
        let (dir, projects) = demo();
        let payouts = find(&projects, PAYOUTS);
        let cp = payouts.checkpoints.first().unwrap().clone();
        run(
            dir.path(),
            payouts,
            WriteOp::Merge {
                checkpoint: Box::new(cp.clone()),
            },
        )
        .unwrap();
        let err = run(
            dir.path(),
            payouts,
            WriteOp::EditDecision {
                id: "RD-999".into(),
                draft: DecisionDraft {
                    decision: "x".into(),
                    ..Default::default()
                },
            },
        )
        .unwrap_err();
        assert!(
            matches!(&err, WriteError::Failed(m) if m.contains("RD-999")),
            "{err:?}"
        );
        let err = run(
            dir.path(),
            payouts,
            WriteOp::Acknowledge {
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
            matches!(&err, WriteError::Failed(m) if m.contains("cx-404")),
            "{err:?}"
        );
    }
}
