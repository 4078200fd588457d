//! Actions on the selected project: acknowledge, merge, decisions, copies.

use super::action::Action;
use super::effect::{Effect, WriteOp};
use super::form::DecisionForm;
use super::model::{Model, StatusKind, Tab};
use super::update::{open_form, write};
use crate::core::model::{Checkpoint, Decision, Project, ProjectKind};
use crate::core::render::render_prompt;

pub fn decision_count(project: &Project) -> usize {
    project.resumption.as_ref().map_or(0, |r| r.decisions.len())
}

pub fn selected_decision(model: &Model) -> Option<&Decision> {
    model
        .project()?
        .resumption
        .as_ref()?
        .decisions
        .get(model.decision_row)
}

/// The checkpoint the Compaction tab has selected.
pub fn selected_checkpoint(model: &Model) -> Option<&Checkpoint> {
    model
        .timeline()
        .get(model.timeline_row)
        .and_then(|row| row.checkpoint)
}

pub fn project_action(model: &mut Model, action: Action) -> Vec<Effect> {
    let Some(project) = model.project() else {
        model.set_status(StatusKind::Info, "no project selected");
        return Vec::new();
    };
    let project_id = project.id.clone();
    let needs = |tab: Tab| match action {
        Action::Acknowledge | Action::AcknowledgeAll | Action::MergeCheckpoint => {
            Some(Tab::Compaction).filter(|t| *t != tab)
        }
        Action::NewDecision | Action::EditDecision | Action::ToggleApplied => {
            Some(Tab::Decisions).filter(|t| *t != tab)
        }
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
    match action {
        Action::Acknowledge => match selected_checkpoint(model) {
            None => info(model, "select a checkpoint in the timeline first"),
            Some(cp) if cp.acknowledged => {
                let msg = format!("{} is already acknowledged", cp.id);
                info(model, &msg)
            }
            Some(cp) => {
                let checkpoint = Box::new(cp.clone());
                write(model, &project_id, WriteOp::Acknowledge { checkpoint })
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
            write(model, &project_id, WriteOp::AcknowledgeAll { checkpoints })
        }
        Action::MergeCheckpoint => match selected_checkpoint(model) {
            None => info(model, "select a checkpoint in the timeline first"),
            Some(cp) => {
                let checkpoint = Box::new(cp.clone());
                write(model, &project_id, WriteOp::Merge { checkpoint })
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
                    write(model, &project_id, WriteOp::SetApplied { id, applied })
                }
            },
        },
        Action::CopyPrompt => {
            let text = render_prompt(project).text;
            vec![Effect::Copy {
                what: format!("Template 1 for {project_id}"),
                text,
            }]
        }
        Action::CopyPromptWithCd => {
            let dir = project_dir(&model.workspace.root, &project.dir);
            let prompt = render_prompt(project).text;
            vec![Effect::Copy {
                what: format!("Template 1 for {project_id} with cd"),
                text: with_cd(&dir, &prompt),
            }]
        }
        Action::CopyAlert => copy_alert(model),
        _ => Vec::new(),
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
            let what = format!("Template 2 for {}", cp.id);
            let text =
                crate::core::render::render_alert(cp, Some(project), &project.checkpoints).text;
            vec![Effect::Copy { what, text }]
        }
    }
}

/// `root/dir`, written with `/`.
pub fn project_dir(root: &str, dir: &str) -> String {
    match (root.trim_end_matches('/'), dir.trim_matches('/')) {
        (root, "" | ".") => root.to_string(),
        ("", dir) => dir.to_string(),
        (root, dir) => format!("{root}/{dir}"),
    }
}

/// `cd '<dir>' && claude '<prompt>'`, quoted for a POSIX shell.
pub fn with_cd(dir: &str, prompt: &str) -> String {
    format!("cd {} && claude {}", shell_quote(dir), shell_quote(prompt))
}

pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}
