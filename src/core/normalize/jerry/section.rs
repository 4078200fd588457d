//! The `resumption:` section as a whole: recovery fields, sub-sections, and every
//! key the model does not know, kept in file order.

use yaml_serde::Value;

use super::compaction::read_compaction;
use super::ctx::{Ctx, child, kind};
use super::decisions::{read_agent_summaries, read_decisions};
use super::files::read_files;
use super::quality::{read_defects, read_trajectory};
use super::recovery::read_recovery;
use crate::core::model::{Resumption, Shape};
use crate::core::normalize::value::key_text;

const ROOT: &[&str] = &["resumption"];

/// Every key of `resumption:` the normaliser reads, here and elsewhere
/// (`recovery::read_recovery`, the summary, blockers, the next gate). Any other
/// key only becomes an other field, so the hooks' cut (`prune::Cut::Hooks`)
/// leaves it unparsed. `tests/hooks_cut.rs` holds this list to every key the
/// normaliser's sources name.
pub(super) const READ_KEYS: &[&str] = &[
    // recovery fields
    "last_checkpoint",
    "last_checkpoint_id",
    "current_phase",
    "current_phase_name",
    "workflow_status",
    "current_activity",
    "next_step",
    "next_action",
    "current_state",
    "context_summary",
    "context_fill_at_update",
    "updated_at",
    "cross_session_portable",
    "ephemeral_references",
    // sub-sections
    "recovery_state",
    "files_to_read",
    "key_reference_files",
    "key_artifacts_to_read",
    "quality_trajectory",
    "defect_summary",
    "defects_summary",
    "defect_patterns_summary",
    "decision_log",
    "decisions",
    "agent_summaries",
    "compaction_events",
    // read by the summary and the file-wide checks
    "last_completed_phase",
    "next_gate",
    "blockers",
];

pub(super) fn read_resumption(value: &Value, shape: Shape, ctx: &mut Ctx) -> Resumption {
    let mut res = Resumption::default();
    let Some(map) = value.as_mapping() else {
        not_a_map(value, &mut res, ctx);
        return res;
    };
    let nested = match map.get("recovery_state") {
        Some(state) if shape == Shape::V2Nested => state.as_mapping(),
        _ => None,
    };
    let nested_path = child(ROOT, "recovery_state");
    let nested_used = nested
        .map(|state| read_recovery(state, &mut res.recovery, ctx, &nested_path))
        .unwrap_or_default();
    let used = read_recovery(map, &mut res.recovery, ctx, ROOT);

    for (k, v) in map {
        let key = key_text(k);
        if used.contains(&key) {
            continue;
        }
        if key == "recovery_state"
            && let Some(state) = nested
        {
            for (sk, sv) in state {
                let sub = key_text(sk);
                if !nested_used.contains(&sub) {
                    ctx.keep(&mut res.other, format!("recovery_state.{sub}"), sv);
                }
            }
            continue;
        }
        if !read_sub_section(&key, v, &mut res, ctx) {
            ctx.keep(&mut res.other, key, v);
        }
    }
    res
}

/// Reads one known sub-section into `res`; `false` when `key` is not one, or when
/// its value could not be read (then it is kept as an other field).
fn read_sub_section(key: &str, value: &Value, res: &mut Resumption, ctx: &mut Ctx) -> bool {
    let path = child(ROOT, key);
    match key {
        "files_to_read" | "key_reference_files" | "key_artifacts_to_read" => {
            read_files(value, ctx, &path)
                .map(|f| res.files_to_read.extend(f))
                .is_some()
        }
        "quality_trajectory" => read_trajectory(value, ctx, &path)
            .map(|q| res.quality = q)
            .is_some(),
        "defect_summary" | "defects_summary" | "defect_patterns_summary"
            if res.defects.is_none() =>
        {
            read_defects(value, ctx, &path)
                .map(|d| res.defects = d)
                .is_some()
        }
        "decision_log" | "decisions" => {
            if let Some(first) = &res.decisions_key {
                ctx.warn(
                    &path,
                    format!("the decision log is already read from `{first}`; this list is kept under other fields"),
                );
                return false;
            }
            let read = read_decisions(value, ctx, &path).map(|d| res.decisions = d);
            if read.is_some() {
                res.decisions_key = Some(key.to_string());
            }
            read.is_some()
        }
        "agent_summaries" => read_agent_summaries(value, ctx, &path)
            .map(|a| res.agent_summaries = a)
            .is_some(),
        "compaction_events" => read_compaction(value, ctx, &path)
            .map(|c| res.compaction = c)
            .is_some(),
        "recovery_state" => {
            ctx.wrong_type(&path, "a map of recovery fields", value);
            false
        }
        _ => false,
    }
}

/// `resumption:` holding a string, a list or null: kept whole, with a warning.
fn not_a_map(value: &Value, res: &mut Resumption, ctx: &mut Ctx) {
    if value.is_null() {
        ctx.warn(ROOT, "the section is empty, so it gives no next step");
        return;
    }
    ctx.warn(
        ROOT,
        format!(
            "expected a map of resumption fields, found {}; kept whole under other fields, so it gives no next step",
            kind(value)
        ),
    );
    ctx.keep(&mut res.other, "resumption".into(), value);
}
