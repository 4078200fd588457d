//! Hooks in realistic sessions (issue 15), through the real binary: the window
//! rule across models and evidence, one alert per compaction in its own session,
//! the Nexus state's bound, `--config`, redaction and the bare binary.

#[path = "support/transcript.rs"]
mod transcript;

#[path = "support/hook_fixture.rs"]
mod hook_fixture;

use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use hook_fixture::{Fixture, SESSION, context_of, iso, payload};
use serde_json::json;
use transcript::Transcript;

fn prompt_in(fx: &Fixture, session: &str, t: &std::path::Path, env: &[(&str, &str)]) -> String {
    let mut input: serde_json::Value = serde_json::from_str(&payload(
        "UserPromptSubmit",
        Some(t),
        json!({"prompt": "go"}),
    ))
    .unwrap();
    input["session_id"] = json!(session);
    fx.run_env(&[], &input.to_string(), env).0
}

fn at(fx: &Fixture, model: &str, tokens: u64) -> std::path::PathBuf {
    let mut t = Transcript::new(SESSION).with_model(model);
    t.user("go").assistant((1_000, 2_000, tokens - 3_000));
    fx.transcript(&t)
}

#[test]
fn the_window_is_200k_unless_there_is_evidence_of_more() {
    let fx = Fixture::new();
    // (model, tokens, extra env, the status line the monitor shows, or None for silence)
    type Case<'a> = (&'a str, u64, &'a [(&'a str, &'a str)], Option<&'a str>);
    let cases: [Case; 7] = [
        (
            "claude-sonnet-4-5-20250929",
            170_000,
            &[],
            Some("CRITICAL (85.0% filled)"),
        ),
        (
            "claude-sonnet-4-5-20250929",
            190_000,
            &[],
            Some("COMPACTION"),
        ),
        (
            "claude-opus-4-6",
            130_000,
            &[],
            Some("WARNING (65.0% filled)"),
        ),
        (
            "some-future-model",
            170_000,
            &[],
            Some("CRITICAL (85.0% filled)"),
        ),
        ("claude-opus-4-7", 170_000, &[], None),
        (
            "claude-sonnet-4-5",
            170_000,
            &[("ANTHROPIC_MODEL", "sonnet[1m]")],
            None,
        ),
        (
            "claude-opus-4-7",
            170_000,
            &[("CLAUDE_CODE_DISABLE_1M_CONTEXT", "1")],
            Some("CRITICAL"),
        ),
    ];
    for (model, tokens, env, expected) in cases {
        let t = at(&fx, model, tokens);
        let stdout = prompt_in(&fx, SESSION, &t, env);
        match expected {
            Some(status) => {
                let text = context_of(&stdout, "UserPromptSubmit");
                assert!(text.contains(status), "{model} {tokens}: {text}");
                assert!(!text.contains("unknown"), "{model}: {text}");
            }
            None => assert_eq!(stdout, "", "{model} {tokens} {env:?}"),
        }
    }
    let state = fx.json(".jerry/context-monitor-state.json");
    assert_eq!(state["window"], 200_000);
    assert_eq!(
        state["window_source"],
        "CLAUDE_CODE_DISABLE_1M_CONTEXT is set"
    );
}

