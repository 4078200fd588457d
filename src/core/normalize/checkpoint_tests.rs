use super::*;
use crate::core::model::Severity;
use crate::core::wire::checkpoint::{
    AccumulatedContext, CheckpointFileToRead, CheckpointMetadata, CheckpointTrigger,
    DesignContextState, OrchestrationState, PhaseId, PostCompact, RecoveryInstructions,
};

/// A design checkpoint laid out as seed 002 lays it out (values of our own).
const DESIGN: &str = r#"{
  "schema_version": "1.0.0",
  "event_type": "compaction",
  "event_id": "cx-004",
  "timestamp": "2026-03-02T09:15:00Z",
  "trigger": {
    "type": "auto",
    "source": "PreCompact hook"
  },
  "context_state": {
    "estimated_fill_before_compaction": 0.912,
    "estimated_tokens_used": 182400,
    "context_window_size": 200000,
    "source": "transcript_heuristic"
  },
  "orchestration_state": {
    "workflow_id": "docs-refresh-20260302-001",
    "workflow_status": "ACTIVE",
    "current_phase": 3,
    "current_phase_name": "Review",
    "current_activity": "qg-3-iteration-2",
    "last_completed_checkpoint": "CP-002",
    "phases_complete": [1, 2],
    "phases_in_progress": [3],
    "phases_remaining": [4],
    "current_gate": "qg-3",
    "current_gate_iteration": 2,
    "current_gate_score": 0.915
  },
  "accumulated_context": {
    "defect_patterns": ["Stale cross-references"],
    "decisions_since_last_checkpoint": [
      {"id": "RD-007", "summary": "Keep the glossary in one file", "affects_phases": [3, 4]}
    ],
    "agent_summaries": {"reviewer": "2 majors left", "editor": "done"}
  },
  "recovery_instructions": {
    "files_to_read": [
      {"path": "projects/P/ORCHESTRATION.yaml", "sections": ["resumption"], "priority": 1},
      {"path": "projects/P/notes.md", "priority": 2}
    ],
    "next_action": "Re-score qg-3.",
    "critical_context": "Two majors open."
  },
  "metadata": {
    "written_by": "resume-tui hook pre-compact",
    "acknowledged": false,
    "acknowledged_at": null
  }
}"#;

const JERRY: &str = r#"{
  "checkpoint_id": "cx-035",
  "context_state": {
    "fill_percentage": 0.875,
    "tier": "critical",
    "token_count": 175000,
    "monitoring_ok": true,
    "context_window": 200000,
    "context_window_source": "default"
  },
  "resumption_state": null,
  "created_at": "2026-02-22T09:16:59.862446+00:00"
}"#;

#[test]
fn reads_every_field_of_a_design_checkpoint() {
    let c =
        normalize_checkpoint(".jerry/checkpoints/cx-004-checkpoint.json", DESIGN, false).unwrap();
    assert_eq!(c.format, CheckpointFormat::Design);
    assert_eq!((c.id.as_str(), c.number), ("cx-004", Some(4)));
    assert_eq!(c.created_at.unwrap().to_iso(), "2026-03-02T09:15:00Z");
    assert_eq!(c.trigger.as_deref(), Some("auto"));
    assert_eq!(
        (c.fill, c.tokens_used, c.window),
        (Some(0.912), Some(182_400), Some(200_000))
    );
    assert_eq!(c.fill_source.as_deref(), Some("transcript_heuristic"));
    assert_eq!(c.workflow_id.as_deref(), Some("docs-refresh-20260302-001"));
    assert_eq!(c.current_phase.as_deref(), Some("3"));
    assert_eq!(c.current_gate.as_deref(), Some("qg-3"));
    assert_eq!(
        (c.current_gate_iteration, c.current_gate_score),
        (Some(2), Some(0.915))
    );
    assert_eq!(c.defect_patterns, vec!["Stale cross-references"]);
    assert_eq!(c.decisions[0].id.as_deref(), Some("RD-007"));
    assert_eq!(c.decisions[0].affects_phases, vec![3, 4]);
    assert_eq!(
        c.agent_summaries,
        vec![
            ("reviewer".into(), "2 majors left".into()),
            ("editor".into(), "done".into())
        ]
    );
    assert_eq!(c.files_to_read.len(), 2);
    assert_eq!(c.files_to_read[0].sections, vec!["resumption"]);
    assert_eq!(c.files_to_read[1].path, "projects/P/notes.md");
    assert_eq!(c.next_action.as_deref(), Some("Re-score qg-3."));
    assert_eq!(c.written_by.as_deref(), Some("resume-tui hook pre-compact"));
    assert!(!c.acknowledged);
    assert_eq!(c.acknowledged_via, None);
    let keys: Vec<&String> = c.other.keys().collect();
    assert_eq!(
        keys,
        vec![
            "trigger.source",
            "orchestration_state.phases_complete",
            "orchestration_state.phases_in_progress",
            "orchestration_state.phases_remaining",
            "schema_version",
            "event_type",
        ]
    );
    assert!(validate_checkpoint("cx-004-checkpoint.json", DESIGN).is_empty());
}

