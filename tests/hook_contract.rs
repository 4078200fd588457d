//! The hook contract through the real binary: stdin fixtures → exact stdout, the
//! files written, a log line; exit 0 whatever happens.

#[path = "support/transcript.rs"]
mod transcript;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use serde_json::{Value, json};
use tempfile::TempDir;
use transcript::Transcript;

const SESSION: &str = "sess-1";

/// A workspace with one Jerry workflow, a Nexus project, and a transcript.
struct Fixture {
    dir: TempDir,
    log: TempDir,
    home: TempDir,
}

fn iso(seconds_ago: u64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    resume_tui::core::time::Timestamp((now - seconds_ago) as i64).to_iso()
}

const WORKFLOW: &str = "projects/PROJ-001-demo/ORCHESTRATION.yaml";

fn orchestration(updated_at: &str) -> String {
    format!(
        r#"workflow:
  id: "demo-wf-001"
  status: "ACTIVE"
resumption:
  recovery_state:
    last_checkpoint: "CP-001"
    current_phase: 2
    current_phase_name: "Build"
    workflow_status: "ACTIVE"
    current_activity: "qg-2-iteration-1"
    next_step: "Deploy with GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a then re-score"
    context_fill_at_update: 0.5
    updated_at: "{updated_at}"
  files_to_read:
    - path: "projects/PROJ-001-demo/plan.md"
      priority: 2
  agent_summaries:
    writer: "DONE. password=hunter2 was rotated."
  decision_log:
    - id: "RD-001"
      decision: "Keep the v1 endpoint"
      affects_phases: [3]
      applied: false
"#
    )
}

const MANIFEST: &str = r#"---
resume_schema_version: "1.0"
project_id: "07-x"
project_name: "Nexus X"
current_phase: execution
next_action: execute-project
files_to_load:
  - 01-planning/01-overview.md
current_task: 3
last_updated: "2026-01-03T15:30:00"
---
# Validation Gate
"#;

impl Fixture {
    fn new() -> Fixture {
        let fixture = Fixture {
            dir: tempfile::tempdir().unwrap(),
            log: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        };
        fixture.write(WORKFLOW, &orchestration(&iso(60)));
        fixture.write("projects/PROJ-001-demo/plan.md", "# plan\n");
        fixture.write("02-projects/07-x/01-planning/resume-context.md", MANIFEST);
        fixture.write(
            "02-projects/07-x/01-planning/01-overview.md",
            "# overview\n",
        );
        std::fs::create_dir_all(fixture.root().join(".jerry")).unwrap();
        fixture
    }

    fn nexus(self) -> Fixture {
        std::fs::create_dir_all(self.root().join("00-system/.cache")).unwrap();
        self
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.root().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root().join(rel)).unwrap()
    }

    fn json(&self, rel: &str) -> Value {
        serde_json::from_str(&self.read(rel)).unwrap()
    }

    fn transcript(&self, t: &Transcript) -> PathBuf {
        let path = self.root().join("session.jsonl");
        t.write(&path);
        path
    }

    /// A transcript at 88.6 % of a 200k window that edits inside `dir`.
    fn edits_in(&self, dir: &str) -> PathBuf {
        let mut t = Transcript::new(SESSION);
        let root = self.root().display().to_string();
        t.user("go")
            .tool_use("Read", &format!("{root}/{dir}/a.md"), (10, 10, 100_000))
            .tool_use(
                "Edit",
                &format!("{root}/{dir}/b.md"),
                (1_200, 3_000, 173_000),
            );
        self.transcript(&t)
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(cargo_bin("resume-tui"));
        cmd.arg("hook")
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("RESUME_TUI_LOG_DIR", self.log.path())
            .env("CLAUDE_PROJECT_DIR", self.root())
            .current_dir(self.root());
        cmd
    }

    fn run(&self, args: &[&str], stdin: &str) -> (String, String) {
        self.run_env(args, stdin, &[])
    }

    fn run_env(&self, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (String, String) {
        let mut cmd = self.command(args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "hooks always exit 0");
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.log.path().join("hook.log")).unwrap_or_default()
    }

    fn checkpoints(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.root().join(".jerry/checkpoints"))
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

fn payload(event: &str, transcript: Option<&Path>, extra: Value) -> String {
    let mut value = json!({
        "session_id": SESSION,
        "cwd": "/somewhere/else",
        "hook_event_name": event,
    });
    if let Some(t) = transcript {
        value["transcript_path"] = json!(t);
    }
    if let Value::Object(extra) = extra {
        value.as_object_mut().unwrap().extend(extra);
    }
    value.to_string()
}

