//! Places where a workflow file says two incompatible things: finished in one
//! place and under way in another, a current gate already listed as completed, a
//! current phase beyond the phases it declares. Each becomes a sentence on the
//! summary and a warning, so every front end says it where the reader looks.

use yaml_serde::Value;

use super::state::{Progress, progress, same_phase};
use crate::core::model::{Resumption, Summary};
use crate::core::normalize::value::{get, get_text, int, key_text};

/// Each contradiction with the key it is located at.
pub(super) fn contradictions(
    doc: &Value,
    summary: &Summary,
    res: Option<&Resumption>,
) -> Vec<(String, String)> {
    let gate_key = || summary.sources.current_gate.clone().unwrap_or_default();
    let phase_key = || summary.sources.phase.clone().unwrap_or_default();
    let mut found = Vec::new();
    found.extend(status_conflict(doc, summary, res));
    found.extend(gate_already_done(doc, summary, res).map(|m| (gate_key(), m)));
    found.extend(phase_beyond_declared(doc, summary).map(|m| (phase_key(), m)));
    found
}

/// Every status the file states, with its key.
fn statuses(doc: &Value, summary: &Summary, res: Option<&Resumption>) -> Vec<(String, String)> {
    let mut all = Vec::new();
    if let Some(s) = res.and_then(|r| r.recovery.workflow_status.clone()) {
        let key = summary
            .sources
            .status
            .clone()
            .filter(|k| k.starts_with("resumption"))
            .unwrap_or_else(|| "resumption.workflow_status".into());
        all.push((s, key));
    }
    for (block, key) in [
        (Some("workflow"), "status"),
        (None, "status"),
        (Some("state"), "status"),
        (Some("orchestration"), "status"),
    ] {
        let holder = match block {
            Some(b) => get(doc, b),
            None => Some(doc),
        };
        if let Some(s) = holder.and_then(|h| get_text(h, key)) {
            let at = block.map_or(key.to_string(), |b| format!("{b}.{key}"));
            all.push((s, at));
        }
    }
    for p in &summary.pipelines {
        if let Some(s) = &p.status {
            all.push((s.clone(), format!("{}.status", p.key)));
        }
    }
    all
}

fn status_conflict(
    doc: &Value,
    summary: &Summary,
    res: Option<&Resumption>,
) -> Option<(String, String)> {
    let all = statuses(doc, summary, res);
    let done = all
        .iter()
        .find(|(s, _)| progress(Some(s)) == Progress::Done)?;
    // Under way, or blocked: neither is finished.
    let active = all.iter().find(|(s, _)| {
        progress(Some(s)) == Progress::Active || s.to_ascii_uppercase().contains("BLOCKED")
    })?;
    let message = format!(
        "the status is {} at {} but {} at {}",
        done.0, done.1, active.0, active.1
    );
    Some((active.1.clone(), message))
}

fn gate_already_done(doc: &Value, summary: &Summary, res: Option<&Resumption>) -> Option<String> {
    let gate = summary.current_gate.as_deref()?;
    let same = |id: &str| id.trim().eq_ignore_ascii_case(gate.trim());
    let listed = res
        .and_then(|r| r.quality.as_ref())
        .is_some_and(|q| q.gates_completed.iter().any(|g| same(&g.id)));
    if listed {
        return Some(format!(
            "the current gate {gate} is already listed under gates_completed"
        ));
    }
    let passed = gate_statuses(doc)
        .into_iter()
        .find(|(id, status)| same(id) && progress(Some(status)) == Progress::Done)?;
    Some(format!(
        "the current gate {gate} is already marked {} under quality_gates",
        passed.1
    ))
}

fn gate_statuses(doc: &Value) -> Vec<(String, String)> {
    let Some(block) = get(doc, "quality_gates") else {
        return Vec::new();
    };
    let items: Vec<(Option<String>, &Value)> = match block {
        Value::Sequence(items) => items.iter().map(|v| (None, v)).collect(),
        Value::Mapping(map) => map.iter().map(|(k, v)| (Some(key_text(k)), v)).collect(),
        _ => Vec::new(),
    };
    items
        .into_iter()
        .filter_map(|(key, v)| Some((get_text(v, "id").or(key)?, get_text(v, "status")?)))
        .collect()
}

