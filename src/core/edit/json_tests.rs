use super::*;

const DESIGN: &str = r#"{
  "schema_version": "1.0.0",
  "event_id": "cx-002",
  "orchestration_state": {
    "phases_complete": [1],
    "current_gate_score": 0.80
  },
  "metadata": {
    "written_by": "resume-tui hook pre-compact",
    "acknowledged": false
  }
}
"#;

fn at() -> Timestamp {
    Timestamp::parse("2026-03-02T10:00:00Z").unwrap()
}

fn acknowledge(text: &str) -> String {
    let ops = plan_acknowledge(&parse(text).unwrap(), at()).unwrap();
    edit(text, &ops).unwrap()
}

#[test]
fn acknowledging_changes_only_the_metadata_members() {
    let out = acknowledge(DESIGN);
    let expected = DESIGN.replace(
        "\"acknowledged\": false\n",
        "\"acknowledged\": true,\n    \"acknowledged_at\": \"2026-03-02T10:00:00Z\"\n",
    );
    assert_eq!(out, expected);
    assert!(
        out.contains("\"phases_complete\": [1]"),
        "inline arrays stay inline"
    );
    assert!(out.contains("0.80"), "numbers keep their spelling");
}

#[test]
fn an_acknowledged_checkpoint_needs_nothing() {
    let once = acknowledge(DESIGN);
    assert!(
        plan_acknowledge(&parse(&once).unwrap(), at())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn metadata_is_added_when_missing_in_any_layout() {
    for text in [
        "{\n  \"event_id\": \"cx-001\"\n}\n",
        "{\"event_id\": \"cx-001\"}",
        "{}",
        "{\n    \"a\": {\"b\": [1, {\"c\": \"}\"}]},\n    \"event_id\": \"cx-001\"\n}",
    ] {
        let out = acknowledge(text);
        let value = parse(&out).unwrap();
        assert_eq!(
            value["metadata"]["acknowledged"],
            Value::Bool(true),
            "{out}"
        );
        assert_eq!(value["metadata"]["acknowledged_at"], "2026-03-02T10:00:00Z");
        let mut old = parse(text).unwrap();
        old.as_object_mut().unwrap().remove("metadata");
        let mut new = value.clone();
        new.as_object_mut().unwrap().remove("metadata");
        assert_eq!(old, new, "nothing else changed");
    }
    let nested = acknowledge("{\n  \"a\": 1\n}\n");
    assert_eq!(
        nested,
        "{\n  \"a\": 1,\n  \"metadata\": {\n    \"acknowledged\": true,\n    \"acknowledged_at\": \"2026-03-02T10:00:00Z\"\n  }\n}\n"
    );
}

#[test]
fn malformed_json_is_reported_with_its_location() {
    let err = edit("{\n  \"a\": ,\n}", &[]).unwrap_err();
    assert!(
        matches!(err, JsonEditError::Invalid { line: 2, .. }),
        "{err:?}"
    );
    let err = plan_acknowledge(&parse("{\"metadata\": 3}").unwrap(), at()).unwrap_err();
    assert!(matches!(err, PlanError::Unsupported(_)));
}
