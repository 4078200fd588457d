//! SessionStart with source `compact`, in the session that compacted: when the
//! summary of that compaction is known (recorded by PostCompact, else in the
//! transcript), the "Dropped by compaction" section (only what the summary lost)
//! is injected instead of the whole resumption context the summary mostly holds
//! already. Without a summary nothing changes.

use std::path::Path;

use super::checkpoints;
use super::context::{HookContext, checkpoints_dir};
use super::input::HookInput;
use super::output::{CONTEXT_LIMIT, HookOutcome};
use crate::core::dropped::{SectionInput, compare_checkpoint, render_section};
use crate::core::normalize::checkpoint::normalize_checkpoint;
use crate::core::redact::scrub;
use crate::io::transcript::source::{Lookup, summary_for};
use crate::io::transcript::summaries::TAIL_BYTES;

/// The section's share of the injection limit.
const MAX_SECTION_CHARS: usize = 6_000;

/// The section for this session's newest checkpoint, when its summary is known.
pub fn section(
    root: &Path,
    ctx: &HookContext,
    input: &HookInput,
    out: &mut HookOutcome,
) -> Option<String> {
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
    let comparison = compare_checkpoint(&checkpoint, &found.text);
    let section = render_section(&SectionInput {
        checkpoint_id: &checkpoint.id,
        workflow: checkpoint.workflow_id.as_deref(),
        comparison: &comparison,
        max_chars: MAX_SECTION_CHARS.min(CONTEXT_LIMIT),
    });
    let dropped = comparison.dropped().count();
    out.explain(format!(
        "dropped by compaction: checkpoint {} against the {} summary: {dropped} of {} items dropped; \
         injected instead of the resume context",
        checkpoint.id,
        found.source.label(),
        comparison.verdicts.len()
    ));
    out.info(format!(
        "dropped by compaction: {dropped} of {} items of {}",
        comparison.verdicts.len(),
        checkpoint.id
    ));
    Some(scrub(&section).into_owned())
}
