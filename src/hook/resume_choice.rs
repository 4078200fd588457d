//! Which workflow a resumed session (SessionStart `resume`, `fork`, or `compact`
//! with no alert due) is told about: its own first, the one its transcript works
//! in, else the one its own unacknowledged checkpoints name. Another session's
//! unacknowledged checkpoint is only mentioned, never imposed: the session
//! resumed may be doing something else entirely (issue 32, defect 8).

use std::path::Path;

use super::context::HookContext;
use super::lookup;
use super::output::HookOutcome;
use crate::core::model::{Checkpoint, Project};
use crate::core::render::format::abbreviate;
use crate::core::render::state;
use crate::core::staleness::Session;
use crate::core::time::describe_age;

/// How many unacknowledged checkpoints, newest first, are tried for a workflow.
const UNACKED_LOOKED_AT: usize = 16;

/// What the resumed session is told.
pub struct Choice {
    /// The session's own workflow and why it is its own.
    pub own: Option<(Project, String)>,
    /// Another session's newest unacknowledged checkpoint whose workflow was
    /// found and is not the own one: one short paragraph.
    pub mention: Option<String>,
}

pub fn choose(
    transcript: Option<&Path>,
    session_id: Option<&str>,
    all: &[Checkpoint],
    ctx: &HookContext,
    session: Option<Session>,
    out: &mut HookOutcome,
) -> Choice {
    let unacked: Vec<&Checkpoint> = state::in_order(all)
        .into_iter()
        .rev()
        .filter(|c| !c.acknowledged)
        .take(UNACKED_LOOKED_AT)
        .collect();
    let mine = |c: &Checkpoint| session_id.is_some() && c.session_id.as_deref() == session_id;
    let mut walked = None;
    let mut workflow_of = |c: &Checkpoint, out: &mut HookOutcome| {
        let project = lookup::for_checkpoint_or_id(c, all, ctx, session.clone(), &mut walked);
        if project.is_none() {
            out.explain(format!(
                "unacknowledged checkpoint {}: its workflow was not found",
                c.id
            ));
        }
        project
    };
    let own = lookup::by_transcript(transcript, all, ctx, session.clone())
        .map(|p| {
            (
                p,
                "the workflow this session's transcript works in".to_string(),
            )
        })
        .or_else(|| {
            unacked.iter().filter(|c| mine(c)).find_map(|c| {
                let why = format!("this session's unacknowledged checkpoint {}", c.id);
                workflow_of(c, out).map(|p| (p, why))
            })
        });
    let other = unacked
        .iter()
        .filter(|c| !mine(c))
        .find_map(|c| workflow_of(c, out).map(|p| (*c, p)))
        .filter(|(_, p)| own.as_ref().is_none_or(|(o, _)| o.source != p.source));
    let mention = other.map(|(c, p)| mention(c, &p, own.is_some(), ctx));
    Choice { own, mention }
}

fn mention(checkpoint: &Checkpoint, project: &Project, has_own: bool, ctx: &HookContext) -> String {
    let written = checkpoint
        .created_at
        .map(|t| format!(", written {}", describe_age(ctx.now.seconds_since(t))))
        .unwrap_or_default();
    let by = match checkpoint.session_id.as_deref() {
        Some(id) => format!("session {}", abbreviate(id, 64)),
        None => "a session that did not record its id".to_string(),
    };
    let lead = if has_own {
        "Also in this workspace"
    } else {
        "resume-tui found no workflow of this session's own (none in its transcript, no checkpoint of its own). In this workspace"
    };
    format!(
        "<other-session-checkpoint>\n{lead}, {by} left checkpoint {}{written}, unacknowledged, for workflow {} ({}). It is not this session's work: do not switch to it unless the operator asks.\n</other-session-checkpoint>",
        abbreviate(&checkpoint.id, 40),
        abbreviate(&project.id, 80),
        abbreviate(&project.source, 200),
    )
}
