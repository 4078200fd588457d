//! `hooks install` and `doctor` through the binary, on settings files with existing
//! hooks, on malformed JSON, at every level.

#[path = "support/install_env.rs"]
mod install_env;

use assert_cmd::Command;
use install_env::{Env, fake_claude};
use serde_json::Value;

const EXISTING: &str = r#"{
  "permissions": {
    "allow": ["Bash(git status)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "/usr/local/bin/guard", "timeout": 5}]
      }
    ],
    "SessionStart": [
      {
        "matcher": "startup",
        "hooks": [{"type": "command", "command": "echo hello"}]
      }
    ]
  },
  "model": "opus"
}
"#;

#[test]
fn install_merges_into_existing_settings_and_is_idempotent() {
    let env = Env::new();
    env.write_settings(&env.settings(), EXISTING);
    let out = env.cmd(&["hooks", "install"]).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("SessionStart: added"), "{stdout}");

    let text = std::fs::read_to_string(env.settings()).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["permissions", "hooks", "model"], "key order kept");
    assert_eq!(
        v["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "/usr/local/bin/guard"
    );
    assert_eq!(
        v["hooks"]["SessionStart"][0]["hooks"][0]["command"],
        "echo hello"
    );
    let ours = &v["hooks"]["SessionStart"][1];
    assert_eq!(ours["matcher"], "startup|resume|clear|compact|fork");
    // The project's file is shared: the binary by name, as every clone finds it.
    assert_eq!(ours["hooks"][0]["command"], "resume-tui");
    assert_eq!(
        ours["hooks"][0]["args"],
        serde_json::json!(["hook", "SessionStart"])
    );
    assert!(
        ours["hooks"][0]["timeout"].as_u64().unwrap() < 60,
        "seconds, small"
    );
    assert_eq!(v["hooks"]["PreCompact"][0]["matcher"], "manual|auto");

    let out = env.cmd(&["hooks", "install"]).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("nothing changed"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(env.settings()).unwrap(),
        text,
        "second run changes nothing"
    );
}

#[test]
fn malformed_settings_are_reported_and_left_untouched() {
    let env = Env::new();
    let broken = "{\n  \"hooks\": {\n    \"Stop\": [,]\n  }\n}\n";
    env.write_settings(&env.settings(), broken);
    let out = env.cmd(&["hooks", "install"]).assert().failure();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("settings.json:3:14"), "{stderr}");
    assert!(stderr.contains("left untouched"), "{stderr}");
    assert_eq!(std::fs::read_to_string(env.settings()).unwrap(), broken);

    let out = env.cmd(&["doctor"]).assert().failure();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("settings.json:3:14: not valid settings JSON"),
        "{stdout}"
    );
}

#[test]
fn levels_and_dry_run() {
    let env = Env::new();
    let out = env
        .cmd(&["hooks", "install", "--user", "--dry-run"])
        .assert()
        .success();
    assert!(String::from_utf8_lossy(&out.get_output().stdout).contains("would write"));
    assert!(
        !env.home.path().join(".claude/settings.json").exists(),
        "dry run writes nothing"
    );

    env.cmd(&["hooks", "install", "--user"]).assert().success();
    assert!(env.home.path().join(".claude/settings.json").exists());
    env.cmd(&["hooks", "install", "--local"]).assert().success();
    assert!(
        env.project
            .path()
            .join(".claude/settings.local.json")
            .exists()
    );
    assert!(!env.settings().exists());

    // Registered at two levels: doctor warns about duplicates.
    let out = env.cmd(&["doctor", "--json"]).assert().success();
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let findings = report["findings"].as_array().unwrap();
    assert!(
        findings.iter().any(|f| f["status"] == "warning"
            && f["message"]
                .as_str()
                .unwrap()
                .contains("registered 2 times")),
        "{report:#}"
    );
    assert_eq!(report["log_writable"], true);
}

