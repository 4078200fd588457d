//! Template 1 against the seed's populated example (golden), plus a snapshot of
//! the exact bytes.

use resume_tui::core::normalize::jerry::normalize_orchestration;
use resume_tui::core::render::render_prompt;

const SOURCE: &str = "projects/PROJ-001-oss-release/ORCHESTRATION.yaml";
const DIR: &str = "projects/PROJ-001-oss-release";

/// Seed 003, "Populated Example (PROJ-001 at QG-2 Compaction Point)", verbatim.
const SEED_EXAMPLE: &str = r#"You are resuming a workflow that was interrupted. Do NOT start over. Your goal is to
continue from the exact point of interruption using the persistent state below.

WORKFLOW: feat015-licmig-20260217-001
PROJECT: PROJ-001-oss-release
ORCHESTRATION PLAN: projects/PROJ-001-oss-release/ORCHESTRATION_PLAN.md

RECOVERY STATE:
- Current phase: Phase 2 (Core License Changes)
- Workflow status: ACTIVE
- Last activity: qg-2-iteration-1
- Last checkpoint: CP-001
- Context fill at interruption: 88.6%
- Compaction events in previous session: 1

NEXT ACTION: Continue QG-2 iteration 1. Re-read the 3 Phase 2 deliverables and re-score
with S-014, S-007, S-002. The previous scoring reached 0.960 but S-007 found 1 major
finding (DA-001: copyright holder inconsistency). Apply revision, then re-score.

QUALITY TRAJECTORY:
- Gates completed: qg-1
- Gates remaining: qg-2, qg-3, qg-final
- Current gate: qg-2 (iteration 1)
- Last gate score: 0.960 (qg-2 iter 1, pre-revision)
- Recurring weak dimension: evidence_quality

KEY DECISIONS (carry forward):
- RD-001 (qg-2, iter 1): Align copyright holder to 'Adam Nowak' across NOTICE,
  header_template, and ORCHESTRATION_PLAN. NOTICE is authoritative. Affects Phase 3.

AGENT WORK COMPLETED:
- audit-executor: PASS. All 25 deps Apache-2.0 compatible. MPL-2.0 (certifi) compatible
  via Exhibit B. No blockers.
- license-replacer: DONE. LICENSE file replaced with canonical Apache 2.0. SHA-256 verified.
- notice-creator: DONE. NOTICE file created per Section 4(d). Copyright: 2026 Adam Nowak.
- metadata-updater: DONE. pyproject.toml license = Apache-2.0 (SPDX). No other refs.

DEFECT PATTERNS (avoid re-introducing):
- Evidence quality gaps: missing source URLs and unattached artifacts (qg-1, qg-2)
- Cross-artifact consistency: counts and names mismatched between deliverables (qg-1)

READ THESE FILES IN ORDER:
1. [PRIORITY 1] projects/PROJ-001-oss-release/ORCHESTRATION.yaml
   Sections: resumption, quality_gates.qg-2, next_actions
   Purpose: Machine-readable workflow state. Read resumption section first for full
   recovery context including enhanced schema data.
2. [PRIORITY 2] projects/PROJ-001-oss-release/ORCHESTRATION_PLAN.md
   Sections: agent-registry, phase-2
   Purpose: Strategic context. Agent definitions and Phase 2 description for
   understanding current work.
3. [PRIORITY 3] projects/PROJ-001-oss-release/WORKTRACKER.md
   Sections: features, history
   Purpose: Tactical documentation. Feature status and session history.

AFTER READING:
1. Confirm you understand the current workflow state
2. Identify what phase/step to continue from
3. Proceed with: Continue QG-2 iteration 1. Re-read the 3 Phase 2 deliverables and
   re-score with S-014, S-007, S-002. Apply DA-001 revision first.

Do NOT re-read artifacts from completed phases unless specifically needed for the current
task. Minimize context consumption -- you are resuming mid-workflow and context budget
is limited.
"#;

