use super::*;

fn summary(text_in: &str) -> Summary {
    located_summary(&yaml_serde::from_str(text_in).unwrap())
}

#[test]
fn workflow_block_first_with_its_keys_recorded() {
    let s = summary(
        "workflow: {status: ACTIVE, updated_at: '2026-02-01T10:00:00Z'}\ncurrent_phase: 2\n\
         checkpoints: {latest_id: cp-4}\nnext_actions: {immediate: [{action: Run QG-2}]}\n",
    );
    assert_eq!(s.status.as_deref(), Some("ACTIVE"));
    assert_eq!(s.sources.status.as_deref(), Some("workflow.status"));
    assert_eq!(s.phase.as_deref(), Some("2"));
    assert_eq!(s.sources.phase.as_deref(), Some("current_phase"));
    assert_eq!(s.updated_at.unwrap().to_iso(), "2026-02-01T10:00:00Z");
    assert_eq!(s.sources.updated_at.as_deref(), Some("workflow.updated_at"));
    assert_eq!(s.last_checkpoint.as_deref(), Some("cp-4"));
    assert_eq!(s.next_step.as_deref(), Some("Run QG-2"));
    assert_eq!(s.sources.next_step.as_deref(), Some("next_actions"));
}

#[test]
fn the_active_pipeline_gives_the_phase_and_every_pipeline_is_listed() {
    let s = summary(
        "workflow: {id: w}\npipelines:\n  research: {status: COMPLETED, current_phase: 2}\n  \
         validation: {status: IN_PROGRESS, current_phase: 5}\n  red: {status: PENDING, current_phase: 4}\n",
    );
    assert_eq!(s.phase.as_deref(), Some("5"));
    assert_eq!(
        s.sources.phase.as_deref(),
        Some("pipelines.validation.current_phase")
    );
    assert_eq!(s.status.as_deref(), Some("IN_PROGRESS"));
    let names: Vec<&str> = s.pipelines.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["validation", "red", "research"]);
}

#[test]
fn a_single_pipeline_block_and_the_state_and_orchestration_blocks() {
    let s = summary("pipeline: {status: PHASE_3_IN_PROGRESS, current_phase: 3}\n");
    assert_eq!(s.phase.as_deref(), Some("3"));
    assert_eq!(s.sources.phase.as_deref(), Some("pipeline.current_phase"));
    let s = summary(
        "state: {current_phase: 4, current_activity: reviewing}\n\
         orchestration: {id: o, status: ACTIVE, last_updated: '2026-03-01'}\n",
    );
    assert_eq!(s.phase.as_deref(), Some("4"));
    assert_eq!(s.activity.as_deref(), Some("reviewing"));
    assert_eq!(s.status.as_deref(), Some("ACTIVE"));
    assert_eq!(s.sources.status.as_deref(), Some("orchestration.status"));
    assert_eq!(
        s.sources.updated_at.as_deref(),
        Some("orchestration.last_updated")
    );
}

#[test]
fn phases_give_the_one_in_progress_else_the_first_not_complete() {
    let s = summary(
        "phases:\n  - {id: 1, name: Research, status: COMPLETE}\n  - {id: 2, name: Build, status: IN_PROGRESS}\n  \
         - {id: 3, name: Ship, status: PENDING}\n",
    );
    assert_eq!(
        (s.phase.as_deref(), s.phase_name.as_deref()),
        (Some("2"), Some("Build"))
    );
    assert_eq!(s.sources.phase.as_deref(), Some("phases[1].status"));
    assert_eq!(s.sources.phase_name.as_deref(), Some("phases[1].name"));
    let s = summary(
        "phases:\n  phase_1: {status: COMPLETED}\n  phase_2: {status: BLOCKED}\n  phase_3: {status: PENDING}\n",
    );
    assert_eq!(s.phase.as_deref(), Some("phase_2"));
    let s = summary(
        "phases:\n  - {id: 1, status: COMPLETE}\n  - {id: 2, name: Ship, status: SKIPPED}\n",
    );
    assert_eq!(
        (s.phase.as_deref(), s.phase_name.as_deref()),
        (Some("2"), Some("Ship")),
        "every phase done: the last"
    );
    assert_eq!(
        summary("phases:\n  - {id: 1}\n").phase,
        None,
        "no status, no phase"
    );
}

