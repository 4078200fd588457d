//! Recovery-state fields: under `recovery_state:` (v2 nested) or directly under
//! `resumption:` (v1, v2 flat, other). Values are coerced leniently; a value that
//! cannot be read is warned about and left for the "other fields".

use yaml_serde::{Mapping, Value};

use super::ctx::{Ctx, child};
use crate::core::model::RecoveryState;
use crate::core::normalize::value::{boolean, float, key_text, text};
use crate::core::time::Timestamp;

/// Reads the recovery fields of `map` into `rec`, filling only fields still empty.
/// Returns the keys it used; every other key belongs in the "other fields".
pub(super) fn read_recovery(
    map: &Mapping,
    rec: &mut RecoveryState,
    ctx: &mut Ctx,
    path: &[&str],
) -> Vec<String> {
    let mut used = Vec::new();
    for (k, value) in map {
        let key = key_text(k);
        let at = child(path, &key);
        let taken = match key.as_str() {
            "last_checkpoint" => take_text(&mut rec.last_checkpoint, value, ctx, &at),
            "last_checkpoint_id" if !map.contains_key("last_checkpoint") => {
                take_text(&mut rec.last_checkpoint, value, ctx, &at)
            }
            "current_phase" => take_text(&mut rec.current_phase, value, ctx, &at),
            "current_phase_name" => take_text(&mut rec.current_phase_name, value, ctx, &at),
            "workflow_status" => take_text(&mut rec.workflow_status, value, ctx, &at),
            "current_activity" => take_text(&mut rec.current_activity, value, ctx, &at),
            "next_step" => take_text(&mut rec.next_step, value, ctx, &at),
            "next_action" if !map.contains_key("next_step") => {
                take_text(&mut rec.next_step, value, ctx, &at)
            }
            "current_state" => take_text(&mut rec.current_state, value, ctx, &at),
            "context_summary" if !map.contains_key("current_state") => {
                take_text(&mut rec.current_state, value, ctx, &at)
            }
            "context_fill_at_update" => take_fill(&mut rec.context_fill_at_update, value, ctx, &at),
            "updated_at" => take_updated_at(rec, value, ctx, &at),
            "cross_session_portable" => take_bool(&mut rec.cross_session_portable, value, ctx, &at),
            "ephemeral_references" => take_bool(&mut rec.ephemeral_references, value, ctx, &at),
            _ => false,
        };
        if taken {
            used.push(key);
        }
    }
    used
}

/// Text from any scalar; blank text counts as absent. Returns whether the key was used.
pub(super) fn take_text(
    slot: &mut Option<String>,
    value: &Value,
    ctx: &mut Ctx,
    path: &[&str],
) -> bool {
    if slot.is_some() {
        return false;
    }
    if value.is_null() {
        return true;
    }
    match text(value) {
        Some(t) => {
            let t = t.trim();
            if !t.is_empty() {
                *slot = Some(t.to_string());
            }
            true
        }
        None => {
            ctx.wrong_type(path, "text", value);
            false
        }
    }
}

fn take_bool(slot: &mut Option<bool>, value: &Value, ctx: &mut Ctx, path: &[&str]) -> bool {
    if slot.is_some() {
        return false;
    }
    if value.is_null() {
        return true;
    }
    match boolean(value) {
        Some(b) => {
            *slot = Some(b);
            true
        }
        None => {
            ctx.wrong_type(path, "true or false", value);
            false
        }
    }
}

fn take_fill(slot: &mut Option<f64>, value: &Value, ctx: &mut Ctx, path: &[&str]) -> bool {
    if slot.is_some() {
        return false;
    }
    if value.is_null() {
        return true;
    }
    match float(value) {
        Some(raw) if raw > 1.0 => {
            ctx.warn(
                path,
                format!(
                    "a fill above 1 ({raw}) is not a fraction; left unknown rather than guessed \
                     (write 0.0–1.0)"
                ),
            );
            true
        }
        Some(f) if f >= 0.0 => {
            *slot = Some(f);
            true
        }
        _ => {
            ctx.wrong_type(path, "a fill between 0 and 1", value);
            false
        }
    }
}

