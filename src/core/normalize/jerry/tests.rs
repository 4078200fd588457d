//! End-to-end cases of `normalize_orchestration`, one small hand-written file each.

use super::*;
use crate::core::model::{CompactionShape, Severity};

fn load(text: &str) -> Project {
    normalize_orchestration(
        "projects/P/wf-dir/ORCHESTRATION.yaml",
        "projects/P/wf-dir",
        text,
    )
}

fn messages(p: &Project) -> Vec<String> {
    p.diagnostics.iter().map(ToString::to_string).collect()
}

fn errors(p: &Project) -> usize {
    p.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}

const V1: &str = "\
workflow:
  id: wf-v1
  name: License migration
  project_id: PROJ-001
  status: ACTIVE
quality_gates:
  qg-1:
    threshold: 0.92
    max_iterations: 3
    status: PASS
resumption:
  last_checkpoint: cp-3
  current_state: \"Phase 2 done. QG-1: 0.941, QG-2: 0.9505.\"
  next_step: Run phase 3
  files_to_read:
    - ORCHESTRATION_PLAN.md  # strategy
    - WORKTRACKER.md
  cross_session_portable: true
  ephemeral_references: false
  agent_count: 12
  execution_notes: [a, b]
next_actions:
  immediate: [{action: Not used}]
";

#[test]
fn v1_shape_reads_the_five_fields_and_keeps_extra_keys_in_order() {
    let p = load(V1);
    assert_eq!(p.kind, ProjectKind::Jerry);
    assert_eq!(p.shape, Shape::V1);
    assert_eq!(
        (p.id.as_str(), p.name.as_deref()),
        ("wf-v1", Some("License migration"))
    );
    assert_eq!(p.project_ref.as_deref(), Some("PROJ-001"));
    assert_eq!(p.summary.next_step.as_deref(), Some("Run phase 3"));
    assert_eq!(
        p.summary.status.as_deref(),
        Some("ACTIVE"),
        "falls back to workflow.status"
    );
    assert_eq!(p.summary.last_checkpoint.as_deref(), Some("cp-3"));
    assert!(
        p.summary
            .activity
            .as_deref()
            .unwrap()
            .starts_with("Phase 2 done")
    );
    let r = p.resumption.as_ref().unwrap();
    let paths: Vec<_> = r.files_to_read.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, vec!["ORCHESTRATION_PLAN.md", "WORKTRACKER.md"]);
    assert_eq!(r.recovery.cross_session_portable, Some(true));
    let other: Vec<_> = r.other.keys().cloned().collect();
    assert_eq!(other, vec!["agent_count", "execution_notes"]);
    assert_eq!(
        p.top_level_keys,
        vec!["workflow", "quality_gates", "next_actions"]
    );
    assert!(p.diagnostics.is_empty(), "{:?}", messages(&p));
}

#[test]
fn prose_scores_build_the_trajectory_and_quality_gates_enrich_it() {
    let p = load(V1);
    assert_eq!(p.trajectory.source, TrajectorySource::Prose);
    let gates: Vec<_> = p
        .trajectory
        .gates
        .iter()
        .map(|g| (g.gate.as_str(), g.scores.clone()))
        .collect();
    assert_eq!(gates, vec![("QG-1", vec![0.941]), ("QG-2", vec![0.9505])]);
    let qg1 = &p.trajectory.gates[0];
    assert_eq!((qg1.threshold, qg1.max_iterations), (Some(0.92), Some(3)));
    assert_eq!(qg1.status.as_deref(), Some("PASS"));
}

const V2_NESTED: &str = "\
workflow: {id: wf-v2}
resumption:
  recovery_state:
    last_checkpoint: CP-002
    current_phase: 3
    current_phase_name: Headers
    workflow_status: ACTIVE
    current_activity: qg-2-iteration-1
    next_step: Execute header-applicator
    context_fill_at_update: 0.642
    updated_at: '2026-02-17T12:34:56Z'
    cross_session_portable: true
    operator_note: keep me
  files_to_read:
    - path: ORCHESTRATION.yaml
      priority: 1
      purpose: State
      sections: [resumption]
    - PLAN.md
  quality_trajectory:
    gates_completed: [qg-1]
    score_history:
      qg-1: [0.825, 0.916, 0.941]
      qg-2: [0.96]
    leniency_bias_detected: false
  defect_summary:
    total_defects_found: 3
    recurring_patterns: [{pattern: gaps, gates_affected: [qg-1]}]
  decision_log:
    - {id: RD-001, decision: Align holder, applied: true}
    - {decision: No id, date: '2026-02-20'}
  agent_summaries:
    audit-executor: PASS.
  compaction_events:
    count: 1
    events:
      - {id: CX-001, timestamp: '2026-02-17T11:45:00Z', trigger: auto, acknowledged: false}
  context_keys: [a]
