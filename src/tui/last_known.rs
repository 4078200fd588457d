//! A state file that cannot be read any more (broken YAML, a permission taken
//! away) keeps the project's last state read on screen, under its id, at its
//! urgency, with its checkpoints: marked unreadable (`Model::unreadable`), with
//! the reason first in its diagnostics. Its row does not fall to the bottom of
//! the list as a nameless project, and the selection stays on it. Once the file
//! reads again, the project read is compared with that last state, so mending a
//! file is not announced as a change.

use std::collections::HashSet;

use super::model::Model;
use crate::core::model::{Checkpoint, Diagnostic, Project, Shape};

/// `incoming`, or the last state read of its file when `incoming` could not be
/// read and an earlier read could. Records in `model` which files are shown
/// from an earlier read.
pub(crate) fn keep(model: &mut Model, incoming: Project) -> Project {
    if incoming.shape != Shape::Unreadable {
        model.unreadable.remove(&incoming.source);
        return incoming;
    }
    let last = model
        .workspace
        .projects
        .iter()
        .find(|p| p.source == incoming.source && p.shape != Shape::Unreadable);
    let Some(last) = last else {
        return incoming;
    };
    let mut kept = last.clone();
    let errors: Vec<Diagnostic> = incoming.diagnostics;
    if let Some(before) = model.unreadable.get(&incoming.source) {
        kept.diagnostics.retain(|d| !before.contains(d));
    }
    kept.diagnostics.splice(0..0, errors.iter().cloned());
    model.unreadable.insert(incoming.source, errors);
    kept
}

/// After a whole load in which `kept` projects were shown from an earlier read:
/// their checkpoints as read now (the load left them unassigned, no project
/// having their id) go back to them.
pub(crate) fn reclaim_checkpoints(
    projects: &mut [Project],
    unassigned: &mut Vec<Checkpoint>,
    kept: &HashSet<String>,
) {
    for project in projects.iter_mut().filter(|p| kept.contains(&p.source)) {
        let paths: HashSet<String> = project.checkpoints.iter().map(|c| c.path.clone()).collect();
        let id = project.id.clone();
        let (theirs, rest): (Vec<Checkpoint>, Vec<Checkpoint>) =
            std::mem::take(unassigned).into_iter().partition(|c| {
                paths.contains(&c.path) || c.workflow_id.as_deref() == Some(id.as_str())
            });
        *unassigned = rest;
        if theirs.is_empty() {
            continue;
        }
        project
            .checkpoints
            .retain(|c| !theirs.iter().any(|t| t.path == c.path));
        project.checkpoints.extend(theirs);
        project
            .checkpoints
            .sort_by(|a, b| (a.number, &a.id).cmp(&(b.number, &b.id)));
    }
}

/// True when `project`'s file does not read: shown from an earlier read of it,
/// or (not read since the dashboard opened) with what is known without it, the
/// checkpoints that name its workflow (`core::workspace::claim`).
pub fn is_unreadable(model: &Model, project: &Project) -> bool {
    project.shape == Shape::Unreadable || model.unreadable.contains_key(&project.source)
}

#[cfg(test)]
#[path = "last_known_tests.rs"]
pub(crate) mod tests;
