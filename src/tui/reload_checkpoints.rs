//! Checkpoint files re-read after they changed (a compaction's new checkpoint, an
//! acknowledgement marker, a deletion): each is taken out of the workspace and put
//! back where a full load would put it (`core::workspace::replace_checkpoint`);
//! only the projects it left or joined are assessed again. A checkpoint that does
//! not read asks for a full load, which says why.

use std::collections::HashMap;

use super::effect::Effect;
use super::model::{Model, Saving};
use super::notify::{self, Changes};
use super::reload::read_back;
use super::update::{refresh_changed, refresh_visible};
use crate::core::model::Project;
use crate::core::staleness;
use crate::core::time::Timestamp;
use crate::core::workspace::replace_checkpoint;
use crate::io::load::CheckpointReading;

pub(crate) fn on_loaded(
    model: &mut Model,
    read: Vec<(String, CheckpointReading)>,
    now: Timestamp,
) -> Vec<Effect> {
    if read
        .iter()
        .any(|(_, r)| matches!(r, CheckpointReading::Problem(_)))
    {
        return vec![Effect::LoadAll];
    }
    let own_save = model.saving == Saving::Reloading;
    read_back(model);
    let mut changes = Changes::default();
    let unassigned_before = model.workspace.unassigned_checkpoints.clone();
    let mut touched = Vec::new();
    for (path, reading) in read {
        touched.extend(apply(model, &path, reading, now, &mut changes));
    }
    if model.workspace.unassigned_checkpoints == unassigned_before {
        // Every project's waiting count reads the unassigned checkpoints; they
        // are as they were, so only the projects the checkpoints left or joined
        // changed (a checkpoint is nothing the filter searches).
        refresh_changed(model, &touched);
    } else {
        refresh_visible(model);
    }
    if own_save {
        changes.events.clear();
    }
    notify::announce(model, changes)
}

/// One checkpoint: moved to its place, its projects assessed again, and what
/// changed noted for the operator as a full load's comparison would. Returns the
/// projects it left or joined.
pub(crate) fn apply(
    model: &mut Model,
    path: &str,
    reading: CheckpointReading,
    now: Timestamp,
    changes: &mut Changes,
) -> Vec<usize> {
    let ws = &mut model.workspace;
    let was_known = ws.unassigned_checkpoints.iter().any(|c| c.path == path);
    let before: HashMap<usize, Project> = ws
        .projects
        .iter()
        .enumerate()
        .filter(|(_, p)| p.checkpoints.iter().any(|c| c.path == path))
        .map(|(i, p)| (i, p.clone()))
        .collect();
    let now_read = match reading {
        CheckpointReading::Read(checkpoint) => Some(*checkpoint),
        CheckpointReading::Gone | CheckpointReading::Problem(_) => None,
    };
    let touched = replace_checkpoint(
        &mut ws.projects,
        &mut ws.unassigned_checkpoints,
        path,
        now_read,
    );
    let stale_after = model.config.staleness.stale_after_minutes;
    for &i in &touched {
        let Some(project) = ws.projects.get_mut(i) else {
            continue;
        };
        let old = before.get(&i).cloned().unwrap_or_else(|| {
            // It joined this project: before, the project did not hold it.
            let mut old = project.clone();
            old.checkpoints.retain(|c| c.path != path);
            old
        });
        project.staleness = staleness::assess(project, None, now, stale_after);
        notify::project_changes(&old, project, false, changes);
    }
    let unassigned_now = ws.unassigned_checkpoints.iter().find(|c| c.path == path);
    if let Some(checkpoint) = unassigned_now
        && !was_known
        && before.is_empty()
    {
        changes
            .events
            .push(notify::Event::compaction(None, &checkpoint.id));
    }
    touched
}

#[cfg(test)]
#[path = "reload_checkpoints_tests.rs"]
mod tests;
