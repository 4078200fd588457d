//! Checkpoints tied to no project (`Workspace::unassigned_checkpoints`) as one
//! row of the list, the last: `no project`. The cursor reaches it like a
//! project's row; its details pane lists the checkpoints, newest first, one
//! selected (`j`/`k` with the focus there), and `a` / `A` acknowledge them by
//! their own files (a checkpoint tied to no project has no state file), which
//! `u` takes back like any acknowledge.

use super::effect::{Effect, StateChange};
use super::model::{Model, StatusKind};
use super::only::Only;
use super::picked::Kind;
use crate::core::model::Checkpoint;

/// The checkpoints tied to no project, newest first (then by id).
pub fn newest_first(model: &Model) -> Vec<&Checkpoint> {
    let mut newest: Vec<&Checkpoint> = model.workspace.unassigned_checkpoints.iter().collect();
    newest.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
    newest
}

/// How many there are, and how many of them are unacknowledged.
pub fn counts(model: &Model) -> (usize, usize) {
    let loose = &model.workspace.unassigned_checkpoints;
    (
        loose.len(),
        loose.iter().filter(|c| !c.acknowledged).count(),
    )
}

/// Whether the list ends with the `no project` row: there are such checkpoints,
/// the files are read, and the list is not narrowed to something they are not
/// (a filter's words match projects; `⚑` keeps the row while one of them waits,
/// `Jerry` keeps it, being Jerry's).
pub fn row_shown(model: &Model) -> bool {
    let (n, waiting) = counts(model);
    if n == 0 || model.unread || !model.loaded || !model.filter.is_empty() {
        return false;
    }
    model.only.is_none_or(|only| kept_by(only, waiting))
}

/// Whether filter `only` keeps the `no project` row, `waiting` of its
/// checkpoints being unacknowledged.
pub fn kept_by(only: Only, waiting: usize) -> bool {
    match only {
        Only::Jerry => true,
        Only::Unacknowledged => waiting > 0,
        Only::Critical | Only::Stale | Only::Open | Only::Nexus => false,
    }
}

/// Rows of the list: the projects shown, and the `no project` row.
pub fn list_len(model: &Model) -> usize {
    model.visible.len() + usize::from(row_shown(model))
}

/// The list row the cursor is on.
pub fn cursor_row(model: &Model) -> Option<usize> {
    if model.on_loose {
        Some(model.visible.len())
    } else {
        model.selected_row()
    }
}

/// Puts the cursor on the `no project` row (the last).
pub fn enter(model: &mut Model) {
    if !model.on_loose {
        model.on_loose = true;
        model.loose_row = 0;
        model.scroll = 0;
    }
}

/// After the rows or the checkpoints changed: the cursor leaves a row no longer
/// shown, and the selected checkpoint stays within the list.
pub fn settle(model: &mut Model) {
    if model.on_loose && !row_shown(model) {
        model.on_loose = false;
    }
    let (n, _) = counts(model);
    model.loose_row = model.loose_row.min(n.saturating_sub(1));
}

/// The checkpoint selected in the `no project` row's details.
pub fn selected(model: &Model) -> Option<&Checkpoint> {
    newest_first(model).get(model.loose_row).copied()
}

/// The project keys on the `no project` row: `a` acknowledges the selected
/// checkpoint, `A` every unacknowledged one; the rest need a project.
pub fn action(model: &mut Model, action: super::action::Action) -> Vec<Effect> {
    use super::action::Action;
    if action == Action::Acknowledge
        && let Some(why) = super::picked::refusal(model, Kind::Loose)
    {
        model.set_status(StatusKind::Error, why);
        return Vec::new();
    }
    let checkpoints: Vec<Checkpoint> = match action {
        Action::Acknowledge => match selected(model) {
            None => return info(model, "no checkpoint selected"),
            Some(cp) if cp.acknowledged => {
                let text = format!("{} is already acknowledged", cp.id);
                return info(model, &text);
            }
            Some(cp) => vec![cp.clone()],
        },
        Action::AcknowledgeAll => {
            let waiting: Vec<Checkpoint> = newest_first(model)
                .into_iter()
                .filter(|c| !c.acknowledged)
                .cloned()
                .collect();
            if waiting.is_empty() {
                return info(model, "every checkpoint is already acknowledged");
            }
            waiting
        }
        _ => {
            let key = |a| model.keymap.key_label(a).unwrap_or_default();
            let text = format!(
                "checkpoints tied to no project: {} acknowledges the selected one, {} every one; pick a project for the rest",
                key(Action::Acknowledge),
                key(Action::AcknowledgeAll)
            );
            return info(model, &text);
        }
    };
    let op = match <[Checkpoint; 1]>::try_from(checkpoints) {
        Ok([checkpoint]) => StateChange::Acknowledge {
            checkpoint: Box::new(checkpoint),
        },
        Err(checkpoints) => StateChange::AcknowledgeAll { checkpoints },
    };
    super::update::write_loose(model, op)
}

fn info(model: &mut Model, text: &str) -> Vec<Effect> {
    model.set_status(StatusKind::Info, text);
    Vec::new()
}
