//! Huge values in a workflow's state file, through the binary. A 10 MB
//! `next_step` used to be copied whole into PreCompact's checkpoint, which then
//! exceeded the 4 MB the hooks read: PostCompact, SessionStart and
//! UserPromptSubmit refused it ("file too large"), the compaction alert was never
//! delivered, and a second PreCompact of the same session wrote `cx-002`. Every
//! text copied is now cut to its cap (docs/hooks.md, "What a checkpoint keeps").

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/transcript.rs"]
mod transcript;

use hook_fixture::{Fixture, WORKFLOW, context_of, iso, payload};
use serde_json::json;

const CHECKPOINT: &str = ".jerry/checkpoints/cx-001-checkpoint.json";
/// What the hooks read of a checkpoint (`hook::checkpoints`).
const READ_LIMIT: u64 = 4 * 1024 * 1024;

/// A workflow whose next step is `mb` MB long, with many long agent summaries
/// and decisions besides (about 7 MB more).
fn huge_workflow(mb: usize) -> String {
    let next = "lorem ipsum dolor sit amet ".repeat(mb * 1024 * 1024 / 27);
    let mut yaml = format!(
        "workflow:\n  id: \"demo-wf-001\"\n  status: \"ACTIVE\"\nresumption:\n  recovery_state:\n    \
         current_phase: 2\n    workflow_status: \"ACTIVE\"\n    current_activity: \"act\"\n    \
         next_step: \"{next}\"\n    updated_at: \"{}\"\n  agent_summaries:\n",
        iso(60)
    );
    let long = "summary words ".repeat(5_000);
    for i in 0..60 {
        yaml.push_str(&format!("    agent{i}: \"{long}\"\n"));
    }
    yaml.push_str("  decision_log:\n");
    for i in 0..60 {
        yaml.push_str(&format!(
            "    - id: \"RD-{i}\"\n      decision: \"{long}\"\n      applied: false\n"
        ));
    }
    yaml
}

fn size(fx: &Fixture, rel: &str) -> u64 {
    std::fs::metadata(fx.root().join(rel)).unwrap().len()
}

#[test]
fn a_checkpoint_of_a_huge_workflow_stays_readable_by_the_hooks() {
    let fx = Fixture::new();
    fx.write(WORKFLOW, &huge_workflow(6));
    let transcript = fx.edits_in("projects/PROJ-001-demo");
    let run = |event: &str, extra| {
        let stdin = payload(event, Some(&transcript), extra);
        fx.run(&[event], &stdin)
    };

    let (out, _) = run("PreCompact", json!({"trigger": "auto"}));
    assert_eq!(out, "");
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);
    let written = size(&fx, CHECKPOINT);
    assert!(written < READ_LIMIT / 4, "{written} bytes");
    let checkpoint = fx.json(CHECKPOINT);
    let next = checkpoint["recovery_instructions"]["next_action"]
        .as_str()
        .unwrap();
    assert!(
        next.contains("Then continue: lorem ipsum dolor"),
        "{next:.200}"
    );
    assert!(
        next.ends_with("MB more; the full text is in the workflow's state file]"),
        "{}",
        &next[next.len() - 120..]
    );

    // PostCompact records its summary into the same checkpoint, which stays
    // under the limit.
    let summary = "the summary kept this ".repeat(150_000);
    let (out, _) = run(
        "PostCompact",
        json!({"trigger": "auto", "compact_summary": summary}),
    );
    assert_eq!(out, "");
    assert!(fx.json(CHECKPOINT)["post_compact"]["compact_summary"].is_string());
    assert!(
        size(&fx, CHECKPOINT) < READ_LIMIT,
        "{}",
        size(&fx, CHECKPOINT)
    );

    // SessionStart after the compaction, in the session that compacted: the
    // alert is delivered.
    let (out, _) = run("SessionStart", json!({"source": "compact"}));
    let context = context_of(&out, "SessionStart");
    assert!(context.contains("<compaction-alert>"), "{context}");

    // PreCompact after PostCompact is the next compaction (PostCompact ends
    // one, issue 32): a checkpoint of its own; the first keeps its record.
    let (out, _) = run("PreCompact", json!({"trigger": "auto"}));
    assert_eq!(out, "");
    assert_eq!(
        fx.checkpoints(),
        ["cx-001-checkpoint.json", "cx-002-checkpoint.json"]
    );
    assert!(fx.json(CHECKPOINT)["post_compact"].is_object(), "kept");

    let log = fx.log();
    assert!(!log.contains("refused"), "{log}");
    assert!(!log.contains("ERROR"), "{log}");
}

/// Another tool's checkpoint near the 4 MB the hooks read: PostCompact does not
/// write it past the limit, and the next PreCompact carries nothing of a huge
/// `post_compact` summary into its own checkpoint.
#[test]
fn records_carried_into_another_tools_large_checkpoint_stay_under_the_limit() {
    let fx = Fixture::new();
    let transcript = fx.edits_in("projects/PROJ-001-demo");
    let (out, _) = fx.run(
        &["PreCompact"],
        &payload("PreCompact", Some(&transcript), json!({"trigger": "auto"})),
    );
    assert_eq!(out, "");
    let mut cp = fx.json(CHECKPOINT);
    cp["notes"] = json!("n".repeat(READ_LIMIT as usize - 50_000));
    fx.write(CHECKPOINT, &cp.to_string());
    let before = fx.read(CHECKPOINT);
    let summary = "kept context ".repeat(10_000);
    fx.run(
        &["PostCompact"],
        &payload(
            "PostCompact",
            Some(&transcript),
            json!({"trigger": "auto", "compact_summary": summary}),
        ),
    );
    assert_eq!(fx.read(CHECKPOINT), before, "left as it is");
    assert!(
        fx.log().contains("would pass the 4 MB the hooks read"),
        "{}",
        fx.log()
    );

    cp["notes"] = json!("short");
    cp["post_compact"] = json!({"trigger": "auto", "compact_summary": "s".repeat(3_000_000)});
    fx.write(CHECKPOINT, &cp.to_string());
    fx.run(
        &["PreCompact"],
        &payload(
            "PreCompact",
            Some(&transcript),
            json!({"trigger": "manual", "custom_instructions": "again"}),
        ),
    );
    // Another compaction (its PostCompact arrived): a checkpoint of its own,
    // which carries nothing of the other tool's huge record.
    assert_eq!(
        fx.checkpoints(),
        ["cx-001-checkpoint.json", "cx-002-checkpoint.json"]
    );
    let new = fx.read(".jerry/checkpoints/cx-002-checkpoint.json");
    assert!(new.len() < 70 * 1024, "{}", new.len());
    assert!(!new.contains("post_compact"), "{new}");
}