quality_gates:
  qg-1: {threshold: 0.92, max_iterations: 5, status: PASS, iteration_history: [{score: 0.1}]}
";

#[test]
fn v2_nested_shape_reads_every_sub_section() {
    let p = load(V2_NESTED);
    assert_eq!(p.shape, Shape::V2Nested);
    let s = &p.summary;
    assert_eq!(s.next_step.as_deref(), Some("Execute header-applicator"));
    assert_eq!(
        (s.phase.as_deref(), s.phase_name.as_deref()),
        (Some("3"), Some("Headers"))
    );
    assert_eq!(s.status.as_deref(), Some("ACTIVE"));
    assert_eq!(s.activity.as_deref(), Some("qg-2-iteration-1"));
    assert_eq!(s.fill_at_update, Some(0.642));
    assert_eq!(s.updated_at.unwrap().to_iso(), "2026-02-17T12:34:56Z");
    let r = p.resumption.as_ref().unwrap();
    assert_eq!(r.files_to_read.len(), 2);
    assert_eq!(r.files_to_read[0].sections, vec!["resumption"]);
    let q = r.quality.as_ref().unwrap();
    assert_eq!(q.gates_completed[0].id, "qg-1");
    assert!(q.other.contains_key("leniency_bias_detected"));
    assert_eq!(r.defects.as_ref().unwrap().total_defects_found, Some(3));
    assert_eq!(r.decisions_key.as_deref(), Some("decision_log"));
    assert_eq!(r.decisions.len(), 2);
    assert_eq!(r.agent_summaries[0].agent, "audit-executor");
    assert_eq!(
        r.compaction.as_ref().unwrap().shape,
        CompactionShape::Design
    );
    let other: Vec<_> = r.other.keys().cloned().collect();
    assert_eq!(other, vec!["recovery_state.operator_note", "context_keys"]);
    assert!(p.diagnostics.is_empty(), "{:?}", messages(&p));
}

#[test]
fn score_history_is_the_trajectory_enriched_from_quality_gates() {
    let p = load(V2_NESTED);
    assert_eq!(p.trajectory.source, TrajectorySource::ResumptionSection);
    let qg1 = &p.trajectory.gates[0];
    assert_eq!(qg1.scores, vec![0.825, 0.916, 0.941], "section scores win");
    assert_eq!((qg1.threshold, qg1.max_iterations), (Some(0.92), Some(5)));
    assert_eq!(p.trajectory.gates[1].threshold, None);
}

#[test]
fn v2_flat_shape_with_decisions() {
    let p = load(
        "resumption:\n  last_checkpoint: CP-2\n  current_phase: 3\n  workflow_status: PAUSED\n  \
         next_step: Resume\n  updated_at: '2026-02-17T12:00:00Z'\n  decisions:\n    - id: RD-1\n      \
         decision: Defer\n      applied: false\n      reviewer: ops\n",
    );
    assert_eq!(p.shape, Shape::V2Flat);
    assert_eq!(p.summary.status.as_deref(), Some("PAUSED"));
    let r = p.resumption.unwrap();
    assert_eq!(r.decisions_key.as_deref(), Some("decisions"));
    assert_eq!(r.decisions[0].applied, Some(false));
    assert_eq!(r.decisions[0].other["reviewer"], serde_json::json!("ops"));
    assert!(r.other.is_empty());
}

#[test]
fn both_decision_lists_keep_the_second_with_a_warning() {
    let p = load(
        "resumption:\n  next_step: x\n  decision_log: [{decision: a}]\n  decisions: [{decision: b}]\n",
    );
    let r = p.resumption.as_ref().unwrap();
    assert_eq!(r.decisions_key.as_deref(), Some("decision_log"));
    assert_eq!(r.decisions.len(), 1);
    assert!(r.other.contains_key("decisions"));
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(p.diagnostics[0].line, Some(4));
}

#[test]
fn other_shape_maps_next_action_and_reads_context_summary() {
    let p = load(
        "resumption:\n  last_completed_phase: 2\n  next_action: Start phase 3\n  \
         files_to_read: [a.md]\n  context_summary: Spike done\n",
    );
    assert_eq!(p.shape, Shape::Other);
    assert_eq!(p.summary.next_step.as_deref(), Some("Start phase 3"));
    let r = p.resumption.unwrap();
    let other: Vec<_> = r.other.keys().cloned().collect();
    assert_eq!(other, vec!["last_completed_phase"]);
    assert_eq!(
        r.recovery.current_state.as_deref(),
        Some("Spike done"),
        "context_summary is read like current_state"
    );
    assert_eq!(r.files_to_read.len(), 1);
}