#[test]
fn doctor_finds_missing_events_bad_matchers_ms_timeouts_and_bad_commands() {
    let env = Env::new();
    let missing = env.project.path().join("gone/resume-tui");
    let not_exec = env.project.path().join("plain/resume-tui");
    std::fs::create_dir_all(not_exec.parent().unwrap()).unwrap();
    std::fs::write(&not_exec, "").unwrap();
    let settings = format!(
        r#"{{"hooks": {{
  "SessionStart": [{{"matcher": "startup", "hooks": [{{"type": "command", "command": "{}", "args": ["hook", "SessionStart"]}}]}}],
  "PreCompact": [{{"matcher": "manual|auto", "hooks": [{{"type": "command", "command": "{}", "args": ["hook"], "timeout": 30000}}]}}]
}}}}"#,
        missing.display(),
        not_exec.display()
    );
    env.write_settings(&env.settings(), &settings);
    std::fs::write(
        env.log.path().join("hook.log"),
        "2026-02-17T10:00:00Z ERROR PreCompact: write failed: disk full\n2026-02-17T10:01:00Z INFO SessionStart: ok\n",
    )
    .unwrap();
    let out = env.cmd(&["doctor"]).assert().failure();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for expected in [
        "does not exist",
        "is not executable",
        "looks like milliseconds",
        "matcher \"startup\" leaves out resume, compact, fork",
        "SessionStart: registered at",
        "but command",
        "UserPromptSubmit: not registered",
        "PostCompact: not registered",
        "PostToolUse: not registered",
        "ERROR PreCompact: write failed: disk full",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    assert!(
        !stdout.contains("INFO SessionStart: ok"),
        "only errors are listed"
    );
    // An entry that cannot run is said once, as an error, never also "ok".
    assert!(!stdout.contains("ok      PreCompact"), "{stdout}");
    assert!(
        !stdout.contains("error   ") || !stdout.contains("ok      SessionStart"),
        "{stdout}"
    );
}

#[test]
fn doctor_is_clean_after_install() {
    let env = Env::new();
    std::fs::create_dir_all(env.project.path().join(".jerry")).unwrap();
    env.cmd(&["hooks", "install"]).assert().success();
    let out = env.cmd(&["doctor"]).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let starts = |word: &str| stdout.lines().any(|l| l.starts_with(word));
    assert!(!starts("error "), "{stdout}");
    assert!(!starts("warning "), "{stdout}");
    // Five events, the workspace, the log folder.
    assert_eq!(stdout.matches("ok      ").count(), 7, "{stdout}");
    assert!(
        stdout.contains("is a workspace: the hooks act here"),
        "{stdout}"
    );
}

#[test]
fn doctor_says_when_the_folder_is_not_a_workspace() {
    let env = Env::new();
    env.cmd(&["hooks", "install"]).assert().success();
    let out = env.cmd(&["doctor", "--json"]).assert().success();
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(report["workspace"], false);
    assert!(
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["status"] == "warning"
                && f["message"]
                    .as_str()
                    .unwrap()
                    .contains("the hooks run here but do nothing")),
        "{report:#}"
    );
}

#[cfg(unix)]
#[test]
fn the_install_form_follows_claude_version() {
    let env = Env::new();
    let path = fake_claude(&env, "2.1.100");
    let out = env
        .cmd(&["hooks", "install"])
        .env("PATH", &path)
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("Claude Code 2.1.100 is older than 2.1.139"),
        "{stdout}"
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(env.settings()).unwrap()).unwrap();
    let h = &v["hooks"]["SessionStart"][0]["hooks"][0];
    assert_eq!(h["command"], "'resume-tui' hook SessionStart");
    assert!(h.get("args").is_none(), "{h}");
    // doctor: the shell-form entry runs, on that version.
    let out = env.cmd(&["doctor"]).env("PATH", &path).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("ok      SessionStart: registered"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Claude Code 2.1.100: the installed form runs on it"),
        "{stdout}"
    );

    // A newer Claude Code: exec form, and doctor warns about exec form on an old one.
    let newer = fake_claude(&env, "2.1.240");
    env.cmd(&["hooks", "install"])
        .env("PATH", &newer)
        .assert()
        .success();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(env.settings()).unwrap()).unwrap();
    assert_eq!(v["hooks"]["SessionStart"][0]["hooks"][0]["args"][0], "hook");
    let old = fake_claude(&env, "2.1.100");
    let out = env.cmd(&["doctor"]).env("PATH", &old).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("ignores `args`"), "{stdout}");
}

#[test]
fn the_status_line_is_installed_but_never_over_another_without_force() {
    let env = Env::new();
    env.write_settings(
        &env.settings(),
        r#"{"statusLine": {"type": "command", "command": "ccstatusline"}}"#,
    );
    let out = env
        .cmd(&["hooks", "install", "--statusline"])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("statusLine: NOT installed"), "{stdout}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(env.settings()).unwrap()).unwrap();
    assert_eq!(v["statusLine"]["command"], "ccstatusline");
    let out = env.cmd(&["doctor"]).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("status line is another tool's (ccstatusline)"),
        "{stdout}"
    );

    env.cmd(&["hooks", "install", "--statusline", "--force"])
        .assert()
        .success();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(env.settings()).unwrap()).unwrap();
    assert_eq!(v["statusLine"]["command"], "'resume-tui' statusline");
    let out = env.cmd(&["doctor"]).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("ok      statusLine: resume-tui statusline registered"),
        "{stdout}"
    );
}