/// A numeric current phase above every numeric phase id the file declares
/// (under `phases:` or any pipeline's `phases:`).
fn phase_beyond_declared(doc: &Value, summary: &Summary) -> Option<String> {
    let phase = summary.phase.as_deref()?;
    let number: i64 = phase
        .trim()
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .ok()?;
    let mut lists: Vec<&Value> = get(doc, "phases").into_iter().collect();
    if let Some(Value::Mapping(pipes)) = get(doc, "pipelines") {
        lists.extend(pipes.values().filter_map(|p| get(p, "phases")));
    }
    let declared: Vec<String> = lists
        .into_iter()
        .flat_map(|list| match list {
            Value::Sequence(items) => items
                .iter()
                .filter_map(|p| {
                    ["id", "phase", "number"]
                        .iter()
                        .find_map(|k| get_text(p, k))
                })
                .collect::<Vec<_>>(),
            Value::Mapping(map) => map.keys().map(key_text).collect(),
            _ => Vec::new(),
        })
        .collect();
    if declared.iter().any(|id| same_phase(id, phase)) {
        return None;
    }
    let highest = declared
        .iter()
        .filter_map(|id| {
            let digits = id.trim().trim_start_matches(|c: char| !c.is_ascii_digit());
            int(&Value::String(digits.to_string()))
        })
        .max()?;
    (number > highest).then(|| {
        format!("the current phase {phase} is beyond the phases the file declares (the highest is {highest})")
    })
}

#[cfg(test)]
mod tests {
    use crate::core::normalize::jerry::normalize_orchestration;

    fn said(text: &str) -> Vec<String> {
        normalize_orchestration("w/ORCHESTRATION.yaml", "w", text)
            .summary
            .contradictions
    }

    #[test]
    fn complete_in_one_place_and_in_progress_in_another() {
        let c = said(
            "workflow: {id: w, status: COMPLETED}\npipelines:\n  a: {status: COMPLETED, current_phase: 2}\n  \
             b: {status: IN_PROGRESS, current_phase: 5}\n",
        );
        assert_eq!(
            c,
            ["the status is COMPLETED at workflow.status but IN_PROGRESS at pipelines.b.status"]
        );
        assert!(
            said("workflow: {id: w, status: ACTIVE}\npipelines:\n  a: {status: PENDING}\n")
                .is_empty()
        );
        assert_eq!(
            said("workflow: {id: w, status: COMPLETE}\npipelines:\n  a: {status: BLOCKED}\n"),
            ["the status is COMPLETE at workflow.status but BLOCKED at pipelines.a.status"]
        );
        assert!(
            said("workflow: {id: w, status: APPROVED}\npipelines:\n  a: {status: BLOCKED}\n")
                .is_empty()
        );
    }

    #[test]
    fn a_current_gate_already_passed() {
        let c = said(
            "workflow: {id: w}\nresumption:\n  quality_trajectory:\n    current_gate: qg-2\n    \
             gates_completed: [qg-1, qg-2]\n",
        );
        assert_eq!(
            c,
            ["the current gate qg-2 is already listed under gates_completed"]
        );
        let c = said(
            "workflow: {id: w}\nresumption:\n  quality_trajectory: {current_gate: QG-1}\n\
             quality_gates:\n  - {id: QG-1, status: PASS}\n",
        );
        assert_eq!(
            c,
            ["the current gate QG-1 is already marked PASS under quality_gates"]
        );
    }

    #[test]
    fn a_phase_beyond_the_declared_ones() {
        let c = said(
            "workflow: {id: w}\nresumption:\n  recovery_state: {current_phase: 6}\npipelines:\n  a:\n    \
             phases: [{id: 1}, {id: 2}]\n  b:\n    phases: [{id: 3}]\n",
        );
        assert_eq!(
            c,
            ["the current phase 6 is beyond the phases the file declares (the highest is 3)"]
        );
        assert!(
            said("workflow: {id: w, current_phase: 2}\nphases: [{id: 1}, {id: 2}]\n").is_empty()
        );
        assert!(
            said("workflow: {id: w, current_phase: 9}\n").is_empty(),
            "nothing declared"
        );
    }
}
