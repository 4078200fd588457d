//! Which Nexus build the hooks take as the session's (issue 14), through the real
//! binary: the manifest that records the session wins when the transcript names
//! nothing; an archived (`_`) or finished (COMPLETE) build is never chosen; a
//! session resumed without a compaction gets its build's loading sequence.

#[path = "support/transcript.rs"]
mod transcript;

#[path = "support/hook_fixture.rs"]
mod hook_fixture;

use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use hook_fixture::run_command;
use serde_json::json;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn manifest(id: &str, updated: &str, sessions: &str) -> String {
    format!(
        "---\nsession_id: \"\"\nsession_ids: [{sessions}]\nresume_schema_version: \"2.0\"\nlast_updated: \"{updated}\"\nbuild_id: \"{id}\"\nbuild_name: \"Build {id}\"\ncurrent_phase: \"execution\"\nnext_action: \"execute-build\"\nfiles_to_load:\n  - \"01-planning/04-steps.md\"\n---\n\n## Context for Next Agent\n"
    )
}

/// A Nexus workspace: build 01 records `sess-1`; 02 is newer but records no
/// session; `_03` is archived and 04 finished, both newest and recording `sess-1`.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("00-system/.cache")).unwrap();
    let b = "02-builds/active";
    write(
        root,
        &format!("{b}/01-mine/01-planning/resume-context.md"),
        &manifest("01-mine", "2026-01-10T10:00:00Z", "\"sess-1\""),
    );
    write(
        root,
        &format!("{b}/02-newer/01-planning/resume-context.md"),
        &manifest("02-newer", "2026-01-20T10:00:00Z", ""),
    );
    write(
        root,
        "02-builds/_03-shelved/01-planning/resume-context.md",
        &manifest("03-shelved", "2026-01-30T10:00:00Z", "\"sess-1\""),
    );
    write(
        root,
        &format!("{b}/04-done/01-planning/resume-context.md"),
        &manifest("04-done", "2026-01-31T10:00:00Z", "\"sess-1\""),
    );
    write(
        root,
        &format!("{b}/04-done/01-planning/01-overview.md"),
        "---\nid: 04-done\nname: Done\nstatus: COMPLETE\ncreated: 2026-01-01\n---\n",
    );
    for id in ["01-mine", "02-newer"] {
        write(
            root,
            &format!("{b}/{id}/01-planning/04-steps.md"),
            "## Phase 1: Planning\n- [x] plan\n## Phase 2: Build\n- [ ] build\n",
        );
    }
    dir
}

fn hook(root: &Path, logs: &Path, event: &str, input: serde_json::Value) -> String {
    let mut cmd = Command::new(cargo_bin("resume-tui"));
    cmd.arg("hook")
        .arg(event)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", logs)
        .env("RESUME_TUI_LOG_DIR", logs)
        .env("CLAUDE_PROJECT_DIR", root)
        .current_dir(root);
    run_command(cmd, &input.to_string()).0
}

fn precompact_checkpoint(session: &str) -> String {
    let ws = workspace();
    let logs = tempfile::tempdir().unwrap();
    let input = json!({
        "session_id": session,
        "hook_event_name": "PreCompact",
        "trigger": "auto",
        "transcript_path": ws.path().join("missing.jsonl"),
    });
    hook(ws.path(), logs.path(), "PreCompact", input);
    let folder = ws.path().join(".jerry/checkpoints");
    let entry = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .expect("a checkpoint");
    std::fs::read_to_string(entry.path()).unwrap()
}

#[test]
fn without_a_transcript_the_manifest_recording_the_session_names_the_build() {
    let checkpoint = precompact_checkpoint("sess-1");
    assert!(
        checkpoint.contains("02-builds/active/01-mine/01-planning/resume-context.md"),
        "{checkpoint}"
    );
    for never in ["_03-shelved", "04-done", "02-newer"] {
        assert!(!checkpoint.contains(never), "{never}: {checkpoint}");
    }
}

#[test]
fn archived_and_finished_builds_are_never_the_fallback() {
    // No manifest records this session: the newest build under way.
    let checkpoint = precompact_checkpoint("sess-other");
    assert!(
        checkpoint.contains("02-builds/active/02-newer/01-planning/resume-context.md"),
        "{checkpoint}"
    );
    for never in ["_03-shelved", "04-done"] {
        assert!(!checkpoint.contains(never), "{never}: {checkpoint}");
    }
}

#[test]
fn a_resumed_session_that_never_compacted_gets_its_build() {
    let ws = workspace();
    let logs = tempfile::tempdir().unwrap();
    let input = |session: &str| {
        json!({
            "session_id": session,
            "hook_event_name": "SessionStart",
            "source": "resume",
        })
    };
    let out = hook(ws.path(), logs.path(), "SessionStart", input("sess-1"));
    let value: serde_json::Value = serde_json::from_str(out.trim()).expect(&out);
    let context = value["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(context.contains("01-mine"), "{context}");
    assert!(!context.contains("04-done"), "{context}");

    // Another session's resume: no build records it, nothing is injected.
    let out = hook(ws.path(), logs.path(), "SessionStart", input("sess-2"));
    assert_eq!(out, "", "{out}");
}
