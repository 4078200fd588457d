//! Issue 34, "what the file states, in the prompt", on a workspace of its own
//! (the corpus suite, tests/corpus_truth.rs, checks the same rules on real files):
//! the next gate as the current one, scores kept in `barriers:` and
//! `metrics.quality` with their stated iteration counts, active blockers most
//! severe first, the update time with the staleness verdict, the sibling plan
//! when `files_to_read` names none, every pipeline's phase.

use resume_tui::config::Config;
use resume_tui::core::model::Project;
use resume_tui::core::render::render_prompt;
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;
use resume_tui::io::load::load_workspace;

const STATE: &str = r#"workflow:
  id: wf-truth
  status: ACTIVE
  updated_at: "2026-02-01T13:30:00Z"
  next_gate: QG-4
pipelines:
  build:
    status: PHASE_2_IN_PROGRESS
    current_phase: 2
    phases:
      - {id: 1, status: COMPLETE}
      - {id: 2, status: IN_PROGRESS, started_at: "2026-02-01T14:00:00Z"}
  review:
    status: PHASE_1_COMPLETE
    current_phase: 1
barriers:
  - id: barrier-1
    status: PASSED
    completed_at: "2026-01-30T10:00:00Z"
    quality:
      threshold: 0.95
      actual_scores: {part_a: 0.96, composite: 0.955}
      iterations_used: 2
metrics:
  quality:
    average_score: 0.9
    qg_3_score: 0.97
    qg_3_iterations: 4
blockers:
  active:
    - {id: B-2, description: flaky CI runner, severity: LOW}
    - {id: B-1, description: no sandbox credentials, severity: CRITICAL, impact: phase 3}
  resolved:
    - {id: B-0, description: old one, severity: HIGH}
resumption:
  next_step: Finish phase 2
  files_to_read:
    - path: wf/ORCHESTRATION.yaml
"#;

fn project(with_plan: bool) -> (tempfile::TempDir, Project) {
    let dir = tempfile::tempdir().unwrap();
    let wf = dir.path().join("wf");
    std::fs::create_dir_all(&wf).unwrap();
    std::fs::write(wf.join("ORCHESTRATION.yaml"), STATE).unwrap();
    if with_plan {
        std::fs::write(wf.join("ORCHESTRATION_PLAN.md"), "# plan\n").unwrap();
    }
    let now = Timestamp::parse("2026-02-01T15:00:00Z").unwrap();
    let ws = load_workspace(dir.path(), &Env::default(), now, &Config::default());
    let p = ws
        .projects
        .into_iter()
        .find(|p| p.id == "wf-truth")
        .unwrap();
    (dir, p)
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_prompt_states_what_the_file_states() {
    let (_dir, p) = project(true);
    let prompt = flat(&render_prompt(&p).text);
    let expected = [
        // The update time with the staleness verdict and the reason list gives.
        "STATE AS OF: 2026-02-01T13:30:00Z (STALE: Last updated at 2026-02-01T13:30:00Z, \
         before the current phase 2 started at 2026-02-01T14:00:00Z",
        // Every pipeline, the active one first.
        "- Pipelines (active first): build phase 2 (PHASE_2_IN_PROGRESS); review phase 1 \
         (PHASE_1_COMPLETE)",
        // The next gate is the current one when none is under way.
        "- Current gate: QG-4 (the next gate, from workflow.next_gate)",
        // The newest scored gate (barrier-1 has a date, the metrics key none), with
        // the iteration count the file states, not the number of scores.
        "- Last gate score: 0.955 (barrier-1 iter 2)",
        "ACTIVE BLOCKERS (most severe first): - [CRITICAL] B-1: no sandbox credentials \
         (impact: phase 3) - [LOW] B-2: flaky CI runner",
        "ORCHESTRATION PLAN: wf/ORCHESTRATION_PLAN.md [beside the state file; files_to_read \
         names no plan]",
        "[PRIORITY 2] wf/ORCHESTRATION_PLAN.md",
    ];
    for line in expected {
        assert!(prompt.contains(&flat(line)), "{line:?} not in\n{prompt}");
    }
    assert!(!prompt.contains("B-0"), "a resolved blocker is not active");
    assert!(!prompt.contains("average"), "an average is not a gate");
    let gates: Vec<(&str, Vec<f64>, Option<i64>)> = p
        .trajectory
        .gates
        .iter()
        .map(|g| (g.gate.as_str(), g.scores.clone(), g.iterations))
        .collect();
    assert_eq!(
        gates,
        vec![
            ("barrier-1", vec![0.955], Some(2)),
            ("qg_3", vec![0.97], Some(4))
        ]
    );
}

#[test]
fn without_a_sibling_plan_the_prompt_says_there_is_none() {
    let (_dir, p) = project(false);
    let prompt = flat(&render_prompt(&p).text);
    assert!(
        prompt.contains(
            "ORCHESTRATION PLAN: wf/ORCHESTRATION_PLAN.md [not found: files_to_read names no \
             plan, and none is beside the state file]"
        ),
        "{prompt}"
    );
    assert!(!prompt.contains("[PRIORITY 2] wf/ORCHESTRATION_PLAN.md"));
}