/// Where the seed's example says more than its template's variables can carry.
/// Each entry: (seed text, what the template's own variables give).
const HAND_EDITS: &[(&str, &str)] = &[
    // Issue 34: the header says when the state was written (and, when the loader
    // judged it, the staleness verdict with its reasons; not judged here).
    (
        "ORCHESTRATION_PLAN.md\n\nRECOVERY STATE:",
        "ORCHESTRATION_PLAN.md\n\nSTATE AS OF: 2026-02-17T11:45:00Z\n\nRECOVERY STATE:",
    ),
    // "pre-revision" is an annotation the author added; no field records it.
    ("0.960 (qg-2 iter 1, pre-revision)", "0.960 (qg-2 iter 1)"),
    // The template repeats {NEXT_ACTION} here; the author hand-abbreviated it and
    // added "Apply DA-001 revision first." We keep the whole next action, as the
    // template says (issue 14: the line a new session acts on is never cut).
    (
        "S-002. Apply DA-001 revision first.",
        "S-002. The previous scoring reached 0.960 but S-007 found 1 major finding \
         (DA-001: copyright holder inconsistency). Apply revision, then re-score.",
    ),
];

fn fixture() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/render/proj-001-qg2.yaml"
    );
    std::fs::read_to_string(path).unwrap()
}