fn context_of(stdout: &str, event: &str) -> String {
    assert!(stdout.ends_with('\n'));
    let value: Value = serde_json::from_str(stdout.trim_end()).unwrap();
    let object = value.as_object().unwrap();
    assert_eq!(object.len(), 1, "only hookSpecificOutput: {stdout}");
    let specific = object["hookSpecificOutput"].as_object().unwrap();
    assert_eq!(specific.len(), 2, "{stdout}");
    assert_eq!(specific["hookEventName"], event);
    let text = specific["additionalContext"].as_str().unwrap().to_string();
    assert!(text.chars().count() < 10_000);
    text
}

#[test]
fn precompact_writes_a_design_checkpoint_and_prints_braces() {
    let fx = Fixture::new();
    fx.write(
        ".jerry/checkpoints/cx-004.json",
        r#"{"checkpoint_id":"cx-004"}"#,
    );
    let t = fx.edits_in("projects/PROJ-001-demo");
    let (stdout, _) = fx.run(
        &[],
        &payload("PreCompact", Some(&t), json!({"trigger": "auto", "custom_instructions": "keep api_key=sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA"})),
    );
    assert_eq!(stdout, "{}\n");
    assert_eq!(fx.checkpoints(), ["cx-004.json", "cx-005-checkpoint.json"]);
    let cp = fx.json(".jerry/checkpoints/cx-005-checkpoint.json");
    let keys: Vec<&str> = cp.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "schema_version",
            "event_type",
            "event_id",
            "timestamp",
            "session_id",
            "trigger",
            "context_state",
            "orchestration_state",
            "accumulated_context",
            "recovery_instructions",
            "metadata"
        ]
    );
    assert_eq!(cp["event_id"], "cx-005");
    assert_eq!(cp["session_id"], SESSION);
    assert_eq!(
        cp["trigger"],
        json!({"type": "auto", "source": "PreCompact hook"})
    );
    assert_eq!(
        cp["context_state"]["estimated_fill_before_compaction"],
        0.886
    );
    assert_eq!(cp["context_state"]["estimated_tokens_used"], 177_200);
    assert_eq!(cp["context_state"]["context_window_size"], 200_000);
    assert_eq!(cp["orchestration_state"]["workflow_id"], "demo-wf-001");
    assert_eq!(cp["orchestration_state"]["current_phase"], 2);
    assert_eq!(
        cp["orchestration_state"]["current_activity"],
        "qg-2-iteration-1"
    );
    assert_eq!(
        cp["recovery_instructions"]["files_to_read"][0]["path"],
        WORKFLOW
    );
    assert_eq!(cp["metadata"]["acknowledged"], false);
    let text = cp.to_string();
    for secret in [
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "hunter2",
        "sk-ant-api03",
    ] {
        assert!(
            !text.contains(secret),
            "{secret} copied into the checkpoint"
        );
    }
    assert!(text.contains("[REDACTED]"));
    assert!(
        fx.log()
            .contains("INFO PreCompact: checkpoint cx-005 (new)"),
        "{}",
        fx.log()
    );
}

#[test]
fn precompact_within_the_dedupe_window_updates_the_same_checkpoint() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let input = payload("PreCompact", Some(&t), json!({"trigger": "manual"}));
    for _ in 0..3 {
        assert_eq!(fx.run(&[], &input).0, "{}\n");
    }
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);
    let other = input.replace(SESSION, "sess-2");
    fx.run(&[], &other);
    assert_eq!(
        fx.checkpoints(),
        ["cx-001-checkpoint.json", "cx-002-checkpoint.json"]
    );
}

#[test]
fn parallel_precompact_firings_make_one_checkpoint() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let input = payload("PreCompact", Some(&t), json!({"trigger": "auto"}));
    let children: Vec<_> = (0..4)
        .map(|_| {
            let mut child = fx
                .command(&[])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(input.as_bytes())
                .unwrap();
            child
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(String::from_utf8(out.stdout).unwrap(), "{}\n");
    }
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);
}

