//! Terminal safety through the binary: escape sequences, C1 controls, carriage
//! returns, bells and bidirectional controls written in a workspace's files never
//! reach the terminal (every command's stdout and stderr), the clipboard, or an
//! injection unescaped. `--json` still carries the text as the file holds it.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/transcript.rs"]
mod transcript;

use std::path::Path;

use hostile::{assert_safe, cli, write};
use serde_json::{Value, json};

const ID: &str = "wf\u{1b}[31mRED\u{202e}evil";

/// Every place a file's text is shown: ids, summary fields, keys kept as other
/// fields, decisions, agent summaries, listed files, a duplicate key (diagnostic),
/// a Nexus manifest and its body, a checkpoint.
fn hostile_workspace(root: &Path) {
    write(
        root,
        "projects/PROJ-001/ORCHESTRATION.yaml",
        r#"workflow:
  id: "wf\e[31mRED\u202eevil"
  status: "ACTIVE\x9b2J"
resumption:
  recovery_state:
    current_phase: 2
    current_activity: "line1\nline2\e[2J\rover"
    next_step: "go \e]0;title\a now \x9b31m c1 \u2066iso\u2069 \u200fmark"
    updated_at: "2026-01-01T00:00:00Z"
  files_to_read:
    - path: "plan\e[8m.md"
      purpose: "hide\e[8m this"
  decision_log:
    - id: "RD-001"
      decision: "keep \e[5mblink\e[0m"
      rationale: "why\u202e"
      affects_phases: [2]
      applied: false
  agent_summaries:
    "agent\e[1m": "summary \e[41m red"
  "custom\e[7m": "value\x85nel"
dup: 1
dup: 2
"#,
    );
    write(
        root,
        "02-projects/07-x/01-planning/resume-context.md",
        "---\nresume_schema_version: \"1.0\"\nproject_id: \"07-x\"\nproject_name: \"Nexus \\e[31mX\"\n\
         current_phase: execution\nnext_action: \"do \\u202e it\"\nfiles_to_load:\n  - \"01-planning/a\\e[0m.md\"\n\
         last_updated: \"2026-01-03T15:30:00\"\n---\n# Body \u{1b}[2J with \u{202e} marks\r\n",
    );
    let checkpoint = json!({
        "schema_version": "1.0.0",
        "event_type": "compaction",
        "event_id": "cx-001",
        "timestamp": "2026-01-01T00:00:00Z",
        "session_id": "s\u{1b}[0m",
        "trigger": {"type": "auto"},
        "orchestration_state": {"workflow_id": ID, "current_activity": "act\u{1b}[2J"},
        "accumulated_context": {"agent_summaries": {"a\u{1b}[1m": "sum\u{202e}"}},
        "recovery_instructions": {
            "files_to_read": [{"path": "projects/PROJ-001/ORCHESTRATION.yaml", "priority": 1}],
            "next_action": "next \u{1b}]52;c;aGk=\u{7} osc52",
            "critical_context": "critical \u{9b}2J \u{202e}"
        },
        "metadata": {"acknowledged": false}
    });
    write(
        root,
        ".jerry/checkpoints/cx-001-checkpoint.json",
        serde_json::to_string_pretty(&checkpoint).unwrap(),
    );
}

#[test]
fn no_command_prints_a_control_or_bidi_character_from_a_file() {
    let ws = tempfile::tempdir().unwrap();
    hostile_workspace(ws.path());
    let clip = ws.path().join("clip.txt");
    let backend = format!("file:{}", clip.display());
    let commands: Vec<Vec<&str>> = vec![
        vec!["list"],
        vec!["show", "wf"],
        vec!["show", "07-x"],
        vec!["validate"],
        vec!["prompt", "wf"],
        vec!["prompt", "07-x"],
        vec!["alert", "wf"],
        vec!["monitor", "wf"],
        vec![
            "decision",
            "add",
            "wf",
            "--decision",
            "d\u{1b}[1m",
            "--dry-run",
        ],
        vec!["ack", "wf", "--all", "--dry-run"],
        vec!["show", "no\u{1b}[31msuch"],
    ];
    for args in &commands {
        let run = cli(ws.path(), args);
        assert_safe(&format!("stdout of {args:?}"), &run.stdout);
        assert_safe(&format!("stderr of {args:?}"), &run.stderr);
        assert!(run.code.is_some(), "{args:?} was killed");
    }
    // The text form shows the escape, visibly.
    let show = cli(ws.path(), &["show", "wf"]).stdout;
    assert!(show.contains("wf\\u001b[31mRED\\u202eevil"), "{show}");
    // The copy is clean too.
    let copied = cli(
        ws.path(),
        &["prompt", "wf", "--copy", "--clipboard", &backend],
    );
    assert_eq!(copied.code, Some(0), "{}", copied.stderr);
    let clipboard = std::fs::read_to_string(&clip).unwrap();
    assert!(clipboard.contains("go "), "{clipboard}");
    assert_safe("the clipboard", &clipboard);
}

#[test]
fn json_output_is_escaped_and_still_holds_the_text_as_written() {
    let ws = tempfile::tempdir().unwrap();
    hostile_workspace(ws.path());
    for args in [
        vec!["list", "--json"],
        vec!["show", "wf", "--json"],
        vec!["validate", "--json"],
        vec!["prompt", "wf", "--json"],
    ] {
        let run = cli(ws.path(), &args);
        assert_safe(&format!("{args:?}"), &run.stdout);
        let _: Value = serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("{args:?} is not JSON ({e}): {}", run.stdout));
    }
    let show: Value =
        serde_json::from_str(&cli(ws.path(), &["show", "wf", "--json"]).stdout).unwrap();
    assert_eq!(show["project"]["id"], ID, "shown as given");
    let prompt: Value =
        serde_json::from_str(&cli(ws.path(), &["prompt", "wf", "--json"]).stdout).unwrap();
    assert_safe("the prompt text", prompt["text"].as_str().unwrap());
}

/// What Claude reads is the decoded JSON string: it must be clean after decoding.
#[test]
fn hook_injections_are_clean_after_json_decoding() {
    let fx = hook_fixture::Fixture::new();
    hostile_workspace(fx.root());
    let (out, _) = fx.run(
        &["SessionStart"],
        &hook_fixture::payload("SessionStart", None, json!({"source": "compact"})),
    );
    let context = hook_fixture::context_of(&out, "SessionStart");
    // Another session's checkpoint is mentioned (its hostile session and
    // workflow ids), never resumed (issue 32, defect 8).
    assert!(
        context.contains("<other-session-checkpoint>"),
        "the checkpoint was mentioned: {context}"
    );
    assert_safe("the SessionStart injection", &context);

    // The alert goes to the session that compacted (the checkpoint's own, hostile id).
    let (out, _) = fx.run(
        &["UserPromptSubmit"],
        &hook_fixture::payload(
            "UserPromptSubmit",
            None,
            json!({"prompt": "go", "session_id": "s\u{1b}[0m"}),
        ),
    );
    let context = hook_fixture::context_of(&out, "UserPromptSubmit");
    assert!(context.contains("compaction-alert"), "{context}");
    assert_safe("the UserPromptSubmit injection", &context);
}