#[test]
fn evidence_of_less_and_settings_count() {
    let fx = Fixture::new();
    // An automatic compaction at 160k: the window was 200k, whatever the model says.
    let mut t = Transcript::new(SESSION).with_model("claude-opus-4-7");
    t.assistant((10, 10, 150_000))
        .compact_boundary("auto", 160_000, Some(9_000))
        .assistant((1_000, 2_000, 167_000));
    let path = fx.transcript(&t);
    let text = context_of(&prompt_in(&fx, SESSION, &path, &[]), "UserPromptSubmit");
    assert!(text.contains("CRITICAL (85.0% filled)"), "{text}");
    assert!(
        text.contains("an automatic compaction at 160,000 tokens"),
        "{text}"
    );

    // autoCompactWindow in the project's settings, read like the variable.
    fx.write(".claude/settings.json", r#"{"autoCompactWindow": 500000}"#);
    let t = at(&fx, "claude-sonnet-4-5", 400_000);
    let text = context_of(&prompt_in(&fx, SESSION, &t, &[]), "UserPromptSubmit");
    assert!(text.contains("CRITICAL (80.0% filled)"), "{text}");
    assert!(
        text.contains("400,000 / 500,000 (window: autoCompactWindow 500000 in settings)"),
        "{text}"
    );
}

#[test]
fn the_hook_and_monitor_agree_after_a_boundary_with_no_post_tokens() {
    let fx = Fixture::new();
    let mut t = Transcript::new(SESSION).with_model("claude-sonnet-4-5");
    t.assistant((10, 10, 180_000))
        .compact_boundary("auto", 180_020, Some(0));
    let path = fx.transcript(&t);
    let out = Command::new(cargo_bin("resume-tui"))
        .args(["--root"])
        .arg(fx.root())
        .args(["monitor", "demo-wf-001", "--transcript"])
        .arg(&path)
        .env("HOME", fx.home.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("CONTEXT STATUS: UNKNOWN"), "{text}");
    let (report, _) = fx.run_env(
        &["--dry-run", "--explain"],
        &payload("UserPromptSubmit", Some(&path), json!({})),
        &[],
    );
    assert!(
        report.contains("no API response since the last compaction"),
        "{report}"
    );
}

/// `payload(event, transcript, extra)` sent by session `session`.
fn in_session(
    event: &str,
    transcript: Option<&std::path::Path>,
    extra: serde_json::Value,
    session: &str,
) -> String {
    let mut input: serde_json::Value =
        serde_json::from_str(&payload(event, transcript, extra)).unwrap();
    input["session_id"] = json!(session);
    input.to_string()
}

/// An automatic PreCompact in `session`, whose transcript edits files in `dir`;
/// what it printed.
fn precompact_in(fx: &Fixture, dir: &str, session: &str) -> String {
    let t = fx.edits_in(dir);
    let input = in_session("PreCompact", Some(&t), json!({"trigger": "auto"}), session);
    fx.run(&[], &input).0
}

fn precompact(fx: &Fixture, session: &str) {
    precompact_in(fx, "projects/PROJ-001-demo", session);
}

/// What SessionStart(`source`) in `session` injects.
fn session_start(fx: &Fixture, source: &str, session: &str) -> String {
    let input = in_session("SessionStart", None, json!({"source": source}), session);
    context_of(&fx.run(&[], &input).0, "SessionStart")
}

#[test]
fn one_alert_per_compaction_in_its_own_session_only() {
    let fx = Fixture::new();
    // A session-less checkpoint an older tool wrote (real Jerry format).
    fx.write(
        ".jerry/checkpoints/cx-001.json",
        r#"{"checkpoint_id":"cx-001","context_state":{"fill_percentage":0.0,"tier":"nominal","token_count":null,"monitoring_ok":true,"context_window":200000,"context_window_source":"default"},"resumption_state":null,"created_at":"2026-02-22T09:16:58+00:00"}"#,
    );
    let quiet = fx.root().join("quiet.jsonl");
    let mut t = Transcript::new(SESSION);
    t.user("go").assistant((1_000, 2_000, 17_000));
    t.write(&quiet);
    assert_eq!(
        prompt_in(&fx, "brand-new", &quiet, &[]),
        "",
        "no alert from a session-less checkpoint"
    );

    precompact(&fx, "sess-a");
    assert!(
        fx.checkpoints()
            .contains(&"cx-002-checkpoint.json".to_string())
    );
    assert_eq!(
        prompt_in(&fx, "sess-b", &quiet, &[]),
        "",
        "another session never gets it"
    );
    let first = context_of(&prompt_in(&fx, "sess-a", &quiet, &[]), "UserPromptSubmit");
    assert!(first.contains("<compaction-alert>"), "{first}");
    assert_eq!(prompt_in(&fx, "sess-a", &quiet, &[]), "", "delivered once");
    let deliveries = fx.json(".jerry/alert-deliveries.json");
    let record = &deliveries[".jerry/checkpoints/cx-002-checkpoint.json"];
    assert_eq!(record["session_id"], "sess-a");
    assert_eq!(record["via"], "UserPromptSubmit");
    // Delivery is not acknowledgement.
    assert!(
        !fx.checkpoints()
            .iter()
            .any(|n| n.ends_with(".acknowledged"))
    );

    // The next compaction of sess-a: SessionStart(compact) delivers it, the prompt not again.
    std::thread::sleep(std::time::Duration::from_millis(10));
    fx.write(".jerry/checkpoints/cx-003-checkpoint.json", &{
        let mut cp = fx.json(".jerry/checkpoints/cx-002-checkpoint.json");
        cp["checkpoint_id"] = json!("cx-003");
        cp["timestamp"] = json!(iso(0));
        cp.to_string()
    });
    let text = session_start(&fx, "compact", "sess-a");
    assert!(
        text.contains("<compaction-alert>") && text.contains("cx-003"),
        "{text}"
    );
    // The client keeps what SessionStart(compact) added (2.1.332 writes it after
    // the boundary; tests/hook_real_order.rs has the client that drops it).
    let kept = json!({"type": "attachment", "attachment":
        {"type": "hook_additional_context", "content": [text]}});
    let boundary = json!({"type": "system", "subtype": "compact_boundary"});
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&quiet)
        .unwrap();
    std::io::Write::write_all(&mut file, format!("{boundary}\n{kept}\n").as_bytes()).unwrap();
    assert_eq!(prompt_in(&fx, "sess-a", &quiet, &[]), "");
    // Another session resuming gets the resumption prompt, never the alert.
    let text = session_start(&fx, "fork", "sess-c");
    assert!(!text.contains("<compaction-alert>"), "{text}");
}

