//! The one injection after a compaction (issue 32, defect 4): the compaction
//! alert and Template 1 of the same workflow as one story. Each fact once: the
//! next action only in Template 1's NEXT ACTION (the alert and the closing step
//! point at it), and each fill labelled by when it was measured: the
//! checkpoint's "at compaction" in the alert, the state file's "when the
//! resumption section was written" in Template 1.

use super::alert::render_alert_with;
use super::budget::Rendered;
use super::prompt::{PromptOptions, render_prompt_with};
use crate::core::model::{Checkpoint, Project};

/// The alert and Template 1, rendered to follow each other in this order. The
/// alert is returned apart: its delivery is recorded only when it went out whole.
pub struct AfterCompaction {
    pub alert: Rendered,
    pub prompt: Rendered,
}

pub fn render_after_compaction(
    checkpoint: &Checkpoint,
    project: &Project,
    known: &[Checkpoint],
) -> AfterCompaction {
    AfterCompaction {
        alert: render_alert_with(checkpoint, Some(project), known, true),
        prompt: render_prompt_with(
            project,
            PromptOptions {
                after_alert: true,
                next_action_once: true,
            },
        ),
    }
}
