//! The context window through the real binary (issue 15, points 1 and 4): `show`,
//! `doctor`, `monitor`, the hook and the dashboard's record name the same window
//! and the evidence that decided it, agree after a compaction that left the fill
//! unknown, and keep window evidence that has fallen out of the transcript's tail.

#[path = "support/transcript.rs"]
mod transcript;

#[path = "support/hook_fixture.rs"]
mod hook_fixture;

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use hook_fixture::{Fixture, SESSION, context_of, payload};
use serde_json::{Value, json};
use transcript::Transcript;

const WORKFLOW_ID: &str = "demo-wf-001";

/// The session's transcript where Claude Code keeps it: named after the session.
fn transcript_at(fx: &Fixture, t: &Transcript) -> PathBuf {
    let path = fx.root().join(format!("{SESSION}.jsonl"));
    t.write(&path);
    path
}

fn prompt(fx: &Fixture, t: &Path, env: &[(&str, &str)]) -> String {
    fx.run_env(
        &[],
        &payload("UserPromptSubmit", Some(t), json!({"prompt": "go"})),
        env,
    )
    .0
}

/// The project records the session (its checkpoint), so its live fill is shown.
fn compacted_once(fx: &Fixture) {
    let t = fx.edits_in("projects/PROJ-001-demo");
    fx.run(
        &[],
        &payload("PreCompact", Some(&t), json!({"trigger": "auto"})),
    );
}

