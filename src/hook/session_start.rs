//! SessionStart (seeds 000 and 001):
//! - `clear`: nothing (a fresh start by request);
//! - `compact`, `resume` (and `fork`): when the Nexus precompact state names a
//!   project with confidence high or medium, the loading sequence (and the state is
//!   consumed); else, when an unacknowledged checkpoint exists, Template 1 for its
//!   workflow (the loading sequence for a Nexus one);
//! - `startup`: a short summary of the active workflow, only with
//!   `hooks.startup_summary = true`.

use std::path::Path;

use super::checkpoints;
use super::context::{HookContext, checkpoints_dir, precompact_state_path};
use super::input::{Event, HookInput};
use super::lookup;
use super::output::{HookOutcome, WriteOp, additional_context};
use super::project;
use crate::core::model::{Checkpoint, Project, ProjectKind};
use crate::core::render::{NexusInput, Style, render_alert, render_nexus, render_prompt, state};
use crate::core::staleness::Session;
use crate::core::time::describe_age;
use crate::io::write::read_snapshot;

pub fn handle(input: &HookInput, ctx: &HookContext) -> HookOutcome {
    let source = input.source.as_deref().unwrap_or("startup");
    let Some(root) = ctx.project_dir() else {
        return HookOutcome::nothing("no project folder");
    };
    let session = project::session(
        input.session_id.as_deref(),
        input.transcript_path.as_deref(),
    );
    let mut out = match source {
        "clear" => HookOutcome::nothing("source clear: a fresh start, nothing injected"),
        "compact" | "resume" | "fork" => resume(root, ctx, session),
        _ if ctx.config.hooks.startup_summary => startup(root, ctx, session),
        _ => HookOutcome::nothing(format!(
            "source {source}: nothing injected (hooks.startup_summary is off)"
        )),
    };
    if source == "compact" {
        super::dropped_section::apply(&mut out, root, ctx, input);
    }
    let injected = out.stdout.is_some();
    out.info(format!(
        "source {source}: {}",
        if injected {
            "context injected"
        } else {
            "nothing injected"
        }
    ));
    out
}

fn resume(root: &Path, ctx: &HookContext, session: Option<Session>) -> HookOutcome {
    let mut out = HookOutcome::default();
    let mut blocks = Vec::new();

    let state_path = precompact_state_path(root);
    let state = read_snapshot(&state_path);
    if let Err(e) = &state
        && !e.is_missing()
    {
        out.error(format!("{e}; left in place"));
    }
    if let Ok(snapshot) = state {
        let parsed = serde_json::from_slice::<serde_json::Value>(&snapshot.bytes).is_ok();
        if parsed {
            out.write(
                state_path.clone(),
                WriteOp::Remove { snapshot },
                "precompact state consumed",
            );
        } else {
            out.error(format!("{}: not JSON; left in place", state_path.display()));
        }
        match lookup::from_precompact_state(ctx, session.clone()) {
            Some((project, confidence)) if matches!(confidence.as_str(), "high" | "medium") => {
                out.explain(format!(
                    "precompact state: project {} with confidence {confidence}",
                    project.id
                ));
                blocks.push(nexus_sequence(root, &project, Some(&confidence)));
            }
            Some((project, confidence)) => out.explain(format!(
                "precompact state names {} with confidence {confidence}: too low to inject",
                project.id
            )),
            None => out.explain("precompact state names no project that exists"),
        }
    }

    if blocks.is_empty() {
        let files = checkpoints::list(&checkpoints_dir(root));
        let all = checkpoints::load_all(&files, root, &mut out);
        let newest = state::in_order(&all)
            .into_iter()
            .rev()
            .find(|c| !c.acknowledged);
        match newest {
            Some(checkpoint) => blocks.push(for_checkpoint(
                root, ctx, checkpoint, &all, session, &mut out,
            )),
            None => out.explain("no unacknowledged checkpoint and no usable precompact state"),
        }
    }
    out.stdout = additional_context(Event::SessionStart.name(), &blocks);
    out
}

fn for_checkpoint(
    root: &Path,
    ctx: &HookContext,
    checkpoint: &Checkpoint,
    all: &[Checkpoint],
    session: Option<Session>,
    out: &mut HookOutcome,
) -> String {
    match lookup::for_checkpoint(checkpoint, all, ctx, session) {
        Some(project) if project.kind == ProjectKind::Nexus => {
            out.explain(format!(
                "unacknowledged checkpoint {} of Nexus project {}: loading sequence",
                checkpoint.id, project.id
            ));
            nexus_sequence(root, &project, None)
        }
        Some(project) => {
            out.explain(format!(
                "unacknowledged checkpoint {} of workflow {} ({}): Template 1",
                checkpoint.id, project.id, project.source
            ));
            render_prompt(&project).text
        }
        None => {
            out.explain(format!(
                "unacknowledged checkpoint {}: its workflow was not found; compaction alert",
                checkpoint.id
            ));
            render_alert(checkpoint, None, all).text
        }
    }
}

fn nexus_sequence(root: &Path, project: &Project, confidence: Option<&str>) -> String {
    let Some(manifest) = &project.manifest else {
        return render_prompt(project).text;
    };
    let abs_dir = root.join(&project.dir).display().to_string();
    render_nexus(&NexusInput {
        project,
        manifest,
        abs_dir: &abs_dir,
        confidence,
        style: Style::Emoji,
    })
    .text
}

fn startup(root: &Path, ctx: &HookContext, _session: Option<Session>) -> HookOutcome {
    let Some(project) = lookup::by_fallback(ctx) else {
        return HookOutcome::nothing(format!("no active workflow under {}", root.display()));
    };
    let mut out = HookOutcome::default();
    out.explain(format!(
        "startup summary of {} ({})",
        project.id, project.source
    ));
    out.stdout = additional_context(Event::SessionStart.name(), &[summary(&project, ctx)]);
    out
}

/// One short paragraph: which workflow, where it stands, what is next.
pub fn summary(project: &Project, ctx: &HookContext) -> String {
    let mut parts = vec![format!(
        "resume-tui: active workflow {} ({}).",
        project.id, project.source
    )];
    let phase = state::phase_label(
        state::phase(project).as_deref(),
        state::phase_name(project).as_deref(),
    );
    if let Some(status) = state::status(project) {
        parts.push(format!("Status {status}."));
    }
    if let Some(phase) = phase {
        parts.push(format!("{phase}."));
    }
    if let Some(next) = state::next_step(project) {
        parts.push(format!("Next step: {}", next.trim()));
    }
    if let Some(at) = project.summary.updated_at {
        parts.push(format!(
            "Resumption updated {} ({}).",
            describe_age(ctx.now.seconds_since(at)),
            project.staleness.level.label()
        ));
    }
    let unacked = project.unacknowledged_checkpoints().count();
    if unacked > 0 {
        parts.push(format!("{unacked} unacknowledged checkpoint(s)."));
    }
    parts.join(" ")
}
