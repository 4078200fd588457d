//! Writes a synthetic workspace for the load benchmark: Jerry workflows and Nexus
//! manifests whose sizes are drawn like the corpus (median 24 KB, at most 110 KB),
//! built by repeating realistic YAML phase blocks, plus the plan files they list and
//! a folder of checkpoints. Deterministic for a given seed.

use std::fmt::Write as _;
use std::path::Path;

pub struct Generated {
    pub projects: usize,
    pub files: usize,
    pub bytes: u64,
    /// Of the ORCHESTRATION.yaml files (the corpus: median 24 KB, max 110 KB).
    pub median_workflow_bytes: usize,
    pub max_workflow_bytes: usize,
}

impl std::fmt::Display for Generated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} projects, {} files, {:.1} MB; ORCHESTRATION.yaml median {} KB, max {} KB",
            self.projects,
            self.files,
            self.bytes as f64 / 1e6,
            self.median_workflow_bytes / 1000,
            self.max_workflow_bytes / 1000
        )
    }
}

#[path = "../../tests/support/rng.rs"]
mod rng;

use rng::Rng;

/// What the generator draws besides `Rng::next`.
impl Rng {
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Log-normal around `median` (sigma 0.55), clipped to [3 KB, 110 KB].
    fn size(&mut self, median: f64) -> usize {
        let (u1, u2) = (self.unit().max(1e-12), self.unit());
        let normal = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
        (median * (0.55 * normal).exp()).clamp(3_000.0, 110_000.0) as usize
    }
}

pub fn generate(root: &Path, projects: usize, seed: u64) -> std::io::Result<Generated> {
    let mut rng = Rng(seed.max(1));
    let mut sizes = Vec::with_capacity(projects);
    let mut files = 0;
    let mut bytes = 0u64;
    let mut write = |rel: &str, text: &str| -> std::io::Result<()> {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, text)?;
        files += 1;
        bytes += text.len() as u64;
        Ok(())
    };
    for i in 0..projects {
        let target = rng.size(24_000.0);
        let text = if i % 5 == 4 {
            let dir = format!("nexus/02-projects/{i:04}-bench-project");
            write(&format!("{dir}/01-planning/overview.md"), "# Overview\n")?;
            let text = nexus_manifest(i, target);
            write(&format!("{dir}/01-planning/resume-context.md"), &text)?;
            continue;
        } else {
            let dir = format!("projects/PROJ-{i:04}-bench/orchestration/wf-{i:04}");
            write(&format!("projects/PROJ-{i:04}-bench/PLAN.md"), "# Plan\n")?;
            write(
                &format!("projects/PROJ-{i:04}-bench/WORKTRACKER.md"),
                "# Work\n",
            )?;
            let text = orchestration(i, target, &mut rng);
            write(&format!("{dir}/ORCHESTRATION.yaml"), &text)?;
            text
        };
        sizes.push(text.len());
    }
    for n in 1..=40 {
        let workflow = format!("bench-{:04}-001", (n * 7) % projects.max(1));
        write(
            &format!(".jerry/checkpoints/cx-{n:03}-checkpoint.json"),
            &checkpoint(n, &workflow),
        )?;
        if n % 3 == 0 {
            write(&format!(".jerry/checkpoints/cx-{n:03}.acknowledged"), "")?;
        }
    }
    sizes.sort_unstable();
    Ok(Generated {
        projects,
        files,
        bytes,
        median_workflow_bytes: sizes.get(sizes.len() / 2).copied().unwrap_or(0),
        max_workflow_bytes: sizes.last().copied().unwrap_or(0),
    })
}

