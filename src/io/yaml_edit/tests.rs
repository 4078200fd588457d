use super::*;
use crate::core::edit::{CheckpointEvent, DecisionFields, NewDecision, NewValue, NexusFields, Seg};
use crate::core::time::Timestamp;

fn now() -> Timestamp {
    Timestamp::parse("2026-03-02T10:00:00Z").unwrap()
}

fn edit(text: &str, intent: EditIntent) -> String {
    let edited = edit_yaml("t.yaml", text, &intent).unwrap();
    assert!(
        edited.changed(),
        "{intent:?} changed nothing: {:?}",
        edited.note
    );
    edited.new
}

fn add(decision: &str) -> EditIntent {
    EditIntent::AddDecision(NewDecision {
        decision: decision.to_string(),
        affects_phases: vec![2, 3],
        ..NewDecision::default()
    })
}

const NESTED: &str = "\
workflow:
  id: \"wf-1\"
resumption:
  # Sub-section 1
  recovery_state:
    next_step: 'go on'
    updated_at: \"2026-01-01T00:00:00Z\"   # stale
    cross_session_portable: true

  # Sub-section 5: Decision Log
  decision_log:
    - id: \"RD-001\"
      gate: \"qg-1\"
      decision: \"First\"
      affects_phases: [1, 2]
      applied: false                  # pending

  # Sub-section 7
  compaction_events:
    count: 1
    events:
      - id: \"CX-001\"
        checkpoint_file: \".jerry/checkpoints/cx-001-checkpoint.json\"
        acknowledged: false

# trailing comment
document:
  id: x
";

#[test]
fn adding_a_decision_appends_in_the_lists_own_layout() {
    let out = edit(NESTED, add("Second \"one\""));
    let expected = NESTED
        .replace(
            "      applied: false                  # pending\n",
            "      applied: false                  # pending\n    - id: \"RD-002\"\n      gate: null\n      iteration: null\n      decision: \"Second \\\"one\\\"\"\n      rationale: null\n      affects_phases: [2, 3]\n      applied: false\n",
        );
    assert_eq!(out, expected, "an operator's edit leaves updated_at alone");
}

#[test]
fn applied_and_edits_keep_trailing_comments_and_quote_style() {
    let out = edit(
        NESTED,
        EditIntent::SetDecisionApplied {
            id: "rd-001".into(),
            applied: true,
        },
    );
    assert!(
        out.contains("      applied: true                   # pending\n")
            || out.contains("      applied: true                  # pending\n"),
        "{out}"
    );
    let out = edit(
        NESTED,
        EditIntent::EditDecision {
            id: "RD-001".into(),
            fields: DecisionFields {
                decision: Some("Changed".into()),
                affects_phases: Some(vec![3]),
                rationale: Some("Because".into()),
                ..DecisionFields::default()
            },
        },
    );
    assert!(
        out.contains("      decision: \"Changed\"\n      affects_phases: [3]\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "      applied: false                  # pending\n      rationale: \"Because\"\n"
        ),
        "{out}"
    );
    let err = edit_yaml(
        "t.yaml",
        NESTED,
        &EditIntent::SetDecisionApplied {
            id: "RD-009".into(),
            applied: true,
        },
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("no decision RD-009 (ids: RD-001)"),
        "{err}"
    );
}

#[test]
fn acknowledging_sets_the_event_flag_and_touches() {
    let out = edit(
        NESTED,
        EditIntent::AcknowledgeCheckpoint {
            id: "cx-001".into(),
        },
    );
    assert_eq!(
        out,
        NESTED.replace(
            "        acknowledged: false\n",
            "        acknowledged: true\n"
        )
    );
    let again = edit_yaml("t.yaml", &out, &EditIntent::AcknowledgeAll).unwrap();
    assert!(!again.changed());
}

#[test]
fn merging_appends_a_design_event_and_counts_it() {
    let event = CheckpointEvent {
        id: "cx-002".into(),
        timestamp: Some("2026-03-02T09:00:00Z".into()),
        trigger: Some("auto".into()),
        fill: Some(0.88),
        active_phase: Some("2".into()),
        checkpoint_file: Some(".jerry/checkpoints/cx-002-checkpoint.json".into()),
        ..CheckpointEvent::default()
    };
    let out = edit(NESTED, EditIntent::MergeCheckpoint(event.clone()));
    assert!(out.contains("    count: 2\n"), "{out}");
    assert!(out.contains("        acknowledged: false\n      - id: \"CX-002\"\n        timestamp: \"2026-03-02T09:00:00Z\"\n        trigger: \"auto\"\n        estimated_fill_before: 0.88\n        active_phase: 2\n"), "{out}");
    assert!(
        out.ends_with("        acknowledged: false\n\n# trailing comment\ndocument:\n  id: x\n"),
        "{out}"
    );
    let again = edit_yaml("t.yaml", &out, &EditIntent::MergeCheckpoint(event)).unwrap();
    assert!(!again.changed());
    assert!(again.note.unwrap().contains("already"));
}

