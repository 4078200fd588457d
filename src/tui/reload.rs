//! Loads arriving in the model: the whole workspace, or single projects re-read
//! after their files changed. The selection, tab and scroll are kept (clamped),
//! and what newly went wrong reading the files is said in the status bar, naming
//! the file: a state file deleted, replaced by a folder or made unreadable while
//! the dashboard runs shows there as well as in the project's Overview.

use super::effect::Effect;
use super::last_known;
use super::model::{Model, Saving, StatusKind};
use super::msg::{LoadedWorkspace, ReloadedProject};
use super::notify::{self, Changes};
use super::update::{refresh_changed, refresh_visible};
use crate::core::model::{Diagnostic, Project, Severity};
use crate::core::workspace::attribute_reloaded;

/// A whole workspace loaded. The first load and one asked for with `r` say how
/// many projects there are and every problem not tied to a project (an unreadable
/// folder, a folder named like a state file); a load the watcher asked for says
/// only what went wrong since the last one; a save's read-back keeps `saved: …`.
pub(crate) fn on_loaded(model: &mut Model, loaded: LoadedWorkspace) -> Vec<Effect> {
    if loaded.unread {
        on_discovered(model, loaded);
        return Vec::new();
    }
    // The rows discovery drew are followed by the same files, read. A selection
    // the operator moved stays on its file; one left on the first row goes to
    // the first row of the sorted list, as when nothing was drawn before.
    let unread = std::mem::take(&mut model.unread);
    let selected_source = if unread && model.selected_row() != Some(0) {
        model.project().map(|p| p.source.clone())
    } else {
        None
    };
    if unread {
        // A name discovery gave may be a real project's id too.
        model.selected = None;
    }
    let read_back_of_save = model.saving == Saving::Reloading;
    read_back(model);
    let mut loaded = loaded;
    if model.loaded && !unread {
        keep_last_known(model, &mut loaded.workspace);
    }
    let first = !model.loaded;
    let asked = std::mem::take(&mut model.reload_asked);
    let summary = first || asked;
    let problems = if summary {
        new_problems(&[], &loaded.workspace.diagnostics, Severity::Warning)
    } else if read_back_of_save {
        Vec::new()
    } else {
        let mut problems = new_problems(
            &model.workspace.diagnostics,
            &loaded.workspace.diagnostics,
            Severity::Warning,
        );
        let by_source: std::collections::HashMap<&str, &Project> = model
            .workspace
            .projects
            .iter()
            .map(|p| (p.source.as_str(), p))
            .collect();
        for project in &loaded.workspace.projects {
            let before = by_source.get(project.source.as_str()).copied();
            problems.extend(new_project_errors(before, project));
        }
        problems
    };
    let changes = (!first && !loaded.preview && !read_back_of_save).then(|| {
        notify::workspace_changes(
            &model.workspace,
            &model.hashes,
            &loaded.workspace,
            &loaded.hashes,
        )
    });
    model.fills.observe(&loaded.workspace.context_states);
    model.workspace = loaded.workspace;
    model.haystacks.clear();
    model.hashes = loaded.hashes;
    model.loaded = true;
    if let Some(source) = selected_source {
        let read = model.workspace.projects.iter().find(|p| p.source == source);
        model.selected = read.map(|p| p.id.clone());
    }
    refresh_visible(model);
    if summary {
        let n = model.workspace.projects.len();
        let noun = if n == 1 { "project" } else { "projects" };
        let count = format!("{n} {noun} in {}", model.workspace.root);
        if first && model.status.is_some() {
            // A problem with the user's config, shown before the first load, stays.
        } else if problems.is_empty() {
            // `r` is answered; the first load's count is a report like any other.
            model.answer_or_report(asked, StatusKind::Info, count, Vec::new());
        } else {
            report(model, &format!("{count} · "), &problems, asked);
        }
    } else {
        report(model, "", &problems, false);
    }
    match changes {
        Some(mut changes) => {
            // The chosen project's going is said by `chosen`, with what to do.
            if let Some(chosen) = &model.chosen {
                let source = model.chosen_source.as_deref();
                changes.events.retain(|e| match e {
                    notify::Event::LeftTheList { id, source: gone } => match source {
                        Some(source) => gone != source,
                        None => id != chosen,
                    },
                    _ => true,
                });
            }
            // A problem reading the files says more than a change does.
            if !problems.is_empty() {
                changes.events.clear();
            }
            notify::announce(model, changes)
        }
        None => Vec::new(),
    }
}

/// Projects whose file no longer reads stay as last read (`last_known`).
fn keep_last_known(model: &mut Model, workspace: &mut crate::core::model::Workspace) {
    let projects = std::mem::take(&mut workspace.projects);
    workspace.projects = projects
        .into_iter()
        .map(|p| last_known::keep(model, p))
        .collect();
    let sources: std::collections::HashSet<&str> = workspace
        .projects
        .iter()
        .map(|p| p.source.as_str())
        .collect();
    model.unreadable.retain(|s, _| sources.contains(s.as_str()));
    let kept = model.unreadable.keys().cloned().collect();
    last_known::reclaim_checkpoints(
        &mut workspace.projects,
        &mut workspace.unassigned_checkpoints,
        &kept,
    );
}

/// What discovery found, before any file is read: drawn at once, each row
/// marked as loading (`Model::unread`). Ignored once a load is in.
fn on_discovered(model: &mut Model, found: LoadedWorkspace) {
    if model.loaded {
        return;
    }
    model.workspace = found.workspace;
    model.haystacks.clear();
    model.unread = true;
    refresh_visible(model);
}

