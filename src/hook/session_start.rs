//! SessionStart (seeds 000 and 001):
//! - `clear`: nothing (a fresh start by request);
//! - `compact`, `resume` and `fork`: the Nexus loading sequence when the precompact
//!   state is this session's or recent and names a project with confidence high or
//!   medium (the state is then consumed); the compaction alert when a checkpoint of
//!   this session is due (`delivery`: once, then recorded), with Template 1 for its
//!   workflow (in the session that compacted, when the compaction's summary is
//!   known, the "Dropped by compaction" section instead); else Template 1 for the
//!   session's own workflow (`resume_choice`: its transcript's, else its own
//!   checkpoints'), another session's unacknowledged checkpoint only mentioned
//!   (never another session's alert, never its workflow imposed);
//! - `startup`: a short summary of the active workflow, only with
//!   `hooks.startup_summary = true`.

use std::path::Path;

use super::checkpoints;
use super::context::{HookContext, checkpoints_dir, precompact_state_path};
use super::delivery::{Delivered, Deliveries, cut_alert};
use super::input::{Event, HookInput};
use super::lookup;
use super::output::{HookOutcome, WriteOp, additional_context, carries_whole};
use super::project;
use crate::core::model::{Checkpoint, Project, ProjectKind};
use crate::core::render::prompt::{PromptOptions, render_prompt_with};
use crate::core::render::{
    NexusInput, Style, render_after_compaction, render_alert, render_nexus, render_prompt, state,
};
use crate::core::staleness::Session;
use crate::core::time::{Timestamp, describe_age};
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
        "compact" | "resume" | "fork" => resume(source, root, ctx, input, session),
        _ if ctx.config.hooks.startup_summary => startup(root, ctx, session),
        _ => HookOutcome::nothing(format!(
            "source {source}: nothing injected (hooks.startup_summary is off)"
        )),
    };
    if ctx.in_workspace {
        super::prune_records::plan(root, ctx, input.session_id.as_deref(), &mut out);
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

fn resume(
    source: &str,
    root: &Path,
    ctx: &HookContext,
    input: &HookInput,
    session: Option<Session>,
) -> HookOutcome {
    let mut out = HookOutcome::default();
    let mut blocks = Vec::new();
    let mut dropped = match source {
        "compact" => super::dropped_section::section(root, ctx, input, &mut out),
        _ => None,
    };
    let nexus = nexus_state(root, ctx, input, session.clone(), &mut out);
    let files = checkpoints::list(&checkpoints_dir(root));
    let all = checkpoints::load_all(&files, root, &mut out);
    let deliveries = Deliveries::load(root, &mut out);
    let session_id = input.session_id.as_deref();
    let due = deliveries.due(&all, session_id);
    // The alert goes first: the 10,000-unit cap cuts from the end, and an alert
    // recorded as delivered must have gone out whole.
    let mut alert = None;
    let mut dropped_sent: Option<Checkpoint> = None;
    if let (Some(checkpoint), Some(session_id)) = (due, session_id) {
        let project = lookup::for_checkpoint(checkpoint, &all, ctx, session.clone());
        let alone = |project: Option<&Project>| render_alert(checkpoint, project, &all).text;
        let why = format!("the workflow of checkpoint {}", checkpoint.id);
        let (text, after) = match (nexus.clone(), dropped.take(), &project) {
            (Some(block), _, p) => (alone(p.as_ref()), Some(block)),
            (None, Some((of, section)), p) => {
                dropped_sent = Some(of);
                (alone(p.as_ref()), Some(section))
            }
            (None, None, Some(p)) if p.kind != ProjectKind::Nexus => {
                // One story: the alert and Template 1 each say a fact once.
                out.explain(format!(
                    "{why}: workflow {} ({}): alert and resumption prompt as one",
                    p.id, p.source
                ));
                let merged = render_after_compaction(checkpoint, p, &all);
                (merged.alert.text, Some(merged.prompt.text))
            }
            (None, None, Some(p)) => (alone(Some(p)), Some(resumption(root, p, &why, &mut out))),
            (None, None, None) => (alone(None), None),
        };
        blocks.push(text.clone());
        blocks.extend(after);
        alert = Some((checkpoint.clone(), session_id, text));
    } else if let Some(block) = nexus {
        blocks.push(block);
    } else if let Some((of, section)) = dropped.take() {
        blocks.push(section);
        dropped_sent = Some(of);
    } else if let Some(project) = never_compacted_build(source, &all, input, ctx, session.clone()) {
        out.explain(format!(
            "session resumed without a compaction; Nexus build {} records this session: loading sequence",
            project.id
        ));
        blocks.push(nexus_sequence(root, &project, None));
    } else {
        // Resumption context, never the alert: that belongs to its own session.
        // The session's own workflow; another session's checkpoint only mentioned.
        let choice = super::resume_choice::choose(
            input.transcript_path.as_deref(),
            session_id,
            &all,
            ctx,
            session.clone(),
            &mut out,
        );
        match &choice.own {
            Some((project, why)) => {
                out.explain(format!("resuming {why}"));
                blocks.push(resumption(root, project, why, &mut out));
            }
            None if choice.mention.is_none() => out.explain(
                "no workflow of this session's own and no other session's unacknowledged checkpoint whose workflow was found; nothing injected",
            ),
            None => out.explain(
                "no workflow of this session's own: another session's checkpoint mentioned, not resumed",
            ),
        }
        blocks.extend(choice.mention);
    }
    out.stdout = additional_context(Event::SessionStart.name(), &blocks);
    let via = format!("SessionStart({source})");
    match alert {
        Some((checkpoint, session_id, text)) => {
            if carries_whole(out.stdout.as_deref(), &text) {
                out.explain(format!(
                    "compaction alert for {}, written in this session; recorded as delivered",
                    checkpoint.path
                ));
                let dropped = dropped_sent.is_some_and(|d| d.path == checkpoint.path);
                let what = Delivered {
                    alert: true,
                    dropped,
                };
                deliveries.record(root, &checkpoint, session_id, &via, ctx.now, what, &mut out);
            } else {
                out.error(cut_alert(&checkpoint));
            }
        }
        None => {
            if let (Some(checkpoint), Some(session_id)) = (dropped_sent, session_id) {
                let what = Delivered {
                    alert: false,
                    dropped: true,
                };
                deliveries.record(root, &checkpoint, session_id, &via, ctx.now, what, &mut out);
            }
        }
    }
    out
}

/// On `resume` of a session that never compacted (no checkpoint records it): the
/// Nexus build whose manifest lists the session.
fn never_compacted_build(
    source: &str,
    all: &[Checkpoint],
    input: &HookInput,
    ctx: &HookContext,
    session: Option<Session>,
) -> Option<Project> {
    let session_id = input.session_id.as_deref()?;
    let compacted = all
        .iter()
        .any(|c| c.session_id.as_deref() == Some(session_id));
    if source != "resume" || compacted {
        return None;
    }
    lookup::by_session(ctx, session_id, session)
}

/// The Nexus loading sequence from `precompact_state.json`, when the state is this
/// session's or recent (`hooks.nexus_state_max_age_minutes`); it is then consumed.
/// An older one is left for the dashboard to show.
fn nexus_state(
    root: &Path,
    ctx: &HookContext,
    input: &HookInput,
    session: Option<Session>,
    out: &mut HookOutcome,
) -> Option<String> {
    let state_path = precompact_state_path(root);
    let snapshot = match read_snapshot(&state_path) {
        Ok(snapshot) => snapshot,
        Err(e) => {
            if !e.is_missing() {
                out.error(format!("{e}; left in place"));
            }
            return None;
        }
    };
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(&snapshot.bytes) else {
        out.error(format!("{}: not JSON; left in place", state_path.display()));
        return None;
    };
    if let Err(why) = nexus_state_usable(&value, input.session_id.as_deref(), ctx) {
        out.explain(format!(
            "precompact state not injected: {why}; left for the dashboard"
        ));
        return None;
    }
    out.write(
        state_path.clone(),
        WriteOp::Remove { snapshot },
        "precompact state consumed",
    );
    match lookup::from_precompact_state(ctx, session) {
        Some((project, confidence)) if matches!(confidence.as_str(), "high" | "medium") => {
            out.explain(format!(
                "precompact state: project {} with confidence {confidence}",
                project.id
            ));
            Some(nexus_sequence(root, &project, Some(&confidence)))
        }
        Some((project, confidence)) => {
            out.explain(format!(
                "precompact state names {} with confidence {confidence}: too low to inject",
                project.id
            ));
            None
        }
        None => {
            out.explain("precompact state names no project that exists");
            None
        }
    }
}

/// This session's state, or one written within the configured age.
fn nexus_state_usable(
    value: &serde_json::Value,
    session_id: Option<&str>,
    ctx: &HookContext,
) -> Result<(), String> {
    let named = value.get("session_id").and_then(serde_json::Value::as_str);
    if named.is_some() && named == session_id {
        return Ok(());
    }
    let max = ctx.config.hooks.nexus_state_max_age_minutes;
    let written = value
        .get("timestamp")
        .and_then(serde_json::Value::as_str)
        .and_then(Timestamp::parse)
        .ok_or("it is not this session's and has no readable timestamp")?;
    let age = ctx.now.seconds_since(written);
    if crate::core::precompact::within_bound(age, max) {
        Ok(())
    } else {
        Err(format!(
            "written {} by another session (hooks.nexus_state_max_age_minutes = {max})",
            describe_age(age)
        ))
    }
}

/// Template 1 for a workflow, the loading sequence for a Nexus project; `why`
/// says how the workflow was chosen.
fn resumption(root: &Path, project: &Project, why: &str, out: &mut HookOutcome) -> String {
    if project.kind == ProjectKind::Nexus {
        out.explain(format!(
            "{why}: Nexus project {}: loading sequence",
            project.id
        ));
        return nexus_sequence(root, project, None);
    }
    out.explain(format!(
        "{why}: workflow {} ({}): resumption prompt",
        project.id, project.source
    ));
    let once = PromptOptions {
        next_action_once: true,
        ..PromptOptions::default()
    };
    render_prompt_with(project, once).text
}

fn nexus_sequence(root: &Path, project: &Project, confidence: Option<&str>) -> String {
    let Some(manifest) = &project.manifest else {
        if project.kind == ProjectKind::Nexus {
            return crate::core::normalize::nexus::nothing_to_resume(project);
        }
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
    let Some(project) = lookup::by_fallback(ctx, None) else {
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
    let activity = state::activity(project);
    let newest = state::newest_checkpoint(&project.checkpoints);
    if let Some(next) = state::next_action(Some(project), newest, activity.as_deref()) {
        let next = next.trim();
        let stop = if next.ends_with(['.', '!', '?']) {
            ""
        } else {
            "."
        };
        parts.push(format!("Next step: {next}{stop}"));
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
