//! The decision log: `resumption.decision_log` (v2) or `resumption.decisions`
//! (seed 002's flat name), whichever the file has.

use yaml_serde::Value;

use super::plan::{PlanError, child, index, put_in_resumption, set_or_insert, value_at};
use super::{DecisionFields, NewDecision, NewValue, Op, Path, keys};
use crate::core::normalize::value::{get, get_text};

/// Where the file keeps its decisions, and the list itself (`None` for a null value).
fn find_list(doc: &Value) -> Option<(Path, Option<&Vec<Value>>)> {
    ["decision_log", "decisions"].iter().find_map(|key| {
        let path = keys(&["resumption", key]);
        match value_at(doc, &path)? {
            Value::Sequence(items) => Some((path, Some(items))),
            Value::Null => Some((path, None)),
            _ => None,
        }
    })
}

fn wrong_type(doc: &Value) -> Option<PlanError> {
    ["decision_log", "decisions"].iter().find_map(|key| {
        let value = value_at(doc, &keys(&["resumption", key]))?;
        (!value.is_sequence() && !value.is_null()).then(|| {
            PlanError::Unsupported(format!(
                "resumption.{key} is not a list; resume-tui will not rewrite it"
            ))
        })
    })
}

/// `RD-NNN` numbers in use.
fn number_of(id: &str) -> Option<u32> {
    let digits = id
        .trim()
        .strip_prefix("RD-")
        .or(id.trim().strip_prefix("rd-"))?;
    digits.parse().ok()
}

pub(super) fn next_id(items: &[Value]) -> String {
    let highest = items
        .iter()
        .filter_map(|item| get_text(item, "id"))
        .filter_map(|id| number_of(&id))
        .max()
        .unwrap_or(0);
    format!("RD-{:03}", highest.saturating_add(1))
}

pub(super) fn add(doc: &Value, new: &NewDecision) -> Result<Vec<Op>, PlanError> {
    if let Some(err) = wrong_type(doc) {
        return Err(err);
    }
    let list = find_list(doc);
    let items: &[Value] = list
        .as_ref()
        .and_then(|(_, items)| items.map(Vec::as_slice))
        .unwrap_or_default();
    let dated = items.last().is_some_and(|last| get(last, "date").is_some());
    let mut entry = vec![
        ("id", NewValue::Str(next_id(items))),
        ("gate", NewValue::opt_str(new.gate.as_deref())),
        (
            "iteration",
            new.iteration.map_or(NewValue::Null, NewValue::Int),
        ),
    ];
    if let (true, Some(date)) = (dated, new.date) {
        entry.push(("date", NewValue::Str(date.to_iso())));
    }
    entry.extend([
        ("decision", NewValue::str(new.decision.as_str())),
        ("rationale", NewValue::opt_str(new.rationale.as_deref())),
        (
            "affects_phases",
            NewValue::List(
                new.affects_phases
                    .iter()
                    .copied()
                    .map(NewValue::Int)
                    .collect(),
            ),
        ),
        ("applied", NewValue::Bool(false)),
    ]);
    let entry = NewValue::map(entry);
    Ok(vec![match list {
        Some((path, Some(_))) => Op::Append { path, item: entry },
        Some((path, None)) => Op::Set {
            path,
            value: NewValue::List(vec![entry]),
        },
        None => put_in_resumption(doc, "decision_log", NewValue::List(vec![entry]))?,
    }])
}

/// The path of the decision `id` (case-insensitive).
fn find(doc: &Value, id: &str) -> Result<Path, PlanError> {
    let Some((path, items)) = find_list(doc) else {
        return Err(PlanError::NotFound(format!(
            "no decision {id}: the file has no decision log"
        )));
    };
    let items = items.map(Vec::as_slice).unwrap_or_default();
    let wanted = id.trim().to_lowercase();
    let found = items.iter().position(|item| {
        get_text(item, "id").is_some_and(|have| have.trim().to_lowercase() == wanted)
    });
    match found {
        Some(i) if items.get(i).is_some_and(Value::is_mapping) => Ok(index(&path, i)),
        _ => {
            let ids: Vec<String> = items.iter().filter_map(|i| get_text(i, "id")).collect();
            let known = if ids.is_empty() {
                "no entry has an id".to_string()
            } else {
                format!("ids: {}", ids.join(", "))
            };
            Err(PlanError::NotFound(format!("no decision {id} ({known})")))
        }
    }
}

pub(super) fn edit(doc: &Value, id: &str, fields: &DecisionFields) -> Result<Vec<Op>, PlanError> {
    let path = find(doc, id)?;
    let mut ops = Vec::new();
    let mut field = |key: &str, value: Option<NewValue>| {
        if let Some(value) = value {
            let unchanged = value_at(doc, &child(&path, key))
                .is_some_and(|old| super::value_ops::to_value(&value) == *old);
            if !unchanged {
                ops.push(set_or_insert(doc, &path, key, value));
            }
        }
    };
    field("gate", fields.gate.as_deref().map(NewValue::str));
    field("iteration", fields.iteration.map(NewValue::Int));
    field("decision", fields.decision.as_deref().map(NewValue::str));
    field("rationale", fields.rationale.as_deref().map(NewValue::str));
    field(
        "affects_phases",
        fields
            .affects_phases
            .as_ref()
            .map(|p| NewValue::List(p.iter().copied().map(NewValue::Int).collect())),
    );
    Ok(ops)
}

pub(super) fn set_applied(doc: &Value, id: &str, applied: bool) -> Result<Vec<Op>, PlanError> {
    let path = find(doc, id)?;
    if value_at(doc, &child(&path, "applied")) == Some(&Value::Bool(applied)) {
        return Ok(Vec::new());
    }
    Ok(vec![set_or_insert(
        doc,
        &path,
        "applied",
        NewValue::Bool(applied),
    )])
}

/// Takes decision `id` out of the log; the last one leaves an empty list (`[]`).
pub(super) fn delete(doc: &Value, id: &str) -> Result<Vec<Op>, PlanError> {
    let path = find(doc, id)?;
    let Some((_, list)) = path.split_last() else {
        return Err(PlanError::NotFound(format!("no decision {id}")));
    };
    let only_one = value_at(doc, list)
        .and_then(Value::as_sequence)
        .is_some_and(|items| items.len() == 1);
    Ok(vec![if only_one {
        Op::Set {
            path: list.to_vec(),
            value: NewValue::List(Vec::new()),
        }
    } else {
        Op::Remove { path }
    }])
}
