//! PostCompact: record `trigger` and `compact_summary` (redacted) into the newest
//! checkpoint of this session as `post_compact: {trigger, compact_summary,
//! recorded_at}`, so the operator can later see what the summary kept. Prints
//! nothing: PostCompact output is observe-only and `hookSpecificOutput` is rejected.

use serde_json::{Map, Value};

use super::checkpoints;
use super::context::{HookContext, checkpoints_dir};
use super::input::HookInput;
use super::output::{HookOutcome, WriteOp};
use crate::core::wire::checkpoint::PostCompact;

pub fn handle(input: &HookInput, ctx: &HookContext) -> HookOutcome {
    let Some(root) = ctx.project_dir() else {
        return HookOutcome::nothing("no project folder");
    };
    let Some(session) = input.session_id.as_deref() else {
        let mut out = HookOutcome::nothing("no session_id: no checkpoint to record into");
        out.info("no session_id; nothing recorded");
        return out;
    };
    let files = checkpoints::list(&checkpoints_dir(root));
    let mut out = HookOutcome::default();
    let Some((file, snapshot, mut body)) =
        checkpoints::newest_of_session(&files, session, &mut out)
    else {
        out.explain(format!(
            "no checkpoint of session {session} in {}",
            checkpoints_dir(root).display()
        ));
        out.info("no checkpoint of this session; nothing recorded");
        return out;
    };
    let summary = input
        .compact_summary
        .as_deref()
        .map(super::caps::compact_summary);
    let record = PostCompact {
        trigger: input.trigger.clone(),
        compact_summary: summary,
        recorded_at: Some(ctx.now.to_iso()),
    };
    let Ok(value) = serde_json::to_value(&record) else {
        out.error("could not serialise post_compact");
        return out;
    };
    insert_after_metadata(&mut body, value);
    let mut text = serde_json::to_string_pretty(&Value::Object(body)).unwrap_or_default();
    text.push('\n');
    out.explain(format!(
        "newest checkpoint of session {session}: {} ({})",
        file.id,
        file.path.display()
    ));
    if u64::try_from(text.len()).unwrap_or(u64::MAX) > checkpoints::MAX_CHECKPOINT_BYTES {
        // Another tool's checkpoint near the limit: written over it, the hooks
        // could no longer read it.
        out.error(format!(
            "{}: with the post_compact record it would pass the {} MB the hooks read; left as it is",
            file.path.display(),
            checkpoints::MAX_CHECKPOINT_BYTES >> 20
        ));
        return out;
    }
    out.info(format!("recorded post_compact into {}", file.id));
    out.write(
        file.path,
        WriteOp::Replace {
            snapshot,
            bytes: text.into_bytes(),
        },
        format!("post_compact record in {}", file.id),
    );
    out
}

/// Replaces `post_compact` where it is, or adds it at the end (after `metadata`).
fn insert_after_metadata(body: &mut Map<String, Value>, value: Value) {
    match body.get_mut("post_compact") {
        Some(slot) => *slot = value,
        None => {
            body.insert("post_compact".into(), value);
        }
    }
}