#[test]
fn an_install_from_before_fork_is_flagged_and_brought_up_to_date() {
    let env = Env::new();
    std::fs::create_dir_all(env.project.path().join(".jerry")).unwrap();
    env.cmd(&["hooks", "install"]).assert().success();
    let text = std::fs::read_to_string(env.settings()).unwrap();
    let old = text.replace(
        "startup|resume|clear|compact|fork",
        "startup|resume|clear|compact",
    );
    assert_ne!(old, text);
    env.write_settings(&env.settings(), &old);
    let out = env.cmd(&["doctor"]).assert();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("matcher \"startup|resume|clear|compact\" leaves out fork"),
        "{stdout}"
    );
    env.cmd(&["hooks", "install"]).assert().success();
    assert_eq!(std::fs::read_to_string(env.settings()).unwrap(), text);
    let out = env.cmd(&["doctor"]).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(!stdout.contains("leaves out"), "{stdout}");
}

/// Runs a hook the way Claude Code does: `command` through `sh -c` (shell form,
/// or an exec-form entry on a Claude Code that ignores `args`), the event on stdin.
#[cfg(unix)]
fn run_as_claude_code(env: &Env, command: &str, session: &str) -> String {
    let stdin = format!(
        r#"{{"hook_event_name":"PreCompact","session_id":"{session}","cwd":"/elsewhere","trigger":"auto"}}"#
    );
    let out = Command::new("sh")
        .args(["-c", command])
        .env_clear()
        .env("PATH", env.path())
        .env("HOME", env.home.path())
        .env("RESUME_TUI_LOG_DIR", env.log.path())
        .env("CLAUDE_PROJECT_DIR", env.project.path())
        .write_stdin(stdin)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[cfg(unix)]
#[test]
fn what_install_writes_for_an_old_claude_code_runs_there() {
    let env = Env::new();
    std::fs::create_dir_all(env.project.path().join(".jerry")).unwrap();
    let checkpoints = || {
        std::fs::read_dir(env.project.path().join(".jerry/checkpoints")).map_or(0, |d| d.count())
    };
    env.cmd(&["hooks", "install"])
        .env("PATH", fake_claude(&env, "2.1.100"))
        .assert()
        .success();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(env.settings()).unwrap()).unwrap();
    let shell_form = v["hooks"]["PreCompact"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert_eq!(run_as_claude_code(&env, shell_form, "s-old"), "");
    assert_eq!(checkpoints(), 1, "the event was handled");

    // An exec-form install meeting an older Claude Code: `command` runs alone,
    // and the bare binary takes the event from stdin instead of exiting 1.
    env.cmd(&["hooks", "install"])
        .env("PATH", fake_claude(&env, "2.1.240"))
        .assert()
        .success();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(env.settings()).unwrap()).unwrap();
    let entry = &v["hooks"]["PreCompact"][0]["hooks"][0];
    assert_eq!(entry["args"][0], "hook", "{entry}");
    let bare = format!("'{}'", entry["command"].as_str().unwrap());
    assert_eq!(run_as_claude_code(&env, &bare, "s-exec"), "");
    assert_eq!(checkpoints(), 2, "the event was handled");
}

/// Claude Code before 2.1.76 has no PostCompact, and rejects a whole settings
/// file over a hook event key it does not know.
#[cfg(unix)]
#[test]
fn no_post_compact_for_a_claude_code_that_predates_it() {
    let env = Env::new();
    std::fs::create_dir_all(env.project.path().join(".jerry")).unwrap();
    env.cmd(&["hooks", "install"])
        .env("PATH", fake_claude(&env, "2.1.240"))
        .assert()
        .success();
    let old = fake_claude(&env, "2.1.70");
    let out = env.cmd(&["doctor"]).env("PATH", &old).assert().failure();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains(
            "Claude Code 2.1.70 predates PostCompact (2.1.76) and rejects the whole settings file"
        ),
        "{stdout}"
    );
    let out = env
        .cmd(&["hooks", "install"])
        .env("PATH", &old)
        .assert()
        .success();
    let said = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        said.contains("PostCompact: removed: Claude Code 2.1.70 predates it"),
        "{said}"
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(env.settings()).unwrap()).unwrap();
    assert!(v["hooks"].get("PostCompact").is_none(), "{v}");
    assert!(v["hooks"]["PreCompact"][0]["hooks"][0]["command"].is_string());
    let out = env.cmd(&["doctor"]).env("PATH", &old).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("PostCompact: not registered, as Claude Code 2.1.70 predates it (2.1.76)"),
        "{stdout}"
    );
}
