//! Writes asked for by the dashboard: `core::edit` intents applied to the state file
//! by `io::yaml_edit` (comment-preserving, re-validated) through `io::write`
//! (locked, atomic, refusing a file that changed since it was read). Acknowledging
//! also marks the checkpoint itself: `metadata.acknowledged` in a design checkpoint,
//! a `cx-NNN.acknowledged` marker beside a real Jerry one.

use std::path::Path;

use super::effect::{WriteOp, WriteRequest};
use super::form::DecisionDraft;
use super::msg::{Msg, WriteError};
use crate::config::Config;
use crate::core::edit::{self, CheckpointEvent, DecisionFields, EditIntent, NewDecision};
use crate::core::model::{Checkpoint, CheckpointFormat, Project};
use crate::core::time::Timestamp;
use crate::io::env::Env;
use crate::io::write::{self as io_write, WriteError as IoError};
use crate::io::{clock, load, yaml_edit};

pub fn perform(root: &Path, env: &Env, config: &Config, request: WriteRequest) -> Msg {
    let what = request.op.describe();
    let now = clock::now();
    let result = apply(root, env, config, &request, now).map_err(|e| match e {
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
fn apply(
    root: &Path,
    env: &Env,
    config: &Config,
    request: &WriteRequest,
    now: Timestamp,
) -> Result<String, IoError> {
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
            let project = fresh(root, env, source, now, config)?;
            let cp = find(&project, checkpoint, &state_file)?;
            edit_state(&EditIntent::MergeCheckpoint(event_of(cp)))?;
            Ok(source.clone())
        }
        WriteOp::Acknowledge { checkpoint } => {
            let project = fresh(root, env, source, now, config)?;
            let cp = find(&project, checkpoint, &state_file)?;
            let marked = acknowledge_file(root, cp, now)?;
            section_ack(
                &state_file,
                source,
                &EditIntent::AcknowledgeCheckpoint { id: cp.id.clone() },
                now,
            )?;
            Ok(marked)
        }
        WriteOp::AcknowledgeAll => {
            let project = fresh(root, env, source, now, config)?;
            let mut marked = Vec::new();
            for cp in project.unacknowledged_checkpoints() {
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

fn fresh(
    root: &Path,
    env: &Env,
    source: &str,
    now: Timestamp,
    config: &Config,
) -> Result<Project, IoError> {
    load::load_project_file(root, env, source, now, config).ok_or_else(|| IoError::NotApplicable {
        path: root.join(source),
        message: "no longer holds a project".to_string(),
    })
}

fn find<'a>(project: &'a Project, id: &str, state_file: &Path) -> Result<&'a Checkpoint, IoError> {
    project
        .checkpoints
        .iter()
        .find(|c| c.id == id)
        .ok_or_else(|| IoError::NotApplicable {
            path: state_file.to_path_buf(),
            message: format!("no checkpoint {id} belongs to this project any more"),
        })
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

    #[test]
    fn markers_sit_beside_their_checkpoint() {
        assert_eq!(
            marker_path(".jerry/checkpoints/cx-007.json", "cx-007"),
            ".jerry/checkpoints/cx-007.acknowledged"
        );
        assert_eq!(marker_path("cx-001.json", "cx-001"), "cx-001.acknowledged");
    }
}
