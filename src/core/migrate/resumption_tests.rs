use super::*;

fn changed(text: &str) -> Migration {
    match migrate_resumption("ORCHESTRATION.yaml", text) {
        Outcome::Changed(m) => m,
        other => panic!("not changed: {other:?}"),
    }
}

const V1: &str = r#"workflow:
  id: "wf-1"
  status: "ACTIVE"

# === RESUMPTION ===
resumption:
  last_checkpoint: "CP-003"
  current_state: "WORKFLOW COMPLETE. All 4 phases done. All 4 quality gates PASS (QG-1: 0.941, QG-2: 0.9505)."
  next_step: "Close FEAT-015."

  files_to_read:
    - "ORCHESTRATION_PLAN.md"   # Strategic context
    - "ORCHESTRATION.yaml"       # This file

  cross_session_portable: true
  ephemeral_references: false

  # Not part of v1, kept for the next reader.
  execution_notes: |
    Batch 9 was retried.

# === DISCLAIMER ===
# generated
"#;

const V1_EXPECTED: &str = r#"resumption:
  recovery_state:
    last_checkpoint: "CP-003"
    workflow_status: "ACTIVE"  # from workflow.status (resume-tui migrate)
    current_activity: "WORKFLOW COMPLETE. All 4 phases done. All 4 quality gates PASS (QG-1: 0.941, QG-2: 0.9505)."
    next_step: "Close FEAT-015."
    cross_session_portable: true
    ephemeral_references: false

  files_to_read:
    - "ORCHESTRATION_PLAN.md"   # Strategic context
    - "ORCHESTRATION.yaml"       # This file

  # score_history from the current_state prose (resume-tui migrate)
  quality_trajectory:
    score_history:
      QG-1: [0.941]
      QG-2: [0.9505]

  # Not part of v1, kept for the next reader.
  execution_notes: |
    Batch 9 was retried.
"#;

#[test]
fn a_v1_section_is_nested_and_everything_else_is_kept() {
    let m = changed(V1);
    let start = V1.find("resumption:").unwrap();
    let end = V1.find("\n# === DISCLAIMER").unwrap();
    assert_eq!(m.text.get(..start), V1.get(..start));
    assert!(m.text.ends_with(V1.get(end..).unwrap()));
    let section = m.text.get(start..m.text.len() - (V1.len() - end)).unwrap();
    assert_eq!(section, V1_EXPECTED);
    assert_eq!(
        m.changes,
        [
            "moved into recovery_state: last_checkpoint, current_state (now current_activity), next_step, cross_session_portable, ephemeral_references",
            "added recovery_state.workflow_status: \"ACTIVE\" (from workflow.status)",
            "added quality_trajectory.score_history for 2 gate(s) (from the current_state prose)",
            "kept after the v2 sub-sections: execution_notes",
        ]
    );
    assert_eq!(
        m.unresolved,
        [
            "workflow_status: current_state says COMPLETE, workflow.status says ACTIVE; kept workflow.status"
        ]
    );
}

#[test]
fn a_second_run_finds_nothing_to_do() {
    let m = changed(V1);
    assert_eq!(
        migrate_resumption("f", &m.text),
        Outcome::unchanged("already in the v2 nested layout")
    );
}

#[test]
fn prose_without_a_status_stays_current_state() {
    let m = changed(
        "resumption:\n  last_checkpoint: null\n  current_state: \"APPROVED\"\n  next_step: \"Go\"\n",
    );
    assert_eq!(
        m.text,
        "resumption:\n  recovery_state:\n    last_checkpoint: null\n    current_state: \"APPROVED\"\n    next_step: \"Go\"\n"
    );
    assert_eq!(m.unresolved.len(), 1);
    assert!(m.unresolved[0].starts_with("current_state: no workflow status or phase"));
}

#[test]
fn prose_status_and_phase_are_read_when_the_file_has_none() {
    let m = changed(
        "resumption:\n  current_state: >\n    Phase 3 pending\n    execution\n  next_step: Run it\n",
    );
    assert_eq!(
        m.text,
        "resumption:\n  recovery_state:\n    current_phase: 3  # from current_state (resume-tui migrate)\n    \
         workflow_status: \"ACTIVE\"  # from current_state (resume-tui migrate)\n    \
         current_activity: >\n      Phase 3 pending\n      execution\n    next_step: Run it\n"
    );
}

