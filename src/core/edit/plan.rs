//! What an intent changes in a parsed ORCHESTRATION.yaml (or Nexus frontmatter): the
//! ops, decided from the keys the file already has. An operator's edit changes what
//! it names and nothing else: `updated_at` records the orchestrator's progress (the
//! staleness rules read it), so only an explicit [`EditIntent::Touch`] sets it.

use yaml_serde::Value;

use super::{EditIntent, NewValue, Op, Path, Seg, keys};
use crate::core::normalize::value::{get, text};
use crate::core::time::Timestamp;

use super::{compaction, decisions};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The thing to change is not there (no such decision, …).
    #[error("{0}")]
    NotFound(String),
    /// The change is already made (already merged, …).
    #[error("{0}")]
    AlreadyDone(String),
    /// The file holds something of another type where the edit must write.
    #[error("{0}")]
    Unsupported(String),
}

/// The ops that carry out `intent` on `doc`. An empty list means nothing to change.
pub fn plan(doc: &Value, intent: &EditIntent) -> Result<Vec<Op>, PlanError> {
    Ok(match intent {
        EditIntent::AcknowledgeCheckpoint { id } => compaction::acknowledge(doc, Some(id)),
        EditIntent::AcknowledgeAll => compaction::acknowledge(doc, None),
        EditIntent::MergeCheckpoint(event) => compaction::merge(doc, event)?,
        EditIntent::AddDecision(new) => decisions::add(doc, new)?,
        EditIntent::EditDecision { id, fields } => decisions::edit(doc, id, fields)?,
        EditIntent::SetDecisionApplied { id, applied } => {
            decisions::set_applied(doc, id, *applied)?
        }
        EditIntent::DeleteDecision { id } => decisions::delete(doc, id)?,
        EditIntent::Touch { now } => touch(doc, *now),
        EditIntent::SetNexusFields(fields) => nexus_fields(doc, fields),
    })
}

/// `recovery_state.updated_at`, or the flat `updated_at` of a v2-flat section. A v1
/// section has no such field and gets none (adding one would change its shape).
pub fn touch(doc: &Value, now: Timestamp) -> Vec<Op> {
    let Some(resumption) = get(doc, "resumption").filter(|r| r.is_mapping()) else {
        return Vec::new();
    };
    let stamp = NewValue::Str(now.to_iso());
    if get(resumption, "recovery_state").is_some_and(Value::is_mapping) {
        return vec![set_or_insert(
            doc,
            &keys(&["resumption", "recovery_state"]),
            "updated_at",
            stamp,
        )];
    }
    let flat_v2 = [
        "updated_at",
        "workflow_status",
        "current_phase",
        "current_phase_name",
        "current_activity",
        "context_fill_at_update",
        "decisions",
        "decision_log",
        "quality_trajectory",
        "defect_summary",
        "agent_summaries",
        "compaction_events",
    ];
    if flat_v2.iter().any(|k| get(resumption, k).is_some()) {
        return vec![set_or_insert(
            doc,
            &keys(&["resumption"]),
            "updated_at",
            stamp,
        )];
    }
    Vec::new()
}

fn nexus_fields(doc: &Value, fields: &super::NexusFields) -> Vec<Op> {
    let root = Path::new();
    let mut ops = Vec::new();
    let strings = [
        ("next_action", &fields.next_action),
        ("current_task", &fields.current_task),
        ("current_section", &fields.current_section),
    ];
    for (key, value) in strings {
        if let Some(value) = value {
            ops.push(set_or_insert(
                doc,
                &root,
                key,
                NewValue::str(value.as_str()),
            ));
        }
    }
    if let Some(at) = fields.last_updated {
        let existing = get(doc, "last_updated").and_then(text);
        ops.push(set_or_insert(
            doc,
            &root,
            "last_updated",
            NewValue::Str(timestamp_like(existing.as_deref(), at)),
        ));
    }
    ops
}

/// `at` written as the file wrote the old value: a date alone stays a date.
pub fn timestamp_like(existing: Option<&str>, at: Timestamp) -> String {
    let iso = at.to_iso();
    match existing {
        Some(old) if old.trim().len() == 10 && Timestamp::parse(old).is_some() => {
            iso.chars().take(10).collect()
        }
        _ => iso,
    }
}

/// The value at `path`, if every step exists.
pub fn value_at<'a>(doc: &'a Value, path: &[Seg]) -> Option<&'a Value> {
    path.iter().try_fold(doc, |value, seg| match seg {
        Seg::Key(key) => value.as_mapping()?.get(key.as_str()),
        Seg::Index(i) => value.as_sequence()?.get(*i),
    })
}

/// Set `key` in the mapping at `path` when it is there, else insert it.
pub fn set_or_insert(doc: &Value, path: &Path, key: &str, value: NewValue) -> Op {
    let exists = value_at(doc, path)
        .and_then(Value::as_mapping)
        .is_some_and(|m| m.contains_key(key));
    if exists {
        Op::Set {
            path: child(path, key),
            value,
        }
    } else {
        Op::Insert {
            path: path.clone(),
            key: key.to_string(),
            value,
        }
    }
}

pub fn child(path: &[Seg], key: &str) -> Path {
    let mut path = path.to_vec();
    path.push(Seg::Key(key.to_string()));
    path
}

pub fn index(path: &[Seg], i: usize) -> Path {
    let mut path = path.to_vec();
    path.push(Seg::Index(i));
    path
}

/// Writes `value` at `resumption.<key>`: into the section when it is a map, as a new
/// section when there is none. `section` names it in errors.
pub(super) fn put_in_resumption(doc: &Value, key: &str, value: NewValue) -> Result<Op, PlanError> {
    match get(doc, "resumption") {
        Some(Value::Mapping(_)) => Ok(set_or_insert(doc, &keys(&["resumption"]), key, value)),
        Some(Value::Null) => Ok(Op::Set {
            path: keys(&["resumption"]),
            value: NewValue::Map(vec![(key.to_string(), value)]),
        }),
        None if doc.is_mapping() => Ok(Op::Insert {
            path: Path::new(),
            key: "resumption".to_string(),
            value: NewValue::Map(vec![(key.to_string(), value)]),
        }),
        _ => Err(PlanError::Unsupported(
            "`resumption:` is not a map; resume-tui will not rewrite it".to_string(),
        )),
    }
}

/// A phase as written: a number when it reads as one.
pub(super) fn phase_value(phase: Option<&str>) -> NewValue {
    match phase {
        Some(p) => p
            .trim()
            .parse::<i64>()
            .map_or_else(|_| NewValue::str(p), NewValue::Int),
        None => NewValue::Null,
    }
}
