//! Template 2, the context monitor and the Nexus loading sequence, rendered from
//! fixture files through the real normalisers, with insta snapshots.

use resume_tui::config::Config;
use resume_tui::core::model::{Checkpoint, Project};
use resume_tui::core::normalize::checkpoint::normalize_checkpoint;
use resume_tui::core::normalize::jerry::normalize_orchestration;
use resume_tui::core::normalize::nexus::normalize_manifest;
use resume_tui::core::render::monitor::{FillReading, Level, level_for};
use resume_tui::core::render::nexus::{NexusInput, Style, render_nexus};
use resume_tui::core::render::{render_alert, render_monitor};
use resume_tui::core::staleness::{Staleness, StalenessLevel};
use resume_tui::core::time::Timestamp;

const CX1_PATH: &str = ".jerry/checkpoints/cx-001-checkpoint.json";

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/render/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

fn project() -> Project {
    normalize_orchestration(
        "projects/PROJ-001-oss-release/ORCHESTRATION.yaml",
        "projects/PROJ-001-oss-release",
        &fixture("proj-001-qg2.yaml"),
    )
}

fn checkpoint(path: &str, text: &str) -> Checkpoint {
    normalize_checkpoint(path, text, false).unwrap()
}

/// Whitespace-insensitive containment (wrapping may move line breaks).
fn has(text: &str, part: &str) -> bool {
    let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    flat(text).contains(&flat(part))
}

fn now() -> Timestamp {
    Timestamp::parse("2026-02-17T12:08:00Z").unwrap()
}

#[test]
fn template_2_from_the_seed_checkpoint() {
    let project = project();
    let cx1 = checkpoint(CX1_PATH, &fixture("cx-001-checkpoint.json"));
    let rendered = render_alert(&cx1, Some(&project), std::slice::from_ref(&cx1));
    let text = &rendered.text;
    for line in [
        "<compaction-alert>\n",
        "CHECKPOINT: .jerry/checkpoints/cx-001-checkpoint.json\n",
        "TRIGGER: auto (PreCompact hook)\n",
        "PRE-COMPACTION FILL: 88.6%\n",
        "YOU WERE DOING: Phase 2 (Core License Changes), qg-2-iteration-1\n",
        "LAST SCORE: 0.960 (qg-2, iteration 1)\n",
        "- RD-001: Align copyright holder to 'Adam Nowak'. Affects Phase 3.\n",
        "2. Read ORCHESTRATION.yaml resumption section: projects/PROJ-001-oss-release/ORCHESTRATION.yaml\n",
        "4. Set checkpoint acknowledged=true in the checkpoint file\n",
        "</compaction-alert>\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    assert!(has(
        text,
        // The one next action (issue 15): the section's next_step, as Template 1 has it.
        "5. Continue from: Continue QG-2 iteration 1. Re-read the 3 Phase 2 deliverables and re-score with S-014, S-007, S-002."
    ));
    assert!(
        !text.contains("COMPACTION EVENT"),
        "a single compaction has no count line"
    );
    assert!(
        (150..=400).contains(&rendered.tokens_estimate),
        "{}",
        rendered.tokens_estimate
    );
    assert!(!rendered.truncated);
    assert_eq!(
        rendered.sources,
        [CX1_PATH, "projects/PROJ-001-oss-release/ORCHESTRATION.yaml"]
    );
    insta::assert_snapshot!("template_2_seed_checkpoint", text);
}

#[test]
fn template_2_counts_compactions_of_the_session_and_follows_oq_r3_without_a_next_step() {
    // With no next_step and no next_action recorded, OQ-R3 prescribes the next action.
    let mut project = project();
    project.summary.next_step = None;
    if let Some(r) = project.resumption.as_mut() {
        r.recovery.next_step = None;
    }
    let cx1 = checkpoint(CX1_PATH, &fixture("cx-001-checkpoint.json"));
    let second = fixture("cx-001-checkpoint.json")
        .replace("\"next_action\":", "\"next_action_unused\":")
        .replace("\"cx-001\"", "\"cx-002\"")
        .replace("2026-02-17T11:45:00Z", "2026-02-17T15:10:00Z")
        .replace("qg-2-iteration-1", "qg-final-iteration-2-revision");
    let cx2 = checkpoint(".jerry/checkpoints/cx-002-checkpoint.json", &second);
    let known = [cx1.clone(), cx2.clone()];
    let rendered = render_alert(&cx2, Some(&project), &known);
    let text = &rendered.text;
    assert!(
        text.contains("\nCOMPACTION EVENT: 2 of 2 this session\n"),
        "{text}"
    );
    assert!(
        has(
            text,
            "5. Continue from: Apply the revision based on QG-Final iteration 2 findings, then run iteration 3."
        ),
        "{text}"
    );
    assert!(
        has(text, "(and the same for the older unacknowledged cx-001)"),
        "{text}"
    );
    assert!(
        rendered.tokens_estimate <= 400,
        "{}",
        rendered.tokens_estimate
    );
    insta::assert_snapshot!("template_2_second_compaction", text);

    let first = render_alert(&cx1, Some(&project), &known);
    assert!(first.text.contains("COMPACTION EVENT: 1 of 2 this session"));
}