#[test]
fn other_shape_without_a_next_step_falls_back_or_warns() {
    let bare = "resumption:\n  last_checkpoint_id: cp-9\n  files_to_read: [a.md]\n";
    let p = load(bare);
    assert_eq!(p.shape, Shape::Other);
    assert_eq!(p.summary.last_checkpoint.as_deref(), Some("cp-9"));
    assert_eq!(p.summary.next_step, None);
    let m = messages(&p);
    assert_eq!(m.len(), 1);
    assert!(
        m[0].contains(":1:1: warning: resumption: has no next_step"),
        "{m:?}"
    );

    let p = load(&format!(
        "{bare}next_actions:\n  - action: Commit artifacts\n"
    ));
    assert_eq!(p.summary.next_step.as_deref(), Some("Commit artifacts"));
    assert!(p.diagnostics.is_empty());
}

#[test]
fn no_resumption_falls_back_to_top_level_status() {
    let p = load(
        "workflow_id: wf-none\ntitle: Plugin bugs\nstatus: COMPLETED\ncurrent_phase: 4\n\
         current_phase_name: Wrap-up\nmeta: {last_updated: '2026-01-13T02:30:00Z'}\n\
         next_actions: ['Close the feature']\n",
    );
    assert_eq!(p.shape, Shape::None);
    assert_eq!(
        (p.id.as_str(), p.name.as_deref()),
        ("wf-none", Some("Plugin bugs"))
    );
    assert!(p.resumption.is_none());
    let s = &p.summary;
    assert_eq!(s.status.as_deref(), Some("COMPLETED"));
    assert_eq!(
        (s.phase.as_deref(), s.phase_name.as_deref()),
        (Some("4"), Some("Wrap-up"))
    );
    assert_eq!(s.updated_at.unwrap().to_iso(), "2026-01-13T02:30:00Z");
    assert_eq!(s.next_step.as_deref(), Some("Close the feature"));
    assert!(p.diagnostics.is_empty());
}

#[test]
fn quality_gates_give_the_trajectory_when_the_section_has_none() {
    let p = load(
        "quality_gates:\n  qg-1:\n    name: Research\n    threshold: 0.92\n    status: PASS\n    \
         iteration_history:\n      - {score: 0.825}\n      - {score: 0.941}\n    \
         score_dimensions: {completeness: 0.94, evidence_quality: 0.93}\n",
    );
    assert_eq!(p.trajectory.source, TrajectorySource::QualityGates);
    let g = &p.trajectory.gates[0];
    assert_eq!(g.scores, vec![0.825, 0.941]);
    assert_eq!(
        g.lowest_dimension,
        Some(("evidence_quality".to_string(), 0.93))
    );
    assert_eq!(p.id, "wf-dir", "id derived from the folder");
}

#[test]
fn scored_gates_completed_give_a_trajectory_without_score_history() {
    let p = load(
        "resumption:\n  recovery_state: {next_step: x}\n  quality_trajectory:\n    gates_completed:\n      \
         - {id: qg-1, score: 0.94, iterations: 2}\n",
    );
    assert_eq!(p.trajectory.source, TrajectorySource::ResumptionSection);
    assert_eq!(p.trajectory.gates[0].scores, vec![0.94]);
}

#[test]
fn all_four_compaction_shapes_load_through_the_section() {
    let cases = [
        (
            "{count: 1, events: [{id: CX-1, estimated_fill_before: 0.9}]}",
            CompactionShape::Design,
        ),
        (
            "{count: 1, events: [{checkpoint_id: cx-1, fill_percentage: 0.9, tier: CRITICAL}]}",
            CompactionShape::JerryCode,
        ),
        (
            "[{session: s1, compactions: 2, note: n}]",
            CompactionShape::BareList,
        ),
        (
            "{count: 2, timestamps: [], recovery_notes: [r]}",
            CompactionShape::CountOnly,
        ),
    ];
    for (yaml, shape) in cases {
        let p = load(&format!(
            "resumption:\n  next_step: x\n  compaction_events: {yaml}\n"
        ));
        assert_eq!(
            p.resumption.unwrap().compaction.unwrap().shape,
            shape,
            "{yaml}"
        );
    }
}

