//! `resumption.compaction_events` in the shape the file already uses (see
//! `CompactionShape`): acknowledge an event, merge a checkpoint as a new one.

use yaml_serde::Value;

use super::plan::{PlanError, child, index, phase_value, put_in_resumption, value_at};
use super::{CheckpointEvent, NewValue, Op, Path, keys};
use crate::core::model::CompactionShape;
use crate::core::normalize::value::{get, get_int, get_text};

fn section_path() -> Path {
    keys(&["resumption", "compaction_events"])
}

/// The shape of an existing section, decided as the normaliser does.
pub fn shape_of(section: &Value) -> Option<CompactionShape> {
    match section {
        Value::Sequence(_) => Some(CompactionShape::BareList),
        Value::Mapping(map) => match map.get("events") {
            Some(Value::Sequence(events)) => {
                let jerry_code = events.iter().any(|e| {
                    get(e, "id").is_none()
                        && ["checkpoint_id", "fill_percentage", "tier"]
                            .iter()
                            .any(|k| get(e, k).is_some())
                });
                Some(if jerry_code {
                    CompactionShape::JerryCode
                } else {
                    CompactionShape::Design
                })
            }
            Some(Value::Null) => Some(CompactionShape::Design),
            Some(_) => None,
            None => Some(CompactionShape::CountOnly),
        },
        _ => None,
    }
}

/// The names an entry answers to, lower-cased: `CX-001` → `cx-001`, a `checkpoint_id`,
/// and the checkpoint file's name without `.json` / `-checkpoint`.
fn entry_names(entry: &Value) -> Vec<String> {
    let mut names: Vec<String> = ["id", "checkpoint_id"]
        .iter()
        .filter_map(|k| get_text(entry, k))
        .map(|n| n.trim().to_lowercase())
        .collect();
    if let Some(file) = get_text(entry, "checkpoint_file") {
        let name = file
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or_default()
            .to_lowercase();
        let stem = name.strip_suffix(".json").unwrap_or(&name);
        names.push(stem.strip_suffix("-checkpoint").unwrap_or(stem).to_string());
    }
    names
}

fn matches(entry: &Value, id: &str) -> bool {
    let id = id.trim().to_lowercase();
    entry_names(entry).contains(&id)
}

/// Sets `acknowledged: true` on the event of checkpoint `id` (all events for `None`).
/// Events in the Jerry code's layout carry no such field and are left alone.
pub(super) fn acknowledge(doc: &Value, id: Option<&str>) -> Vec<Op> {
    let section = section_path();
    let Some(value) = value_at(doc, &section) else {
        return Vec::new();
    };
    let shape = shape_of(value);
    let events_path = child(&section, "events");
    let Some(Value::Sequence(events)) = value_at(doc, &events_path) else {
        return Vec::new();
    };
    let mut ops = Vec::new();
    for (i, event) in events.iter().enumerate() {
        if !event.is_mapping() || id.is_some_and(|id| !matches(event, id)) {
            continue;
        }
        let path = index(&events_path, i);
        match get(event, "acknowledged") {
            Some(Value::Bool(true)) => {}
            Some(_) => ops.push(Op::Set {
                path: child(&path, "acknowledged"),
                value: NewValue::Bool(true),
            }),
            None if shape == Some(CompactionShape::Design) => ops.push(Op::Insert {
                path,
                key: "acknowledged".to_string(),
                value: NewValue::Bool(true),
            }),
            None => {}
        }
    }
    ops
}

fn design_entry(event: &CheckpointEvent) -> NewValue {
    NewValue::map(vec![
        ("id", NewValue::Str(event.id.to_uppercase())),
        ("timestamp", NewValue::opt_str(event.timestamp.as_deref())),
        ("trigger", NewValue::opt_str(event.trigger.as_deref())),
        (
            "estimated_fill_before",
            event.fill.map_or(NewValue::Null, NewValue::Float),
        ),
        ("active_phase", phase_value(event.active_phase.as_deref())),
        (
            "active_gate",
            NewValue::opt_str(event.active_gate.as_deref()),
        ),
        (
            "active_gate_iteration",
            event
                .active_gate_iteration
                .map_or(NewValue::Null, NewValue::Int),
        ),
        (
            "checkpoint_file",
            NewValue::opt_str(event.checkpoint_file.as_deref()),
        ),
        ("acknowledged", NewValue::Bool(event.acknowledged)),
    ])
}