#[test]
fn template_2_over_the_ceiling_shortens_free_text_and_keeps_structured_fields() {
    let project = project();
    let long_context = "The scorer was halfway through S-007. ".repeat(120);
    let decisions: Vec<String> = (1..=30)
        .map(|n| format!("{{\"id\": \"RD-{n:03}\", \"summary\": \"Decision number {n} with a fairly long explanation of what changes\", \"affects_phases\": [3]}}"))
        .collect();
    let text = fixture("cx-001-checkpoint.json")
        .replace(
            "QG-2 was scoring 3 Phase 2 deliverables. S-007 found 1 major finding: DA-001 copyright holder inconsistency between NOTICE and header_template. Revision was in progress.",
            &long_context,
        )
        .replace(
            "{\n        \"id\": \"RD-001\",\n        \"summary\": \"Align copyright holder to 'Adam Nowak'\",\n        \"affects_phases\": [3]\n      }",
            &decisions.join(","),
        );
    let cx = checkpoint(CX1_PATH, &text);
    assert_eq!(cx.decisions.len(), 30);
    let rendered = render_alert(&cx, Some(&project), std::slice::from_ref(&cx));
    assert!(
        rendered.tokens_estimate <= 500,
        "{}",
        rendered.tokens_estimate
    );
    assert!(rendered.truncated);
    let out = &rendered.text;
    assert!(
        has(out, "[shortened; full text in the checkpoint file]"),
        "{out}"
    );
    assert!(has(out, "more in the checkpoint file)"), "{out}");
    for kept in [
        "CHECKPOINT: ",
        "TRIGGER: auto",
        "PRE-COMPACTION FILL: 88.6%",
        "LAST SCORE: 0.960",
        "5. Continue from: Continue QG-2 iteration 1.",
        "</compaction-alert>",
    ] {
        assert!(has(out, kept), "lost {kept:?}");
    }
}

#[test]
fn template_2_from_a_real_jerry_checkpoint_falls_back_on_the_project() {
    let project = project();
    let text = r#"{
  "checkpoint_id": "cx-003",
  "context_state": {"fill_percentage": 0.875, "tier": "critical", "token_count": 175000,
                    "monitoring_ok": true, "context_window": 200000, "context_window_source": "default"},
  "resumption_state": null,
  "created_at": "2026-02-22T02:15:22.250871+00:00"
}"#;
    let cx = checkpoint(".jerry/checkpoints/cx-003.json", text);
    let rendered = render_alert(&cx, Some(&project), std::slice::from_ref(&cx));
    let out = &rendered.text;
    assert!(out.contains("PRE-COMPACTION FILL: 87.5%\n"), "{out}");
    assert!(out.contains("TRIGGER: unknown\n"), "{out}");
    assert!(out.contains("YOU WERE DOING: Phase 2 (Core License Changes), qg-2-iteration-1\n"));
    assert!(out.contains("LAST SCORE: 0.960 (qg-2, iteration 1)\n"));
    assert!(
        has(
            out,
            "create the empty file .jerry/checkpoints/cx-003.acknowledged"
        ),
        "{out}"
    );
    assert!(
        !out.contains("CRITICAL CONTEXT"),
        "no free text to show: {out}"
    );
    insta::assert_snapshot!("template_2_jerry_checkpoint", out);
}

fn staleness_fresh() -> Staleness {
    Staleness {
        level: StalenessLevel::Fresh,
        reasons: vec!["updated within current phase".into()],
        age_seconds: Some(23 * 60),
        ..Staleness::default()
    }
}

#[test]
fn context_monitor_at_each_level() {
    let mut project = project();
    project.staleness = staleness_fresh();
    let config = Config::default();
    let cases = [
        ("low", 0.42, Level::Low),
        ("warning", 0.732, Level::Warning),
        ("critical", 0.85, Level::Critical),
        ("compaction", 0.93, Level::Compaction),
    ];
    for (name, fill, level) in cases {
        assert_eq!(level_for(fill, &config.context), level);
        let reading = FillReading {
            fill: Some(fill),
            tokens_used: Some((fill * 200_000.0).round() as i64),
            window: Some(200_000),
            source: Some("transcript.jsonl".into()),
            ..FillReading::default()
        };
        let rendered = render_monitor(&project, &reading, &config.context, now());
        assert!(
            rendered
                .text
                .contains(&format!("CONTEXT STATUS: {} (", level.label())),
            "{}",
            rendered.text
        );
        assert!(
            rendered.tokens_estimate < 200,
            "{name}: {}",
            rendered.tokens_estimate
        );
        insta::assert_snapshot!(format!("monitor_{name}"), rendered.text);
    }
}

