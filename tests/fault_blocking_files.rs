//! Files that block on read, and the hook's overall deadline (issue 33 item 4):
//! a checkpoint, the monitor state, the workflow file or the transcript that is a
//! link to a kernel pseudo-file (`/proc/kmsg` blocks until the kernel logs) is
//! refused unread; and a hook that would never return is ended at its deadline,
//! exit 0, nothing on stdout, the reason logged.

#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;

use std::path::Path;

use hostile::{event, hook, write};
use serde_json::json;

const STATE: &str = "projects/PROJ-001/ORCHESTRATION.yaml";

fn workspace(root: &Path) {
    write(
        root,
        STATE,
        "workflow:\n  id: wf-hook\n  status: ACTIVE\nresumption:\n  recovery_state:\n    \
         next_step: \"go on\"\n    updated_at: \"2026-01-01T00:00:00Z\"\n",
    );
    std::fs::create_dir_all(root.join(".jerry/checkpoints")).unwrap();
}

/// A readable procfs file stands in for `/proc/kmsg`: whether it would block
/// depends on the kernel's log, its refusal does not.
const PSEUDO: &str = "/proc/version";

#[test]
fn links_to_procfs_files_are_refused_unread() {
    assert!(Path::new(PSEUDO).exists(), "{PSEUDO} is missing: no procfs");
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    workspace(root);
    let link = |rel: &str| std::os::unix::fs::symlink(PSEUDO, root.join(rel)).unwrap();
    link(".jerry/checkpoints/cx-001-checkpoint.json");
    link(".jerry/context-monitor-state.json");
    link("transcript.jsonl");
    let log = tempfile::tempdir().unwrap();
    let transcript = root.join("transcript.jsonl");
    for (name, extra) in [
        ("PreCompact", json!({"trigger": "auto"})),
        ("UserPromptSubmit", json!({"prompt": "go"})),
        ("SessionStart", json!({"source": "compact"})),
    ] {
        let mut extra = extra;
        extra["transcript_path"] = json!(transcript);
        let run = hook(&[], root, log.path(), &[name], &event(name, root, extra));
        assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
    }
    let logged = std::fs::read_to_string(log.path().join("hook.log")).unwrap_or_default();
    assert!(
        logged.contains("procfs"),
        "nothing refused as a pseudo-file:\n{logged}"
    );
    let version = std::fs::read_to_string(PSEUDO).unwrap();
    let first_word = version.split_whitespace().next().unwrap_or("Linux");
    assert!(
        !logged.contains(&format!("{first_word} version")),
        "the pseudo-file was read:\n{logged}"
    );
}

/// A hook that never returns (the test fault `hook-hang`, only in test builds)
/// is ended at its deadline: exit 0, nothing on stdout, the deadline logged.
#[test]
#[cfg_attr(
    not(feature = "test-fault"),
    ignore = "needs the test-fault feature, which the repository's test builds turn on (not the published crate's)"
)]
fn a_hook_that_never_returns_is_ended_at_its_deadline() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    workspace(root);
    let log = tempfile::tempdir().unwrap();
    let prefix = [
        "env".to_string(),
        "RESUME_TUI_TEST_FAULT=hook-hang".to_string(),
        "RESUME_TUI_HOOK_DEADLINE_MS=200".to_string(),
    ];
    let stdin = event("UserPromptSubmit", root, json!({"prompt": "go"}));
    let run = hook(&prefix, root, log.path(), &["UserPromptSubmit"], &stdin);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, "");
    let logged = std::fs::read_to_string(log.path().join("hook.log")).unwrap();
    assert!(logged.contains("deadline"), "{logged}");
}