#[test]
fn a_pipelines_phase_list_gives_the_phase_when_the_pipeline_names_none() {
    let s = summary(
        "pipelines:\n  ps:\n    status: IN PROGRESS\n    phases:\n      \
         - {id: phase-1, name: Research, status: COMPLETE}\n      \
         - {id: phase-2, name: Analysis, status: NOT STARTED}\n",
    );
    assert_eq!(
        (s.phase.as_deref(), s.phase_name.as_deref()),
        (Some("phase-2"), Some("Analysis"))
    );
    assert_eq!(
        s.sources.phase.as_deref(),
        Some("pipelines.ps.phases[1].status")
    );
}

#[test]
fn barriers_and_gates_in_progress() {
    let s = summary(
        "barriers:\n  - {id: b-1, status: COMPLETE}\n  - {id: b-2, status: PENDING}\n\
         quality_gates:\n  - {id: QG-1, status: PASS}\n  - {id: QG-2, status: IN_PROGRESS}\n",
    );
    assert_eq!(s.activity.as_deref(), Some("barrier b-2: PENDING"));
    assert_eq!(s.sources.activity.as_deref(), Some("barriers[1].status"));
    assert_eq!(s.current_gate.as_deref(), Some("QG-2"));
    assert_eq!(
        s.sources.current_gate.as_deref(),
        Some("quality_gates[1].status")
    );
    let s = summary("barriers:\n  barrier-1: {status: NOT STARTED}\n");
    assert_eq!(s.activity.as_deref(), Some("barrier-1: NOT STARTED"));
    let s = summary("gates:\n  GATE-5: {status: passed}\n  GATE-6: {status: in_progress}\n");
    assert_eq!(s.current_gate.as_deref(), Some("GATE-6"));
}

#[test]
fn dates_from_every_documented_key_and_with_a_note() {
    let s = summary("workflow: {date: 2026-01-01 (Session 6)}\n");
    assert_eq!(s.updated_at.unwrap().to_iso(), "2026-01-01T00:00:00Z");
    assert_eq!(s.updated_at_raw.as_deref(), Some("2026-01-01 (Session 6)"));
    let s = summary("workflow: {updated: '2026-01-02T03:04:05Z'}\n");
    assert_eq!(s.sources.updated_at.as_deref(), Some("workflow.updated"));
    let s = summary("date: 2026-01-02\n");
    assert_eq!(s.updated_at, None, "a bare top-level date is not an update");
    assert_eq!(parse_date("yesterday (Session 6)"), None);
}

#[test]
fn phase_n_completed_gives_the_last_completed_phase() {
    let s = summary(
        "status: COMPLETE\nphase_1_completed: true\nphase_2_completed: '2026-01-02'\nphase_3_completed: null\n",
    );
    assert_eq!(s.phase.as_deref(), Some("2"));
    assert_eq!(s.phase_name.as_deref(), Some("phase 2 completed"));
    assert_eq!(s.sources.phase.as_deref(), Some("phase_2_completed"));
}

#[test]
fn status_words_are_classified() {
    for active in [
        "ACTIVE",
        "IN_PROGRESS",
        "in progress",
        "PHASE_3_IN_PROGRESS",
    ] {
        assert_eq!(progress(Some(active)), Progress::Active, "{active}");
    }
    for done in [
        "COMPLETE",
        "completed",
        "PASSED",
        "PHASE_5_COMPLETE",
        "skipped",
    ] {
        assert_eq!(progress(Some(done)), Progress::Done, "{done}");
    }
    for other in [
        "PENDING",
        "BLOCKED",
        "COMPLETE_PENDING_GATE",
        "PHASE_1_PENDING",
    ] {
        assert_eq!(progress(Some(other)), Progress::Other, "{other}");
    }
    assert!(same_phase("phase-2", "2") && same_phase("Phase 2", "phase_2"));
    assert!(!same_phase("2", "12"));
}

#[test]
fn the_phase_name_comes_from_the_active_pipelines_phase_list() {
    let s = summary(
        "pipelines:\n  ps:\n    status: ACTIVE\n    current_phase: 2\n    phases:\n      \
         - {id: 1, name: Research}\n      - {id: 2, name: Design}\n",
    );
    assert_eq!(s.phase_name.as_deref(), Some("Design"));
    assert_eq!(
        s.sources.phase_name.as_deref(),
        Some("pipelines.ps.phases[1].name")
    );
}