#[test]
fn precompact_in_a_nexus_workspace_writes_the_flat_precompact_state() {
    let fx = Fixture::new().nexus();
    let mut t = Transcript::new(SESSION);
    let root = fx.root().display().to_string();
    t.tool_use(
        "Read",
        &format!("{root}/02-projects/07-x/01-planning/01-overview.md"),
        (1, 1, 50_000),
    );
    let path = fx.transcript(&t);
    assert_eq!(
        fx.run(
            &["PreCompact"],
            &payload("PreCompact", Some(&path), json!({}))
        )
        .0,
        "{}\n"
    );
    let text = fx.read("00-system/.cache/precompact_state.json");
    assert!(text.len() < 1024);
    let state: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = state
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "active_project_id",
            "confidence",
            "detection_method",
            "timestamp"
        ]
    );
    assert_eq!(state["active_project_id"], "07-x");
    assert_eq!(state["confidence"], "medium", "reads only");
    assert_eq!(state["detection_method"], "transcript");
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);
}

#[test]
fn precompact_without_transcript_falls_back_and_still_writes() {
    let fx = Fixture::new();
    let missing = fx.root().join("gone.jsonl");
    let (stdout, _) = fx.run(&[], &payload("PreCompact", Some(&missing), json!({})));
    assert_eq!(stdout, "{}\n");
    let cp = fx.json(".jerry/checkpoints/cx-001-checkpoint.json");
    assert_eq!(
        cp["context_state"]["estimated_fill_before_compaction"],
        Value::Null
    );
    assert_eq!(
        cp["orchestration_state"]["workflow_id"], "demo-wf-001",
        "fallback: the active workflow"
    );
    assert!(
        fx.log().contains("ERROR PreCompact: transcript"),
        "{}",
        fx.log()
    );
}

#[test]
fn postcompact_records_the_summary_into_the_sessions_checkpoint() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    fx.run(&[], &payload("PreCompact", Some(&t), json!({})));
    let (stdout, _) = fx.run(
        &[],
        &payload(
            "PostCompact",
            Some(&t),
            json!({"trigger": "auto", "compact_summary": "Kept: phase 2. token=abcdef123456"}),
        ),
    );
    assert_eq!(stdout, "");
    let cp = fx.json(".jerry/checkpoints/cx-001-checkpoint.json");
    assert_eq!(cp["post_compact"]["trigger"], "auto");
    assert_eq!(
        cp["post_compact"]["compact_summary"],
        "Kept: phase 2. token=[REDACTED]"
    );
    assert!(cp["post_compact"]["recorded_at"].is_string());
    assert_eq!(cp["event_id"], "cx-001", "the rest is kept");
}

#[test]
fn user_prompt_submit_measures_records_and_injects_without_checkpointing() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    fx.run(&[], &payload("PreCompact", Some(&t), json!({})));
    let before = fx.checkpoints();
    let (stdout, _) = fx.run(
        &[],
        &payload("UserPromptSubmit", Some(&t), json!({"prompt": "next"})),
    );
    let text = context_of(&stdout, "UserPromptSubmit");
    assert!(text.contains("<context-monitor>"), "{text}");
    assert!(text.contains("CRITICAL"), "{text}");
    assert!(text.contains("<compaction-alert>"), "{text}");
    assert!(
        text.contains(".jerry/checkpoints/cx-001-checkpoint.json"),
        "{text}"
    );
    assert_eq!(fx.checkpoints(), before, "no checkpoint on a prompt");
    let state = fx.json(".jerry/context-monitor-state.json");
    let keys: Vec<&str> = state
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "schema_version",
            "session_id",
            "fill",
            "tokens_used",
            "window",
            "window_source",
            "level",
            "updated_at",
            "transcript_path"
        ]
    );
    assert_eq!(state["fill"], 0.886);
    assert_eq!(state["level"], "CRITICAL");
    assert_eq!(state["window"], 200_000);
}

