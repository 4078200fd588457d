//! The files hooks read besides the transcript, at the limits, through the binary
//! under a 1 GiB address-space limit: a 1 GB sparse file and a FIFO named like a
//! checkpoint, like the Nexus precompact state and like the context-monitor state.
//! Every event that reads them (PreCompact, PostCompact, UserPromptSubmit,
//! SessionStart) finishes without opening the FIFO or reading the large file, prints
//! only its event's output, logs, and leaves the file as it was. (A FIFO used to
//! block the hook until Claude Code killed it; a 1 GB checkpoint was read whole.)

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/transcript.rs"]
mod transcript;

use std::os::unix::fs::FileTypeExt;

use hook_fixture::{Fixture, context_of, payload};
use hostile::{capped, fifo, hook, sparse};
use serde_json::json;

const GB: u64 = 1024 * 1024 * 1024;

const CHECKPOINT: &str = ".jerry/checkpoints/cx-001-checkpoint.json";
const PRECOMPACT_STATE: &str = "00-system/.cache/precompact_state.json";
const MONITOR_STATE: &str = ".jerry/context-monitor-state.json";

#[derive(Clone, Copy, Debug)]
enum Hostile {
    Sparse,
    Fifo,
}

/// The hostile file at `rel`, starting like the real file (so that reading it
/// whole would parse as far as its hole).
fn plant(fx: &Fixture, rel: &str, kind: Hostile) {
    match kind {
        Hostile::Sparse => {
            let head = r#"{"event_id": "cx-001", "session_id": "sess-1", "active_project_id": "07-x", "confidence": "high", "fill": 0.5, "#;
            sparse(fx.root(), rel, head, GB);
        }
        Hostile::Fifo => {
            fifo(fx.root(), rel);
        }
    }
}

fn still_there(fx: &Fixture, rel: &str, kind: Hostile) {
    let meta = std::fs::symlink_metadata(fx.root().join(rel)).unwrap();
    match kind {
        Hostile::Sparse => assert_eq!(meta.len(), GB, "{rel} left as it was"),
        Hostile::Fifo => assert!(meta.file_type().is_fifo(), "{rel} left as it was"),
    }
}

/// Runs the four events that read checkpoints and state files, with a transcript
/// at 88.6 % (the monitor state is written, lookups run at WARNING) and without one
/// (PreCompact falls back to the recorded monitor state), checking each run's
/// contract. Returns the log.
fn every_reading_event(fx: &Fixture, rel: &str, kind: Hostile) -> String {
    let transcript = fx.edits_in("projects/PROJ-001-demo");
    for with_transcript in [true, false] {
        // PostCompact first: once PreCompact wrote a newer checkpoint of the
        // session, PostCompact looks no further.
        for (event, extra) in [
            (
                "PostCompact",
                json!({"trigger": "auto", "compact_summary": "kept"}),
            ),
            ("UserPromptSubmit", json!({"prompt": "go"})),
            ("SessionStart", json!({"source": "compact"})),
            ("PreCompact", json!({"trigger": "auto"})),
        ] {
            let what = format!("{event} with {kind:?} {rel} (transcript: {with_transcript})");
            let transcript = with_transcript.then_some(transcript.as_path());
            let lines_before = fx.log().lines().count();
            let run = hook(
                &capped(),
                fx.root(),
                fx.log.path(),
                &[event],
                &payload(event, transcript, extra),
            );
            assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
            match event {
                "PreCompact" => assert_eq!(run.stdout, "", "{what}"),
                "PostCompact" => assert_eq!(run.stdout, "", "{what}"),
                _ if run.stdout.is_empty() => {}
                _ => {
                    context_of(&run.stdout, event);
                }
            }
            let log = fx.log();
            let new_lines: Vec<&str> = log.lines().skip(lines_before).collect();
            assert!(!new_lines.is_empty(), "{what}: nothing logged");
            for line in new_lines {
                assert!(line.contains(&format!(" {event}: ")), "{what}: {line}");
            }
            still_there(fx, rel, kind);
        }
    }
    fx.log()
}

/// Plants `kind` at `rel` in a fresh Nexus workspace and runs every reading event;
/// each of `loggers` says in the log that it did not read the file, and why
/// (`limit`: the size limit for that file).
fn refused(rel: &str, kind: Hostile, limit: &str, loggers: &[&str]) -> Fixture {
    let fx = Fixture::new().nexus();
    plant(&fx, rel, kind);
    let log = every_reading_event(&fx, rel, kind);
    let why = match kind {
        Hostile::Fifo => "not a regular file (a pipe, socket or device)".to_string(),
        Hostile::Sparse => format!("file too large (1024 MB); limit {limit}"),
    };
    for event in loggers {
        let line = format!(
            "{event}: {}: refused: {why}: not read",
            fx.root().join(rel).display()
        );
        assert!(log.contains(&line), "{line}\n{log}");
    }
    fx
}

fn refused_everywhere(kind: Hostile) {
    let every = [
        "UserPromptSubmit",
        "SessionStart",
        "PreCompact",
        "PostCompact",
    ];
    let fx = refused(CHECKPOINT, kind, "4.0 MB", &every);
    assert!(
        fx.checkpoints()
            .contains(&"cx-002-checkpoint.json".to_string()),
        "PreCompact wrote the next checkpoint: {:?}",
        fx.checkpoints()
    );
    // The events that would write these files leave them alone, and say so.
    refused(
        PRECOMPACT_STATE,
        kind,
        "16 MB",
        &["SessionStart", "PreCompact"],
    );
    refused(MONITOR_STATE, kind, "16 MB", &["UserPromptSubmit"]);
}

#[test]
fn a_1_gb_sparse_checkpoint_or_state_file_is_refused_unread() {
    refused_everywhere(Hostile::Sparse);
}

#[test]
fn a_fifo_named_like_a_checkpoint_or_state_file_never_blocks_a_hook() {
    refused_everywhere(Hostile::Fifo);
}