#[test]
fn top_level_phase_blocks_give_the_phase_with_their_key() {
    let s = summary(
        "workflow: {id: w, status: ACTIVE}\nexecution: {phase_0_mode: foreground}\n\
         phase_0:\n  name: Sequential Hard Gate\n  status: COMPLETE\n\
         phase_1_build: {status: IN_PROGRESS}\nmetrics: {phase_0_complete: true}\n",
    );
    assert_eq!(
        (s.phase.as_deref(), s.phase_name.as_deref()),
        (Some("1"), Some("build"))
    );
    assert_eq!(s.sources.phase.as_deref(), Some("phase_1_build.status"));
    let s = summary("phase_0:\n  name: Sequential Hard Gate\n  status: COMPLETE\n");
    assert_eq!(
        (s.phase.as_deref(), s.phase_name.as_deref()),
        (Some("0"), Some("Sequential Hard Gate"))
    );
    assert_eq!(s.sources.phase_name.as_deref(), Some("phase_0.name"));
}

#[test]
fn a_phase_stated_only_in_a_part_of_the_file_is_shown_with_that_part_as_its_source() {
    let summary = |text: &str| {
        let doc: Value = yaml_serde::from_str(text).unwrap();
        let mut s = located_summary(&doc);
        fill_phase_from_a_part(&mut s, &doc);
        s
    };
    let s = summary(
        "workflow: {id: w, status: ACTIVE}\nenablers:\n  EN-1:\n    remediation:\n      plan:\n        \
         phase_1_preparation: [a]\n        phase_2_research: [b]\n      status: COMPLETE\n\
         barriers:\n  ab_testing:\n    experiment: {status: DESIGNED, phase: Phase 2 (TASK-5)}\n",
    );
    assert_eq!(
        (s.phase.as_deref(), s.phase_name.as_deref()),
        (Some("2"), Some("research"))
    );
    assert_eq!(
        s.sources.phase.as_deref(),
        Some("enablers.EN-1.remediation.plan.phase_2_research")
    );
    let s = summary(
        "workflow: {id: w, status: COMPLETE}\nbarriers:\n  ab_testing:\n    \
         experiment: {status: DESIGNED, phase: Phase 2 (TASK-5)}\n",
    );
    assert_eq!(s.phase.as_deref(), Some("Phase 2 (TASK-5)"));
    assert_eq!(
        s.sources.phase.as_deref(),
        Some("barriers.ab_testing.experiment.phase")
    );
    let s = summary("workflow: {id: w, status: ACTIVE}\nnotes: {plan: none}\n");
    assert_eq!(s.phase, None, "no phase anywhere: none shown");
}

#[test]
fn work_listed_as_units_with_a_status_stands_in_for_a_phase_the_file_never_states() {
    let summary = |text: &str| {
        let doc: Value = yaml_serde::from_str(text).unwrap();
        let mut s = located_summary(&doc);
        fill_phase_from_a_part(&mut s, &doc);
        s
    };
    let text = "status: IN_PROGRESS\nenablers:\n  - {id: EN-4, name: Fix tests, status: COMPLETED}\n\
                work_items:\n  - {id: WI-2, name: CI check, status: COMPLETED}\n  \
                - {id: WI-1, name: Playbook, status: IN_PROGRESS}\n\
                tech_debt_resolved:\n  - {id: TD-1, resolved_by: EN-4}\n";
    let s = summary(text);
    assert_eq!(
        (s.phase.as_deref(), s.phase_name.as_deref()),
        (Some("WI-1"), Some("Playbook"))
    );
    assert_eq!(s.sources.phase.as_deref(), Some("work_items[1].status"));
    assert!(s.sources.phase_in_a_part);
    let done = summary(&text.replace("status: IN_PROGRESS}", "status: COMPLETED}"));
    assert_eq!(
        (done.phase.as_deref(), done.phase_name.as_deref()),
        (
            Some("complete"),
            Some("all 3 units of enablers, work_items done")
        )
    );
    // A phase stated anywhere wins over the units.
    let stated = summary(&format!("current_phase: 2\n{text}"));
    assert_eq!(stated.phase.as_deref(), Some("2"));
    // Lists without a status are no work units.
    assert_eq!(summary("tech_debt_resolved:\n  - {id: TD-1}\n").phase, None);
}
