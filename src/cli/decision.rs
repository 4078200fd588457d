//! `resume-tui decision add|edit|apply`: the decision log of a Jerry project.

use std::io::Write;
use std::process::ExitCode;

use super::DecisionCommand;
use super::edit_output::{ATTEMPTS, load_project, print, project};
use crate::app::Context;
use crate::core::edit::{DecisionFields, EditIntent, NewDecision};
use crate::core::model::ProjectKind;
use crate::io::project_edit::{Target, edit_state, retrying};
use crate::{Error, Result};

pub fn run(ctx: &Context, command: &DecisionCommand, out: &mut dyn Write) -> Result<ExitCode> {
    let (name, dry_run, intent) = match command {
        DecisionCommand::Add(a) => (
            &a.project,
            a.dry_run,
            EditIntent::AddDecision(NewDecision {
                decision: a.decision.clone(),
                rationale: a.rationale.clone(),
                affects_phases: a.affects.clone(),
                gate: a.gate.clone(),
                iteration: a.iteration,
                date: Some(ctx.now),
            }),
        ),
        DecisionCommand::Edit(a) => {
            let fields = DecisionFields {
                decision: a.decision.clone(),
                rationale: a.rationale.clone(),
                affects_phases: a.affects.clone(),
                gate: a.gate.clone(),
                iteration: a.iteration,
            };
            if fields.is_empty() {
                return Err(Error::Usage(
                    "nothing to edit: pass --decision, --rationale, --affects, --gate or --iteration"
                        .to_string(),
                ));
            }
            let intent = EditIntent::EditDecision {
                id: a.id.clone(),
                fields,
            };
            (&a.project, a.dry_run, intent)
        }
        DecisionCommand::Apply(a) => (
            &a.project,
            a.dry_run,
            EditIntent::SetDecisionApplied {
                id: a.id.clone(),
                applied: !a.undo,
            },
        ),
    };
    let (ws, index) = load_project(ctx, name)?;
    let project = project(&ws, index)?;
    if project.kind != ProjectKind::Jerry {
        return Err(Error::Usage(format!(
            "{} is a Nexus project; decision logs live in Jerry ORCHESTRATION.yaml files",
            project.id
        )));
    }
    let target = Target::of(project);
    let outcome = retrying(ATTEMPTS, || {
        edit_state(&ctx.root, &target, &intent, dry_run)
    })?;
    print(&outcome, dry_run, out)
}