pub(crate) fn on_load_failed(model: &mut Model, problem: String) {
    read_back(model);
    if std::mem::take(&mut model.unread) {
        // Rows never read are not shown as if they were.
        model.workspace.projects.clear();
        refresh_visible(model);
    }
    model.loaded = true;
    // The answer to `r`; else a report, which waits for the operator's message.
    let asked = std::mem::take(&mut model.reload_asked);
    model.answer_or_report(asked, StatusKind::Error, problem, Vec::new());
}

pub(crate) fn on_projects_loaded(model: &mut Model, projects: Vec<ReloadedProject>) -> Vec<Effect> {
    let own_save = model.saving == Saving::Reloading;
    read_back(model);
    let mut problems = Vec::new();
    let mut changes = Changes::default();
    let mut unclaimed = Vec::new();
    let mut replaced = Vec::new();
    let mut same_places = true;
    // A checkpoint a project claims now that it held before, or none did, is no
    // new compaction.
    let seen = notify::checkpoint_paths(&model.workspace);
    for reloaded in projects {
        unclaimed.extend(reloaded.unclaimed);
        let source = reloaded.source;
        let reloaded_project = reloaded
            .project
            .map(|p| Box::new(last_known::keep(model, *p)));
        let found = model
            .workspace
            .projects
            .iter_mut()
            .enumerate()
            .find(|(_, p)| p.source == source);
        match (found, reloaded_project) {
            // The id is what the selection follows; a changed id needs a full load
            // (ids are made unique across the workspace).
            (Some((index, slot)), Some(project)) if slot.id == project.id => {
                problems.extend(new_project_errors(Some(slot), &project));
                let hash_changed = model.hashes.get(&source) != reloaded.hash.as_ref();
                notify::project_changes_seen(slot, &project, hash_changed, &seen, &mut changes);
                same_places &= same_place(slot, &project);
                *slot = *project;
                model.haystacks.forget(index);
                replaced.push(index);
                match reloaded.hash {
                    Some(hash) => model.hashes.insert(source, hash),
                    None => model.hashes.remove(&source),
                };
            }
            _ => return vec![Effect::LoadAll],
        }
    }
    let ws = &mut model.workspace;
    if same_places {
        // An unassigned checkpoint read again unchanged stays unassigned: what
        // decides its owner (`claim::fallback_owner`: each project's kind, state
        // file and folder) is as it was, so it is not offered again (each offer
        // goes over every project).
        unclaimed.retain(|c| !ws.unassigned_checkpoints.contains(c));
    }
    let claimed =
        |projects: &[Project]| projects.iter().map(|p| p.checkpoints.len()).sum::<usize>();
    let (claimed_before, unassigned_before) =
        (claimed(&ws.projects), ws.unassigned_checkpoints.clone());
    attribute_reloaded(&mut ws.projects, &mut ws.unassigned_checkpoints, unclaimed);
    if claimed(&ws.projects) == claimed_before && ws.unassigned_checkpoints == unassigned_before {
        // No project was given a checkpoint (a project only gains them here) and
        // the unassigned ones, which every project's waiting count reads, are
        // as they were: only the replaced projects changed.
        refresh_changed(model, &replaced);
    } else {
        refresh_visible(model);
    }
    report(model, "", &problems, false);
    if own_save || !problems.is_empty() {
        changes.events.clear();
    }
    notify::announce(model, changes)
}

/// `project` is where `before` was, for `claim::fallback_owner`: the same kind,
/// state file and folder.
fn same_place(before: &Project, project: &Project) -> bool {
    before.kind == project.kind && before.source == project.source && before.dir == project.dir
}

/// A load after a save, or after a refused one, brings the screen up to the file.
pub(crate) fn read_back(model: &mut Model) {
    match model.saving {
        Saving::Reloading => model.saving = Saving::Idle,
        Saving::Rereading => {
            model.saving = Saving::Idle;
            model.set_status(StatusKind::Info, "reloaded from disk; save again to apply");
        }
        Saving::Idle | Saving::Writing => {}
    }
}

/// Problems at least as bad as `worst` in `after` that `before` did not have.
fn new_problems(before: &[Diagnostic], after: &[Diagnostic], worst: Severity) -> Vec<String> {
    after
        .iter()
        .filter(|d| d.severity >= worst && !before.contains(d))
        .map(ToString::to_string)
        .collect()
}

/// Errors reading `project`'s files that its previous version did not have.
fn new_project_errors(before: Option<&Project>, project: &Project) -> Vec<String> {
    let before = before.map_or(&[][..], |p| p.diagnostics.as_slice());
    new_problems(before, &project.diagnostics, Severity::Error)
}

/// The first of `problems` (and how many more) in the status bar, after `lead`:
/// the answer to the operator's `r`, or a report that waits for the operator's
/// own message to go (`Model::report_status`).
fn report(model: &mut Model, lead: &str, problems: &[String], asked: bool) {
    let Some(first) = problems.first() else {
        return;
    };
    let more = match problems.len() - 1 {
        0 => String::new(),
        n => format!(" (+{n} more)"),
    };
    let text = format!("{lead}{first}{more}");
    model.answer_or_report(asked, StatusKind::Error, text, problems.to_vec());
}

#[cfg(test)]
#[path = "reload_unread_tests.rs"]
mod unread_tests;

#[cfg(test)]
#[path = "reload_status_tests.rs"]
mod status_tests;

#[cfg(test)]
#[path = "reload_projects_tests.rs"]
mod projects_tests;
