//! Which layout a `resumption:` section uses. No file records it, so it is read
//! from the keys:
//! - `recovery_state:` is a map → v2 nested;
//! - a v2 sub-section (`quality_trajectory`, `defect_summary`, `decision_log`,
//!   `decisions`, `agent_summaries`, `compaction_events`) or a recovery field only v2
//!   has (`current_phase`, `workflow_status`, `updated_at`, …) directly under
//!   `resumption:` → v2 flat;
//! - a v1 field (`last_checkpoint`, `current_state`, `next_step`,
//!   `cross_session_portable`, `ephemeral_references`) → v1;
//! - any other map, or a value that is not a map → other.

use yaml_serde::Value;

use crate::core::model::Shape;

/// The sub-sections whose presence marks a v2 `resumption:` section.
pub(crate) const V2_SECTIONS: &[&str] = &[
    "quality_trajectory",
    "defect_summary",
    "decision_log",
    "decisions",
    "agent_summaries",
    "compaction_events",
];

const V2_ONLY_RECOVERY: &[&str] = &[
    "current_phase",
    "current_phase_name",
    "workflow_status",
    "current_activity",
    "context_fill_at_update",
    "updated_at",
];

const V1_FIELDS: &[&str] = &[
    "last_checkpoint",
    "current_state",
    "next_step",
    "cross_session_portable",
    "ephemeral_references",
];

pub(super) fn detect(resumption: &Value) -> Shape {
    let Some(map) = resumption.as_mapping() else {
        return Shape::Other;
    };
    let has = |keys: &[&str]| keys.iter().any(|k| map.contains_key(*k));
    if map.get("recovery_state").is_some_and(Value::is_mapping) {
        Shape::V2Nested
    } else if has(V2_SECTIONS) || has(V2_ONLY_RECOVERY) {
        Shape::V2Flat
    } else if has(V1_FIELDS) {
        Shape::V1
    } else {
        Shape::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Shape {
        detect(&yaml_serde::from_str(text).unwrap())
    }

    #[test]
    fn shapes_follow_the_keys() {
        assert_eq!(shape("recovery_state: {next_step: x}"), Shape::V2Nested);
        assert_eq!(shape("next_step: x\ndecisions: []"), Shape::V2Flat);
        assert_eq!(
            shape("workflow_status: ACTIVE\nnext_step: x"),
            Shape::V2Flat
        );
        assert_eq!(shape("last_checkpoint: cp\ncurrent_state: s"), Shape::V1);
        assert_eq!(shape("last_checkpoint: cp\nnext_action: s"), Shape::V1);
        assert_eq!(
            shape("last_completed_phase: 2\nnext_action: x\nfiles_to_read: []"),
            Shape::Other
        );
        assert_eq!(
            shape("last_checkpoint_id: null\nfiles_to_read: []"),
            Shape::Other
        );
        assert_eq!(shape("just a string"), Shape::Other);
        assert_eq!(shape("[1, 2]"), Shape::Other);
    }

    #[test]
    fn a_recovery_state_that_is_not_a_map_does_not_make_it_nested() {
        assert_eq!(shape("recovery_state: oops\nnext_step: x"), Shape::V1);
    }
}
