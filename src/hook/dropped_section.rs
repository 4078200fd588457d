//! The "Dropped by compaction" section (only what the summary lost), in the
//! session that compacted, once (`delivery`). SessionStart(compact) injects it
//! instead of the whole resumption context when the summary is known then
//! (recorded by PostCompact, else in the transcript). Claude Code runs PostCompact
//! after SessionStart(compact) and writes the transcript's summary later still
//! (docs/hooks.md, "The real client"), so usually the next UserPromptSubmit
//! brings it, from the summary PostCompact recorded.

use std::path::Path;

use super::checkpoints;
use super::context::{HookContext, checkpoints_dir};
use super::delivery::Deliveries;
use super::input::HookInput;
use super::output::{CONTEXT_LIMIT, HookOutcome};
use crate::core::dropped::{Origin, SectionInput, compare_checkpoint, recorded, render_section};
use crate::core::model::Checkpoint;
use crate::core::normalize::checkpoint::normalize_checkpoint;
use crate::core::redact::scrub;
use crate::core::render::state;
use crate::io::transcript::source::{Lookup, summary_for};
use crate::io::transcript::summaries::TAIL_BYTES;

/// The section's share of the injection limit.
const MAX_SECTION_CHARS: usize = 6_000;

/// The section for this session's newest checkpoint, when its summary is known
/// (SessionStart(compact): the recorded summary, else the transcript's).
pub fn section(
    root: &Path,
    ctx: &HookContext,
    input: &HookInput,
    out: &mut HookOutcome,
) -> Option<(Checkpoint, String)> {
    let session = input.session_id.as_deref()?;
    let files = checkpoints::list(&checkpoints_dir(root));
    let Some((file, snapshot, _)) = checkpoints::newest_of_session(&files, session, out) else {
        out.explain(format!(
            "dropped by compaction: no checkpoint of session {session}"
        ));
        return None;
    };
    let rel = checkpoints::relative(root, &file.path);
    let text = String::from_utf8_lossy(&snapshot.bytes);
    let checkpoint = normalize_checkpoint(&rel, &text, file.marker).ok()?;
    let lookup = Lookup {
        env: ctx.env,
        root,
        transcript: input.transcript_path.as_deref(),
        max_bytes: TAIL_BYTES,
    };
    let found = match summary_for(&checkpoint, &lookup) {
        Ok(found) => found,
        Err(why) => {
            out.explain(format!(
                "dropped by compaction: {why}; the resume context stays"
            ));
            return None;
        }
    };
    let section = render(&checkpoint, &found.text, found.source.label(), out);
    Some((checkpoint, section))
}

/// The section due with a prompt: this session's newest checkpoint, not
/// acknowledged, whose section has not gone out, with the summary PostCompact
/// recorded into it (the transcript is not read on every prompt).
pub fn due_with_prompt<'a>(
    all: &'a [Checkpoint],
    session_id: Option<&str>,
    deliveries: &Deliveries,
    out: &mut HookOutcome,
) -> Option<(&'a Checkpoint, String)> {
    let session_id = session_id.filter(|s| !s.is_empty())?;
    let newest = state::in_order(all)
        .into_iter()
        .rev()
        .find(|c| c.session_id.as_deref() == Some(session_id))?;
    if newest.acknowledged || deliveries.dropped_delivered(newest) {
        return None;
    }
    let summary = recorded(newest)?;
    let section = render(newest, summary, Origin::Recorded.label(), out);
    Some((newest, section))
}

fn render(checkpoint: &Checkpoint, summary: &str, origin: &str, out: &mut HookOutcome) -> String {
    let comparison = compare_checkpoint(checkpoint, summary);
    let section = render_section(&SectionInput {
        checkpoint_id: &checkpoint.id,
        workflow: checkpoint.workflow_id.as_deref(),
        comparison: &comparison,
        max_chars: MAX_SECTION_CHARS.min(CONTEXT_LIMIT),
    });
    let dropped = comparison.dropped().count();
    out.explain(format!(
        "dropped by compaction: checkpoint {} against the {origin} summary: {dropped} of {} items dropped",
        checkpoint.id,
        comparison.verdicts.len()
    ));
    out.info(format!(
        "dropped by compaction: {dropped} of {} items of {}",
        comparison.verdicts.len(),
        checkpoint.id
    ));
    scrub(&section).into_owned()
}