#[test]
fn reads_a_real_jerry_checkpoint() {
    let c = normalize_checkpoint(".jerry/checkpoints/cx-035.json", JERRY, false).unwrap();
    assert_eq!(c.format, CheckpointFormat::Jerry);
    assert_eq!((c.id.as_str(), c.number), ("cx-035", Some(35)));
    assert_eq!((c.fill, c.tier.as_deref()), (Some(0.875), Some("critical")));
    assert_eq!((c.tokens_used, c.window), (Some(175_000), Some(200_000)));
    assert_eq!(c.created_at.unwrap().to_iso(), "2026-02-22T09:16:59Z");
    assert_eq!(c.resumption_state, None);
    let keys: Vec<&String> = c.other.keys().collect();
    assert_eq!(
        keys,
        vec![
            "context_state.monitoring_ok",
            "context_state.context_window_source"
        ]
    );
    assert!(!c.acknowledged);
    assert!(validate_checkpoint("cx-035.json", JERRY).is_empty());
}

#[test]
fn a_null_token_count_is_allowed_in_jerry_checkpoints() {
    let text = JERRY.replace("\"token_count\": 175000", "\"token_count\": null");
    let c = normalize_checkpoint("cx-035.json", &text, false).unwrap();
    assert_eq!((c.tokens_used, c.fill), (None, Some(0.875)));
    assert!(validate_checkpoint("cx-035.json", &text).is_empty());
}

#[test]
fn the_format_comes_from_the_content_not_the_name() {
    let c = normalize_checkpoint("x/cx-009-checkpoint.json", JERRY, false).unwrap();
    assert_eq!(c.format, CheckpointFormat::Jerry);
    assert_eq!(c.id, "cx-035", "the id inside the file wins");
    let d = normalize_checkpoint("x/cx-009.json", DESIGN, false).unwrap();
    assert_eq!(d.format, CheckpointFormat::Design);
    let bare = normalize_checkpoint("x/cx-012-checkpoint.json", "{}", false).unwrap();
    assert_eq!(
        (bare.format, bare.id.as_str(), bare.number),
        (CheckpointFormat::Design, "cx-012", Some(12))
    );
    let bare = normalize_checkpoint("x/cx-013.json", "{\"note\": 1}", false).unwrap();
    assert_eq!(
        (bare.format, bare.number),
        (CheckpointFormat::Jerry, Some(13))
    );
    assert_eq!(bare.other["note"], 1);
}

#[test]
fn acknowledged_by_flag_or_by_marker() {
    let flagged = DESIGN
        .replace("\"acknowledged\": false", "\"acknowledged\": true")
        .replace(
            "\"acknowledged_at\": null",
            "\"acknowledged_at\": \"2026-03-02T09:20:00Z\"",
        );
    let c = normalize_checkpoint("cx-004-checkpoint.json", &flagged, true).unwrap();
    assert!(c.acknowledged);
    assert_eq!(
        c.acknowledged_via,
        Some(AckSource::Flag),
        "the flag wins over the marker"
    );
    assert_eq!(c.acknowledged_at.as_deref(), Some("2026-03-02T09:20:00Z"));

    let c = normalize_checkpoint("cx-035.json", JERRY, true).unwrap();
    assert!(c.acknowledged);
    assert_eq!(c.acknowledged_via, Some(AckSource::Marker));
    let c = normalize_checkpoint("cx-004-checkpoint.json", DESIGN, true).unwrap();
    assert_eq!(c.acknowledged_via, Some(AckSource::Marker));
}