#[test]
fn a_nexus_state_is_injected_only_when_its_own_or_recent() {
    let fx = Fixture::new().nexus();
    let state = |timestamp: &str, session: Option<&str>| {
        let mut v = json!({"active_project_id": "07-x", "confidence": "high",
            "detection_method": "transcript", "timestamp": timestamp});
        if let Some(s) = session {
            v["session_id"] = json!(s);
        }
        fx.write("00-system/.cache/precompact_state.json", &v.to_string());
    };
    let start = payload("SessionStart", None, json!({"source": "resume"}));
    state("2026-01-01T00:00:00Z", None);
    let (stdout, _) = fx.run(&[], &start);
    assert!(!stdout.contains("07-x"), "{stdout}");
    assert!(
        fx.root()
            .join("00-system/.cache/precompact_state.json")
            .exists(),
        "left for the dashboard"
    );

    state("2026-01-01T00:00:00Z", Some(SESSION));
    let text = context_of(&fx.run(&[], &start).0, "SessionStart");
    assert!(text.contains("07-x"), "its own session: {text}");
    assert!(
        !fx.root()
            .join("00-system/.cache/precompact_state.json")
            .exists(),
        "consumed"
    );

    state(&iso(60), None);
    let text = context_of(&fx.run(&[], &start).0, "SessionStart");
    assert!(text.contains("07-x"), "recent: {text}");
}

#[test]
fn the_nexus_state_our_precompact_writes_names_its_session() {
    let fx = Fixture::new().nexus();
    assert_eq!(
        precompact_in(&fx, "02-projects/07-x/01-planning", "sess-a"),
        "",
        "PreCompact prints nothing"
    );
    let rel = "00-system/.cache/precompact_state.json";
    let mut written = fx.json(rel);
    assert_eq!(written["session_id"], "sess-a", "{written}");
    assert_eq!(written["active_project_id"], "07-x");
    // Two hours later: past hooks.nexus_state_max_age_minutes (30).
    written["timestamp"] = json!(iso(2 * 3600));
    fx.write(rel, &written.to_string());
    let start = |session: &str| {
        let mut v: serde_json::Value =
            serde_json::from_str(&payload("SessionStart", None, json!({"source": "resume"})))
                .unwrap();
        v["session_id"] = json!(session);
        v.to_string()
    };
    // Another session: not injected (the project's unacknowledged checkpoint
    // still brings its loading sequence, without the state's detection).
    let (explained, _) = fx.run(&["--dry-run", "--explain"], &start("sess-b"));
    assert!(
        explained.contains("precompact state not injected: written 2 h ago by another session (hooks.nexus_state_max_age_minutes = 30)"),
        "{explained}"
    );
    let (other, _) = fx.run(&[], &start("sess-b"));
    assert!(!other.contains("Auto-resume after compaction"), "{other}");
    assert!(fx.root().join(rel).exists(), "left for the dashboard");
    // The bound is configurable.
    let config = fx.root().join("rt.toml");
    std::fs::write(&config, "[hooks]\nnexus_state_max_age_minutes = 180\n").unwrap();
    let (explained, _) = fx.run_env(
        &["--dry-run", "--explain"],
        &start("sess-b"),
        &[("RESUME_TUI_CONFIG", config.to_str().unwrap())],
    );
    assert!(
        explained.contains("precompact state consumed"),
        "{explained}"
    );
    // Its own session takes it whatever its age, and consumes it.
    let text = context_of(&fx.run(&[], &start("sess-a")).0, "SessionStart");
    assert!(
        text.contains("DETECTED: Auto-resume after compaction (confidence: high)"),
        "{text}"
    );
    assert!(!fx.root().join(rel).exists(), "consumed");
}

