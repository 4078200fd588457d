//! Nexus `00-system/.cache/precompact_state.json` → `PrecompactState`. The design
//! (seed 000) is flat; seed 001 sketched extra keys (`last_tool_calls`,
//! `fallback_chain`, `created_at`), and test data holds a nested variant with a
//! `project_detection` map, which is read with a warning.

use super::json_locate::{Seg, locate};
use super::json_value::{self as jv, get, get_text, other_fields_into};
use super::schema_check;
use crate::core::model::{Diagnostic, PrecompactState};
use crate::core::time::Timestamp;
use crate::core::wire::precompact::PrecompactState as Wire;

pub fn normalize_precompact(path: &str, text: &str) -> Result<PrecompactState, Diagnostic> {
    let value = jv::parse(path, text)?;
    if !value.is_object() {
        return Err(Diagnostic::error(path, "precompact state must be a JSON object").at(1, 1));
    }
    let mut state = PrecompactState {
        path: path.to_string(),
        active_project_id: get_text(&value, "active_project_id"),
        confidence: get_text(&value, "confidence"),
        detection_method: get_text(&value, "detection_method"),
        timestamp_raw: get_text(&value, "timestamp").or_else(|| get_text(&value, "created_at")),
        session_id: get_text(&value, "session_id"),
        ..PrecompactState::default()
    };
    let mut known = vec![
        "active_project_id",
        "confidence",
        "detection_method",
        "timestamp",
        "session_id",
    ];
    if get(&value, "timestamp").is_none() {
        known.push("created_at");
    }
    if let Some(nested) = get(&value, "project_detection").filter(|n| n.is_object()) {
        state.active_project_id = state
            .active_project_id
            .or_else(|| get_text(nested, "active_project_id"))
            .or_else(|| get_text(nested, "project_id"));
        state.confidence = state.confidence.or_else(|| get_text(nested, "confidence"));
        state.detection_method = state
            .detection_method
            .or_else(|| get_text(nested, "detection_method"));
        let (line, column) = locate(text, &[Seg::key("project_detection")]).unwrap_or((1, 1));
        state.diagnostics.push(
            Diagnostic::warning(
                path,
                "nested `project_detection` map: the schema is flat (`active_project_id`, \
                 `confidence` at the top level); read from the nested map",
            )
            .at(line, column),
        );
    }
    other_fields_into(&value, &known, "", &mut state.other);
    state.timestamp = state.timestamp_raw.as_deref().and_then(Timestamp::parse);
    Ok(state)
}

/// Every problem in a precompact state file, against the flat wire type.
pub fn validate_precompact(path: &str, text: &str) -> Vec<Diagnostic> {
    match jv::parse(path, text) {
        Ok(value) => {
            schema_check::json_diagnostics(path, text, &schema_check::check::<Wire>(&value))
        }
        Err(diagnostic) => vec![diagnostic],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Severity;

    const FLAT: &str = r#"{
  "active_project_id": "24-project-skills",
  "confidence": "high",
  "detection_method": "transcript",
  "timestamp": "2026-01-04T12:00:00Z",
  "metadata": {"transcript_lines": 1234}
}"#;

    #[test]
    fn reads_the_flat_schema() {
        let s = normalize_precompact("00-system/.cache/precompact_state.json", FLAT).unwrap();
        assert_eq!(s.active_project_id.as_deref(), Some("24-project-skills"));
        assert_eq!(s.confidence.as_deref(), Some("high"));
        assert_eq!(s.detection_method.as_deref(), Some("transcript"));
        assert_eq!(s.timestamp.unwrap().to_iso(), "2026-01-04T12:00:00Z");
        assert_eq!(
            s.other["metadata"],
            serde_json::json!({"transcript_lines": 1234})
        );
        assert!(s.diagnostics.is_empty());
        assert!(validate_precompact("p.json", FLAT).is_empty());
    }

    #[test]
    fn the_session_is_read_not_kept_as_another_field() {
        let text = r#"{"active_project_id": "a", "confidence": "high", "detection_method": "transcript", "timestamp": "2026-01-04T12:00:00Z", "session_id": "s-1"}"#;
        let s = normalize_precompact("p.json", text).unwrap();
        assert_eq!(s.session_id.as_deref(), Some("s-1"));
        assert!(s.other.is_empty(), "{:?}", s.other);
        assert!(validate_precompact("p.json", text).is_empty());
    }

    #[test]
    fn a_null_project_is_no_project() {
        let text = r#"{"active_project_id": null, "confidence": "low", "detection_method": "fallback", "timestamp": "2026-01-04T12:07:59.773083Z"}"#;
        let s = normalize_precompact("p.json", text).unwrap();
        assert_eq!(s.active_project_id, None);
        assert!(validate_precompact("p.json", text).is_empty());
    }

    #[test]
    fn the_nested_variant_is_read_with_a_warning() {
        let text = "{\n  \"project_detection\": {\n    \"project_id\": \"24-project-test\",\n    \"confidence\": \"high\"\n  },\n  \"detection_method\": \"transcript\",\n  \"timestamp\": \"2026-01-04T12:00:00Z\"\n}";
        let s = normalize_precompact("p.json", text).unwrap();
        assert_eq!(s.active_project_id.as_deref(), Some("24-project-test"));
        assert_eq!(s.confidence.as_deref(), Some("high"));
        assert_eq!(s.diagnostics.len(), 1);
        let d = &s.diagnostics[0];
        assert_eq!(
            (d.severity, d.line, d.column),
            (Severity::Warning, Some(2), Some(3))
        );
        assert!(s.other.contains_key("project_detection"), "kept as written");
        let problems = validate_precompact("p.json", text);
        assert!(problems.iter().any(|d| {
            d.message
                .contains("missing required field `active_project_id`")
        }));
        assert!(
            problems
                .iter()
                .any(|d| d.message.contains("missing required field `confidence`"))
        );
    }

    #[test]
    fn seed_001_keys_are_kept_and_created_at_stands_in_for_timestamp() {
        let text = r#"{"active_project_id": "p", "confidence": "medium", "detection_method": "transcript_analysis",
                       "last_tool_calls": [{"tool": "Read"}], "fallback_chain": ["transcript"], "created_at": "2026-01-03T14:25:00"}"#;
        let s = normalize_precompact("p.json", text).unwrap();
        assert_eq!(s.timestamp.unwrap().to_iso(), "2026-01-03T14:25:00Z");
        let keys: Vec<&String> = s.other.keys().collect();
        assert_eq!(keys, vec!["last_tool_calls", "fallback_chain"]);
        let problems = validate_precompact("p.json", text);
        assert!(problems.iter().any(|d| {
            d.severity == Severity::Warning
                && d.message
                    .starts_with("detection_method: unexpected value \"transcript_analysis\"")
        }));
    }

    #[test]
    fn malformed_json_is_an_error_with_line_and_column() {
        let err = normalize_precompact("p.json", "{\n  \"confidence\": high\n}").unwrap_err();
        assert_eq!((err.line, err.column), (Some(2), Some(17)));
        assert!(normalize_precompact("p.json", "\"text\"").is_err());
    }
}
