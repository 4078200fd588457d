//! One project's compaction timeline (the Compaction tab, the timeline view, `resume-tui
//! timeline`): checkpoints and compaction events, newest first. An event that names
//! a checkpoint is shown on that checkpoint's row, also when the loader could not tie
//! the checkpoint to a workflow (real Jerry checkpoints name none): such a checkpoint
//! is found among `unassigned` by its id.

use crate::core::model::{Checkpoint, CompactionEvent, Project};
use crate::core::time::Timestamp;

#[derive(Debug, Clone, PartialEq)]
pub struct Row<'a> {
    pub time: Option<Timestamp>,
    pub time_raw: Option<&'a str>,
    pub id: String,
    pub trigger: Option<&'a str>,
    pub fill: Option<f64>,
    pub phase: Option<&'a str>,
    pub gate: Option<String>,
    /// `None` for events that record no acknowledgement.
    pub acknowledged: Option<bool>,
    pub checkpoint: Option<&'a Checkpoint>,
    pub event: Option<&'a CompactionEvent>,
}

pub fn rows<'a>(project: &'a Project, unassigned: &'a [Checkpoint]) -> Vec<Row<'a>> {
    let events: &[CompactionEvent] = project
        .resumption
        .as_ref()
        .and_then(|r| r.compaction.as_ref())
        .map_or(&[], |c| c.events.as_slice());
    let mut used = vec![false; events.len()];
    let mut rows: Vec<Row<'_>> = project
        .checkpoints
        .iter()
        .map(|cp| {
            let event = events.iter().enumerate().find(|(_, e)| names(e, &cp.id));
            if let Some((i, _)) = event
                && let Some(slot) = used.get_mut(i)
            {
                *slot = true;
            }
            let event = event.map(|(_, e)| e);
            let gate = cp
                .current_gate
                .as_deref()
                .map(|g| with_iteration(g, cp.current_gate_iteration));
            Row {
                time: cp.created_at.or(event.and_then(|e| e.timestamp)),
                time_raw: cp.created_at_raw.as_deref(),
                id: cp.id.clone(),
                trigger: cp
                    .trigger
                    .as_deref()
                    .or(event.and_then(|e| e.trigger.as_deref())),
                fill: cp.fill.or(event.and_then(|e| e.fill_before)),
                phase: cp
                    .current_phase
                    .as_deref()
                    .or(event.and_then(|e| e.active_phase.as_deref())),
                gate: gate.or_else(|| event.and_then(event_gate)),
                acknowledged: Some(cp.acknowledged),
                checkpoint: Some(cp),
                event,
            }
        })
        .collect();
    for (event, used) in events.iter().zip(used) {
        if used {
            continue;
        }
        let claimed = event
            .id
            .as_deref()
            .and_then(|id| unassigned.iter().find(|cp| cp.id.eq_ignore_ascii_case(id)));
        if let Some(cp) = claimed {
            rows.push(Row {
                time: cp.created_at.or(event.timestamp),
                time_raw: cp
                    .created_at_raw
                    .as_deref()
                    .or(event.timestamp_raw.as_deref()),
                id: cp.id.clone(),
                trigger: cp.trigger.as_deref().or(event.trigger.as_deref()),
                fill: cp.fill.or(event.fill_before),
                phase: event
                    .active_phase
                    .as_deref()
                    .or(cp.current_phase.as_deref()),
                gate: event_gate(event),
                acknowledged: Some(cp.acknowledged),
                checkpoint: Some(cp),
                event: Some(event),
            });
            continue;
        }
        rows.push(Row {
            time: event.timestamp,
            time_raw: event.timestamp_raw.as_deref(),
            id: event
                .id
                .clone()
                .or_else(|| event.session.clone())
                .unwrap_or_else(|| "event".to_string()),
            trigger: event.trigger.as_deref(),
            fill: event.fill_before,
            phase: event.active_phase.as_deref(),
            gate: event_gate(event),
            acknowledged: event.acknowledged,
            checkpoint: None,
            event: Some(event),
        });
    }
    // Newest first; rows without a time keep their order at the end.
    rows.sort_by(|a, b| match (a.time, b.time) {
        (Some(x), Some(y)) => y.cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => b.id.cmp(&a.id),
    });
    rows
}

fn names(event: &CompactionEvent, checkpoint_id: &str) -> bool {
    let id_matches = event
        .id
        .as_deref()
        .is_some_and(|id| id.eq_ignore_ascii_case(checkpoint_id));
    let file_matches = event.checkpoint_file.as_deref().is_some_and(|f| {
        f.rsplit('/').next().is_some_and(|name| {
            name.starts_with(&format!("{checkpoint_id}."))
                || name.starts_with(&format!("{checkpoint_id}-"))
        })
    });
    id_matches || file_matches
}

fn event_gate(event: &CompactionEvent) -> Option<String> {
    event
        .active_gate
        .as_deref()
        .map(|g| with_iteration(g, event.active_gate_iteration))
}

fn with_iteration(gate: &str, iteration: Option<i64>) -> String {
    match iteration {
        Some(i) => format!("{gate} #{i}"),
        None => gate.to_string(),
    }
}
