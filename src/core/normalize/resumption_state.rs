//! A real Jerry checkpoint's `resumption_state`: what Jerry's current
//! `CheckpointService` copies out of ORCHESTRATION.yaml when it writes the
//! checkpoint (`workflow_id`, `workflow_status`, `workflow_name`,
//! `current_phase`, `agent_statuses`, `quality_gate_state`, `recovery_state`,
//! `next_actions`, `orchestration_raw`). Read into the checkpoint's own fields,
//! which stay as the checkpoint had them when already set; the value itself
//! is kept whole.

use serde_json::Value;

use super::json_value::{get, get_int, get_text};
use crate::core::model::Checkpoint;

pub(super) fn read_resumption_state(c: &mut Checkpoint, state: &Value) {
    let recovery = get(state, "recovery_state");
    let from_recovery = |key: &str| recovery.and_then(|r| get_text(r, key));
    let gate = get(state, "quality_gate_state");
    fill(&mut c.workflow_id, get_text(state, "workflow_id"));
    fill(
        &mut c.workflow_status,
        get_text(state, "workflow_status").or_else(|| from_recovery("workflow_status")),
    );
    fill(
        &mut c.current_phase,
        from_recovery("current_phase").or_else(|| get_text(state, "current_phase")),
    );
    fill(
        &mut c.current_phase_name,
        from_recovery("current_phase_name"),
    );
    fill(&mut c.current_activity, from_recovery("current_activity"));
    fill(
        &mut c.last_completed_checkpoint,
        from_recovery("last_checkpoint"),
    );
    fill(
        &mut c.current_gate,
        gate.and_then(|g| get_text(g, "current_gate")),
    );
    if c.current_gate_iteration.is_none() {
        c.current_gate_iteration = gate.and_then(|g| {
            get_int(g, "current_gate_iteration").or_else(|| get_int(g, "total_iterations_used"))
        });
    }
    fill(
        &mut c.next_action,
        from_recovery("next_step").or_else(|| first_action(get(state, "next_actions"))),
    );
    if c.agent_summaries.is_empty()
        && let Some(Value::Array(agents)) = get(state, "agent_statuses")
    {
        c.agent_summaries = agents
            .iter()
            .filter_map(|a| {
                Some((
                    get_text(a, "id")?,
                    get_text(a, "status").unwrap_or_default(),
                ))
            })
            .collect();
    }
}

fn fill(slot: &mut Option<String>, value: Option<String>) {
    if slot.is_none() {
        *slot = value
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty());
    }
}

/// The first of a list of actions: strings or `{action}` / `{description}` maps.
fn first_action(actions: Option<&Value>) -> Option<String> {
    let Some(Value::Array(items)) = actions else {
        return None;
    };
    items.iter().find_map(|item| match item {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        other => get_text(other, "action").or_else(|| get_text(other, "description")),
    })
}

#[cfg(test)]
mod tests {
    use crate::core::normalize::checkpoint::normalize_checkpoint;

    #[test]
    fn a_structured_resumption_state_fills_the_checkpoint() {
        let text = r#"{
          "checkpoint_id": "cx-007",
          "context_state": {"fill_percentage": 0.88, "tier": "CRITICAL"},
          "created_at": "2026-03-01T10:00:00+00:00",
          "resumption_state": {
            "workflow_id": "feat-20260301-001",
            "workflow_status": "ACTIVE",
            "current_phase": 2,
            "agent_statuses": [{"id": "ps-researcher", "status": "COMPLETE"}, {"id": "ps-critic", "status": "IN_PROGRESS"}],
            "quality_gate_state": {"gates_completed": ["qg-1"], "current_gate": "qg-2", "total_iterations_used": 3},
            "recovery_state": {"current_phase": 3, "current_phase_name": "Review", "current_activity": "scoring draft 2"},
            "next_actions": [{"action": "Run the QG-2 critic"}, "Then commit"],
            "orchestration_raw": "workflow: ..."
          }
        }"#;
        let c = normalize_checkpoint(".jerry/checkpoints/cx-007.json", text, false).unwrap();
        assert_eq!(c.workflow_id.as_deref(), Some("feat-20260301-001"));
        assert_eq!(c.workflow_status.as_deref(), Some("ACTIVE"));
        assert_eq!(
            c.current_phase.as_deref(),
            Some("3"),
            "recovery_state is newer than the pipelines"
        );
        assert_eq!(c.current_phase_name.as_deref(), Some("Review"));
        assert_eq!(c.current_activity.as_deref(), Some("scoring draft 2"));
        assert_eq!(c.current_gate.as_deref(), Some("qg-2"));
        assert_eq!(c.current_gate_iteration, Some(3));
        assert_eq!(c.next_action.as_deref(), Some("Run the QG-2 critic"));
        assert_eq!(c.agent_summaries.len(), 2);
        assert!(c.resumption_state.is_some(), "kept whole as well");
    }

    #[test]
    fn a_raw_or_odd_resumption_state_fills_nothing() {
        let text = r#"{"checkpoint_id": "cx-001", "resumption_state": {"orchestration_raw": "x: [", "next_actions": 3, "agent_statuses": {"a": 1}}}"#;
        let c = normalize_checkpoint(".jerry/checkpoints/cx-001.json", text, false).unwrap();
        assert_eq!(
            (c.workflow_id, c.current_phase, c.next_action),
            (None, None, None)
        );
        assert!(c.agent_summaries.is_empty());
    }
}
