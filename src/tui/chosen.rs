//! The project the operator chose, kept apart from the selection a reload may
//! move: when the chosen project leaves the list (its folder deleted, its id
//! renamed, a filter that no longer counts it) the selection goes to another
//! row, but nothing is written to that row's project, and nothing launched for
//! it, until the operator picks a row; the status bar says why. When the chosen
//! project comes back, the selection goes back to it.

use super::model::{Model, StatusKind};

/// What the status bar says of a chosen project whose file is no project now.
pub(crate) const IS_GONE: &str = "is gone (deleted or renamed)";

/// After the operator's own key, click or paste: a selection they moved is
/// their choice.
pub(crate) fn after_input(model: &mut Model, before: Option<String>) {
    if model.selected != before || model.chosen.is_none() {
        adopt(model);
    }
}

/// The operator picked the selected row (a move in the list, a click).
pub(crate) fn adopt(model: &mut Model) {
    model.chosen_gone = false;
    model.chosen = model.selected.clone();
    model.chosen_source = model.chosen.as_deref().and_then(|id| source_of(model, id));
}

fn source_of(model: &Model, id: &str) -> Option<String> {
    let project = model.workspace.projects.iter().find(|p| p.id == id)?;
    Some(project.source.clone())
}

/// The chosen project's id now: its file's project may carry another id after
/// a reload (a suffix handed out again); `None` when that file is no project.
fn chosen_now(model: &Model) -> Option<String> {
    let source = model.chosen_source.as_deref()?;
    let project = model
        .workspace
        .projects
        .iter()
        .find(|p| p.source == source)?;
    Some(project.id.clone())
}

/// After a message from the background (a load, a reload, a timer): a chosen
/// project still listed is selected again; one that just left is reported.
pub(crate) fn after_background(model: &mut Model, before: Option<String>, was_read: bool) {
    if !was_read || model.chosen.is_none() {
        // The first rows read: what is selected is what the operator first sees.
        adopt(model);
        return;
    }
    let Some(mut chosen) = model.chosen.clone() else {
        return;
    };
    let by_file = model.chosen_source.is_some();
    match chosen_now(model) {
        Some(id) => {
            if std::mem::take(&mut model.chosen_gone) {
                clear_gone_report(model);
            }
            // Its file's project may carry another id now: the choice follows the file.
            model.chosen = Some(id.clone());
            chosen = id;
        }
        // Its file is no project now: the id, if still listed, names another.
        None if by_file => {
            if !model.chosen_gone {
                model.chosen_gone = true;
                let text = format!("{chosen} {IS_GONE}; {}", not_chosen(model));
                say_with_report(model, text);
            }
            return;
        }
        None => {}
    }
    if model.selected.as_deref() == Some(chosen.as_str()) {
        return;
    }
    if super::update::reselect(model, &chosen) {
        return;
    }
    if before.as_deref() == Some(chosen.as_str()) {
        let text = format!("{}; {}", gone(model, &chosen), not_chosen(model));
        say_with_report(model, text);
    }
}

/// `text` after the report this pass made, if it made one (the problem that
/// took the project away says more), else as a report of its own.
pub(crate) fn say_with_report(model: &mut Model, text: String) {
    let just_now = model.now.0.saturating_add(StatusKind::Error.lasts());
    if let Some(held) = model.held_report.as_mut() {
        held.text = format!("{} · {text}", held.text);
        return;
    }
    if let Some(status) = model.status.as_mut()
        && status.background
        && status.kind == StatusKind::Error
        && status.until.0 == just_now
    {
        status.text = format!("{} · {text}", status.text);
        return;
    }
    model.report_status(StatusKind::Error, text);
}

/// Why nothing may be done to `project_id` now (it is not the chosen project), if so.
pub(crate) fn refusal(model: &Model, project_id: &str) -> Option<String> {
    let chosen = model.chosen.as_deref()?;
    let other_file = model
        .chosen_source
        .as_deref()
        .is_some_and(|source| source_of(model, project_id).as_deref() != Some(source));
    (chosen != project_id || other_file)
        .then(|| format!("not done: {}; {}", gone(model, chosen), not_chosen(model)))
}

/// Why `project_id`'s file may not be written now (it is shown as last read),
/// and the problems that say so, if so.
pub(crate) fn unreadable(model: &Model, project_id: &str) -> Option<(String, Vec<String>)> {
    let project = model
        .workspace
        .projects
        .iter()
        .find(|p| p.id == project_id)?;
    let errors = model.unreadable.get(&project.source)?;
    let problems: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let why = problems.first().map_or("it does not read", String::as_str);
    let text = format!(
        "not written: {project_id} is shown as last read; its file does not read now: {why}"
    );
    Some((text, problems))
}

/// The chosen project is back: the report that it had gone is no longer true.
fn clear_gone_report(model: &mut Model) {
    if model
        .status
        .as_ref()
        .is_some_and(|s| s.kind == StatusKind::Error && s.text.contains(IS_GONE))
    {
        model.status = None;
    }
}

/// What became of the chosen project: still read but not listed (a filter), or gone.
fn gone(model: &Model, chosen: &str) -> String {
    let listed = !model.chosen_gone && model.workspace.projects.iter().any(|p| p.id == chosen);
    let what = if listed { "left the list" } else { IS_GONE };
    format!("{chosen} {what}")
}

fn not_chosen(model: &Model) -> &'static str {
    if model.selected.is_some() {
        "pick a row (j/k) to act on another"
    } else {
        "pick a row to act"
    }
}

#[cfg(test)]
#[path = "chosen_tests.rs"]
mod tests;