fn cli(fx: &Fixture, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(cargo_bin("resume-tui"));
    cmd.arg("--root")
        .arg(fx.root())
        .args(args)
        .env_clear()
        .env("HOME", fx.home.path())
        .env("RESUME_TUI_CONFIG", fx.home.path().join("none.toml"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn monitor(fx: &Fixture, transcript: &Path) -> String {
    let path = transcript.to_str().unwrap();
    cli(fx, &["monitor", WORKFLOW_ID, "--transcript", path], &[])
}

fn shown_window(fx: &Fixture, env: &[(&str, &str)]) -> Value {
    let show: Value =
        serde_json::from_str(&cli(fx, &["show", WORKFLOW_ID, "--json"], env)).unwrap();
    show["context_window"].clone()
}

fn usage_at(model: &str, tokens: u64) -> Transcript {
    let mut t = Transcript::new(SESSION).with_model(model);
    t.user("go").assistant((1_000, 2_000, tokens - 3_000));
    t
}

#[test]
fn show_names_the_window_and_the_evidence_the_hook_used() {
    let fx = Fixture::new();
    compacted_once(&fx);
    // (transcript, env, config, window, window_source, evidence)
    let mut compacted = Transcript::new(SESSION).with_model("claude-opus-4-7");
    compacted
        .assistant((10, 10, 150_000))
        .compact_boundary("auto", 160_000, Some(9_000))
        .assistant((1_000, 2_000, 167_000));
    type Case<'a> = (Transcript, &'a [(&'a str, &'a str)], u64, &'a str, &'a str);
    let cases: Vec<Case> = vec![
        (
            usage_at("claude-sonnet-4-5-20250929", 170_000),
            &[],
            200_000,
            "known-model",
            "claude-sonnet-4-5-20250929: 200k unless selected with [1m]",
        ),
        (
            usage_at("claude-sonnet-4-5", 170_000),
            &[("ANTHROPIC_MODEL", "sonnet[1m]")],
            1_000_000,
            "configured-model",
            "model sonnet[1m] in ANTHROPIC_MODEL",
        ),
        (
            usage_at("claude-haiku-4-5", 250_000),
            &[],
            1_000_000,
            "observed-usage",
            "250,000 tokens observed, more than 200k allows",
        ),
        (
            usage_at("claude-opus-4-7", 170_000),
            &[],
            1_000_000,
            "native-model",
            "claude-opus-4-7 always runs at 1M",
        ),
        (
            compacted,
            &[],
            200_000,
            "earlier-compaction",
            "an automatic compaction at 160,000 tokens",
        ),
        (
            usage_at("some-future-model", 170_000),
            &[],
            200_000,
            "default",
            "model some-future-model not known to resume-tui",
        ),
    ];
    for (t, env, window, source, evidence) in cases {
        let path = transcript_at(&fx, &t);
        prompt(&fx, &path, env);
        let state = fx.json(".jerry/context-monitor-state.json");
        assert_eq!(state["window_source"], evidence, "the hook's record");
        let shown = shown_window(&fx, env);
        assert_eq!(shown["window"], window, "{shown}");
        assert_eq!(shown["window_source"], source, "{shown}");
        assert_eq!(shown["evidence"], evidence, "{shown}");
        assert_eq!(shown["measured_from"], "transcript", "{shown}");
        assert_eq!(shown["session_id"], SESSION);
        assert!(!shown.to_string().contains("unknown"), "{shown}");
        // The text form says the same.
        let text = cli(&fx, &["show", WORKFLOW_ID], env);
        let section = text.split("\nContext window\n").nth(1).unwrap();
        assert!(
            section.contains(&format!("evidence: {evidence}")),
            "{section}"
        );
        assert!(
            section.contains(&format!("window source: {source}")),
            "{section}"
        );
    }

    // The status line's record, then the explicit override, outrank the transcript.
    let path = transcript_at(&fx, &usage_at("claude-sonnet-4-5", 170_000));
    fx.write(
        &format!(".jerry/context-window/{SESSION}.json"),
        &json!({"session_id": SESSION, "context_window_size": 1_000_000,
            "used_percentage": 17.0, "model": "claude-sonnet-4-5",
            "updated_at": "2026-03-01T12:00:00Z"})
        .to_string(),
    );
    assert_eq!(
        prompt(&fx, &path, &[]),
        "",
        "17 % of Claude Code's own window"
    );
    assert_eq!(shown_window(&fx, &[])["window_source"], "status-line");
    let config = fx.home.path().join("rt.toml");
    std::fs::write(&config, "[context]\nwindow = 500000\n").unwrap();
    let overridden = shown_window(&fx, &[("RESUME_TUI_CONFIG", config.to_str().unwrap())]);
    assert_eq!(overridden["window"], 500_000);
    assert_eq!(overridden["evidence"], "context.window = 500000");
}

#[test]
fn doctor_names_the_evidence_for_the_newest_session() {
    let fx = Fixture::new();
    let mangled: String = fx
        .root()
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = fx.home.path().join(".claude/projects").join(mangled);
    std::fs::create_dir_all(&dir).unwrap();
    usage_at("claude-sonnet-4-5-20250929", 170_000).write(&dir.join(format!("{SESSION}.jsonl")));
    let report: Value = serde_json::from_str(&cli(&fx, &["doctor", "--json"], &[])).unwrap();
    let window = &report["context_window"];
    assert_eq!(window["window"], 200_000, "{window}");
    assert_eq!(window["window_source"], "known-model");
    assert_eq!(
        window["evidence"],
        "claude-sonnet-4-5-20250929: 200k unless selected with [1m]"
    );
    assert!((window["fill"].as_f64().unwrap() - 0.85).abs() < 1e-9);
}

#[test]
fn a_boundary_with_no_post_tokens_is_unknown_in_the_hook_monitor_show_and_dashboard() {
    let fx = Fixture::new();
    compacted_once(&fx);
    let mut t = usage_at("claude-sonnet-4-5", 170_000);
    let path = transcript_at(&fx, &t);
    prompt(&fx, &path, &[]);
    assert_eq!(fx.json(".jerry/context-monitor-state.json")["fill"], 0.85);

    t.compact_boundary("manual", 170_020, Some(0));
    t.write(&path);
    let (report, _) = fx.run(
        &["--dry-run", "--explain"],
        &payload("UserPromptSubmit", Some(&path), json!({})),
    );
    assert!(
        report.contains("fill unknown: no API response since the last compaction"),
        "{report}"
    );
    assert!(
        report.contains("window 200000: claude-sonnet-4-5: 200k unless selected with [1m]"),
        "the model is remembered across the compaction: {report}"
    );
    assert_eq!(
        prompt(&fx, &path, &[]),
        "",
        "nothing to say at an unknown fill"
    );
    assert!(
        !fx.root().join(".jerry/context-monitor-state.json").exists(),
        "the figure from before the compaction is not shown as live"
    );

    let monitor = monitor(&fx, &path);
    assert!(monitor.contains("CONTEXT STATUS: UNKNOWN"), "{monitor}");
    let shown = shown_window(&fx, &[]);
    assert_eq!(shown["fill"], Value::Null, "{shown}");
    assert_eq!(shown["window"], 200_000, "{shown}");
    assert_eq!(
        shown["evidence"], "claude-sonnet-4-5: 200k unless selected with [1m]",
        "{shown}"
    );
    // The dashboard reads the same load: no live fill for the project.
    let config = resume_tui::config::Config::default();
    let env = resume_tui::io::env::Env::default();
    let ws = resume_tui::io::load::load_workspace(
        fx.root(),
        &env,
        resume_tui::core::time::Timestamp(0),
        &config,
    );
    let project = ws.projects.iter().find(|p| p.id == WORKFLOW_ID).unwrap();
    assert!(resume_tui::core::launch::live_fill_record(&ws, project).is_none());
}

/// `tokens` of padding between the evidence and the tail the hook reads (512 KB
/// past the newest response).
fn far_back(t: &mut Transcript) {
    t.big_tool_result(400_000).big_tool_result(400_000);
}

#[test]
fn window_evidence_beyond_the_tail_is_remembered_per_session() {
    let fx = Fixture::new();
    // An automatic compaction at 160k on a model that could run at 1M.
    let mut t = Transcript::new(SESSION).with_model("claude-opus-4-7");
    t.assistant((10, 10, 150_000))
        .compact_boundary("auto", 160_000, Some(9_000))
        .assistant((10, 10, 30_000));
    let path = transcript_at(&fx, &t);
    assert_eq!(prompt(&fx, &path, &[]), "", "15 % of 200k");
    let kept = fx.json(&format!(".jerry/context-window/{SESSION}.hooks.json"));
    assert_eq!(kept["auto_compaction_at"], 160_000, "{kept}");
    assert_eq!(kept["model"], "claude-opus-4-7");

    far_back(&mut t);
    t.assistant((1_000, 2_000, 167_000));
    t.write(&path);
    let text = context_of(&prompt(&fx, &path, &[]), "UserPromptSubmit");
    assert!(text.contains("CRITICAL (85.0% filled)"), "{text}");
    assert!(
        text.contains("an automatic compaction at 160,000 tokens earlier in this session"),
        "{text}"
    );
    // Without the record the compaction is out of reach: the model's 1M decides.
    let (report, _) = fx.run(
        &["--dry-run", "--explain"],
        &payload(
            "UserPromptSubmit",
            Some(&path),
            json!({"session_id": "another"}),
        ),
    );
    assert!(
        report.contains("claude-opus-4-7 always runs at 1M"),
        "{report}"
    );

    // More than 200k in use once: the window stays 1M after the figure scrolls away.
    let fx = Fixture::new();
    let mut t = usage_at("claude-sonnet-4-5", 250_000);
    let path = transcript_at(&fx, &t);
    assert_eq!(prompt(&fx, &path, &[]), "", "25 % of 1M");
    t.compact_boundary("manual", 250_020, Some(20_000));
    far_back(&mut t);
    t.assistant((1_000, 2_000, 167_000));
    t.write(&path);
    assert_eq!(prompt(&fx, &path, &[]), "", "17 % of 1M, not 85 % of 200k");
    let state = fx.json(".jerry/context-monitor-state.json");
    assert_eq!(state["window"], 1_000_000);
    assert_eq!(
        state["window_source"],
        "250,000 tokens observed earlier in this session, more than 200k allows"
    );
    // `monitor` reads the same record (the transcript names the session).
    let monitor = monitor(&fx, &path);
    assert!(monitor.contains("17.0%"), "{monitor}");
}

#[test]
fn the_monitor_block_is_about_the_session_s_own_workflow() {
    let fx = Fixture::new();
    compacted_once(&fx);
    // Another session compacts later on the Nexus project: the newest checkpoint.
    let nexus = fx.edits_in("02-projects/07-x/01-planning");
    fx.run(
        &[],
        &payload(
            "PreCompact",
            Some(&nexus),
            json!({"trigger": "auto", "session_id": "sess-other"}),
        ),
    );
    let path = transcript_at(&fx, &usage_at("claude-sonnet-4-5", 170_000));
    let (report, _) = fx.run(
        &["--dry-run", "--explain"],
        &payload("UserPromptSubmit", Some(&path), json!({})),
    );
    assert!(
        report.contains("monitor block for projects/PROJ-001-demo/ORCHESTRATION.yaml"),
        "{report}"
    );
}