#[test]
fn post_compact_and_session_id_are_read() {
    let text = DESIGN.replacen(
        "\"timestamp\": \"2026-03-02T09:15:00Z\",",
        "\"timestamp\": \"2026-03-02T09:15:00Z\",\n  \"session_id\": \"s-42\",",
        1,
    );
    let text = text.trim_end().strip_suffix('}').unwrap().to_string()
        + ",\n  \"post_compact\": {\"trigger\": \"auto\", \"compact_summary\": \"We reviewed.\", \"recorded_at\": \"2026-03-02T09:16:00Z\"}\n}";
    let c = normalize_checkpoint("cx-004-checkpoint.json", &text, false).unwrap();
    assert_eq!(c.session_id.as_deref(), Some("s-42"));
    let pc = c.post_compact.unwrap();
    assert_eq!(pc.compact_summary.as_deref(), Some("We reviewed."));
    assert_eq!(pc.recorded_at.as_deref(), Some("2026-03-02T09:16:00Z"));
    assert!(!c.other.contains_key("post_compact"));
    assert!(validate_checkpoint("cx-004-checkpoint.json", &text).is_empty());
}

#[test]
fn malformed_json_is_an_error_at_its_line_and_column() {
    let text = "{\n  \"checkpoint_id\": \"cx-001\",\n  \"created_at\": 2026-02-22\n}";
    let err = normalize_checkpoint("cx-001.json", text, false).unwrap_err();
    assert_eq!(err.severity, Severity::Error);
    assert_eq!((err.line, err.column), (Some(3), Some(21)), "{err}");
    assert_eq!(err.file, "cx-001.json");
    let truncated =
        normalize_checkpoint("cx-001.json", "{\"checkpoint_id\": \"cx-0", false).unwrap_err();
    assert_eq!((truncated.line, truncated.column), (Some(1), Some(23)));
    assert!(normalize_checkpoint("cx-001.json", "[]", false).is_err());
    assert_eq!(validate_checkpoint("cx-001.json", text), vec![err]);
}

#[test]
fn validation_locates_every_problem() {
    let text = "{\n  \"checkpoint_id\": 35,\n  \"context_state\": {\n    \"fill_percentage\": \"high\",\n    \"tier\": \"critical\"\n  },\n  \"created_at\": \"2026-02-22T09:16:59Z\"\n}";
    let got: Vec<String> = validate_checkpoint("cx-035.json", text)
        .iter()
        .map(|d| {
            format!(
                "{:?} {}:{} {}",
                d.severity,
                d.line.unwrap(),
                d.column.unwrap(),
                d.message
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            "Warning 1:1 missing required field `resumption_state`",
            "Error 2:3 checkpoint_id: expected string, found an integer",
            "Warning 3:3 context_state: missing required field `token_count`",
            "Warning 3:3 context_state: missing required field `monitoring_ok`",
            "Warning 3:3 context_state: missing required field `context_window`",
            "Warning 3:3 context_state: missing required field `context_window_source`",
            "Error 4:5 context_state.fill_percentage: expected number, found a string",
        ]
    );
}

#[test]
fn odd_files_to_read_entries_are_read_leniently_and_kept() {
    let text = r#"{"event_id": "cx-001", "recovery_instructions": {"files_to_read": ["a.md", {"priority": 1}, {"path": "b.md", "purpose": "why"}]}}"#;
    let c = normalize_checkpoint("cx-001-checkpoint.json", text, false).unwrap();
    let paths: Vec<&str> = c.files_to_read.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, vec!["a.md", "b.md"]);
    assert_eq!(c.files_to_read[1].purpose.as_deref(), Some("why"));
    assert!(
        c.other.contains_key("recovery_instructions.files_to_read"),
        "the entry without a path is not lost"
    );
    let problems = validate_checkpoint("cx-001-checkpoint.json", text);
    assert!(problems.iter().any(|d| d.severity == Severity::Error
        && d.message == "recovery_instructions.files_to_read[0]: expected object, found a string"));
}

