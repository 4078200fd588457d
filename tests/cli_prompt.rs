//! `prompt`, `alert` and `monitor` through the binary, over a small workspace
//! built from the render fixtures.

#[path = "support/folder.rs"]
mod folder;
#[path = "support/transcript.rs"]
mod transcript;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use folder::write;
use serde_json::Value;

const STATE: &str = "projects/PROJ-001-oss-release/ORCHESTRATION.yaml";

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/render/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

/// The golden Jerry workflow, its listed files, one unacknowledged checkpoint,
/// and a Nexus project.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, STATE, &fixture("proj-001-qg2.yaml"));
    write(
        root,
        "projects/PROJ-001-oss-release/ORCHESTRATION_PLAN.md",
        "# plan\n",
    );
    write(
        root,
        "projects/PROJ-001-oss-release/WORKTRACKER.md",
        "# tracker\n",
    );
    write(
        root,
        ".jerry/checkpoints/cx-001-checkpoint.json",
        &fixture("cx-001-checkpoint.json"),
    );
    write(
        root,
        "02-projects/24-project-skills-research-resume-expansion/01-planning/resume-context.md",
        &fixture("resume-context.md"),
    );
    dir
}

fn cmd(root: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("resume-tui").unwrap();
    cmd.arg("--root")
        .arg(root)
        .args(args)
        .env("RESUME_TUI_CONFIG", root.join("no-config.toml"))
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("CLAUDE_CODE_AUTO_COMPACT_WINDOW");
    cmd
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

fn json(cmd: &mut Command) -> Value {
    serde_json::from_str(&stdout(cmd)).unwrap()
}

#[test]
fn prompt_prints_template_1_with_the_unacknowledged_checkpoint_to_read() {
    let ws = workspace();
    let text = stdout(&mut cmd(
        ws.path(),
        &["prompt", "feat015-licmig-20260217-001"],
    ));
    assert!(text.starts_with("You are resuming a workflow that was interrupted."));
    assert!(text.contains("\nWORKFLOW: feat015-licmig-20260217-001\n"));
    assert!(text.contains("\n1. [PRIORITY 1] projects/PROJ-001-oss-release/ORCHESTRATION.yaml\n"));
    assert!(!text.contains("[not found]"), "listed files exist: {text}");
    assert!(
        text.contains("\n4. [CHECKPOINT] .jerry/checkpoints/cx-001-checkpoint.json\n"),
        "{text}"
    );
    // A prefix of the id names the project too.
    let again = stdout(&mut cmd(ws.path(), &["prompt", "feat015"]));
    assert_eq!(text, again);
}

#[test]
fn prompt_json_has_text_tokens_truncation_and_sources() {
    let ws = workspace();
    let text = stdout(&mut cmd(ws.path(), &["prompt", "feat015"]));
    let value = json(&mut cmd(ws.path(), &["prompt", "feat015", "--json"]));
    assert_eq!(value["text"].as_str().unwrap(), text);
    assert_eq!(
        value["tokens_estimate"].as_u64().unwrap() as usize,
        text.chars().count().div_ceil(4)
    );
    assert_eq!(value["truncated"], Value::Bool(false));
    assert_eq!(value["sources"][0], STATE);
    assert_eq!(
        value["sources"][1],
        ".jerry/checkpoints/cx-001-checkpoint.json"
    );
    assert!(value.get("copied").is_none());
}

#[test]
fn prompt_copy_to_a_file_writes_the_text_and_says_so() {
    let ws = workspace();
    let target = ws.path().join("copied.txt");
    let backend = format!("file:{}", target.display());
    let text = stdout(&mut cmd(ws.path(), &["prompt", "feat015"]));
    let assert = cmd(
        ws.path(),
        &["prompt", "feat015", "--copy", "--clipboard", &backend],
    )
    .assert()
    .success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("Written to"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), text);

    std::fs::remove_file(&target).unwrap();
    let value = json(&mut cmd(
        ws.path(),
        &[
            "prompt",
            "feat015",
            "--json",
            "--copy",
            "--clipboard",
            &backend,
        ],
    ));
    assert_eq!(value["copied"]["backend_used"], backend.as_str());
    assert_eq!(value["copied"]["confirmed"], Value::Bool(true));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), text);
}

#[test]
fn a_copy_that_cannot_be_made_fails_the_command() {
    let ws = workspace();
    let backend = format!("file:{}", ws.path().join("no/such/dir/p.txt").display());
    exits(
        &mut cmd(
            ws.path(),
            &["prompt", "feat015", "--copy", "--clipboard", &backend],
        ),
        1,
        "Not copied",
    );
    exits(
        &mut cmd(
            ws.path(),
            &["prompt", "feat015", "--copy", "--clipboard", "xclip"],
        ),
        1,
        "unknown clipboard backend",
    );
    exits(
        &mut cmd(
            ws.path(),
            &["prompt", "feat015", "--copy", "--clipboard", "off"],
        ),
        0,
        "Clipboard is off",
    );
}

