//! Actions on the selected project: acknowledge, merge, decisions, copies.

use super::action::Action;
use super::effect::{Effect, StateChange};
use super::form::DecisionForm;
use super::launch::{Program, Window};
use super::model::{Model, StatusKind, Tab};
use super::picked::Kind;
use super::resume;
use super::update::{open_form, write};
use crate::core::launch;
use crate::core::model::{Checkpoint, Decision, Project, ProjectKind};

pub fn decision_count(project: &Project) -> usize {
    project.decisions().len()
}

pub fn selected_decision(model: &Model) -> Option<&Decision> {
    model.project()?.decisions().get(model.decision_row)
}

/// The checkpoint the Compaction tab has selected.
pub fn selected_checkpoint(model: &Model) -> Option<&Checkpoint> {
    model
        .timeline()
        .get(model.timeline_row)
        .and_then(|row| row.checkpoint)
}

pub fn project_action(model: &mut Model, action: Action) -> Vec<Effect> {
    if model.unread {
        // Nothing of the project is read yet: no prompt, alert or edit to make of it.
        model.set_status(
            StatusKind::Info,
            "still reading the files; try again in a moment",
        );
        return Vec::new();
    }
    let Some(project) = model.project() else {
        model.set_status(StatusKind::Info, "no project selected");
        return Vec::new();
    };
    let project_id = project.id.clone();
    if let Some(why) = super::chosen::refusal(model, &project_id) {
        model.set_status(StatusKind::Error, why);
        return Vec::new();
    }
    let needs = |tab: Tab| match action {
        Action::Acknowledge | Action::AcknowledgeAll | Action::MergeCheckpoint => {
            Some(Tab::Compaction).filter(|t| *t != tab)
        }
        Action::NewDecision
        | Action::EditDecision
        | Action::ToggleApplied
        | Action::DeleteDecision => Some(Tab::Decisions).filter(|t| *t != tab),
        _ => None,
    };
    if let Some(tab) = needs(model.tab) {
        let key = model
            .keymap
            .key_label(match tab {
                Tab::Compaction => Action::TabCompaction,
                _ => Action::TabDecisions,
            })
            .unwrap_or_default();
        model.set_status(
            StatusKind::Info,
            format!("that works in the {} tab (press {key})", tab.title()),
        );
        return Vec::new();
    }
    let edits_decisions = matches!(
        action,
        Action::NewDecision | Action::EditDecision | Action::ToggleApplied | Action::DeleteDecision
    );
    if let Some(file) = project.nexus_decisions_file().filter(|_| edits_decisions) {
        let key = model
            .keymap
            .key_label(Action::OpenInEditor)
            .unwrap_or_default();
        let text = format!("Nexus decisions are read from {file}; edit it there ({key} opens it)");
        return info(model, &text);
    }
    let item = match action {
        Action::Acknowledge | Action::MergeCheckpoint => Some(Kind::Timeline),
        Action::EditDecision | Action::ToggleApplied | Action::DeleteDecision => {
            Some(Kind::Decision)
        }
        _ => None,
    };
    if let Some(why) = item.and_then(|kind| super::picked::refusal(model, kind)) {
        model.set_status(StatusKind::Error, why);
        return Vec::new();
    }
    match action {
        Action::Acknowledge => match selected_checkpoint(model) {
            None => info(model, "select a checkpoint in the timeline first"),
            Some(cp) if cp.acknowledged => {
                let msg = format!("{} is already acknowledged", cp.id);
                info(model, &msg)
            }
            Some(cp) => {
                let checkpoint = Box::new(cp.clone());
                write(model, &project_id, StateChange::Acknowledge { checkpoint })
            }
        },
        Action::AcknowledgeAll => {
            let checkpoints: Vec<Checkpoint> = model
                .timeline()
                .iter()
                .filter_map(|row| row.checkpoint)
                .filter(|cp| !cp.acknowledged)
                .cloned()
                .collect();
            if checkpoints.is_empty() {
                return info(model, "every checkpoint is already acknowledged");
            }
            write(
                model,
                &project_id,
                StateChange::AcknowledgeAll { checkpoints },
            )
        }
        Action::MergeCheckpoint => match selected_checkpoint(model) {
            None => info(model, "select a checkpoint in the timeline first"),
            Some(cp) => {
                let checkpoint = Box::new(cp.clone());
                write(model, &project_id, StateChange::Merge { checkpoint })
            }
        },
        Action::NewDecision => {
            if project.kind != ProjectKind::Jerry {
                return info(
                    model,
                    "decisions are kept in Jerry ORCHESTRATION.yaml files only",
                );
            }
            open_form(model, DecisionForm::new(&project_id));
            Vec::new()
        }
        Action::EditDecision => match selected_decision(model) {
            None => info(model, "no decision selected"),
            Some(d) if d.id.is_none() => info(
                model,
                "this decision has no id; give it one in the file to edit it here",
            ),
            Some(d) => {
                let form = DecisionForm::edit(&project_id, d);
                open_form(model, form);
                Vec::new()
            }
        },
        Action::ToggleApplied => match selected_decision(model) {
            None => info(model, "no decision selected"),
            Some(d) => match d.id.clone() {
                None => info(
                    model,
                    "this decision has no id; give it one in the file to change it here",
                ),
                Some(id) => {
                    let applied = !d.applied.unwrap_or(false);
                    write(model, &project_id, StateChange::SetApplied { id, applied })
                }
            },
        },
        Action::DeleteDecision => match selected_decision(model).map(|d| d.id.clone()) {
            None => info(model, "no decision selected"),
            Some(None) => info(
                model,
                "this decision has no id; delete it in the file (o opens it)",
            ),
            Some(Some(id)) => write(model, &project_id, StateChange::DeleteDecision { id }),
        },
        Action::CopyPrompt | Action::CopyPromptWithCd => match resume::prompt(model, project) {
            Err(why) => {
                model.set_status(StatusKind::Error, format!("nothing to copy: {why}"));
                Vec::new()
            }
            Ok(rendered) => {
                let title = resume::title(project);
                let (what, text) = if action == Action::CopyPrompt {
                    (format!("{title} for {project_id}"), rendered.text)
                } else {
                    let dir = resume::launch_dir(model, project);
                    let text = launch::command(&dir, &rendered.text);
                    (format!("{title} for {project_id} with cd {dir}"), text)
                };
                vec![Effect::Copy { what, text }]
            }
        },
        Action::CopyAlert => copy_alert(model),
        Action::ResumeNow => resume_now(model),
        Action::OpenInEditor => open_in_editor(model),
        _ => Vec::new(),
    }
}