#[test]
fn sections_are_created_where_missing() {
    let v1 = "resumption:\n  last_checkpoint: null\n  current_state: \"x\"\n  files_to_read:\n  - \"a.md\"  # first\n\n# end\nother: 1\n";
    let out = edit(v1, add("New"));
    assert_eq!(
        out,
        "resumption:\n  last_checkpoint: null\n  current_state: \"x\"\n  files_to_read:\n  - \"a.md\"  # first\n  decision_log:\n    - id: \"RD-001\"\n      gate: null\n      iteration: null\n      decision: \"New\"\n      rationale: null\n      affects_phases:\n        - 2\n        - 3\n      applied: false\n\n# end\nother: 1\n"
    );
    let none = "workflow:\n  id: w\nstatus: ACTIVE\n";
    let out = edit(
        none,
        EditIntent::MergeCheckpoint(CheckpointEvent {
            id: "cx-001".into(),
            ..CheckpointEvent::default()
        }),
    );
    assert!(out.starts_with(none), "{out}");
    assert!(
        out.contains(
            "resumption:\n  compaction_events:\n    count: 1\n    events:\n      - id: \"CX-001\"\n"
        ),
        "{out}"
    );
    let template = "resumption:\n  recovery_state:\n    updated_at: \"{UPDATED_TIMESTAMP}\"\n\n  # Sub-section 5: Decision Log\n  decision_log: []\n\n  # Sub-section 6\n  agent_summaries: {}\n";
    let out = edit(template, add("Flow"));
    assert!(
        out.contains("  decision_log:\n    - id: \"RD-001\"\n"),
        "{out}"
    );
    assert!(
        out.contains("      applied: false\n\n  # Sub-section 6\n"),
        "{out}"
    );
}

#[test]
fn jerry_code_and_count_only_layouts_are_kept() {
    let jerry = "resumption:\n  compaction_events:\n    count: 1\n    events:\n      - checkpoint_id: \"cx-003\"\n        fill_percentage: 0.885\n        tier: \"critical\"\n        timestamp: \"t\"\n";
    let event = CheckpointEvent {
        id: "cx-004".into(),
        fill: Some(0.912),
        tier: Some("emergency".into()),
        timestamp: Some("t2".into()),
        ..CheckpointEvent::default()
    };
    let out = edit(jerry, EditIntent::MergeCheckpoint(event.clone()));
    assert!(out.ends_with("      - checkpoint_id: \"cx-004\"\n        fill_percentage: 0.912\n        tier: \"emergency\"\n        timestamp: \"t2\"\n"), "{out}");
    let count_only = "resumption:\n  compaction_events:\n    count: 0\n    timestamps: []\n    recovery_notes: []\n";
    let out = edit(count_only, EditIntent::MergeCheckpoint(event.clone()));
    assert!(out.contains("    count: 1\n    timestamps:\n      - \"t2\"\n    recovery_notes:\n      - \"cx-004 at 91 % fill (emergency); merged by resume-tui\"\n"), "{out}");
    let bare = "resumption:\n  compaction_events:\n    - session: \"s1\"\n      compactions: 1\n      note: \"n\"\n";
    let out = edit(bare, EditIntent::MergeCheckpoint(event));
    assert!(out.ends_with("      note: \"n\"\n    - session: null\n      compactions: 1\n      note: \"cx-004 at 91 % fill (emergency); merged by resume-tui\"\n"), "{out}");
}

#[test]
fn nexus_frontmatter_changes_and_the_body_does_not() {
    let manifest = "---\nresume_schema_version: \"1.0\"\nnext_action: plan the work   # a note\nfiles_to_load:\n  - \"01-planning/01-overview.md\"    # Purpose\nlast_updated: 2026-01-20\n---\n\n# Body\n\nnext_action: not yaml\n";
    let intent = EditIntent::SetNexusFields(NexusFields {
        next_action: Some("write the steps".into()),
        current_task: Some("3.2".into()),
        last_updated: Some(now()),
        ..NexusFields::default()
    });
    let out = edit_manifest("m.md", manifest, &intent).unwrap().new;
    assert_eq!(
        out,
        "---\nresume_schema_version: \"1.0\"\nnext_action: write the steps # a note\nfiles_to_load:\n  - \"01-planning/01-overview.md\"    # Purpose\nlast_updated: 2026-03-02\ncurrent_task: \"3.2\"\n---\n\n# Body\n\nnext_action: not yaml\n"
    );
    let err = edit_manifest("m.md", "# no frontmatter\n", &intent).unwrap_err();
    assert!(matches!(err, WriteError::NotApplicable { .. }), "{err}");
}