/// With no terminal (a new session, output to a pipe), OSC 52 has nowhere to go:
/// the printed text is the copy, the command says so and succeeds.
#[test]
fn a_copy_with_no_terminal_falls_back_to_the_printed_text() {
    use std::os::unix::process::CommandExt;
    let ws = workspace();
    let text = stdout(&mut cmd(ws.path(), &["prompt", "feat015"]));
    let mut detached = std::process::Command::new(env!("CARGO_BIN_EXE_resume-tui"));
    detached
        .arg("--root")
        .arg(ws.path())
        .args(["prompt", "feat015", "--copy", "--clipboard", "osc52"])
        .env("RESUME_TUI_CONFIG", ws.path().join("no-config.toml"))
        .env_remove("CLAUDE_PROJECT_DIR");
    // SAFETY: setsid is async-signal-safe; it drops the controlling terminal.
    unsafe {
        detached.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let out = detached.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
    assert!(
        stderr.contains("no terminal to send OSC 52 to; the text is on standard output"),
        "{stderr}"
    );
}

/// Runs `cmd`, expects exit `code` and a standard error containing `needle`.
fn exits(cmd: &mut Command, code: i32, needle: &str) {
    let out = cmd.assert().code(code).get_output().stderr.clone();
    let stderr = String::from_utf8_lossy(&out);
    assert!(stderr.contains(needle), "stderr lacks {needle:?}: {stderr}");
}

#[test]
fn prompt_cd_gives_one_shell_line_starting_claude_in_the_repository() {
    let ws = workspace();
    let text = stdout(&mut cmd(ws.path(), &["prompt", "feat015"]));
    let line = stdout(&mut cmd(ws.path(), &["prompt", "feat015", "--cd"]));
    let root: PathBuf = std::fs::canonicalize(ws.path()).unwrap();
    let head = format!("cd '{}' && claude 'You are resuming", root.display());
    assert!(line.starts_with(&head), "{line}");
    assert!(line.ends_with("is limited.'\n"));
    assert_eq!(line.matches('\'').count() % 2, 0);
    // The prompt inside the quotes is the prompt itself (it holds no single quote
    // other than the escaped ones).
    let inner = line
        .strip_prefix(&format!("cd '{}' && claude '", root.display()))
        .unwrap()
        .strip_suffix("'\n")
        .unwrap()
        .replace(r"'\''", "'");
    assert_eq!(inner, text.trim_end());
}

#[test]
fn prompt_for_a_nexus_project_renders_the_loading_sequence() {
    let ws = workspace();
    let text = stdout(&mut cmd(
        ws.path(),
        &["prompt", "24-project", "--style", "plain"],
    ));
    assert!(text.is_ascii());
    assert!(text.starts_with("*** CATASTROPHIC MANDATORY LOADING SEQUENCE ***"));
    let root = std::fs::canonicalize(ws.path()).unwrap();
    let file = format!(
        "   1. {}/02-projects/24-project-skills-research-resume-expansion/01-planning/overview.md  (not found)\n",
        root.display()
    );
    assert!(text.contains(&file), "{text}");
    let emoji = stdout(&mut cmd(ws.path(), &["prompt", "24-project"]));
    assert!(emoji.starts_with("🚨🚨🚨"));
}

#[test]
fn unknown_projects_and_checkpoints_are_usage_errors() {
    let ws = workspace();
    exits(
        &mut cmd(ws.path(), &["prompt", "nope"]),
        1,
        "no project \"nope\"",
    );
    exits(
        &mut cmd(ws.path(), &["alert", "feat015", "cx-009"]),
        1,
        "known: cx-001",
    );
}

#[test]
fn alert_defaults_to_the_newest_unacknowledged_checkpoint() {
    let ws = workspace();
    let text = stdout(&mut cmd(ws.path(), &["alert", "feat015"]));
    assert!(text.starts_with("<compaction-alert>\n"));
    assert!(text.contains("CHECKPOINT: .jerry/checkpoints/cx-001-checkpoint.json\n"));
    assert!(text.contains("LAST SCORE: 0.960 (qg-2, iteration 1)\n"));
    let named = stdout(&mut cmd(ws.path(), &["alert", "feat015", "1"]));
    assert_eq!(text, named);
    let value = json(&mut cmd(
        ws.path(),
        &["alert", "feat015", "cx-001", "--json"],
    ));
    assert!(value["tokens_estimate"].as_u64().unwrap() <= 500);
}

#[test]
fn monitor_reads_a_transcript_never_a_checkpoints_pre_compaction_fill() {
    let ws = workspace();
    // The checkpoint recorded 88.6 % before its compaction: not the fill now.
    let text = stdout(&mut cmd(ws.path(), &["monitor", "feat015"]));
    assert!(
        text.contains("CONTEXT STATUS: UNKNOWN (fill not measured)\n"),
        "{text}"
    );
    assert!(!text.contains("88.6%"), "{text}");

    let mut t = transcript::Transcript::new("s1");
    t.user("go").assistant((1_000, 400, 145_000));
    let path = ws.path().join("t.jsonl");
    t.write(&path);
    let mut c = cmd(
        ws.path(),
        &[
            "monitor",
            "feat015",
            "--transcript",
            path.to_str().unwrap(),
            "--json",
        ],
    );
    c.env("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "200000");
    let value = json(&mut c);
    let text = value["text"].as_str().unwrap();
    assert!(
        text.contains("CONTEXT STATUS: WARNING (73.2% filled)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "Tokens used: 146,400 / 200,000 (window: CLAUDE_CODE_AUTO_COMPACT_WINDOW=200000)\n"
        ),
        "{text}"
    );
    assert_eq!(value["sources"][1], path.display().to_string());

    exits(
        &mut cmd(
            ws.path(),
            &[
                "monitor",
                "feat015",
                "--transcript",
                "/no/such/transcript.jsonl",
            ],
        ),
        1,
        "/no/such/transcript.jsonl",
    );
}
