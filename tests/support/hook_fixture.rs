//! The workspace, transcript and process harness of the hook contract tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use assert_cmd::cargo::cargo_bin;
use serde_json::{Value, json};
use tempfile::TempDir;

use super::transcript::Transcript;

pub const SESSION: &str = "sess-1";

/// A workspace with one Jerry workflow, a Nexus project, and a transcript.
pub struct Fixture {
    pub dir: TempDir,
    pub log: TempDir,
    pub home: TempDir,
}

pub fn iso(seconds_ago: u64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    resume_tui::core::time::Timestamp((now - seconds_ago) as i64).to_iso()
}

pub const WORKFLOW: &str = "projects/PROJ-001-demo/ORCHESTRATION.yaml";

pub fn orchestration(updated_at: &str) -> String {
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

pub const MANIFEST: &str = r#"---
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
    /// A fresh copy of the demo workspace, its times about now.
    pub fn demo() -> Fixture {
        let fixture = Fixture {
            dir: tempfile::tempdir().unwrap(),
            log: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        };
        resume_tui::io::demo::unpack_into(fixture.root(), resume_tui::io::clock::now()).unwrap();
        fixture
    }

    pub fn new() -> Fixture {
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

    pub fn nexus(self) -> Fixture {
        std::fs::create_dir_all(self.root().join("00-system/.cache")).unwrap();
        self
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.root().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root().join(rel)).unwrap()
    }

    pub fn json(&self, rel: &str) -> Value {
        serde_json::from_str(&self.read(rel)).unwrap()
    }

    pub fn transcript(&self, t: &Transcript) -> PathBuf {
        let path = self.root().join("session.jsonl");
        t.write(&path);
        path
    }

    /// A transcript at 88.6 % of a 200k window that edits inside `dir`.
    pub fn edits_in(&self, dir: &str) -> PathBuf {
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

    pub fn command(&self, args: &[&str]) -> Command {
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

    /// `command(args)` started with every stream piped.
    pub fn spawn(&self, args: &[&str]) -> Child {
        spawn_piped(self.command(args))
    }

    /// `command(args)` started with every stream piped, `stdin` written and closed.
    pub fn spawn_fed(&self, args: &[&str], stdin: &str) -> Child {
        let mut child = self.spawn(args);
        feed(&mut child, stdin);
        child
    }

    pub fn run(&self, args: &[&str], stdin: &str) -> (String, String) {
        self.run_env(args, stdin, &[])
    }

    pub fn run_env(&self, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (String, String) {
        let mut cmd = self.command(args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        run_command(cmd, stdin)
    }

    /// UserPromptSubmit ("go") in a session with `transcript`: its stdout.
    pub fn prompt_submitted(&self, transcript: &Path) -> String {
        let stdin = payload(
            "UserPromptSubmit",
            Some(transcript),
            json!({"prompt": "go"}),
        );
        self.run(&["UserPromptSubmit"], &stdin).0
    }

    /// What SessionStart after a compaction (no transcript) injects (`context_of`).
    pub fn context_after_compaction(&self) -> String {
        let stdin = payload("SessionStart", None, json!({"source": "compact"}));
        context_of(&self.run(&["SessionStart"], &stdin).0, "SessionStart")
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log.path().join("hook.log")).unwrap_or_default()
    }

    /// Fails, showing the log, unless the hook log holds `text`.
    pub fn assert_logged(&self, text: &str) {
        let log = self.log();
        assert!(log.contains(text), "{text:?} not logged:\n{log}");
    }

    pub fn checkpoints(&self) -> Vec<String> {
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

/// Runs `cmd` with `stdin`; it must exit 0 (as hooks and the status line always do).
pub fn run_command(cmd: Command, stdin: &str) -> (String, String) {
    let mut child = spawn_piped(cmd);
    feed(&mut child, stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "hooks always exit 0");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Starts `cmd` with stdin, stdout and stderr piped.
pub fn spawn_piped(mut cmd: Command) -> Child {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Writes `stdin` to the child and closes its stdin.
pub fn feed(child: &mut Child, stdin: &str) {
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
}

pub fn payload(event: &str, transcript: Option<&Path>, extra: Value) -> String {
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

pub fn context_of(stdout: &str, event: &str) -> String {
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
