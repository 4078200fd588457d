//! Which workflow a checkpoint belongs to when its own `workflow_id` does not say:
//! real Jerry checkpoints (`cx-NNN.json`) carry no workflow id, but the workflow's
//! `resumption.compaction_events` name them, and a filled `resumption_state` may
//! name the workflow.

use serde_json::Value;

use crate::core::model::{Checkpoint, Project, ProjectKind, Shape};

/// How a project claims a checkpoint, strongest last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Claim {
    /// The checkpoint's `resumption_state` names the workflow.
    ResumptionState,
    /// A compaction event names the checkpoint by id (`CX-004` ↔ `cx-004`).
    EventId,
    /// A compaction event's `checkpoint_file` is the checkpoint's path.
    EventFile,
}

/// Keys of a checkpoint's `resumption_state` that may hold the workflow id.
const WORKFLOW_KEYS: &[&str] = &["workflow_id", "workflow", "id"];

/// How `project` claims `checkpoint` other than by `workflow_id`, if it does. Only a
/// Jerry project in the repository whose `.jerry` folder holds the checkpoint (the
/// folder's parent contains the project's file) can claim it.
pub fn claim(project: &Project, checkpoint: &Checkpoint) -> Option<Claim> {
    if project.kind != ProjectKind::Jerry || !same_repo(project, checkpoint) {
        return None;
    }
    let events = project
        .resumption
        .as_ref()
        .and_then(|r| r.compaction.as_ref())
        .map_or(&[][..], |c| c.events.as_slice());
    let by_file = events.iter().any(|e| {
        e.checkpoint_file
            .as_deref()
            .is_some_and(|file| same_file(file, &checkpoint.path))
    });
    if by_file {
        return Some(Claim::EventFile);
    }
    let by_id = events.iter().any(|e| {
        e.id.as_deref()
            .is_some_and(|id| same_id(id, &checkpoint.id))
    });
    if by_id {
        return Some(Claim::EventId);
    }
    let named = checkpoint
        .resumption_state
        .as_ref()
        .is_some_and(|state| names_workflow(state, &project.id));
    named.then_some(Claim::ResumptionState)
}

/// The folder holding the checkpoint's `.jerry` folder contains the project's file.
pub(super) fn same_repo(project: &Project, checkpoint: &Checkpoint) -> bool {
    let path = checkpoint.path.as_str();
    let repo = if path.starts_with(".jerry/") {
        ""
    } else {
        match path.split_once("/.jerry/") {
            Some((repo, _)) => repo,
            None => return false,
        }
    };
    repo.is_empty()
        || project
            .source
            .strip_prefix(repo)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// `CX-004`, `cx-004` and `cx-4` are the same checkpoint.
fn same_id(a: &str, b: &str) -> bool {
    let number = |s: &str| {
        let lower = s.trim().to_ascii_lowercase();
        let digits = lower.strip_prefix("cx-")?;
        digits.parse::<u32>().ok()
    };
    match (number(a), number(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a.trim().eq_ignore_ascii_case(b.trim()),
    }
}

/// One path ends with the other, whole components compared: an event may name the
/// file repository-relative (`.jerry/checkpoints/cx-001.json`) or absolute.
fn same_file(listed: &str, path: &str) -> bool {
    let parts = |s: &str| -> Vec<String> {
        s.replace('\\', "/")
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .map(str::to_string)
            .collect()
    };
    let (a, b) = (parts(listed), parts(path));
    !a.is_empty() && !b.is_empty() && a.iter().rev().zip(b.iter().rev()).all(|(x, y)| x == y)
}

/// For a checkpoint no workflow claims: the only Jerry workflow of its
/// repository, else the only one whose folder its listed files lie in, else
/// (a checkpoint naming a workflow no file carries) the only one of its
/// repository whose file does not read.
pub fn fallback_owner(projects: &[Project], checkpoint: &Checkpoint) -> Option<usize> {
    let repo: Vec<usize> = projects
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == ProjectKind::Jerry && same_repo(p, checkpoint))
        .map(|(i, _)| i)
        .collect();
    if let [only] = repo.as_slice() {
        return Some(*only);
    }
    let mentioned: Vec<usize> = repo
        .into_iter()
        .filter(|i| {
            projects.get(*i).is_some_and(|p| {
                !p.dir.is_empty()
                    && checkpoint
                        .files_to_read
                        .iter()
                        .any(|f| mentions(&f.path, &p.dir))
            })
        })
        .collect();
    match mentioned.as_slice() {
        [only] => Some(*only),
        _ => unreadable_owner(projects, checkpoint),
    }
}

/// For a checkpoint that names a workflow (its `workflow_id`, or its
/// `resumption_state`'s) no project of the workspace carries: the only Jerry
/// project of its repository whose state file does not read. That file's
/// workflow id is not known (its row carries its folder's name), so the
/// workflow named is taken to be its own rather than to be nobody's.
fn unreadable_owner(projects: &[Project], checkpoint: &Checkpoint) -> Option<usize> {
    let named = named_workflow(checkpoint)?;
    if projects.iter().any(|p| p.id == named) {
        return None;
    }
    let unreadable: Vec<usize> = projects
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            p.kind == ProjectKind::Jerry && p.shape == Shape::Unreadable && same_repo(p, checkpoint)
        })
        .map(|(i, _)| i)
        .collect();
    match unreadable.as_slice() {
        [only] => Some(*only),
        _ => None,
    }
}

/// The workflow a checkpoint says it was written for, if it says.
fn named_workflow(checkpoint: &Checkpoint) -> Option<&str> {
    let own = checkpoint.workflow_id.as_deref().map(str::trim);
    let from_state = || {
        let state = checkpoint.resumption_state.as_ref()?;
        WORKFLOW_KEYS.iter().find_map(|key| {
            let value = state.get(*key)?;
            value
                .as_str()
                .or_else(|| value.get("id").and_then(Value::as_str))
                .map(str::trim)
        })
    };
    own.or_else(from_state).filter(|id| !id.is_empty())
}

/// `path` (as listed, maybe absolute) lies in the root-relative folder `dir`.
fn mentions(path: &str, dir: &str) -> bool {
    let path = path.replace('\\', "/");
    let dir = dir.trim_end_matches('/');
    path.starts_with(&format!("{dir}/")) || path.contains(&format!("/{dir}/"))
}

fn names_workflow(state: &Value, workflow: &str) -> bool {
    WORKFLOW_KEYS.iter().any(|key| {
        let value = state.get(*key);
        let text = value
            .and_then(Value::as_str)
            .or_else(|| value.and_then(|v| v.get("id")).and_then(Value::as_str));
        text.is_some_and(|t| t.trim() == workflow)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_match_by_number_in_any_case() {
        assert!(same_id("CX-004", "cx-004"));
        assert!(same_id("cx-4", "cx-004"));
        assert!(!same_id("cx-014", "cx-004"));
        assert!(same_id("custom", "CUSTOM"));
        assert!(!same_id("", "cx-004"));
    }

    #[test]
    fn files_match_by_whole_trailing_components() {
        let path = "r/.jerry/checkpoints/cx-001.json";
        assert!(same_file(".jerry/checkpoints/cx-001.json", path));
        assert!(same_file("./.jerry/checkpoints/cx-001.json", path));
        assert!(same_file("/home/op/r/.jerry/checkpoints/cx-001.json", path));
        assert!(same_file("cx-001.json", path));
        assert!(!same_file("x-cx-001.json", path));
        assert!(!same_file(
            "/home/op/q/.jerry/checkpoints/cx-001.json",
            path
        ));
        assert!(!same_file("", path));
    }
}