fn normalise_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn golden_template_1_matches_the_seeds_populated_example() {
    let project = normalize_orchestration(SOURCE, DIR, &fixture());
    let rendered = render_prompt(&project);

    let mut expected = SEED_EXAMPLE.to_string();
    for (seed, ours) in HAND_EDITS {
        assert!(
            expected.contains(seed),
            "hand edit {seed:?} no longer in the seed text"
        );
        expected = expected.replace(seed, ours);
    }
    assert_eq!(
        normalise_whitespace(&rendered.text),
        normalise_whitespace(&expected),
        "\n--- rendered ---\n{}\n--- seed (hand edits applied) ---\n{expected}",
        rendered.text
    );

    // Same sections in the same order, starting on their own lines.
    let headers = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with(' ') && !l.starts_with('-') && l.ends_with(':'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(headers(&rendered.text), headers(&expected));
    assert!(!rendered.truncated);
    assert_eq!(rendered.sources, vec![SOURCE.to_string()]);
    assert!(
        (400..=1_000).contains(&rendered.tokens_estimate),
        "{} tokens",
        rendered.tokens_estimate
    );
    insta::assert_snapshot!("golden_template_1", rendered.text);
}

#[test]
fn template_1_is_deterministic() {
    let project = normalize_orchestration(SOURCE, DIR, &fixture());
    assert_eq!(render_prompt(&project), render_prompt(&project.clone()));
}

#[test]
fn control_characters_in_file_text_do_not_reach_the_prompt() {
    let fixture = fixture();
    let start = fixture.find("    next_step: >-").unwrap();
    let end = fixture.find("    context_fill_at_update").unwrap();
    let text = format!(
        "{}    next_step: \"Continue.\\u001b[31m Then\\u0007 stop.\\r\"\n{}",
        &fixture[..start],
        &fixture[end..]
    );
    let project = normalize_orchestration(SOURCE, DIR, &text);
    let rendered = render_prompt(&project);
    assert!(
        rendered
            .text
            .contains("NEXT ACTION: Continue.[31m Then stop.\n"),
        "{}",
        rendered.text
    );
    assert!(!rendered.text.chars().any(|c| c.is_control() && c != '\n'));
}

#[test]
fn huge_sections_are_capped_visibly_and_stay_under_the_injection_limit() {
    let mut yaml = String::from(
        "workflow:\n  id: big-001\nresumption:\n  recovery_state:\n    next_step: \"Go.\"\n  decision_log:\n",
    );
    for n in 1..=60 {
        yaml.push_str(&format!(
            "    - id: RD-{n:03}\n      decision: \"{}\"\n",
            "long decision text ".repeat(40)
        ));
    }
    yaml.push_str("  agent_summaries:\n");
    for n in 1..=60 {
        yaml.push_str(&format!("    agent-{n}: \"{}\"\n", "summary ".repeat(300)));
    }
    yaml.push_str("  files_to_read:\n");
    for n in 1..=40 {
        yaml.push_str(&format!("    - \"{}/file-{n}.md\"\n", "deep/".repeat(30)));
    }
    let project = normalize_orchestration("big/ORCHESTRATION.yaml", "big", &yaml);
    let rendered = render_prompt(&project);
    assert!(rendered.truncated);
    let chars = rendered.text.chars().count();
    assert!(chars <= 10_000, "{chars}");
    assert!(
        rendered
            .text
            .contains("- (52 earlier decisions in big/ORCHESTRATION.yaml)")
    );
    assert!(
        rendered
            .text
            .contains("- (48 earlier agents in big/ORCHESTRATION.yaml)")
    );
    assert!(
        rendered
            .text
            .contains("(30 more listed in files_to_read of big/ORCHESTRATION.yaml)")
    );
    assert!(
        rendered.text.contains("…"),
        "abbreviated entries end in an ellipsis"
    );
    assert!(
        rendered.text.ends_with("is limited.\n")
            || rendered.text.contains("truncated by resume-tui")
    );
}

#[test]
fn the_proceed_line_keeps_the_whole_next_action_when_the_budget_is_short() {
    let next = format!(
        "Re-run QG-3 on the migrated guides. {}Then hand over to the launch checklist.",
        "Check every cross-link and code sample against the v2 SDK. ".repeat(25)
    );
    let mut yaml = format!(
        "workflow:\n  id: big-002\nresumption:\n  recovery_state:\n    next_step: \"{next}\"\n  \
         files_to_read:\n"
    );
    for n in 1..=10 {
        yaml.push_str(&format!(
            "    - {{path: \"{}/file-{n}.md\", purpose: \"{}\"}}\n",
            "deep/".repeat(20),
            "why it matters ".repeat(60)
        ));
    }
    yaml.push_str("  agent_summaries:\n");
    for n in 1..=12 {
        yaml.push_str(&format!("    agent-{n}: \"{}\"\n", "summary ".repeat(60)));
    }
    let project = normalize_orchestration("big/ORCHESTRATION.yaml", "big", &yaml);
    let rendered = render_prompt(&project);
    let text = &rendered.text;
    assert!(text.chars().count() <= 10_000, "{}", text.chars().count());
    assert!(
        text.contains("truncated by resume-tui"),
        "the sections above are cut"
    );
    let proceed = text.split("3. Proceed with: ").nth(1).unwrap();
    assert_eq!(
        normalise_whitespace(proceed.split("\n\n").next().unwrap()),
        normalise_whitespace(&next),
        "the whole next action"
    );
    assert!(text.ends_with("is limited.\n"), "the closing is kept");
}

#[test]
fn a_phase_found_only_inside_a_part_is_marked_in_the_prompt() {
    let yaml = "workflow: {id: w, status: ACTIVE}\nenablers:\n  EN-1:\n    remediation:\n      plan:\n        phase_2_research: {status: IN_PROGRESS}\n";
    let project = normalize_orchestration(SOURCE, DIR, yaml);
    let prompt = render_prompt(&project).text;
    let flat = normalise_whitespace(&prompt);
    assert!(
        flat.contains(
            "Current phase: Phase 2 (research) (found only at enablers.EN-1.remediation.plan.phase_2_research; the workflow states no phase of its own -- confirm it)"
        ),
        "{prompt}"
    );

    let stated = "workflow: {id: w, status: ACTIVE, current_phase: 3}\nenablers:\n  EN-1:\n    remediation:\n      plan:\n        phase_2_research: {status: IN_PROGRESS}\n";
    let project = normalize_orchestration(SOURCE, DIR, stated);
    let prompt = render_prompt(&project).text;
    assert!(!prompt.contains("found only at"), "{prompt}");
}
