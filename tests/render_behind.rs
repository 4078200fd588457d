//! Template 1 when the resumption section is behind newer evidence: the prompt
//! says which side is newer in one line per conflict, and keeps the
//! "contradicts itself" alarm for real contradictions (issue 32 defect 3,
//! issue 34 "the stale side").

use resume_tui::core::normalize::checkpoint::normalize_checkpoint;
use resume_tui::core::normalize::jerry::{normalize_orchestration, note_resumption_behind};
use resume_tui::core::render::render_prompt;

const SOURCE: &str = "projects/PROJ-001-x/ORCHESTRATION.yaml";
const DIR: &str = "projects/PROJ-001-x";

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_checkpoint_newer_than_the_section_is_a_merge_step_not_an_alarm() {
    let yaml = "workflow: {id: w, status: ACTIVE}\nresumption:\n  recovery_state:\n    \
                current_phase: 2\n    updated_at: '2026-03-01T11:00:00Z'\n";
    let mut project = normalize_orchestration(SOURCE, DIR, yaml);
    let text = r#"{"checkpoint_id": "cx-005", "created_at": "2026-03-01T11:30:00Z"}"#;
    let checkpoint = normalize_checkpoint(".jerry/checkpoints/cx-005.json", text, false).unwrap();
    project.checkpoints = vec![checkpoint];
    note_resumption_behind(&mut project);
    let prompt = render_prompt(&project).text;
    assert!(!prompt.contains("contradicts itself"), "{prompt}");
    assert!(!prompt.contains("confirm with the operator"), "{prompt}");
    assert!(
        flat(&prompt).contains(
            "NOTE: part of the state file is behind newer evidence; the newer side is current: \
             - checkpoint cx-005 at 2026-03-01T11:30:00Z is newer than the resumption section \
             (resumption.recovery_state.updated_at 2026-03-01T11:00:00Z): merge it, then \
             acknowledge it"
        ),
        "{prompt}"
    );
    assert!(project.summary.contradictions.is_empty());
}

#[test]
fn a_real_contradiction_keeps_the_alarm() {
    let yaml = "workflow: {id: w, status: COMPLETED}\npipelines:\n  a: {status: IN_PROGRESS, current_phase: 2}\n";
    let prompt = render_prompt(&normalize_orchestration(SOURCE, DIR, yaml)).text;
    assert!(prompt.contains("contradicts itself"), "{prompt}");
}