/// Claude Code in the project's root with the prompt as its first message: a new
/// tmux window, or (outside tmux) the dashboard quits and prints the command.
fn resume_now(model: &mut Model) -> Vec<Effect> {
    let Some(project) = model.project() else {
        return Vec::new();
    };
    let prompt = match resume::prompt(model, project) {
        Ok(rendered) => rendered.text,
        Err(why) => return info(model, &format!("nothing to resume with: {why}")),
    };
    let dir = resume::launch_dir(model, project);
    let id = project.id.clone();
    if !model.in_tmux {
        // No window to open: the dashboard ends (asking first when that would lose
        // something) and leaves the command on the terminal, to run there.
        model.farewell = Some(format!(
            "# resume-tui: resume {id} with Claude Code (run this line):\n{}",
            launch::command(&dir, &prompt)
        ));
        return super::quit::request(model);
    }
    vec![Effect::NewWindow(Window {
        what: format!("claude resuming {id} in {dir}"),
        name: format!("resume {id}"),
        dir,
        program: Program::Claude { prompt },
    })]
}

/// The file the open tab is about, and what to look for in it: the selected
/// checkpoint's file (Compaction), the selected decision in the state file
/// (Decisions), else the state file at its `resumption:` section.
fn open_in_editor(model: &mut Model) -> Vec<Effect> {
    let Some(project) = model.project() else {
        return Vec::new();
    };
    let (rel, find) = match model.tab {
        Tab::Compaction => match selected_checkpoint(model) {
            Some(cp) => (cp.path.clone(), None),
            None => (
                project.source.clone(),
                Some("compaction_events".to_string()),
            ),
        },
        Tab::Decisions => (
            project
                .nexus_decisions_file()
                .map_or_else(|| project.source.clone(), str::to_string),
            selected_decision(model).and_then(|d| d.id.clone()),
        ),
        _ => (project.source.clone(), Some("resumption:".to_string())),
    };
    let path = launch::join(&model.workspace.root, &rel);
    let dir = path.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
    let name = rel.rsplit('/').next().unwrap_or(&rel).to_string();
    let window = Window {
        what: format!("{} on {rel}", model.editor),
        name,
        dir,
        program: Program::Editor {
            editor: model.editor.clone(),
            path,
            find,
        },
    };
    if model.in_tmux {
        vec![Effect::NewWindow(window)]
    } else {
        vec![Effect::RunHere(window)]
    }
}

fn info(model: &mut Model, text: &str) -> Vec<Effect> {
    model.set_status(StatusKind::Info, text);
    Vec::new()
}

fn copy_alert(model: &mut Model) -> Vec<Effect> {
    let Some(project) = model.project() else {
        return Vec::new();
    };
    let checkpoint = selected_checkpoint(model).or_else(|| {
        project
            .unacknowledged_checkpoints()
            .last()
            .or(project.checkpoints.last())
    });
    match checkpoint {
        None => info(model, "this project has no checkpoint to alert about"),
        Some(cp) => {
            let what = format!("compaction alert for {}", cp.id);
            let text =
                crate::core::render::render_alert(cp, Some(project), &project.checkpoints).text;
            vec![Effect::Copy { what, text }]
        }
    }
}
