//! Context state files → `ContextState`: the design `.jerry/context-monitor-state.json`
//! (`ContextMonitorState`, written by resume-tui's own hook) and real Jerry's
//! `context-state.json` (`{previous_tokens, previous_session_id, last_tier,
//! last_rotation_action}`), told apart by their keys.

use serde_json::Value;

use super::json_value::{self as jv, get, get_float, get_int, get_text, other_fields_into};
use super::schema_check;
use crate::core::model::{ContextState, Diagnostic, OtherFields};
use crate::core::time::Timestamp;
use crate::core::wire::context_state::{ContextMonitorState, JerryContextState};

/// Which of the two files a parsed value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextStateFormat {
    /// `.jerry/context-monitor-state.json`.
    Monitor,
    /// Real Jerry `context-state.json`.
    Jerry,
}

pub fn detect_format(path: &str, value: &Value) -> ContextStateFormat {
    let jerry_keys = [
        "previous_tokens",
        "previous_session_id",
        "last_tier",
        "last_rotation_action",
    ];
    let monitor_keys = ["fill", "tokens_used", "window", "level", "updated_at"];
    let count = |keys: &[&str]| keys.iter().filter(|k| get(value, k).is_some()).count();
    match count(&jerry_keys).cmp(&count(&monitor_keys)) {
        std::cmp::Ordering::Greater => ContextStateFormat::Jerry,
        std::cmp::Ordering::Less => ContextStateFormat::Monitor,
        std::cmp::Ordering::Equal if path.ends_with("context-state.json") => {
            ContextStateFormat::Jerry
        }
        std::cmp::Ordering::Equal => ContextStateFormat::Monitor,
    }
}

/// Reads either file. The level/tier is kept as written (`CRITICAL` or `critical`);
/// compare with [`level_rank`]. Only JSON that does not parse or is not an object fails.
pub fn normalize_context_state(path: &str, text: &str) -> Result<ContextState, Diagnostic> {
    let value = jv::parse(path, text)?;
    if !value.is_object() {
        return Err(Diagnostic::error(path, "a context state file must be a JSON object").at(1, 1));
    }
    let mut state = ContextState {
        path: path.to_string(),
        other: OtherFields::new(),
        ..ContextState::default()
    };
    match detect_format(path, &value) {
        ContextStateFormat::Monitor => {
            state.fill = get_float(&value, "fill");
            state.tokens_used = get_int(&value, "tokens_used");
            state.window = get_int(&value, "window");
            state.level = get_text(&value, "level");
            state.session_id = get_text(&value, "session_id");
            state.updated_at_raw = get_text(&value, "updated_at");
            let known = [
                "fill",
                "tokens_used",
                "window",
                "level",
                "session_id",
                "updated_at",
            ];
            other_fields_into(&value, &known, "", &mut state.other);
        }
        ContextStateFormat::Jerry => {
            state.tokens_used = get_int(&value, "previous_tokens");
            state.level = get_text(&value, "last_tier");
            state.session_id = get_text(&value, "previous_session_id");
            state.updated_at_raw = get_text(&value, "updated_at");
            let known = [
                "previous_tokens",
                "last_tier",
                "previous_session_id",
                "updated_at",
            ];
            other_fields_into(&value, &known, "", &mut state.other);
        }
    }
    state.updated_at = state.updated_at_raw.as_deref().and_then(Timestamp::parse);
    Ok(state)
}

/// Orders levels of both vocabularies, in any letter case: design LOW < WARNING <
/// CRITICAL < COMPACTION, Jerry nominal < low < warning < critical < emergency.
/// Unknown words give `None`.
pub fn level_rank(level: &str) -> Option<u8> {
    match level.trim().to_ascii_lowercase().as_str() {
        "nominal" => Some(0),
        "low" => Some(1),
        "warning" => Some(2),
        "critical" => Some(3),
        "emergency" | "compaction" => Some(4),
        _ => None,
    }
}

