//! The real Claude Code client (`RESUME_TUI_CLAUDE`: one `claude` binary, or several
//! separated by `:`) against the stand-in API (`real_client_api`), in a copy of the
//! demo workspace with `resume-tui hooks install --project`, a fresh `HOME` per
//! test, and `PATH` leading to the client under test (which `hooks install` asks
//! for its version).
//!
//! Every run of `claude` has a deadline; running out of it kills the client and
//! fails the test with what it printed.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::real_client_api::Api;

pub const PAYOUTS_STATE: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
pub const NEEDS: &str = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]";
pub const DEADLINE: Duration = Duration::from_secs(90);

/// One client under test.
#[derive(Clone, Debug)]
pub struct Client {
    pub claude: PathBuf,
    /// `major.minor.patch` from `claude --version`.
    pub version: (u32, u32, u32),
}

impl Client {
    pub fn label(&self) -> String {
        let (a, b, c) = self.version;
        format!("{a}.{b}.{c}")
    }

    pub fn at_least(&self, version: (u32, u32, u32)) -> bool {
        self.version >= version
    }
}

/// The clients `RESUME_TUI_CLAUDE` names; a missing or silent one fails the test.
pub fn clients() -> Vec<Client> {
    if !cfg!(resume_tui_claude) {
        panic!(
            "this test runs Claude Code but is not marked #[cfg_attr(not(resume_tui_claude), ignore = \"{NEEDS}\")]"
        );
    }
    let var = std::env::var("RESUME_TUI_CLAUDE").unwrap_or_default();
    assert!(
        !var.is_empty(),
        "RESUME_TUI_CLAUDE was set when the tests were built but is not set now: \
         set it to the claude binary (or several, separated by `:`)"
    );
    var.split(':')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let claude = PathBuf::from(p);
            assert!(
                claude.is_file(),
                "RESUME_TUI_CLAUDE names {p}, which does not exist: install Claude Code \
                 (scripts/claude-code-install.sh) or leave RESUME_TUI_CLAUDE unset"
            );
            let out = Command::new(&claude)
                .arg("--version")
                .stdin(Stdio::null())
                .output()
                .unwrap_or_else(|e| panic!("RESUME_TUI_CLAUDE: {p} --version: {e}"));
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            let version = parse_version(&text)
                .unwrap_or_else(|| panic!("RESUME_TUI_CLAUDE: {p} --version printed {text:?}"));
            Client { claude, version }
        })
        .collect()
}

/// Runs `test` once per client; every version runs even when one fails, and the
/// test then fails naming the versions that did (each one's message is above).
pub fn each(test: impl Fn(&Client)) {
    let mut failed = Vec::new();
    for client in clients() {
        eprintln!("-- Claude Code {}", client.label());
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| test(&client)));
        if run.is_err() {
            failed.push(client.label());
        }
    }
    assert!(
        failed.is_empty(),
        "failed on Claude Code {}",
        failed.join(", ")
    );
}

fn parse_version(text: &str) -> Option<(u32, u32, u32)> {
    let word = text.split_whitespace().next()?;
    let mut parts = word.split('.').map(|n| n.parse::<u32>().ok());
    Some((parts.next()??, parts.next()??, parts.next()??))
}

/// A workspace, a home and the stand-in API for one client.
pub struct World {
    pub client: Client,
    /// `--model` of every run: a model that only runs at 200k unless a test sets
    /// another (each version's default model differs, 2.1.332's has 1M natively,
    /// and a Sonnet 4.x may run at 1M: without evidence its window is unknown).
    pub model: String,
    pub api: Api,
    pub home: tempfile::TempDir,
    pub root: tempfile::TempDir,
}

impl World {
    /// The demo workspace with resume-tui's hooks installed for `client`.
    pub fn new(client: &Client) -> World {
        let world = World::bare(client);
        let out = world.resume_tui(&["hooks", "install", "--project"]);
        assert!(out.status.success(), "hooks install: {}", text(&out));
        world
    }