fn orchestration(i: usize, target: usize, rng: &mut Rng) -> String {
    let mut y = String::with_capacity(target + 4_096);
    let _ = write!(
        y,
        "# ORCHESTRATION.yaml\n# Machine-readable orchestration state (generated for the load benchmark)\n\
         schema_version: \"2.0.0\"\n\nworkflow:\n  id: \"bench-{i:04}-001\"\n  name: \"Benchmark workflow {i}\"\n  \
         project_id: \"PROJ-{i:04}\"\n  status: \"ACTIVE\"  # ACTIVE | PAUSED | COMPLETE\n  created_at: \"2026-02-19T08:00:00Z\"\n\n\
         pipelines:\n  main:\n    id: \"main\"\n    name: \"Main pipeline\"\n    current_phase: 3\n    phases:\n"
    );
    let mut phase = 1;
    let budget = target.saturating_sub(2_600);
    while y.len() < budget {
        let status = if phase < 3 {
            "COMPLETE"
        } else if phase == 3 {
            "IN_PROGRESS"
        } else {
            "PENDING"
        };
        let _ = write!(
            y,
            "      # ---------------------------------------------------------------\n\
             \x20     # PHASE {phase}\n\
             \x20     - id: {phase}\n\
             \x20       name: \"Phase {phase}: analysis and synthesis of findings\"\n\
             \x20       status: \"{status}\"\n\
             \x20       started_at: \"2026-02-{:02}T{:02}:00:00Z\"\n\
             \x20       agents:\n\
             \x20         - id: \"researcher-{phase}\"\n\
             \x20           status: \"{status}\"\n\
             \x20           artifact: \"orchestration/wf-{i:04}/main/phase-{phase}/researcher/findings.md\"\n\
             \x20           description: >\n\
             \x20             Survey prior work, list the candidate mechanisms with their limits,\n\
             \x20             and record every assumption with the evidence that supports it.\n\
             \x20         - id: \"critic-{phase}\"\n\
             \x20           status: \"{status}\"\n\
             \x20           artifact: \"orchestration/wf-{i:04}/main/phase-{phase}/critic/review.md\"\n\
             \x20       quality_gate:\n\
             \x20         id: \"qg-{phase}\"\n\
             \x20         threshold: 0.92\n\
             \x20         iteration_history:\n\
             \x20           - {{iteration: 1, score: 0.{:02}, verdict: \"REVISE\"}}\n\
             \x20           - {{iteration: 2, score: 0.93, verdict: \"PASS\"}}\n",
            1 + phase % 27,
            8 + phase % 10,
            80 + rng.next() % 12,
        );
        phase += 1;
    }
    let _ = write!(
        y,
        "\nresumption:\n  recovery_state:\n    last_checkpoint: \"CP-00{}\"\n    current_phase: 3\n    \
         current_phase_name: \"Phase 3\"\n    workflow_status: \"ACTIVE\"\n    current_activity: \"qg-3-iteration-2\"\n    \
         next_step: \"Revise the phase 3 findings against the QG-3 review, then re-score.\"\n    \
         context_fill_at_update: 0.64\n    updated_at: \"2026-02-20T{:02}:15:00Z\"\n    cross_session_portable: true\n    \
         ephemeral_references: false\n  files_to_read:\n    - path: \"projects/PROJ-{i:04}-bench/PLAN.md\"\n      priority: 1\n      \
         purpose: \"Strategic context.\"\n    - \"projects/PROJ-{i:04}-bench/WORKTRACKER.md\"\n    - \"projects/PROJ-{i:04}-bench/MISSING.md\"\n  \
         quality_trajectory:\n    gates_completed: [\"qg-1\", \"qg-2\"]\n    gates_remaining: [\"qg-4\"]\n    current_gate: \"qg-3\"\n    \
         current_gate_iteration: 2\n    score_history:\n      qg-1: [0.84, 0.93]\n      qg-2: [0.88, 0.95]\n      qg-3: [0.81]\n    \
         total_iterations_used: 5\n  decision_log:\n    - id: \"RD-001\"\n      gate: \"qg-1\"\n      iteration: 1\n      \
         decision: \"Narrow the scope to the two strongest mechanisms.\"\n      rationale: \"The others lack evidence.\"\n      \
         affects_phases: [2, 3]\n      applied: true\n  agent_summaries:\n    researcher-1: \"DONE. 14 mechanisms surveyed.\"\n  \
         compaction_events:\n    count: 1\n    events:\n      - id: \"CX-001\"\n        timestamp: \"2026-02-20T09:00:00Z\"\n        \
         trigger: \"auto\"\n        estimated_fill_before: 0.88\n        acknowledged: true\n",
        1 + i % 9,
        10 + i % 12,
    );
    y
}

fn nexus_manifest(i: usize, target: usize) -> String {
    let mut md = format!(
        "---\nresume_schema_version: \"1.0\"\nproject_id: \"{i:04}-bench-project\"\nproject_name: \"Bench project {i}\"\n\
         current_phase: \"execution\"\nnext_action: \"execute-project\"\nfiles_to_load:\n  - \"01-planning/overview.md\"    # what it is for\n  \
         - \"01-planning/steps.md\"\ncurrent_section: 2\ncurrent_task: 5\ntotal_tasks: 40\ntasks_completed: 14\n\
         last_updated: \"2026-02-20T11:00:00Z\"\nsession_ids: [\"s-{i}\"]\n---\n\n# Resume Context\n\n"
    );
    let mut n = 1;
    // Real manifests are much smaller than workflow files; a quarter of the draw.
    while md.len() < target / 4 {
        let _ = write!(
            md,
            "## Session {n}\n\n- Completed task {n}: wrote the section draft and checked the sources.\n\
             - Next: review the draft against the plan and mark the step done.\n\n"
        );
        n += 1;
    }
    md
}

fn checkpoint(n: usize, workflow: &str) -> String {
    format!(
        "{{\"schema_version\": \"1.0.0\", \"event_type\": \"compaction\", \"event_id\": \"cx-{n:03}\",\n \
         \"timestamp\": \"2026-02-20T{:02}:30:00Z\", \"trigger\": {{\"type\": \"auto\", \"source\": \"PreCompact hook\"}},\n \
         \"context_state\": {{\"estimated_fill_before_compaction\": 0.89, \"estimated_tokens_used\": 178000, \"context_window_size\": 200000, \"source\": \"transcript_usage\"}},\n \
         \"orchestration_state\": {{\"workflow_id\": \"{workflow}\", \"workflow_status\": \"ACTIVE\", \"current_phase\": 3, \"current_phase_name\": \"Phase 3\", \
         \"current_activity\": \"qg-3\", \"last_completed_checkpoint\": \"CP-002\", \"phases_complete\": [1, 2], \"phases_in_progress\": [3], \"phases_remaining\": [4], \
         \"current_gate\": \"qg-3\", \"current_gate_iteration\": 1, \"current_gate_score\": 0.81}},\n \
         \"accumulated_context\": {{\"defect_patterns\": [], \"decisions_since_last_checkpoint\": [], \"agent_summaries\": {{}}}},\n \
         \"recovery_instructions\": {{\"files_to_read\": [], \"next_action\": \"Re-score QG-3.\", \"critical_context\": \"\"}},\n \
         \"metadata\": {{\"written_by\": \"bench\", \"acknowledged\": false, \"acknowledged_at\": null}}}}\n",
        n % 24
    )
}
