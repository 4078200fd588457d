//! Files that hold a session's state are created owner-only (0600) whatever the
//! umask, through the binary under umask 022: the checkpoint, the Nexus precompact
//! state and the context-monitor state the hooks write, the hook log, and the
//! `.acknowledged` marker `ack` creates. A file that is replaced keeps the mode it
//! had (the write path's contract).

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/transcript.rs"]
mod transcript;

use std::path::Path;

use hook_fixture::{Fixture, payload};
use hostile::{chmod, cli_command, hook, mode_of, shell_prefix};
use serde_json::json;

const CHECKPOINT: &str = ".jerry/checkpoints/cx-001-checkpoint.json";
const PRECOMPACT_STATE: &str = "00-system/.cache/precompact_state.json";
const MONITOR_STATE: &str = ".jerry/context-monitor-state.json";

fn umask_022() -> Vec<String> {
    shell_prefix("umask 022")
}

fn run(fx: &Fixture, event: &str, transcript: &Path) {
    let extra = match event {
        "PreCompact" => json!({"trigger": "auto"}),
        _ => json!({"prompt": "go"}),
    };
    let run = hook(
        &umask_022(),
        fx.root(),
        fx.log.path(),
        &[event],
        &payload(event, Some(transcript), extra),
    );
    assert_eq!(run.code, Some(0), "{event}: {}", run.stderr);
}

/// A Nexus workspace in which UserPromptSubmit and PreCompact, run under umask
/// 022, created the monitor state, a checkpoint and the precompact state.
fn written() -> Fixture {
    let fx = Fixture::new().nexus();
    let transcript = fx.edits_in("projects/PROJ-001-demo");
    run(&fx, "UserPromptSubmit", &transcript);
    run(&fx, "PreCompact", &transcript);
    fx
}

#[test]
fn files_the_hooks_and_ack_create_are_owner_only() {
    let fx = written();
    for rel in [CHECKPOINT, PRECOMPACT_STATE, MONITOR_STATE] {
        assert_eq!(mode_of(&fx.root().join(rel)), 0o600, "{rel}");
    }
    assert_eq!(
        mode_of(&fx.log.path().join("hook.log")),
        0o600,
        "the log is owner-only"
    );

    // A real Jerry checkpoint is acknowledged by an empty marker beside it.
    fx.write(
        ".jerry/checkpoints/cx-002.json",
        &json!({"checkpoint_id": "cx-002", "workflow_id": "demo-wf-001",
                "context_state": {"fill_percentage": 0.9}})
        .to_string(),
    );
    let ack = cli_command(&umask_022(), fx.root(), &["ack", "demo-wf-001", "cx-002"])
        .output()
        .unwrap();
    assert_eq!(
        ack.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ack.stderr)
    );
    let marker = fx.root().join(".jerry/checkpoints/cx-002.acknowledged");
    assert_eq!(mode_of(&marker), 0o600, "the marker is owner-only");
}

#[test]
fn a_replaced_file_keeps_its_mode() {
    let fx = written();
    for (rel, mode) in [
        (CHECKPOINT, 0o640),
        (PRECOMPACT_STATE, 0o644),
        (MONITOR_STATE, 0o604),
    ] {
        chmod(&fx.root().join(rel), mode);
    }
    let before: Vec<String> = [CHECKPOINT, PRECOMPACT_STATE, MONITOR_STATE]
        .iter()
        .map(|rel| fx.read(rel))
        .collect();
    // A fuller context: the monitor state changes. Work in the Nexus project: the
    // precompact state names it, and PreCompact, within `hooks.dedupe_seconds` of
    // the same session, updates the same checkpoint.
    let mut fuller = transcript::Transcript::new(hook_fixture::SESSION);
    fuller.user("go").assistant((1_000, 2_000, 180_000));
    run(&fx, "UserPromptSubmit", &fx.transcript(&fuller));
    run(&fx, "PreCompact", &fx.edits_in("02-projects/07-x"));
    let after: Vec<String> = [CHECKPOINT, PRECOMPACT_STATE, MONITOR_STATE]
        .iter()
        .map(|rel| fx.read(rel))
        .collect();
    for (rel, (old, new)) in [CHECKPOINT, PRECOMPACT_STATE, MONITOR_STATE]
        .iter()
        .zip(before.iter().zip(&after))
    {
        assert_ne!(old, new, "{rel} was rewritten");
    }
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);
    assert_eq!(mode_of(&fx.root().join(CHECKPOINT)), 0o640);
    assert_eq!(mode_of(&fx.root().join(PRECOMPACT_STATE)), 0o644);
    assert_eq!(mode_of(&fx.root().join(MONITOR_STATE)), 0o604);
}