    /// The demo workspace, nothing installed.
    pub fn bare(client: &Client) -> World {
        let root = tempfile::Builder::new()
            .prefix("real-client-ws")
            .tempdir()
            .unwrap();
        // As `--demo` does: times relative to now, so fresh projects are fresh.
        resume_tui::io::demo::unpack_into(root.path(), resume_tui::io::clock::now()).unwrap();
        let home = tempfile::Builder::new()
            .prefix("real-client-home")
            .tempdir()
            .unwrap();
        let bin = home.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(home.path().join("tmp")).unwrap();
        std::os::unix::fs::symlink(&client.claude, bin.join("claude")).unwrap();
        // `hooks install --project` names the binary as found on PATH (a command
        // every clone of the project runs).
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_resume-tui"), bin.join("resume-tui"))
            .unwrap();
        // No onboarding, no trust dialog, no update check: what a user has after the first run.
        let state = serde_json::json!({
            "hasCompletedOnboarding": true,
            "customApiKeyResponses": {"approved": ["dummy"], "rejected": []},
            "numStartups": 3,
            "autoUpdates": false,
            "projects": {root.path().display().to_string(): {
                "hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
        });
        std::fs::write(home.path().join(".claude.json"), state.to_string()).unwrap();
        World {
            client: client.clone(),
            model: "claude-haiku-4-5".to_string(),
            api: Api::start(),
            home,
            root,
        }
    }

    pub fn root(&self) -> &Path {
        self.root.path()
    }

    fn path_var(&self) -> String {
        format!(
            "{}:/usr/local/bin:/usr/bin:/bin",
            self.home.path().join("bin").display()
        )
    }

    fn env(&self, cmd: &mut Command) {
        cmd.env_clear()
            .env("HOME", self.home.path())
            .env("PATH", self.path_var())
            // The client's own temporary files stay in the home, removed with it.
            .env("TMPDIR", self.home.path().join("tmp"))
            .env("LANG", "C.UTF-8");
    }

    /// `resume-tui ARGS` in the workspace, as the user (same HOME and PATH).
    pub fn resume_tui(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_resume-tui"));
        self.env(&mut cmd);
        cmd.current_dir(self.root()).args(args).stdin(Stdio::null());
        cmd.output().unwrap()
    }

    /// `claude ARGS` in the workspace against the stand-in, with a deadline.
    pub fn claude(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(&self.client.claude);
        self.env(&mut cmd);
        cmd.current_dir(self.root())
            .env("ANTHROPIC_BASE_URL", self.api.base_url())
            .env("ANTHROPIC_API_KEY", "dummy")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let child = cmd.spawn().unwrap();
        let pid = child.id();
        let started = Instant::now();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(child.wait_with_output());
        });
        match rx.recv_timeout(DEADLINE) {
            Ok(out) => out.unwrap(),
            Err(_) => {
                let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
                panic!(
                    "claude {} {args:?} did not finish within {:?}",
                    self.client.label(),
                    started.elapsed()
                )
            }
        }
    }

    /// `claude -p PROMPT --output-format json [EXTRA…]`: the session id it printed.
    pub fn print(&self, prompt: &str, extra: &[&str]) -> String {
        let mut args = vec!["-p", prompt, "--output-format", "json"];
        args.extend_from_slice(&["--model", &self.model]);
        args.extend_from_slice(extra);
        let out = self.claude(&args);
        let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            panic!(
                "claude {} {args:?}: no JSON result: {}",
                self.client.label(),
                text(&out)
            )
        });
        assert!(
            json["is_error"] != true,
            "claude {} {args:?} reported an error: {json}\n{}",
            self.client.label(),
            text(&out)
        );
        json["session_id"]
            .as_str()
            .unwrap_or_else(|| panic!("no session_id in {json}"))
            .to_string()
    }

    /// A session that reads the payouts workflow's state file (and, with `edit`,
    /// edits it: the model's tool calls come from the stand-in): its id.
    pub fn work_on_payouts(&self, edit: bool) -> String {
        let file = self.root().join(PAYOUTS_STATE).display().to_string();
        let mut turns = vec![vec![
            serde_json::json!({"type": "tool_use", "id": "toolu_read01",
            "name": "Read", "input": {"file_path": file}}),
        ]];
        if edit {
            turns.push(vec![
                serde_json::json!({"type": "tool_use", "id": "toolu_edit01",
                "name": "Edit", "input": {"file_path": file,
                    "old_string": "current_activity: \"qg-2-iteration-2\"",
                    "new_string": "current_activity: \"qg-2-iteration-3\""}}),
            ]);
        }
        let mut answer = self.api.answer();
        answer.turns = turns.into();
        self.api.set(answer);
        let session = self.print(
            "Work on the payouts workflow.",
            &["--allowedTools", "Read,Edit"],
        );
        let left = self.api.answer().turns.len();
        assert_eq!(
            left,
            0,
            "{}: the client did not ask for every scripted turn",
            self.client.label()
        );
        session
    }

    /// `claude -p PROMPT --resume SESSION`.
    pub fn resume(&self, session: &str, prompt: &str) -> String {
        self.print(prompt, &["--resume", session])
    }

    /// The hook log (resume-tui's platform data folder under this HOME).
    pub fn hook_log(&self) -> String {
        std::fs::read_to_string(self.home.path().join(".local/share/resume-tui/hook.log"))
            .unwrap_or_default()
    }

    /// The checkpoints in `.jerry/checkpoints/`, by file name, parsed.
    pub fn checkpoints(&self) -> Vec<(String, Value)> {
        let dir = self.root().join(".jerry/checkpoints");
        let mut all: Vec<(String, Value)> = std::fs::read_dir(&dir)
            .map(|d| {
                d.flatten()
                    .filter_map(|e| {
                        let name = e.file_name().to_string_lossy().to_string();
                        let text = std::fs::read_to_string(e.path()).ok()?;
                        Some((name, serde_json::from_str(&text).ok()?))
                    })
                    .collect()
            })
            .unwrap_or_default();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    }

    /// The checkpoints of `session`.
    pub fn checkpoints_of(&self, session: &str) -> Vec<(String, Value)> {
        self.checkpoints()
            .into_iter()
            .filter(|(_, c)| c["session_id"] == session)
            .collect()
    }

    /// The texts of the model's requests (not the summarisation's), in order.
    pub fn prompts(&self) -> Vec<String> {
        self.api
            .messages()
            .iter()
            .filter(|r| !r.is_summarisation() && r.body["tools"].is_array())
            .map(|r| r.text())
            .collect()
    }

    /// The hooks' additionalContext in the last model request (not a summarisation).
    pub fn last_contexts(&self) -> String {
        self.api
            .messages()
            .iter()
            .rev()
            .find(|r| !r.is_summarisation())
            .map(|r| r.hook_contexts().join("\n---\n"))
            .unwrap_or_default()
    }

    /// The transcript of `session` (Claude Code's project folder under HOME).
    pub fn transcript(&self, session: &str) -> Option<PathBuf> {
        let projects = self.home.path().join(".claude/projects");
        std::fs::read_dir(projects)
            .ok()?
            .flatten()
            .map(|d| d.path().join(format!("{session}.jsonl")))
            .find(|p| p.is_file())
    }
}