#[test]
fn context_monitor_matches_the_seed_example_lines() {
    let mut project = project();
    project.staleness = staleness_fresh();
    let reading = FillReading {
        fill: Some(0.732),
        tokens_used: Some(146_400),
        window: Some(200_000),
        ..FillReading::default()
    };
    let text = render_monitor(&project, &reading, &Config::default().context, now()).text;
    for line in [
        "CONTEXT STATUS: WARNING (73.2% filled)",
        "Tokens used: 146,400 / 200,000",
        "Estimated remaining: 53,600 tokens (~1.8 QG iterations)",
        "Compaction events: 1",
        "Last checkpoint: CP-001",
        "Resumption last updated: 2026-02-17T11:45:00Z (23 min ago)",
        "Resumption staleness: FRESH (updated within current phase)",
        "ACTION RECOMMENDED:",
        "- Update ORCHESTRATION.yaml resumption section with current state",
        "- Ensure defect_summary and agent_summaries are current",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
}

#[test]
fn context_monitor_without_a_measurement_says_unknown() {
    let project = project();
    let text = render_monitor(
        &project,
        &FillReading::default(),
        &Config::default().context,
        now(),
    )
    .text;
    assert!(
        text.contains("CONTEXT STATUS: UNKNOWN (fill not measured)\n"),
        "{text}"
    );
    assert!(text.contains("Tokens used: unknown / unknown\n"), "{text}");
    assert!(!text.contains("Estimated remaining"));
    insta::assert_snapshot!("monitor_unknown", text);
}

fn nexus_project() -> Project {
    normalize_manifest(
        "02-projects/24-project-skills-research-resume-expansion/01-planning/resume-context.md",
        "02-projects/24-project-skills-research-resume-expansion",
        &fixture("resume-context.md"),
    )
}

fn nexus(style: Style, confidence: Option<&str>) -> String {
    let project = nexus_project();
    let manifest = project.manifest.as_ref().unwrap();
    let input = NexusInput {
        project: &project,
        manifest,
        abs_dir: "/home/op/nexus/02-projects/24-project-skills-research-resume-expansion",
        confidence,
        style,
    };
    render_nexus(&input).text
}

#[test]
fn nexus_sequence_in_emoji_style() {
    let text = nexus(Style::Emoji, Some("high"));
    assert!(text.starts_with("🚨🚨🚨 CATASTROPHIC MANDATORY LOADING SEQUENCE 🚨🚨🚨\n"));
    assert!(text.contains("DETECTED: Auto-resume after compaction (confidence: high)\n"));
    assert!(text.contains(
        "   File: /home/op/nexus/02-projects/24-project-skills-research-resume-expansion/01-planning/resume-context.md\n"
    ));
    assert!(text.contains(
        "   1. /home/op/nexus/02-projects/24-project-skills-research-resume-expansion/01-planning/overview.md\n"
    ));
    assert!(text.contains("   4. /home/op/nexus/02-projects/24-project-skills-research-resume-expansion/03-working/implementation.py\n"));
    assert!(text.contains("[ ] I have loaded ALL 4 files from files_to_load\n"));
    assert!(text.contains("CURRENT TASK: 15\n"));
    assert!(text.contains("   Skill: execute-project (the NEXT ACTION above)\n"));
    assert!(text.contains("NEXT ACTION: execute-project\n"));
    assert!(text.contains("   - Validation questions you MUST answer\n"));
    assert!(!text.contains("MEDIUM CONFIDENCE"));
    insta::assert_snapshot!("nexus_emoji", text);
}

#[test]
fn nexus_sequence_in_plain_style_has_no_emoji() {
    let text = nexus(Style::Plain, Some("medium"));
    assert!(text.is_ascii(), "plain style must be ASCII:\n{text}");
    assert!(text.contains(
        "DETECTED: Auto-resume after compaction (confidence: medium)\n\nWARNING: MEDIUM CONFIDENCE: Project detected from transcript references\nWARNING: If this seems incorrect, inform the user before proceeding\n\nPROJECT DETECTED:"
    ), "{text}");
    insta::assert_snapshot!("nexus_plain_medium", text);
}

#[test]
fn nexus_medium_confidence_warning_in_emoji_style() {
    let text = nexus(Style::Emoji, Some("medium"));
    assert!(text.contains("\n⚠️ MEDIUM CONFIDENCE: Project detected from transcript references\n⚠️ If this seems incorrect, inform the user before proceeding\n"));
    let asked = nexus(Style::Emoji, None);
    assert!(asked.contains("DETECTED: Resume requested by the operator\n"));
}