#[test]
fn quality_gate_scores_become_the_score_history() {
    let text = "quality_gates:\n  qg-1:\n    iteration_history:\n      - {score: 0.8}\n      - {score: 1.0}\n  qg-2:\n    status: PENDING\n\
                resumption:\n  files_to_read: [\"a.md\"]\n  last_checkpoint: cp\n  next_action: \"Go on\"\n";
    let m = changed(text);
    assert!(
        m.text.ends_with(
            "resumption:\n  recovery_state:\n    last_checkpoint: cp\n    next_step: \"Go on\"\n  files_to_read: [\"a.md\"]\n  \
             # score_history from quality_gates (resume-tui migrate)\n  quality_trajectory:\n    score_history:\n      \
             qg-1: [0.8, 1.0]\n      qg-2: []\n"
        ),
        "{}",
        m.text
    );
}

const FLAT: &str = "\
resumption:

  # --- 1. Recovery State (flat) ---
  last_checkpoint: \"CP-003\"
  current_phase: 3
  workflow_status: \"ACTIVE\"
  next_step: \"Continue\"
  updated_at: \"2026-03-01T10:00:00Z\"       # older than the events below

  # --- 2. Files to Read ---
  files_to_read:
    - path: \"ORCHESTRATION.yaml\"
      priority: 1

  # --- 5. Decisions ---
  decisions:
    - id: \"RD-001\"
      decision: \"Generate the reference\"
      affects_phases: [2, 3]
      applied: true
";

#[test]
fn a_v2_flat_section_is_nested_the_same_way() {
    let m = changed(FLAT);
    assert_eq!(
        m.text,
        "\
resumption:

  # --- 1. Recovery State (flat) ---
  recovery_state:
    last_checkpoint: \"CP-003\"
    current_phase: 3
    workflow_status: \"ACTIVE\"
    next_step: \"Continue\"
    updated_at: \"2026-03-01T10:00:00Z\"       # older than the events below

  # --- 2. Files to Read ---
  files_to_read:
    - path: \"ORCHESTRATION.yaml\"
      priority: 1

  # --- 5. Decisions ---
  decisions:
    - id: \"RD-001\"
      decision: \"Generate the reference\"
      affects_phases: [2, 3]
      applied: true
"
    );
}

#[test]
fn sections_that_are_not_migrated_say_why() {
    let reason = |text: &str| match migrate_resumption("f", text) {
        Outcome::Skipped { reason } => reason,
        other => panic!("{other:?}"),
    };
    assert!(reason("workflow: {id: x}\n").starts_with("no resumption: section"));
    assert!(
        reason("resumption:\n  last_completed_phase: 1\n  next_action: x\n")
            .contains("neither v1 nor v2 flat")
    );
    assert!(reason("resumption: {last_checkpoint: cp, next_step: x}\n").contains("same line"));
    assert!(reason("resumption:\n  next_step: x\n  recovery_state: oops\n").contains("not a map"));
    assert!(
        reason("resumption:\n  next_step: x\n  next_step: y\n").contains("duplicate"),
        "{}",
        reason("resumption:\n  next_step: x\n  next_step: y\n")
    );
    assert!(reason("a: [\n").contains("line"));
}

#[test]
fn anchors_that_would_move_past_their_aliases_are_refused() {
    let text = "resumption:\n  notes: &s go\n  next_step: *s\n  last_checkpoint: cp\n";
    match migrate_resumption("f", text) {
        Outcome::Skipped { reason } => {
            assert!(reason.contains("would not read back the same"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn crlf_files_stay_crlf_and_duplicates_outside_the_section_do_not_block() {
    let text = "pipelines:\r\n  a: 1\r\n  a: 2\r\nresumption:\r\n  last_checkpoint: cp\r\n  next_step: go\r\n\r\n  files_to_read:\r\n    - x.md\r\n";
    let m = changed(text);
    assert_eq!(
        m.text,
        "pipelines:\r\n  a: 1\r\n  a: 2\r\nresumption:\r\n  recovery_state:\r\n    last_checkpoint: cp\r\n    next_step: go\r\n\r\n  files_to_read:\r\n    - x.md\r\n"
    );
}
