//! Faults under hook mode, through the binary: a full disk, read-only and
//! unreadable files and folders, files replaced by folders, transcripts that are
//! FIFOs, folders or dangling links, and a log folder that cannot be written. The
//! hook always exits 0 with only its event's output on stdout (nothing for PreCompact),
//! and never leaves a partial or temporary file.

#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;

use std::path::Path;

use hostile::{TinyDisk, chmod, event, hand_to_nobody, hook, tree, unprivileged, write};
use serde_json::json;

const STATE: &str = "projects/PROJ-001/ORCHESTRATION.yaml";
const CHECKPOINT: &str = ".jerry/checkpoints/cx-001-checkpoint.json";

fn workspace(root: &Path) {
    write(
        root,
        STATE,
        "workflow:\n  id: wf-hook\n  status: ACTIVE\nresumption:\n  recovery_state:\n    \
         next_step: \"go on\"\n    updated_at: \"2026-01-01T00:00:00Z\"\n",
    );
    write(
        root,
        CHECKPOINT,
        json!({"event_id": "cx-001", "session_id": "sess-fault", "timestamp": "2026-01-01T00:00:00Z",
               "orchestration_state": {"workflow_id": "wf-hook"},
               "recovery_instructions": {"files_to_read": [{"path": STATE, "priority": 1}]},
               "metadata": {"acknowledged": false}})
        .to_string(),
    );
}

/// Runs every event once and checks the contract: exit 0, the event's stdout shape.
fn every_event(prefix: &[String], root: &Path, log: &Path, transcript: Option<&Path>) {
    let with = |extra: serde_json::Value| {
        let mut extra = extra;
        if let Some(t) = transcript {
            extra["transcript_path"] = json!(t);
        }
        extra
    };
    for (name, extra) in [
        ("PreCompact", json!({"trigger": "auto"})),
        (
            "PostCompact",
            json!({"trigger": "auto", "compact_summary": "kept"}),
        ),
        ("UserPromptSubmit", json!({"prompt": "go"})),
        ("SessionStart", json!({"source": "compact"})),
        (
            "PostToolUse",
            json!({"tool_name": "Edit", "tool_input": {"file_path": root.join(STATE)}}),
        ),
    ] {
        let run = hook(prefix, root, log, &[name], &event(name, root, with(extra)));
        assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
        match name {
            "PreCompact" => assert_eq!(run.stdout, "", "{name}"),
            "PostCompact" => assert_eq!(run.stdout, "", "{name}"),
            _ => assert!(
                run.stdout.is_empty() || run.stdout.starts_with("{\"hookSpecificOutput\""),
                "{name}: {}",
                run.stdout
            ),
        }
    }
}

fn no_debris(root: &Path) {
    for rel in tree(root) {
        assert!(
            !rel.ends_with(".tmp") && !rel.ends_with(".lock"),
            "left behind: {rel}"
        );
    }
}

#[test]
#[cfg_attr(not(resume_tui_root), ignore = "needs RESUME_TUI_ROOT=1 (and root)")]
fn a_full_disk_loses_nothing_and_the_hooks_fail_open() {
    let disk = TinyDisk::mount(128);
    let root = disk.path();
    workspace(root);
    let log = tempfile::tempdir().unwrap();
    disk.fill(0);
    let before = std::fs::read(root.join(CHECKPOINT)).unwrap();
    every_event(&[], root, log.path(), None);
    assert_eq!(
        std::fs::read(root.join(CHECKPOINT)).unwrap(),
        before,
        "the checkpoint is whole"
    );
    let names: Vec<String> = tree(&root.join(".jerry/checkpoints"));
    assert_eq!(
        names,
        ["cx-001-checkpoint.json"],
        "no new or partial checkpoint"
    );
    no_debris(root);
    let logged = std::fs::read_to_string(log.path().join("hook.log")).unwrap();
    assert!(logged.contains("No space left on device"), "{logged}");
}

#[test]
fn read_only_and_unreadable_files_fail_open() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    workspace(root);
    let log = tempfile::tempdir().unwrap();
    hand_to_nobody(root);
    hand_to_nobody(log.path());
    chmod(&root.join(".jerry/checkpoints"), 0o555);
    chmod(&root.join(STATE), 0o000);
    chmod(&root.join(CHECKPOINT), 0o444);
    let before = std::fs::read(root.join(CHECKPOINT)).unwrap();
    every_event(&unprivileged(), root, log.path(), None);
    assert_eq!(std::fs::read(root.join(CHECKPOINT)).unwrap(), before);
    no_debris(root);
    let logged = std::fs::read_to_string(log.path().join("hook.log")).unwrap();
    assert!(logged.contains("Permission denied"), "{logged}");
    chmod(&root.join(".jerry/checkpoints"), 0o755);
}

#[test]
fn files_replaced_by_folders_fail_open() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    workspace(root);
    std::fs::remove_file(root.join(CHECKPOINT)).unwrap();
    std::fs::create_dir_all(root.join(CHECKPOINT)).unwrap();
    std::fs::create_dir_all(root.join("00-system/.cache/precompact_state.json")).unwrap();
    std::fs::create_dir_all(root.join(".jerry/context-monitor-state.json")).unwrap();
    let log = tempfile::tempdir().unwrap();
    every_event(&[], root, log.path(), None);
    assert!(root.join(CHECKPOINT).is_dir(), "left alone");
    no_debris(root);
}

#[test]
fn transcripts_that_are_fifos_folders_or_dangling_links_fail_open_at_once() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    workspace(root);
    let log = tempfile::tempdir().unwrap();
    let fifo = hostile::fifo(log.path(), "fifo.jsonl");
    let dangling = log.path().join("dangling.jsonl");
    std::os::unix::fs::symlink(log.path().join("nothing"), &dangling).unwrap();
    for transcript in [
        fifo.as_path(),
        log.path(),
        dangling.as_path(),
        Path::new("/dev/zero"),
    ] {
        // A FIFO used to block the hook until Claude Code killed it.
        every_event(&[], root, log.path(), Some(transcript));
    }
    no_debris(root);
}

#[test]
fn a_log_folder_that_cannot_be_written_changes_nothing_else() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    workspace(root);
    let elsewhere = tempfile::tempdir().unwrap();
    let not_a_folder = write(elsewhere.path(), "log-is-a-file", "x");
    every_event(&[], root, &not_a_folder, None);
    assert!(
        root.join(".jerry/checkpoints").read_dir().unwrap().count() >= 2,
        "PreCompact still wrote"
    );
    assert_eq!(std::fs::read_to_string(&not_a_folder).unwrap(), "x");
}
