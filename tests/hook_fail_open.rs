//! Hooks fail open: stdin that never closes, garbage, unreadable projects, blocked
//! folders, dry runs. Exit 0, nothing on stdout beyond the event's shape, a log line.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/transcript.rs"]
mod transcript;

use hook_fixture::*;
use serde_json::json;
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

#[test]
fn stdin_held_open_returns_within_three_seconds() {
    let fx = Fixture::new();
    // Nothing, half an object, a whole object: stdin stays open in each case.
    for written in [
        "",
        "{\"hook_event_name\":\"Pre",
        r#"{"hook_event_name":"PreCompact","session_id":"s"}"#,
    ] {
        let mut child = fx
            .command(&["PreCompact"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(written.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(3),
                "still running with stdin open: {written:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        drop(stdin);
        assert_eq!(status.code(), Some(0));
        let mut out = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
        // The event argument says PreCompact: still nothing on bad input.
        let expected = "";
        assert_eq!(out, expected, "stdin {written:?}");
    }
}

#[test]
fn garbage_stdin_unknown_events_and_empty_stdin() {
    let fx = Fixture::new();
    for garbage in ["not json", "[1,2,3]", "{\"a\": tru", "\u{0}\u{1}\u{2}"] {
        assert_eq!(fx.run(&[], garbage).0, "", "{garbage:?}");
    }
    assert!(fx.log().matches("ERROR hook:").count() >= 4, "{}", fx.log());
    assert_eq!(fx.run(&["PreCompact"], "garbage").0, "");
    assert_eq!(fx.run(&["PostCompact"], "garbage").0, "");
    let unknown = r#"{"hook_event_name":"Stop","session_id":"x","new_field":{"deep":[1]}}"#;
    assert_eq!(fx.run(&[], unknown).0, "");
    let before = fx.log();
    assert_eq!(fx.run(&[], "").0, "");
    assert_eq!(fx.log(), before, "empty stdin is not even logged");
    assert!(fx.checkpoints().is_empty());
}

#[test]
fn an_unreadable_project_or_a_blocked_checkpoint_folder_fails_open() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let input = payload("PreCompact", Some(&t), json!({}));
    let (stdout, _) = fx.run_env(
        &[],
        &input,
        &[("CLAUDE_PROJECT_DIR", "/nonexistent/project")],
    );
    assert_eq!(stdout, "");
    assert!(
        fx.log()
            .contains("ERROR PreCompact: project folder /nonexistent/project"),
        "{}",
        fx.log()
    );

    // A file where the checkpoints folder should be: nothing can be created there.
    fx.write(".jerry/checkpoints", "in the way");
    assert_eq!(fx.run(&[], &input).0, "");
    assert!(
        fx.log().contains("ERROR PreCompact: write failed"),
        "{}",
        fx.log()
    );
    // The checkpoint line written when it was planned does not claim it was made.
    let planned = fx
        .log()
        .lines()
        .filter(|l| l.contains("INFO PreCompact: checkpoint cx-"))
        .map(str::to_string)
        .collect::<Vec<_>>();
    assert!(
        !planned.is_empty()
            && planned
                .iter()
                .all(|l| l.ends_with("(planned; a write failed, below)")),
        "{}",
        fx.log()
    );
    let prompt = payload("UserPromptSubmit", Some(&t), json!({}));
    let (stdout, _) = fx.run(&[], &prompt);
    context_of(&stdout, "UserPromptSubmit");
}

#[test]
fn dry_run_writes_nothing_and_explains() {
    let fx = Fixture::new().nexus();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let (stdout, _) = fx.run(
        &["--dry-run", "--explain"],
        &payload("PreCompact", Some(&t), json!({})),
    );
    assert!(stdout.contains("would create"), "{stdout}");
    assert!(stdout.contains("cx-001-checkpoint.json"), "{stdout}");
    assert!(
        stdout.contains("confidence high, detection transcript"),
        "{stdout}"
    );
    assert!(stdout.contains("window"), "{stdout}");
    assert!(fx.checkpoints().is_empty());
    assert!(
        !fx.root()
            .join("00-system/.cache/precompact_state.json")
            .exists()
    );
    assert_eq!(fx.log(), "", "a dry run logs nothing either");
}
