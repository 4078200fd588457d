//! Runs the real hook binary on a workspace: one session's PreCompact (twice, as
//! Claude Code fires it several times per compaction) and PostCompact, with a
//! generated transcript that edits inside a given folder.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::json;

use super::transcript::Transcript;

/// One hook run: its event, exit code and both outputs.
#[derive(Debug)]
pub struct HookRun {
    pub event: &'static str,
    pub session: String,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl HookRun {
    /// Whether the run kept the contract: exit 0 and, for the runs these tests
    /// make (no context to inject, PreCompact without steering), empty stdout.
    pub fn kept_contract(&self) -> bool {
        self.code == Some(0) && self.stdout.is_empty()
    }
}

pub struct HookRunner {
    pub root: PathBuf,
    pub log: PathBuf,
    pub home: PathBuf,
    pub transcripts: PathBuf,
}

impl HookRunner {
    /// Writes `session`'s transcript: a Read then an Edit inside `root/edits_in`.
    pub fn transcript(&self, session: &str, edits_in: &str) -> PathBuf {
        let dir = self.root.join(edits_in).display().to_string();
        let mut t = Transcript::new(session);
        t.user("go")
            .tool_use("Read", &format!("{dir}/a.md"), (10, 10, 100_000))
            .tool_use("Edit", &format!("{dir}/b.md"), (1_200, 3_000, 173_000));
        let path = self.transcripts.join(format!("{session}.jsonl"));
        t.write(&path);
        path
    }

    pub fn run(&self, event: &'static str, session: &str, transcript: &Path) -> HookRun {
        let mut payload = json!({
            "session_id": session,
            "transcript_path": transcript,
            "cwd": "/somewhere/else",
            "hook_event_name": event,
            "trigger": "auto",
        });
        if event == "PostCompact" {
            payload["compact_summary"] = json!(format!("summary of {session}"));
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_resume-tui"))
            .args(["hook", event])
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("RESUME_TUI_LOG_DIR", &self.log)
            .env("CLAUDE_PROJECT_DIR", &self.root)
            .current_dir(&self.root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(payload.to_string().as_bytes()).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        HookRun {
            event,
            session: session.to_string(),
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// A compaction of `session`: PreCompact twice (the second run updates the
    /// checkpoint of the first), then PostCompact.
    pub fn compaction(&self, session: &str, edits_in: &str) -> Vec<HookRun> {
        let transcript = self.transcript(session, edits_in);
        vec![
            self.run("PreCompact", session, &transcript),
            self.run("PreCompact", session, &transcript),
            self.run("PostCompact", session, &transcript),
        ]
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(self.log.join("hook.log")).unwrap_or_default()
    }
}