/// A fill as a fraction: `0.64` stays; anything outside 0–1 (`1.5`, `64.2`) is
/// not guessed at (1.5 % or 150 %?) and is left unknown.
pub(super) fn fraction(f: f64) -> Option<f64> {
    (0.0..=1.0).contains(&f).then_some(f)
}

fn take_updated_at(rec: &mut RecoveryState, value: &Value, ctx: &mut Ctx, path: &[&str]) -> bool {
    if !take_text(&mut rec.updated_at_raw, value, ctx, path) {
        return false;
    }
    if let Some(raw) = &rec.updated_at_raw {
        rec.updated_at = Timestamp::parse(raw);
        if rec.updated_at.is_none() {
            ctx.warn(
                path,
                format!("{raw:?} is not an ISO 8601 timestamp; staleness cannot use it"),
            );
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (RecoveryState, Vec<String>, Vec<String>) {
        let v: Value = yaml_serde::from_str(text).unwrap();
        let mut ctx = Ctx::new("f.yaml", text);
        let mut rec = RecoveryState::default();
        let used = read_recovery(v.as_mapping().unwrap(), &mut rec, &mut ctx, &["resumption"]);
        let messages = ctx.diagnostics.iter().map(|d| d.message.clone()).collect();
        (rec, used, messages)
    }

    #[test]
    fn reads_and_coerces_recovery_fields() {
        let (rec, used, warnings) = read(
            "current_phase: 3\nworkflow_status: ACTIVE\nnext_step: '  Go  '\n\
             context_fill_at_update: 64.2\nupdated_at: 2026-02-17T12:34:56Z\n\
             cross_session_portable: 'yes'\nextra: 1\n",
        );
        assert_eq!(rec.current_phase.as_deref(), Some("3"));
        assert_eq!(rec.next_step.as_deref(), Some("Go"));
        assert_eq!(rec.context_fill_at_update, None, "64.2 is not guessed at");
        assert_eq!(rec.updated_at.unwrap().to_iso(), "2026-02-17T12:34:56Z");
        assert_eq!(rec.cross_session_portable, Some(true));
        assert!(!used.contains(&"extra".to_string()));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("a fill above 1 (64.2) is not a fraction; left unknown"),
            "{warnings:?}"
        );
        let (rec, _, warnings) = read(
            "context_fill_at_update: 1.5
",
        );
        assert_eq!(rec.context_fill_at_update, None, "not read as 1.5 %");
        assert!(warnings[0].contains("a fill above 1 (1.5)"), "{warnings:?}");
        let (rec, _, _) = read(
            "context_fill_at_update: 1
",
        );
        assert_eq!(rec.context_fill_at_update, Some(1.0));
    }

    #[test]
    fn aliases_apply_only_when_the_canonical_key_is_absent() {
        let (rec, used, _) = read("next_action: A\nlast_checkpoint_id: cp-1\n");
        assert_eq!(rec.next_step.as_deref(), Some("A"));
        assert_eq!(rec.last_checkpoint.as_deref(), Some("cp-1"));
        assert_eq!(used.len(), 2);
        let (rec, used, _) = read("next_step: S\nnext_action: A\n");
        assert_eq!(rec.next_step.as_deref(), Some("S"));
        assert_eq!(used, vec!["next_step"]);
    }

    #[test]
    fn wrong_types_warn_and_stay_unused() {
        let (rec, used, warnings) =
            read("next_step: [a, b]\ncross_session_portable: maybe\nupdated_at: '{TS}'\n");
        assert_eq!(rec.next_step, None);
        assert_eq!(used, vec!["updated_at"]);
        assert_eq!(rec.updated_at_raw.as_deref(), Some("{TS}"));
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0].starts_with("resumption.next_step: expected text, found a list"));
    }
}