impl Drop for World {
    /// With `RESUME_TUI_CLAUDE_DUMP=<folder>`, keeps the requests, the hook log and
    /// the transcripts there (for reading what the client did; not for CI).
    fn drop(&mut self) {
        let Some(dir) = std::env::var_os("RESUME_TUI_CLAUDE_DUMP") else {
            return;
        };
        let dir = PathBuf::from(dir).join(format!(
            "{}-{}",
            self.client.label(),
            self.root()
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
        ));
        let _ = std::fs::create_dir_all(&dir);
        let requests: Vec<String> = self
            .api
            .requests()
            .iter()
            .map(|r| {
                serde_json::json!({"path": r.path, "headers": r.headers, "body": r.body})
                    .to_string()
            })
            .collect();
        let _ = std::fs::write(dir.join("requests.jsonl"), requests.join("\n"));
        let _ = std::fs::write(dir.join("hook.log"), self.hook_log());
        for from in [self.home.path().join(".claude"), self.root().join(".jerry")] {
            let _ = Command::new("/bin/cp")
                .arg("-r")
                .arg(from)
                .arg(&dir)
                .status();
        }
    }
}

/// Interactive `claude` in a tmux pane of its own (a server per pane, killed on drop).
pub struct Pane {
    socket: PathBuf,
}

impl World {
    /// `claude ARGS` interactively in a 140×40 tmux pane, in the workspace.
    pub fn interactive(&self, args: &[&str]) -> Pane {
        let tmux_runs = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(
            tmux_runs,
            "the interactive real-client tests drive tmux: install tmux"
        );
        let socket = self.home.path().join("tmux.sock");
        let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
        let mut line = format!(
            "cd {} && exec env -i HOME={} PATH={} TMPDIR={} TERM=xterm-256color \
             ANTHROPIC_BASE_URL={} ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
             DISABLE_AUTOUPDATER=1 {}",
            quote(&self.root().display().to_string()),
            quote(&self.home.path().display().to_string()),
            quote(&self.path_var()),
            quote(&self.home.path().join("tmp").display().to_string()),
            self.api.base_url(),
            quote(&self.client.claude.display().to_string()),
        );
        for arg in args {
            line.push(' ');
            line.push_str(&quote(arg));
        }
        let status = Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args([
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                "cc",
                "-x",
                "140",
                "-y",
                "40",
            ])
            .arg(&line)
            .status()
            .unwrap();
        assert!(status.success(), "tmux new-session failed");
        Pane { socket }
    }
}

impl Pane {
    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap()
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "cc"]).stdout).to_string()
    }

    pub fn send(&self, text: &str) {
        self.tmux(&["send-keys", "-t", "cc", "-l", text]);
        self.tmux(&["send-keys", "-t", "cc", "Enter"]);
    }

    /// Polls the screen until `check` holds (bounded by `DEADLINE`).
    pub fn wait_for(&self, what: &str, check: impl Fn(&str) -> bool) {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if check(&screen) {
                return;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "timed out waiting for {what}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Pane {
    /// Kills the server, then waits (bounded) for the client to exit: it writes its
    /// transcript and `~/.claude.json` on the way out, which would race the removal
    /// of the home.
    fn drop(&mut self) {
        let pid = String::from_utf8_lossy(
            &self
                .tmux(&["display-message", "-p", "-t", "cc", "#{pane_pid}"])
                .stdout,
        )
        .trim()
        .to_string();
        let _ = self.tmux(&["kill-server"]);
        let proc = PathBuf::from(format!("/proc/{pid}"));
        let start = Instant::now();
        while !pid.is_empty() && proc.exists() && start.elapsed() < DEADLINE {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

pub fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Polls `check` until it holds or the deadline passes.
pub fn wait_until(what: &str, mut check: impl FnMut() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < DEADLINE, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