#[test]
fn ids_and_numbers_from_names() {
    assert_eq!(
        id_from_path("a/.jerry/checkpoints/cx-007-checkpoint.json"),
        "cx-007"
    );
    assert_eq!(id_from_path("cx-007.json"), "cx-007");
    assert_eq!(number_from_id("cx-007"), Some(7));
    assert_eq!(number_from_id("CX-12-checkpoint"), Some(12));
    assert_eq!(number_from_id("cp-007"), None);
    assert_eq!(number_from_id("cx-"), None);
    assert_eq!(number_from_id("é"), None);
}

/// The hook writes design checkpoints from the wire type: serialising must give
/// the seed's keys in the seed's order, with `null` for unknown facts.
#[test]
fn the_wire_type_writes_the_seed_layout() {
    let wire: DesignCheckpoint = serde_json::from_str(DESIGN).unwrap();
    let written = serde_json::to_string_pretty(&wire).unwrap();
    let original: serde_json::Value = serde_json::from_str(DESIGN).unwrap();
    let reread: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(reread, original);
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&reread), keys(&original));
    for section in [
        "context_state",
        "orchestration_state",
        "accumulated_context",
        "recovery_instructions",
        "metadata",
    ] {
        assert_eq!(
            keys(&reread[section]),
            keys(&original[section]),
            "{section}"
        );
    }

    let built = DesignCheckpoint {
        schema_version: "1.0.0".into(),
        event_type: "compaction".into(),
        event_id: "cx-001".into(),
        timestamp: "2026-03-02T09:15:00Z".into(),
        session_id: None,
        trigger: CheckpointTrigger {
            kind: "manual".into(),
            source: "PreCompact hook".into(),
        },
        context_state: DesignContextState {
            context_window_size: 200_000,
            source: "none".into(),
            ..Default::default()
        },
        orchestration_state: OrchestrationState {
            current_phase: Some(PhaseId::Text("phase-2".into())),
            ..Default::default()
        },
        accumulated_context: AccumulatedContext::default(),
        recovery_instructions: RecoveryInstructions {
            files_to_read: vec![CheckpointFileToRead {
                path: "a.md".into(),
                ..Default::default()
            }],
            next_action: "Read a.md".into(),
            critical_context: None,
        },
        metadata: CheckpointMetadata {
            written_by: "resume-tui".into(),
            acknowledged: false,
            acknowledged_at: None,
        },
        post_compact: None,
    };
    let json = serde_json::to_value(&built).unwrap();
    assert!(json.get("session_id").is_none() && json.get("post_compact").is_none());
    assert_eq!(
        json["context_state"]["estimated_fill_before_compaction"],
        serde_json::Value::Null
    );
    assert_eq!(json["orchestration_state"]["current_phase"], "phase-2");
    assert_eq!(
        json["recovery_instructions"]["files_to_read"][0],
        serde_json::json!({"path": "a.md"})
    );
    let text = serde_json::to_string(&built).unwrap();
    assert!(validate_checkpoint("cx-001-checkpoint.json", &text).is_empty());
    let read = normalize_checkpoint("cx-001-checkpoint.json", &text, false).unwrap();
    assert_eq!(
        (read.current_phase.as_deref(), read.fill),
        (Some("phase-2"), None)
    );

    let with_pc = DesignCheckpoint {
        post_compact: Some(PostCompact {
            trigger: Some("auto".into()),
            ..Default::default()
        }),
        ..built
    };
    let json = serde_json::to_value(&with_pc).unwrap();
    assert_eq!(keys(&json).last().map(String::as_str), Some("post_compact"));
    assert_eq!(
        json["post_compact"]["compact_summary"],
        serde_json::Value::Null
    );
}

#[test]
fn out_of_range_fills_and_zoneless_times_are_warned_by_validate() {
    let text = r#"{"checkpoint_id": "cx-009", "context_state": {"fill_percentage": 1.5, "tier": "critical"},
                  "resumption_state": null, "created_at": "2026-03-01T12:00:00"}"#;
    let got: Vec<String> = validate_checkpoint("cx-009.json", text)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        got.iter()
            .any(|d| d
                .contains("warning: context_state.fill_percentage: a fill outside 0.0–1.0 (1.5)")),
        "{got:#?}"
    );
    assert!(
        got.iter()
            .any(|d| d
                .contains("warning: created_at: timestamp \"2026-03-01T12:00:00\" has no zone")),
        "{got:#?}"
    );
}