#[test]
fn type_surprises_warn_with_location_and_keep_the_value() {
    let p = load(
        "resumption:\n  next_step: 42\n  files_to_read:\n    a.md: why\n  \
         quality_trajectory: [qg-1]\n  decision_log: {RD-1: x}\n",
    );
    let r = p.resumption.as_ref().unwrap();
    assert_eq!(
        p.summary.next_step.as_deref(),
        Some("42"),
        "numbers are coerced"
    );
    let other: Vec<_> = r.other.keys().cloned().collect();
    assert_eq!(
        other,
        vec!["files_to_read", "quality_trajectory", "decision_log"]
    );
    let located: Vec<_> = p
        .diagnostics
        .iter()
        .map(|d| (d.severity, d.line, d.column))
        .collect();
    assert_eq!(
        located,
        vec![
            (Severity::Warning, Some(3), Some(3)),
            (Severity::Warning, Some(5), Some(3)),
            (Severity::Warning, Some(6), Some(3)),
        ]
    );
    assert!(messages(&p)[0].contains("resumption.files_to_read: expected a list"));
}

#[test]
fn malformed_yaml_is_an_error_with_line_and_column() {
    let p = load("workflow:\n  id: x\nresumption:\n  next_step: [unclosed\n  files_to_read: []\n");
    assert_eq!(p.shape, Shape::Unreadable);
    assert_eq!(p.id, "wf-dir");
    assert_eq!(errors(&p), 1);
    let d = &p.diagnostics[0];
    assert_eq!((d.line, d.column), (Some(5), Some(16)));
    assert!(
        d.message.contains("fix the YAML at line 5"),
        "{}",
        d.message
    );
}

#[test]
fn tabs_in_indentation_are_an_error_with_location() {
    let p = load("resumption:\n\tnext_step: x\n");
    assert_eq!(p.shape, Shape::Unreadable);
    assert_eq!(errors(&p), 1);
    assert_eq!(p.diagnostics[0].line, Some(2));
}

#[test]
fn duplicate_keys_load_last_value_wins_with_located_warnings() {
    let p = load(
        "workflow: {id: a}\nresumption:\n  next_step: first\n  files_to_read: []\n  next_step: second\n\
         pipelines:\n  - status: a\n    status: b\n",
    );
    assert_eq!(p.shape, Shape::V1);
    assert_eq!(errors(&p), 0);
    assert_eq!(p.summary.next_step.as_deref(), Some("second"));
    let located: Vec<_> = p.diagnostics.iter().map(|d| (d.line, d.column)).collect();
    assert_eq!(located, vec![(Some(5), Some(3)), (Some(8), Some(5))]);
    assert!(
        p.diagnostics[0]
            .message
            .starts_with("resumption.next_step: this key appears more than once")
    );
    assert!(p.diagnostics[1].message.starts_with("pipelines[0].status:"));
}

#[test]
fn resumption_as_a_string_or_a_list_warns_and_keeps_it() {
    for (yaml, found) in [("'see the plan'", "a string"), ("[a, b]", "a list")] {
        let p = load(&format!(
            "workflow: {{status: ACTIVE}}\nresumption: {yaml}\n"
        ));
        assert_eq!(p.shape, Shape::Other);
        assert_eq!(p.summary.status.as_deref(), Some("ACTIVE"));
        assert!(
            p.resumption
                .as_ref()
                .unwrap()
                .other
                .contains_key("resumption")
        );
        let m = messages(&p);
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(
            m[0].contains(&format!("found {found}")) && m[0].contains("no next step"),
            "{m:?}"
        );
        assert_eq!(p.diagnostics[0].line, Some(2));
    }
    let p = load("resumption:\n");
    assert_eq!(p.diagnostics.len(), 1);
    assert!(p.diagnostics[0].message.contains("empty"));
}

#[test]
fn empty_comment_only_and_non_map_files() {
    for text in ["", "# only a comment\n"] {
        let p = load(text);
        assert_eq!(p.shape, Shape::None);
        assert_eq!(errors(&p), 0);
        assert_eq!(p.diagnostics.len(), 1);
    }
    for text in ["- a\n- b\n", "just text\n", "42\n"] {
        let p = load(text);
        assert_eq!(p.shape, Shape::Unreadable, "{text}");
        assert_eq!(errors(&p), 1);
        assert_eq!(p.diagnostics[0].line, Some(1));
    }
}

#[test]
fn binary_garbage_is_an_error_not_a_panic() {
    let garbage: String = (0u8..=255)
        .map(char::from)
        .chain("\u{0}\u{7}\u{1b}[2J".chars())
        .collect();
    let p = load(&garbage);
    assert_eq!(p.shape, Shape::Unreadable);
    assert_eq!(errors(&p), 1);
    assert!(p.diagnostics[0].line.is_some());
}