#[test]
fn hook_honours_config_and_redacts_the_startup_summary() {
    let fx = Fixture::new();
    // Not mid-quality-gate, so the next step (which holds a token) is the next action.
    fx.write(
        hook_fixture::WORKFLOW,
        &hook_fixture::orchestration(&iso(60)).replace("qg-2-iteration-1", "writing docs"),
    );
    let config = fx.root().join("rt.toml");
    std::fs::write(&config, "[hooks]\nstartup_summary = true\n").unwrap();
    let start = payload("SessionStart", None, json!({"source": "startup"}));
    assert_eq!(fx.run(&[], &start).0, "", "off by default");
    let mut cmd = Command::new(cargo_bin("resume-tui"));
    cmd.arg("--config")
        .arg(&config)
        .args(["hook"])
        .env_clear()
        .env("HOME", fx.home.path())
        .env("RESUME_TUI_LOG_DIR", fx.log.path())
        .env("CLAUDE_PROJECT_DIR", fx.root());
    let text = context_of(&run(cmd, &start), "SessionStart");
    assert!(text.contains("demo-wf-001"), "{text}");
    assert!(!text.contains("ghp_16C7e42F"), "redacted: {text}");
    assert!(text.contains("[REDACTED]"), "{text}");
}

/// Text with its line wrapping undone.
/// `resume-tui --root <workspace> ARGS…`'s stdout, with the fixture's home.
fn cli(fx: &Fixture, args: &[&str]) -> String {
    let out = Command::new(cargo_bin("resume-tui"))
        .args(["--root"])
        .arg(fx.root())
        .args(args)
        .env("HOME", fx.home.path())
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// `resume-tui prompt PROJECT` in the fixture's workspace.
fn prompt_of(fx: &Fixture, project: &str) -> String {
    cli(fx, &["prompt", project])
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn run(cmd: Command, stdin: &str) -> String {
    hook_fixture::run_command(cmd, stdin).0
}

#[test]
fn the_bare_binary_acts_as_hook_for_an_event_on_stdin() {
    let fx = Fixture::new();
    let t = at(&fx, "claude-sonnet-4-5", 170_000);
    let mut cmd = Command::new(cargo_bin("resume-tui"));
    cmd.env_clear()
        .env("HOME", fx.home.path())
        .env("RESUME_TUI_LOG_DIR", fx.log.path())
        .env("CLAUDE_PROJECT_DIR", fx.root());
    let text = context_of(
        &run(cmd, &payload("UserPromptSubmit", Some(&t), json!({}))),
        "UserPromptSubmit",
    );
    assert!(text.contains("CRITICAL"), "{text}");
}

#[test]
fn the_status_line_prints_and_records_the_window_the_hooks_then_use() {
    let fx = Fixture::new();
    let status = json!({"session_id": SESSION, "cwd": fx.root(),
        "model": {"id": "claude-sonnet-4-5", "display_name": "Sonnet 4.5"},
        "workspace": {"current_dir": fx.root(), "project_dir": fx.root()},
        "context_window": {"context_window_size": 1_000_000, "used_percentage": 17.0}});
    let mut cmd = Command::new(cargo_bin("resume-tui"));
    cmd.arg("statusline")
        .env_clear()
        .env("HOME", fx.home.path());
    let line = run(cmd, &status.to_string());
    assert!(line.contains("ctx [█░░░░░░░] 17%"), "{line}");
    assert!(line.contains("demo-wf-001"), "{line}");
    assert_eq!(line.lines().count(), 1);
    let record = fx.json(&format!(".jerry/context-window/{SESSION}.json"));
    assert_eq!(record["context_window_size"], 1_000_000);
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(
            fx.root()
                .join(format!(".jerry/context-window/{SESSION}.json")),
        )
        .unwrap()
        .permissions(),
    );
    assert_eq!(mode & 0o777, 0o600, "as every file the hooks make");
    // The session's window is now Claude Code's own: 170k of 1M stays quiet.
    let t = at(&fx, "claude-sonnet-4-5", 170_000);
    assert_eq!(prompt_in(&fx, SESSION, &t, &[]), "");
    // Garbage in: still one line, exit 0.
    let mut cmd = Command::new(cargo_bin("resume-tui"));
    cmd.arg("statusline").env_clear();
    assert_eq!(run(cmd, "not json").trim(), "ctx ?");
}

#[test]
fn the_alert_session_start_and_the_prompt_agree_on_the_next_action() {
    let fx = Fixture::new();
    let next = "Deploy the build then re-score";
    fx.write(
        hook_fixture::WORKFLOW,
        &hook_fixture::orchestration(&iso(60)).replace(
            "Deploy with GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a then re-score",
            next,
        ),
    );
    precompact(&fx, SESSION);
    let start = payload("SessionStart", None, json!({"source": "compact"}));
    let text = context_of(&fx.run(&[], &start).0, "SessionStart");
    let (alert, template_1) = text.split_once("</compaction-alert>").unwrap();
    // Said once (issue 32): the alert points at Template 1's NEXT ACTION.
    assert!(
        squash(alert).contains("5. Continue from the NEXT ACTION of the resumption state below"),
        "{alert}"
    );
    assert_eq!(text.matches(next).count(), 1, "{text}");
    assert!(
        squash(template_1).contains(&format!("NEXT ACTION: {next}")),
        "{template_1}"
    );
    let prompt = prompt_of(&fx, "demo-wf-001");
    assert!(
        squash(&prompt).contains(&format!("NEXT ACTION: {next}")),
        "{prompt}"
    );
    let config = fx.root().join("rt.toml");
    std::fs::write(&config, "[hooks]\nstartup_summary = true\n").unwrap();
    let mut cmd2 = Command::new(cargo_bin("resume-tui"));
    cmd2.arg("--config")
        .arg(&config)
        .arg("hook")
        .env_clear()
        .env("HOME", fx.home.path())
        .env("RESUME_TUI_LOG_DIR", fx.log.path())
        .env("CLAUDE_PROJECT_DIR", fx.root());
    let summary = context_of(
        &run(
            cmd2,
            &payload("SessionStart", None, json!({"source": "startup"})),
        ),
        "SessionStart",
    );
    assert!(summary.contains(&format!("Next step: {next}")), "{summary}");
    assert_eq!(
        summary.matches("unacknowledged checkpoint").count(),
        1,
        "{summary}"
    );
}

#[test]
fn many_session_less_checkpoints_never_alert_and_count_in_one_line() {
    let fx = Fixture::new();
    for n in 1..=37 {
        fx.write(
            &format!(".jerry/checkpoints/cx-{n:03}.json"),
            &format!(r#"{{"checkpoint_id":"cx-{n:03}","context_state":{{"fill_percentage":0.8,"tier":"critical","token_count":160000,"monitoring_ok":true,"context_window":200000,"context_window_source":"default"}},"resumption_state":null,"created_at":"{}"}}"#, iso(600)),
        );
    }
    let quiet = at(&fx, "claude-sonnet-4-5", 20_000);
    assert_eq!(prompt_in(&fx, "brand-new", &quiet, &[]), "");
    let mut start: serde_json::Value =
        serde_json::from_str(&payload("SessionStart", None, json!({"source": "compact"}))).unwrap();
    start["session_id"] = json!("brand-new");
    let (stdout, _) = fx.run(&[], &start.to_string());
    assert!(!stdout.contains("<compaction-alert>"), "{stdout}");
    let config = fx.root().join("rt.toml");
    std::fs::write(&config, "[hooks]\nstartup_summary = true\n").unwrap();
    start["source"] = json!("startup");
    let (stdout, _) = fx.run_env(
        &[],
        &start.to_string(),
        &[("RESUME_TUI_CONFIG", config.to_str().unwrap())],
    );
    let text = context_of(&stdout, "SessionStart");
    assert!(!text.contains("<compaction-alert>"), "{text}");
    assert!(text.matches("unacknowledged").count() <= 1, "{text}");
    assert!(!text.contains("37 of 37"), "{text}");
}

/// `.jerry/context-window/` keeps two records per session: SessionStart removes
/// those untouched for a week (never the starting session's), once a day.
#[test]
fn session_start_removes_week_old_session_records_once_a_day() {
    let fx = Fixture::new();
    let week_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(8 * 24 * 3600);
    for name in [
        "old.json",
        "old.hooks.json",
        "fresh.json",
        &format!("{SESSION}.hooks.json"),
    ] {
        let rel = format!(".jerry/context-window/{name}");
        fx.write(&rel, "{}");
        if name != "fresh.json" {
            std::fs::File::options()
                .write(true)
                .open(fx.root().join(&rel))
                .unwrap()
                .set_modified(week_ago)
                .unwrap();
        }
    }
    let start = payload("SessionStart", None, json!({"source": "startup"}));
    let (_, stderr) = fx.run(&["--explain"], &start);
    assert!(
        stderr.contains("session records: 2 untouched for 7 days removed"),
        "{stderr}"
    );
    let mut left: Vec<String> = std::fs::read_dir(fx.root().join(".jerry/context-window"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [".pruned", "fresh.json", &format!("{SESSION}.hooks.json")]
    );
    // The same day, the folder is not looked through again.
    fx.write(".jerry/context-window/older.json", "{}");
    std::fs::File::options()
        .write(true)
        .open(fx.root().join(".jerry/context-window/older.json"))
        .unwrap()
        .set_modified(week_ago)
        .unwrap();
    let (_, stderr) = fx.run(&["--explain"], &start);
    assert!(!stderr.contains("session records:"), "{stderr}");
    assert!(fx.root().join(".jerry/context-window/older.json").exists());
}

/// A Nexus loading sequence long enough to meet the 10,000-unit cap: the alert
/// goes first and whole, so it is recorded as delivered only when it was.
#[test]
fn the_alert_goes_out_whole_before_a_long_loading_sequence() {
    let fx = Fixture::new().nexus();
    let files: String = (0..120)
        .map(|i| format!("  - 01-planning/notes/{i:03}-a-long-file-name-to-load-first.md\n"))
        .collect();
    let manifest = hook_fixture::MANIFEST.replace(
        "files_to_load:\n  - 01-planning/01-overview.md\n",
        &format!("files_to_load:\n  - 01-planning/01-overview.md\n{files}"),
    );
    fx.write("02-projects/07-x/01-planning/resume-context.md", &manifest);
    precompact_in(&fx, "02-projects/07-x/01-planning", "sess-a");
    let text = session_start(&fx, "compact", "sess-a");
    assert!(
        text.contains("truncated by resume-tui"),
        "the loading sequence meets the cap: {}",
        text.encode_utf16().count()
    );
    assert!(text.starts_with("<compaction-alert>"), "{text}");
    assert!(text.contains("5. Continue from:") && text.contains("</compaction-alert>"));
    assert!(text.contains("Auto-resume after compaction"), "{text}");
    let deliveries = fx.json(".jerry/alert-deliveries.json");
    assert_eq!(
        deliveries[".jerry/checkpoints/cx-001-checkpoint.json"]["via"], "SessionStart(compact)",
        "{deliveries}"
    );
}

/// A PreCompact with no usable session id and no transcript does not take the
/// fill another session recorded.
#[test]
fn a_precompact_without_a_session_takes_no_other_sessions_fill() {
    let fx = Fixture::new();
    fx.write(
        ".jerry/context-monitor-state.json",
        r#"{"schema_version":"1.0","session_id":"other","fill":0.045,"tokens_used":9000,"window":200000,"window_source":"default","level":"LOW","updated_at":"2026-03-01T12:00:00Z","transcript_path":null}"#,
    );
    let input = json!({"hook_event_name": "PreCompact", "session_id": 42,
        "transcript_path": {"a": 1}, "cwd": fx.root(), "trigger": "auto"});
    assert_eq!(fx.run(&[], &input.to_string()).0, "");
    let names = fx.checkpoints();
    let name = names
        .iter()
        .find(|n| n.ends_with("-checkpoint.json"))
        .unwrap();
    let cp = fx.json(&format!(".jerry/checkpoints/{name}"));
    assert_eq!(cp["session_id"], serde_json::Value::Null, "{cp}");
    assert_eq!(
        cp["context_state"]["estimated_fill_before_compaction"],
        serde_json::Value::Null,
        "{cp}"
    );
}

/// A Nexus build: the alert, the loading sequence SessionStart injects after it and
/// `prompt` name the same next action, word for word.
#[test]
fn a_nexus_builds_alert_and_loading_sequence_agree_on_the_next_action() {
    let fx = Fixture::new().nexus();
    fx.write(
        "02-projects/07-x/01-planning/resume-context.md",
        &hook_fixture::MANIFEST.replace(
            "current_task: 3\n",
            "current_task: 3\ncontinue_at: \"src/recon/DrillDown.tsx:88\"\n",
        ),
    );
    precompact_in(&fx, "02-projects/07-x/01-planning", "sess-a");
    let mut start: serde_json::Value =
        serde_json::from_str(&payload("SessionStart", None, json!({"source": "compact"}))).unwrap();
    start["session_id"] = json!("sess-a");
    let text = squash(&context_of(
        &fx.run(&[], &start.to_string()).0,
        "SessionStart",
    ));
    let (alert, sequence) = text.split_once("</compaction-alert>").unwrap();
    let next = alert
        .split_once("5. Continue from: ")
        .map(|(_, rest)| rest.trim())
        .unwrap();
    assert!(next.contains("DrillDown.tsx:88"), "{alert}");
    assert!(
        sequence.contains(&format!("Continue from: {next}")),
        "{next} / {sequence}"
    );
    let prompt = squash(&prompt_of(&fx, "07-x"));
    assert!(
        prompt.contains(&format!("Continue from: {next}")),
        "{prompt}"
    );
}

fn monitor_of(fx: &Fixture, project: &str) -> String {
    cli(fx, &["monitor", project])
}

fn show_window_of(fx: &Fixture, project: &str) -> serde_json::Value {
    let value: serde_json::Value =
        serde_json::from_str(&cli(fx, &["show", project, "--json"])).unwrap();
    value["context_window"].clone()
}

/// `monitor PROJECT` gives the project's own session's fill, as `show` does: a
/// session no checkpoint ties to the project is not its figure; after a
/// compaction that left the fill unknown, the figure its checkpoint recorded
/// before the compaction is not shown as current, and the transcript is found
/// where Claude Code keeps it.
#[test]
fn monitor_and_show_give_the_projects_own_session_and_never_a_pre_compaction_figure() {
    let fx = Fixture::new();
    let root = fx.root().display().to_string();
    let at_95 = |session: &str, file: &str| {
        let mut t = Transcript::new(session).with_model("claude-sonnet-4-5");
        t.user("go")
            .tool_use("Edit", &format!("{root}/{file}"), (1_000, 2_000, 187_000));
        let path = fx.root().join(format!("{session}.jsonl"));
        t.write(&path);
        context_of(&prompt_in(&fx, session, &path, &[]), "UserPromptSubmit")
    };
    // A session working outside the project: its figure is not the project's.
    let warned = at_95("sess-t", "notes/x.md");
    assert!(warned.contains("COMPACTION (95.0% filled)"), "{warned}");
    let monitor = monitor_of(&fx, "demo-wf-001");
    assert!(
        !monitor.contains("95.0%"),
        "not the project's session: {monitor}"
    );
    assert!(monitor.contains("CONTEXT STATUS: UNKNOWN"), "{monitor}");
    // A session editing in it, before any checkpoint: the hook records the
    // project its tool calls work in, and monitor and show take the figure.
    at_95("sess-u", "projects/PROJ-001-demo/b.md");
    let state = fx.json(".jerry/context-monitor-state.json");
    assert_eq!(state["project"], hook_fixture::WORKFLOW, "{state}");
    let monitor = monitor_of(&fx, "demo-wf-001");
    assert!(monitor.contains("COMPACTION (95.0% filled)"), "{monitor}");
    assert_eq!(show_window_of(&fx, "demo-wf-001")["session_id"], "sess-u");

    // Session sess-a works on the project (its checkpoint), at 85 %, then compacts
    // and records no usage yet (postTokens 0).
    let folder: String = root
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let kept = fx
        .home
        .path()
        .join(".claude/projects")
        .join(folder)
        .join("sess-a.jsonl");
    std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
    let mut t = Transcript::new("sess-a").with_model("claude-sonnet-4-5");
    t.user("go").tool_use(
        "Edit",
        &format!("{root}/projects/PROJ-001-demo/b.md"),
        (1_000, 2_000, 167_000),
    );
    t.write(&kept);
    prompt_in(&fx, "sess-a", &kept, &[]);
    precompact(&fx, "sess-a");
    assert!(monitor_of(&fx, "demo-wf-001").contains("CRITICAL (85.0% filled)"));
    t.compact_boundary("auto", 170_000, Some(0));
    t.write(&kept);
    let after = context_of(&prompt_in(&fx, "sess-a", &kept, &[]), "UserPromptSubmit");
    assert!(
        after.contains("<compaction-alert>") && !after.contains("<context-monitor>"),
        "the fill is unknown, the alert due: {after}"
    );
    let monitor = monitor_of(&fx, "demo-wf-001");
    assert!(monitor.contains("CONTEXT STATUS: UNKNOWN"), "{monitor}");
    assert!(
        monitor.contains("Tokens used: unknown / 200,000 (window: "),
        "{monitor}"
    );
    assert!(
        !monitor.contains("85.0%") && !monitor.contains("ACTION REQUIRED"),
        "{monitor}"
    );
    let window = show_window_of(&fx, "demo-wf-001");
    assert_eq!(window["session_id"], "sess-a", "{window}");
    assert_eq!(window["transcript"], kept.display().to_string(), "{window}");
    assert_eq!(window["fill"], serde_json::Value::Null, "{window}");
    assert_eq!(window["window"], 200_000, "{window}");
}

/// SessionStart(resume) in a new session: the newest unacknowledged checkpoint
/// names no workflow (an older tool's), so the newest one that does is resumed.
#[test]
fn a_resume_skips_unacknowledged_checkpoints_that_name_no_workflow() {
    let fx = Fixture::new();
    precompact(&fx, "sess-a");
    fx.write(
        ".jerry/checkpoints/cx-009.json",
        &format!(
            r#"{{"checkpoint_id":"cx-009","context_state":{{"fill_percentage":0.5}},"resumption_state":null,"created_at":"{}"}}"#,
            iso(0)
        ),
    );
    let text = session_start(&fx, "resume", "sess-new");
    assert!(!text.contains("<compaction-alert>"), "{text}");
    assert!(text.contains("demo-wf-001"), "{text}");
}

/// The newest unacknowledged checkpoint lists no file but names its workflow in
/// `resumption_state` (Jerry's own format): that workflow is resumed, as `list`
/// and the dashboard count the checkpoint as its.
#[test]
fn a_resume_finds_a_jerry_checkpoints_workflow_by_its_id() {
    let fx = Fixture::new().nexus();
    precompact_in(&fx, "02-projects/07-x/01-planning", "sess-a");
    // Past: the precompact state, injected to any session while recent, is gone.
    std::fs::remove_file(fx.root().join("00-system/.cache/precompact_state.json")).unwrap();
    fx.write(
        ".jerry/checkpoints/cx-009.json",
        &format!(
            r#"{{"checkpoint_id":"cx-009","context_state":{{"fill_percentage":0.5}},"resumption_state":{{"workflow_id":"demo-wf-001"}},"created_at":"{}"}}"#,
            iso(0)
        ),
    );
    let text = session_start(&fx, "resume", "sess-new");
    assert!(text.contains("demo-wf-001"), "{text}");
    assert!(!text.contains("07-x"), "{text}");
}
