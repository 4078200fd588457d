//! `compaction_events` in its four shapes (see `CompactionShape`).

use yaml_serde::Value;

use super::ctx::{Ctx, child, kind};
use super::fields::Fields;
use super::recovery::fraction;
use crate::core::model::{CompactionEvent, CompactionEvents, CompactionShape, OtherFields};
use crate::core::normalize::value::{get, text, to_json};
use crate::core::time::Timestamp;

const EVENT_KEYS: &[&str] = &[
    "id",
    "checkpoint_id",
    "timestamp",
    "trigger",
    "estimated_fill_before",
    "fill_percentage",
    "tier",
    "active_phase",
    "active_gate",
    "active_gate_iteration",
    "checkpoint_file",
    "acknowledged",
    "session",
    "compactions",
    "note",
];

/// Keys that only the Jerry code's write-back uses.
const JERRY_CODE_KEYS: &[&str] = &["checkpoint_id", "fill_percentage", "tier"];

/// `None` when the value fits no shape (kept as an other field by the caller).
pub(super) fn read_compaction(
    value: &Value,
    ctx: &mut Ctx,
    path: &[&str],
) -> Option<Option<CompactionEvents>> {
    match value {
        Value::Null => Some(None),
        Value::Sequence(items) => Some(Some(CompactionEvents {
            shape: CompactionShape::BareList,
            count: None,
            events: read_events(items, ctx, path),
            notes: Vec::new(),
            other: Default::default(),
        })),
        Value::Mapping(_) => Some(Some(read_map(value, ctx, path))),
        other => {
            ctx.wrong_type(path, "a map {count, events} or a list of events", other);
            None
        }
    }
}

fn read_map(value: &Value, ctx: &mut Ctx, path: &[&str]) -> CompactionEvents {
    let mut other = ctx.other_fields(value, &["count", "events", "timestamps", "recovery_notes"]);
    let count = Fields::new(value, path)
        .keeping(&mut other)
        .int(ctx, "count");
    let mut notes = Vec::new();
    for key in ["timestamps", "recovery_notes"] {
        match get(value, key) {
            Some(Value::Sequence(items)) => notes.extend(
                items
                    .iter()
                    .map(|n| text(n).unwrap_or_else(|| to_json(n).to_string())),
            ),
            Some(Value::Null) | None => {}
            Some(v) => match text(v) {
                Some(t) => notes.push(t),
                None => {
                    ctx.keep(&mut other, key.into(), v);
                }
            },
        }
    }
    let events_at = child(path, "events");
    let (shape, events) = match get(value, "events") {
        Some(Value::Sequence(items)) => {
            let jerry = items
                .iter()
                .any(|e| JERRY_CODE_KEYS.iter().any(|k| get(e, k).is_some()));
            let shape = if jerry {
                CompactionShape::JerryCode
            } else {
                CompactionShape::Design
            };
            (shape, read_events(items, ctx, &events_at))
        }
        Some(Value::Null) => (CompactionShape::Design, Vec::new()),
        None => (CompactionShape::CountOnly, Vec::new()),
        Some(v) => {
            ctx.wrong_type(&events_at, "a list of events", v);
            ctx.keep(&mut other, "events".into(), v);
            (CompactionShape::CountOnly, Vec::new())
        }
    };
    if let (Some(n), CompactionShape::Design | CompactionShape::JerryCode) = (count, shape)
        && usize::try_from(n).ok() != Some(events.len())
    {
        ctx.info(
            &child(path, "count"),
            format!("count is {n} but {} events are listed", events.len()),
        );
    }
    CompactionEvents {
        shape,
        count,
        events,
        notes,
        other,
    }
}