proptest::proptest! {
    #[test]
    fn never_panics_on_yaml_like_input(text in r#"[ \-:#'"{}\[\],|>a-z0-9\n]{0,200}"#) {
        let _ = load(&text);
        let _ = load(&format!("resumption:\n  {text}"));
    }
}

#[test]
fn odd_values_inside_sub_sections_are_warned_about_and_kept() {
    let p = load(
        "resumption:\n  next_step: x\n  quality_trajectory:\n    current_gate_iteration: [1, 2]\n    \
         gates_completed:\n      - {id: qg-1, score: high, verdict: PASS}\n  decision_log:\n    \
         - {decision: d, applied: perhaps}\n  compaction_events:\n    count: many\n    events:\n      \
         - {id: CX-1, timestamp: t, acknowledged: {by: me}}\n",
    );
    let r = p.resumption.as_ref().unwrap();
    let q = r.quality.as_ref().unwrap();
    assert_eq!(q.current_gate_iteration, None);
    assert_eq!(q.other["current_gate_iteration"], serde_json::json!([1, 2]));
    assert_eq!(q.gates_completed[0].score, None);
    assert_eq!(
        r.decisions[0].other["applied"],
        serde_json::json!("perhaps")
    );
    let c = r.compaction.as_ref().unwrap();
    assert_eq!(c.other["count"], serde_json::json!("many"));
    assert_eq!(
        c.events[0].other["acknowledged"],
        serde_json::json!({"by": "me"})
    );
    let m = messages(&p);
    let expected = [
        ":4:5: warning: resumption.quality_trajectory.current_gate_iteration: expected a whole number",
        ":5:5: info: resumption.quality_trajectory.gates_completed[0]: keys not shown: verdict",
        ":6:20: warning: resumption.quality_trajectory.gates_completed[0].score: expected a number",
        ":8:21: warning: resumption.decision_log[0].applied: expected true or false",
        ":10:5: warning: resumption.compaction_events.count: expected a whole number",
        ":12:34: warning: resumption.compaction_events.events[0].acknowledged: expected true or false",
    ];
    assert_eq!(m.len(), expected.len(), "{m:#?}");
    for (got, want) in m.iter().zip(expected) {
        assert!(got.contains(want), "{got}\n  does not contain\n{want}");
    }
}

/// The hooks show no warnings, notes or other fields: read with
/// `Reading::ForHooks`, the file's keys are never indexed (nor its duplicate keys
/// placed), no unknown key's value is copied, and the diagnostics are the same
/// but for their line and column.
#[test]
fn a_reading_for_the_hooks_indexes_nothing_and_keeps_every_message() {
    use crate::core::locate::SCANS;
    let mut text = String::from(
        "workflow:\n  id: wf\n  status: ACTIVE\nresumption:\n  next_step: go\n  next_step: again\n  \
         extra: {a: [1, 2]}\n  decisions:\n    - {id: D1, decision: x, why: y}\n  files_to_read:\n",
    );
    for i in 0..300 {
        text.push_str(&format!("    - {{path: f{i}, x{i}: 1}}\n"));
    }
    let read = |reading| {
        let before = SCANS.with(|n| n.get());
        let p = normalize_orchestration_fast_with("p/ORCHESTRATION.yaml", "p", &text, reading);
        (p, SCANS.with(|n| n.get()) - before)
    };
    let (located, scans) = read(Reading::Full);
    assert!(scans >= 1);
    assert!(located.diagnostics.iter().all(|d| d.line.is_some()));
    let resumption = |p: &Project| p.resumption.clone().unwrap();
    assert!(resumption(&located).other.contains_key("extra"));
    assert!(resumption(&located).decisions[0].other.contains_key("why"));
    let (skipped, scans) = read(Reading::ForHooks);
    assert_eq!(scans, 0, "nothing indexed");
    assert!(skipped.diagnostics.iter().all(|d| d.line.is_none()));
    assert!(resumption(&skipped).other.is_empty());
    assert!(resumption(&skipped).decisions[0].other.is_empty());
    assert_eq!(resumption(&skipped).decisions[0].id.as_deref(), Some("D1"));
    assert_eq!(skipped.summary.next_step, located.summary.next_step);
    let unplaced = |p: &Project| {
        let mut all: Vec<String> = p.diagnostics.iter().map(|d| d.message.clone()).collect();
        all.sort();
        all
    };
    let (a, b) = (unplaced(&located), unplaced(&skipped));
    assert!(a.iter().any(|m| m.contains("more than once")));
    assert!(a.iter().any(|m| m.contains("more notes like")));
    assert!(a == b, "the same messages");
}