#[test]
fn malformed_files_are_reported_with_line_and_column() {
    let err = edit_yaml("bad.yaml", "a: 1\nb: [\n", &add("x")).unwrap_err();
    let WriteError::Invalid(diagnostic) = err else {
        panic!("{err}")
    };
    assert_eq!(diagnostic.file, "bad.yaml");
    assert!(diagnostic.line.is_some(), "{diagnostic}");
    let err = edit_manifest("m.md", "---\na: 1\nb: [\n---\nbody\n", &add("x")).unwrap_err();
    let WriteError::Invalid(diagnostic) = err else {
        panic!("{err}")
    };
    assert!(diagnostic.line.unwrap() >= 3, "{diagnostic}");
}

#[test]
fn crlf_files_stay_crlf() {
    let text = NESTED.replace('\n', "\r\n");
    let out = edit(&text, add("Windows"));
    assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
}

#[test]
fn an_edit_that_would_change_more_is_refused_and_nothing_is_written() {
    let text = "resumption:\n  recovery_state: &state\n    updated_at: \"2026-01-01T00:00:00Z\"\nmirror: *state\n";
    let err = edit_yaml("t.yaml", text, &EditIntent::Touch { now: now() }).unwrap_err();
    assert!(matches!(err, WriteError::Refused { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("would differ from the intended change at mirror"),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ORCHESTRATION.yaml");
    std::fs::write(&path, text).unwrap();
    let touch = EditIntent::Touch { now: now() };
    assert!(edit_file(&path, "t.yaml", &touch, false).is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

fn set(text: &str, path: &[Seg], value: NewValue) -> String {
    let old: Value = yaml_serde::from_str(text).unwrap();
    let op = Op::Set {
        path: path.to_vec(),
        value,
    };
    apply_ops("t.yaml", text, &old, &[op]).unwrap()
}

fn key(k: &str) -> Seg {
    Seg::Key(k.to_string())
}

/// Found by the edit_yaml fuzz target: a collection set into a flow mapping was
/// written in block style (refused by the re-parse, so the edit failed).
#[test]
fn values_set_inside_a_flow_mapping_stay_flow() {
    let text = "a: 1 # c\nk2: {updated_at: RD-002, next_step: 923}\nz: 2\n";
    let list = NewValue::List(vec![NewValue::str("# c"), NewValue::str("a #b")]);
    assert_eq!(
        set(text, &[key("k2"), key("next_step")], list),
        "a: 1 # c\nk2: {updated_at: RD-002, next_step: [\"# c\", \"a #b\"]}\nz: 2\n"
    );
    let map = NewValue::map(vec![
        ("trail ", NewValue::Bool(false)),
        ("id", NewValue::Null),
    ]);
    assert_eq!(
        set("n: {k0: RD-002, k1: 492}\n", &[key("n"), key("k0")], map),
        "n: {k0: {\"trail \": false, id: null}, k1: 492}\n"
    );
    assert_eq!(
        set(
            "n: {k0: plain, k1: 492}\n",
            &[key("n"), key("k0")],
            NewValue::str("a, b")
        ),
        "n: {k0: \"a, b\", k1: 492}\n"
    );
}

/// Found by the edit_yaml fuzz target: a map replacing a list written at its key's
/// column (`k1:\n- a`) went to column 0 and became top-level keys (refused).
#[test]
fn a_map_replacing_a_list_at_its_keys_column_is_indented() {
    let text = "k0: x\nk1:\n- a\n- b: 1\n  c: 2\nk2: y\n";
    let map = NewValue::map(vec![("trail ", NewValue::Bool(true))]);
    assert_eq!(
        set(text, &[key("k1")], map),
        "k0: x\nk1:\n  \"trail \": true\nk2: y\n"
    );
}

#[test]
fn deleting_a_decision_takes_out_its_lines_only() {
    let two = edit(NESTED, add("Second"));
    let out = edit(
        &two,
        EditIntent::DeleteDecision {
            id: "rd-001".into(),
        },
    );
    let first = "    - id: \"RD-001\"\n      gate: \"qg-1\"\n      decision: \"First\"\n      affects_phases: [1, 2]\n      applied: false                  # pending\n";
    assert!(two.contains(first));
    assert_eq!(out, two.replacen(first, "", 1));
    // The last one leaves an empty list, not a key with nothing under it.
    let out = edit(
        NESTED,
        EditIntent::DeleteDecision {
            id: "RD-001".into(),
        },
    );
    let value: Value = yaml_serde::from_str(&out).unwrap();
    assert_eq!(
        value["resumption"]["decision_log"],
        Value::Sequence(Vec::new())
    );
    assert!(out.contains("  # Sub-section 5: Decision Log\n"), "{out}");
    assert!(out.contains("  # Sub-section 7\n"), "{out}");
    let err = edit_yaml(
        "t.yaml",
        NESTED,
        &EditIntent::DeleteDecision {
            id: "RD-404".into(),
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("no decision RD-404"), "{err}");
}