fn read_events(items: &[Value], ctx: &mut Ctx, path: &[&str]) -> Vec<CompactionEvent> {
    let mut events = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if !item.is_mapping() {
            if !item.is_null() {
                let index = format!("[{i}]");
                ctx.warn(
                    &child(path, &index),
                    format!("expected an event map, found {}; skipped", kind(item)),
                );
            }
            continue;
        }
        let index = format!("[{i}]");
        let at = child(path, &index);
        let mut other = ctx.other_fields(item, EVENT_KEYS);
        let mut f = Fields::new(item, &at).keeping(&mut other);
        let timestamp_raw = f.text(ctx, "timestamp");
        let fill_key = if get(item, "estimated_fill_before").is_some() {
            "estimated_fill_before"
        } else {
            "fill_percentage"
        };
        let event = CompactionEvent {
            id: f.text(ctx, "id").or_else(|| f.text(ctx, "checkpoint_id")),
            timestamp: timestamp_raw.as_deref().and_then(Timestamp::parse),
            timestamp_raw,
            trigger: f.text(ctx, "trigger"),
            fill_before: f.float(ctx, fill_key).and_then(fraction),
            tier: f.text(ctx, "tier"),
            active_phase: f.text(ctx, "active_phase"),
            active_gate: f.text(ctx, "active_gate"),
            active_gate_iteration: f.int(ctx, "active_gate_iteration"),
            checkpoint_file: f.text(ctx, "checkpoint_file"),
            acknowledged: f.bool(ctx, "acknowledged"),
            session: f.text(ctx, "session"),
            compactions: f.int(ctx, "compactions"),
            note: f.text(ctx, "note"),
            other: OtherFields::new(),
        };
        events.push(CompactionEvent { other, ..event });
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text_in: &str) -> (CompactionEvents, usize) {
        let v: Value = yaml_serde::from_str(text_in).unwrap();
        let mut ctx = Ctx::new("f.yaml", text_in);
        let c = read_compaction(&v, &mut ctx, &["resumption", "compaction_events"]);
        (c.unwrap().unwrap(), ctx.diagnostics.len())
    }

    #[test]
    fn design_shape() {
        let (c, diags) = read(
            "count: 1\nevents:\n  - id: CX-001\n    timestamp: '2026-02-17T11:45:00Z'\n    \
             trigger: auto\n    estimated_fill_before: 0.886\n    active_phase: 2\n    \
             active_gate: qg-2\n    active_gate_iteration: 1\n    \
             checkpoint_file: .jerry/checkpoints/cx-001-checkpoint.json\n    acknowledged: false\n",
        );
        assert_eq!(c.shape, CompactionShape::Design);
        assert_eq!(c.count, Some(1));
        let e = &c.events[0];
        assert_eq!(e.id.as_deref(), Some("CX-001"));
        assert_eq!(e.timestamp.unwrap().to_iso(), "2026-02-17T11:45:00Z");
        assert_eq!(e.fill_before, Some(0.886));
        assert_eq!(e.active_phase.as_deref(), Some("2"));
        assert_eq!(e.active_gate_iteration, Some(1));
        assert_eq!(e.acknowledged, Some(false));
        assert_eq!(diags, 0);
    }

    #[test]
    fn jerry_code_shape() {
        let (c, _) = read(
            "count: 2\nevents:\n  - {checkpoint_id: cx-001, fill_percentage: 0.875, tier: CRITICAL, \
             timestamp: '2026-02-21T10:00:00+00:00'}\n  - {checkpoint_id: cx-002, fill_percentage: 90, tier: EMERGENCY}\n",
        );
        assert_eq!(c.shape, CompactionShape::JerryCode);
        assert_eq!(c.events[0].id.as_deref(), Some("cx-001"));
        assert_eq!(c.events[0].tier.as_deref(), Some("CRITICAL"));
        assert_eq!(
            c.events[1].fill_before, None,
            "90 is outside 0–1: not guessed (validate says so)"
        );
    }

    #[test]
    fn bare_list_shape() {
        let (c, _) = read("- session: s1\n  compactions: 2\n  note: lost QG state\n  extra: y\n");
        assert_eq!(c.shape, CompactionShape::BareList);
        assert_eq!(c.count, None);
        let e = &c.events[0];
        assert_eq!(e.session.as_deref(), Some("s1"));
        assert_eq!(e.compactions, Some(2));
        assert_eq!(e.note.as_deref(), Some("lost QG state"));
        assert_eq!(e.other["extra"], serde_json::json!("y"));
    }

    #[test]
    fn count_only_shape() {
        let (c, _) = read(
            "count: 2\ntimestamps: ['2026-02-01T10:00:00Z', '2026-02-01T12:00:00Z']\n\
             recovery_notes: [re-read plan]\n",
        );
        assert_eq!(c.shape, CompactionShape::CountOnly);
        assert_eq!(c.count, Some(2));
        assert!(c.events.is_empty());
        assert_eq!(
            c.notes,
            vec![
                "2026-02-01T10:00:00Z",
                "2026-02-01T12:00:00Z",
                "re-read plan"
            ]
        );
    }

    #[test]
    fn a_count_that_disagrees_with_the_events_is_noted() {
        let (c, diags) = read("count: 3\nevents: []\n");
        assert_eq!(c.shape, CompactionShape::Design);
        assert_eq!(diags, 1);
    }
}