/// Every problem in a context state file, against the wire type of its format.
pub fn validate_context_state(path: &str, text: &str) -> Vec<Diagnostic> {
    let value = match jv::parse(path, text) {
        Ok(value) => value,
        Err(diagnostic) => return vec![diagnostic],
    };
    let findings = match detect_format(path, &value) {
        ContextStateFormat::Monitor => schema_check::check::<ContextMonitorState>(&value),
        ContextStateFormat::Jerry => schema_check::check::<JerryContextState>(&value),
    };
    schema_check::json_diagnostics(path, text, &findings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Severity;

    const MONITOR: &str = r#"{
  "schema_version": "1.0",
  "session_id": "s-1",
  "fill": 0.732,
  "tokens_used": 146400,
  "window": 200000,
  "window_source": "default",
  "level": "WARNING",
  "updated_at": "2026-02-17T11:30:00Z",
  "transcript_path": "/home/u/.claude/projects/p/s-1.jsonl"
}"#;

    #[test]
    fn reads_the_design_monitor_state() {
        let s = normalize_context_state(".jerry/context-monitor-state.json", MONITOR).unwrap();
        assert_eq!(s.fill, Some(0.732));
        assert_eq!((s.tokens_used, s.window), (Some(146_400), Some(200_000)));
        assert_eq!(s.level.as_deref(), Some("WARNING"));
        assert_eq!(s.session_id.as_deref(), Some("s-1"));
        assert_eq!(s.updated_at.unwrap().to_iso(), "2026-02-17T11:30:00Z");
        let keys: Vec<&String> = s.other.keys().collect();
        assert_eq!(
            keys,
            vec!["schema_version", "window_source", "transcript_path"]
        );
        assert!(validate_context_state("m.json", MONITOR).is_empty());
    }

    #[test]
    fn reads_real_jerry_state_in_either_tier_case() {
        for tier in ["CRITICAL", "critical"] {
            let text = format!(
                r#"{{"previous_tokens": 180000, "previous_session_id": "abc", "last_tier": "{tier}", "last_rotation_action": "emergency_handoff"}}"#
            );
            let s =
                normalize_context_state("/home/u/.jerry/local/context-state.json", &text).unwrap();
            assert_eq!(s.tokens_used, Some(180_000));
            assert_eq!(s.level.as_deref(), Some(tier), "kept as written");
            assert_eq!(level_rank(s.level.as_deref().unwrap()), Some(3));
            assert_eq!(s.session_id.as_deref(), Some("abc"));
            assert_eq!((s.fill, s.window, s.updated_at), (None, None, None));
            assert_eq!(s.other["last_rotation_action"], "emergency_handoff");
            assert!(validate_context_state("context-state.json", &text).is_empty());
        }
    }

    #[test]
    fn levels_rank_across_vocabularies() {
        assert!(level_rank("nominal") < level_rank("LOW"));
        assert!(level_rank("Warning") < level_rank("CRITICAL"));
        assert_eq!(level_rank("COMPACTION"), level_rank("emergency"));
        assert_eq!(level_rank("meh"), None);
    }

    #[test]
    fn detection_falls_back_to_the_name() {
        let empty = normalize_context_state("x/context-state.json", "{}").unwrap();
        assert_eq!(empty.level, None);
        assert_eq!(
            detect_format("x/context-state.json", &serde_json::json!({})),
            ContextStateFormat::Jerry
        );
        assert_eq!(
            detect_format(".jerry/context-monitor-state.json", &serde_json::json!({})),
            ContextStateFormat::Monitor
        );
    }

    #[test]
    fn malformed_and_wrong_kinds() {
        let err = normalize_context_state("c.json", "{\n  \"fill\": 0.5,\n}").unwrap_err();
        assert_eq!(
            (err.severity, err.line, err.column),
            (Severity::Error, Some(3), Some(1))
        );
        assert!(normalize_context_state("c.json", "[1]").is_err());
        let problems = validate_context_state(
            "c.json",
            "{\n  \"fill\": \"high\",\n  \"level\": \"LOW\"\n}",
        );
        let errors: Vec<_> = problems
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert_eq!(errors.len(), 1);
        assert_eq!((errors[0].line, errors[0].column), (Some(2), Some(3)));
        assert!(
            problems
                .iter()
                .any(|d| d.severity == Severity::Warning && d.message.contains("`tokens_used`"))
        );
    }
}