#[test]
fn user_prompt_submit_low_fill_and_uncertain_window_inject_nothing() {
    let fx = Fixture::new();
    let mut t = Transcript::new(SESSION);
    t.assistant((10, 10, 50_000));
    let low = fx.transcript(&t);
    let (stdout, _) = fx.run(&[], &payload("UserPromptSubmit", Some(&low), json!({})));
    assert_eq!(stdout, "");
    assert_eq!(fx.json(".jerry/context-monitor-state.json")["level"], "LOW");

    // 170k tokens of an unknown model: 85 % of 200k, but the window may be 1M.
    let mut t = Transcript::new(SESSION).with_model("claude-opus-4-6");
    t.assistant((0, 0, 170_000));
    let unsure = fx.transcript(&t);
    let (stdout, _) = fx.run(&[], &payload("UserPromptSubmit", Some(&unsure), json!({})));
    assert_eq!(stdout, "", "never escalate on a guessed window");
    let state = fx.json(".jerry/context-monitor-state.json");
    assert_eq!(
        (state["fill"].as_f64(), state["level"].as_str()),
        (Some(0.85), Some("LOW"))
    );

    let (stdout, _) = fx.run_env(
        &[],
        &payload("UserPromptSubmit", Some(&unsure), json!({})),
        &[("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "180000")],
    );
    let text = context_of(&stdout, "UserPromptSubmit");
    assert!(text.contains("COMPACTION"), "{text}");
    assert_eq!(
        fx.json(".jerry/context-monitor-state.json")["window"],
        180_000
    );
}

#[test]
fn session_start_by_source() {
    let fx = Fixture::new().nexus();
    let t = fx.edits_in("projects/PROJ-001-demo");
    fx.run(&[], &payload("PreCompact", Some(&t), json!({})));

    let clear = payload("SessionStart", Some(&t), json!({"source": "clear"}));
    assert_eq!(fx.run(&[], &clear).0, "");
    let startup = payload("SessionStart", Some(&t), json!({"source": "startup"}));
    assert_eq!(
        fx.run(&[], &startup).0,
        "",
        "startup summary is off by default"
    );

    // The precompact state names no Nexus project (the Jerry workflow was active):
    // Template 1 from the unacknowledged checkpoint, and the state is consumed.
    let compact = payload("SessionStart", Some(&t), json!({"source": "compact"}));
    let text = context_of(&fx.run(&[], &compact).0, "SessionStart");
    assert!(text.contains("demo-wf-001"), "{text}");
    assert!(
        !fx.root()
            .join("00-system/.cache/precompact_state.json")
            .exists()
    );

    fx.write(
        "00-system/.cache/precompact_state.json",
        r#"{"active_project_id":"07-x","confidence":"high","detection_method":"transcript","timestamp":"2026-01-03T14:00:00"}"#,
    );
    let text = context_of(&fx.run(&[], &compact).0, "SessionStart");
    assert!(
        text.contains("07-x") && text.contains("01-overview.md"),
        "{text}"
    );
    assert!(
        !fx.root()
            .join("00-system/.cache/precompact_state.json")
            .exists(),
        "consumed"
    );
}

#[test]
fn session_start_startup_summary_when_configured() {
    let fx = Fixture::new();
    let config = fx.root().join("config.toml");
    std::fs::write(&config, "[hooks]\nstartup_summary = true\n").unwrap();
    let (stdout, _) = fx.run_env(
        &[],
        &payload("SessionStart", None, json!({"source": "startup"})),
        &[("RESUME_TUI_CONFIG", config.to_str().unwrap())],
    );
    let text = context_of(&stdout, "SessionStart");
    assert!(
        text.starts_with("resume-tui: active workflow demo-wf-001"),
        "{text}"
    );
}

#[test]
fn post_tool_use_warns_about_a_stale_resumption_section() {
    let fx = Fixture::new();
    fx.write(WORKFLOW, &orchestration(&iso(3 * 3600)));
    let edit = |tool: &str| {
        payload(
            "PostToolUse",
            None,
            json!({"tool_name": tool, "tool_input": {"file_path": fx.root().join(WORKFLOW)}}),
        )
    };
    let text = context_of(&fx.run(&[], &edit("Edit")).0, "PostToolUse");
    assert!(
        text.contains("STALE") || text.contains("CRITICAL"),
        "{text}"
    );
    assert!(
        text.contains("resumption.recovery_state.updated_at"),
        "{text}"
    );
    assert!(!text.contains('\n'), "one paragraph");
    assert_eq!(fx.run(&[], &edit("Read")).0, "");

    fx.write(WORKFLOW, &orchestration(&iso(30)));
    assert_eq!(fx.run(&[], &edit("Write")).0, "", "fresh: nothing to say");
    let other = payload(
        "PostToolUse",
        None,
        json!({"tool_name": "Edit", "tool_input": {"file_path": fx.root().join("projects/PROJ-001-demo/plan.md")}}),
    );
    assert_eq!(fx.run(&[], &other).0, "");
}

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
        // The event argument says PreCompact: it owes `{}` even on bad input.
        let expected = "{}\n";
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
    assert_eq!(fx.run(&["PreCompact"], "garbage").0, "{}\n");
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
    assert_eq!(stdout, "{}\n");
    assert!(
        fx.log()
            .contains("ERROR PreCompact: project folder /nonexistent/project"),
        "{}",
        fx.log()
    );

    // A file where the checkpoints folder should be: nothing can be created there.
    fx.write(".jerry/checkpoints", "in the way");
    assert_eq!(fx.run(&[], &input).0, "{}\n");
    assert!(
        fx.log().contains("ERROR PreCompact: write failed"),
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