fn jerry_code_entry(event: &CheckpointEvent) -> NewValue {
    NewValue::map(vec![
        ("checkpoint_id", NewValue::str(event.id.to_lowercase())),
        (
            "fill_percentage",
            event.fill.map_or(NewValue::Null, NewValue::Float),
        ),
        ("tier", NewValue::opt_str(event.tier.as_deref())),
        ("timestamp", NewValue::opt_str(event.timestamp.as_deref())),
    ])
}

/// "cx-004 at 91 % fill (emergency)", for the shapes that keep only notes.
fn note(event: &CheckpointEvent) -> String {
    let mut note = event.id.to_lowercase();
    if let Some(fill) = event.fill {
        note.push_str(&format!(" at {:.0} % fill", fill * 100.0));
    }
    if let Some(tier) = &event.tier {
        note.push_str(&format!(" ({tier})"));
    }
    note.push_str("; merged by resume-tui");
    note
}

fn count_op(section: &Value, section_path: &Path, events_before: usize) -> Option<Op> {
    match get(section, "count") {
        Some(_) => get_int(section, "count").map(|n| Op::Set {
            path: child(section_path, "count"),
            value: NewValue::Int(n.saturating_add(1)),
        }),
        None => Some(Op::Insert {
            path: section_path.clone(),
            key: "count".to_string(),
            value: NewValue::Int(i64::try_from(events_before).unwrap_or(0).saturating_add(1)),
        }),
    }
}

fn append_or_start(path: Path, existing: Option<&Value>, item: NewValue) -> Option<Op> {
    match existing {
        Some(Value::Sequence(_)) => Some(Op::Append { path, item }),
        Some(Value::Null) => Some(Op::Set {
            path,
            value: NewValue::List(vec![item]),
        }),
        _ => None,
    }
}

pub(super) fn merge(doc: &Value, event: &CheckpointEvent) -> Result<Vec<Op>, PlanError> {
    let path = section_path();
    let section = value_at(doc, &path);
    let Some(section) = section.filter(|s| !s.is_null()) else {
        let fresh = NewValue::map(vec![
            ("count", NewValue::Int(1)),
            ("events", NewValue::List(vec![design_entry(event)])),
        ]);
        return Ok(vec![put_in_resumption(doc, "compaction_events", fresh)?]);
    };
    let already = |items: &[Value]| items.iter().any(|e| matches(e, &event.id));
    let done = || PlanError::AlreadyDone(format!("{} is already in compaction_events", event.id));
    let Some(shape) = shape_of(section) else {
        return Err(PlanError::Unsupported(
            "resumption.compaction_events has an unknown layout; resume-tui will not rewrite it"
                .to_string(),
        ));
    };
    let events_path = child(&path, "events");
    let mut ops = Vec::new();
    match shape {
        CompactionShape::Design | CompactionShape::JerryCode => {
            let events = value_at(doc, &events_path);
            let items = events.and_then(Value::as_sequence).map(Vec::as_slice);
            if already(items.unwrap_or_default()) {
                return Err(done());
            }
            let entry = if shape == CompactionShape::Design {
                design_entry(event)
            } else {
                jerry_code_entry(event)
            };
            ops.extend(append_or_start(events_path, events, entry));
            ops.extend(count_op(section, &path, items.map_or(0, <[Value]>::len)));
        }
        CompactionShape::BareList => {
            let items = section.as_sequence().map(Vec::as_slice).unwrap_or_default();
            let mentioned = items
                .iter()
                .filter_map(|row| get_text(row, "note"))
                .any(|n| n.to_lowercase().contains(&event.id.to_lowercase()));
            if mentioned {
                return Err(done());
            }
            ops.push(Op::Append {
                path,
                item: NewValue::map(vec![
                    ("session", NewValue::opt_str(event.session_id.as_deref())),
                    ("compactions", NewValue::Int(1)),
                    ("note", NewValue::Str(note(event))),
                ]),
            });
        }
        CompactionShape::CountOnly => {
            let notes = get(section, "recovery_notes");
            let mentioned = notes
                .and_then(Value::as_sequence)
                .is_some_and(|n| n.iter().any(|v| matches_note(v, &event.id)));
            if mentioned {
                return Err(done());
            }
            ops.extend(count_op(section, &path, 0));
            if let Some(stamp) = &event.timestamp {
                let at = child(&path, "timestamps");
                ops.extend(append_or_start(
                    at.clone(),
                    value_at(doc, &at),
                    NewValue::str(stamp),
                ));
            }
            let at = child(&path, "recovery_notes");
            ops.extend(append_or_start(at, notes, NewValue::Str(note(event))));
        }
    }
    Ok(ops)
}

fn matches_note(note: &Value, id: &str) -> bool {
    crate::core::normalize::value::text(note)
        .is_some_and(|n| n.to_lowercase().contains(&id.to_lowercase()))
}
