//! The hooks in the order the real Claude Code client runs them (2.1.76 and
//! 2.1.332 alike; docs/hooks.md, "The real client"): a new session's first prompt
//! comes before its transcript exists, and around a compaction PreCompact →
//! SessionStart(compact) → PostCompact → (the next prompt). Payloads are shaped as
//! the client sends them, with its extra fields.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/transcript.rs"]
mod transcript;

use std::path::Path;

use hook_fixture::*;
use serde_json::json;

const WORKFLOW_DIR: &str = "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001";

/// Keeps RD-002, DF-211 and the gate in its `<summary>`; DF-212 and the
/// replay-tester are named only in its `<analysis>`, which the model never sees.
const SUMMARY: &str = "<analysis>\nThe user cares about DF-212 and the replay-tester agent.\n</analysis>\n\n\
<summary>\n1. Primary Request: QG-2 iteration 2; RD-002 still awaits sign-off; DF-211 batch \
replay unevidenced. Next: finish the S-004 pre-mortem.\n</summary>";

fn event(fx: &Fixture, name: &str, transcript: &Path, extra: serde_json::Value) -> String {
    let mut extra = extra;
    extra["prompt_id"] = json!("48e0c587-d3f3-4ca2-8123-fe6346e3176c");
    extra["cwd"] = json!(fx.root());
    fx.run(&[], &payload(name, Some(transcript), extra)).0
}

fn prompt(fx: &Fixture, transcript: &Path) -> String {
    let stdout = event(
        fx,
        "UserPromptSubmit",
        transcript,
        json!({"prompt": "go on", "permission_mode": "default"}),
    );
    if stdout.is_empty() {
        return stdout;
    }
    context_of(&stdout, "UserPromptSubmit")
}

#[test]
fn a_new_sessions_first_prompt_before_its_transcript_exists_is_no_error() {
    let fx = Fixture::demo();
    let missing = fx.root().join("never-written.jsonl");
    event(&fx, "SessionStart", &missing, json!({"source": "startup"}));
    prompt(&fx, &missing);
    let log = fx.log();
    assert!(
        !log.contains("ERROR"),
        "a normal first prompt logs no error:\n{log}"
    );
    assert!(log.contains("UserPromptSubmit"), "{log}");
    let doctor = std::process::Command::new(assert_cmd::cargo::cargo_bin("resume-tui"))
        .env_clear()
        .env("HOME", fx.home.path())
        .env("RESUME_TUI_LOG_DIR", fx.log.path())
        .env("RESUME_TUI_CONFIG", fx.home.path().join("none.toml"))
        .args(["doctor", "--json", "--root"])
        .arg(fx.root())
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&doctor.stdout).unwrap();
    assert_eq!(report["recent_errors"], json!([]), "{report}");
}

/// PreCompact, SessionStart(compact), PostCompact as the client runs them; the
/// transcript afterwards as the client leaves it: 2.1.332 writes what
/// SessionStart(compact) added after the boundary (`keeps_alert`), 2.1.76 in print
/// mode drops it. Returns the transcript.
fn compacted(fx: &Fixture, keeps_alert: bool) -> std::path::PathBuf {
    let t = fx.edits_in(WORKFLOW_DIR);
    event(
        fx,
        "PreCompact",
        &t,
        json!({"trigger": "manual", "custom_instructions": "keep the decisions"}),
    );
    assert!(
        fx.checkpoints()
            .contains(&"cx-005-checkpoint.json".to_string())
    );
    let state = &fx.json(".jerry/checkpoints/cx-005-checkpoint.json")["orchestration_state"];
    assert_eq!(state["phases_complete"], json!([1]), "{state}");
    assert_eq!(state["phases_in_progress"], json!([2]), "{state}");
    assert_eq!(
        state["phases_remaining"],
        json!([3]),
        "BLOCKED is not done: {state}"
    );
    // SessionStart(compact) first: the summary is not known yet.
    let start = context_of(
        &event(
            fx,
            "SessionStart",
            &t,
            json!({"source": "compact", "model": "claude-opus-5-5"}),
        ),
        "SessionStart",
    );
    assert!(start.starts_with("<compaction-alert>"), "{start}");
    assert!(!start.contains("Dropped by compaction"), "{start}");
    // Then PostCompact, with both parts of the summary.
    let post = event(
        fx,
        "PostCompact",
        &t,
        json!({"trigger": "manual", "compact_summary": SUMMARY}),
    );
    assert_eq!(post, "");
    let boundary = json!({"type": "system", "subtype": "compact_boundary", "sessionId": SESSION,
        "compactMetadata": {"trigger": "manual", "preTokens": 1010}});
    let mut after = format!("{boundary}\n");
    if keeps_alert {
        let kept = json!({"type": "attachment", "sessionId": SESSION, "attachment":
            {"type": "hook_additional_context", "hookName": "SessionStart:compact", "content": [start]}});
        after.push_str(&format!("{kept}\n"));
    }
    let mut file = std::fs::OpenOptions::new().append(true).open(&t).unwrap();
    std::io::Write::write_all(&mut file, after.as_bytes()).unwrap();
    t
}

fn dropped_section(first: &str) -> &str {
    let at = first.find("## Dropped by compaction").unwrap_or_else(|| {
        panic!("the first prompt after the compaction brings the section:\n{first}")
    });
    let section = &first[at..];
    assert!(
        section.contains("DF-212"),
        "only the analysis named it:\n{section}"
    );
    assert!(section.contains("replay-tester"), "{section}");
    assert!(
        !section.contains("Decision RD-002"),
        "the summary kept it:\n{section}"
    );
    section
}

fn delivery(fx: &Fixture) -> serde_json::Value {
    let deliveries = fx.json(".jerry/alert-deliveries.json");
    deliveries
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap()
        .clone()
}

#[test]
fn the_dropped_section_reaches_the_first_prompt_after_the_compaction_once() {
    let fx = Fixture::demo();
    let t = compacted(&fx, true);
    let first = prompt(&fx, &t);
    dropped_section(&first);
    assert!(
        !first.contains("<compaction-alert>"),
        "the client kept SessionStart's alert:\n{first}"
    );
    let second = prompt(&fx, &t);
    assert!(
        !second.contains("Dropped by compaction"),
        "once only:\n{second}"
    );
    let record = delivery(&fx);
    assert_eq!(record["via"], "SessionStart(compact)");
    assert!(record["dropped_delivered_at"].is_string(), "{record}");
    assert!(record["kept_by_client_at"].is_string(), "{record}");
}

#[test]
fn an_alert_the_client_dropped_goes_again_with_the_first_prompt() {
    // Claude Code 2.1.76 after `-p "/compact"`: what SessionStart(compact) printed
    // never reaches the model, and the transcript holds nothing of it.
    let fx = Fixture::demo();
    let t = compacted(&fx, false);
    let first = prompt(&fx, &t);
    assert!(
        first.starts_with("<compaction-alert>"),
        "the alert again, first:\n{first}"
    );
    dropped_section(&first);
    let second = prompt(&fx, &t);
    assert!(!second.contains("<compaction-alert>"), "{second}");
    assert!(!second.contains("Dropped by compaction"), "{second}");
    let record = delivery(&fx);
    assert_eq!(record["via"], "UserPromptSubmit");
    assert!(record["dropped_delivered_at"].is_string(), "{record}");
}
