//! Whose entry is it, through the binary: resume-tui run under another name
//! (a release download, a copy) knows its own hook and status-line entries; a
//! status line installed at one level never hides another tool's from a level of
//! lower precedence (local > project > user) without `--force`.

#[path = "support/install_env.rs"]
mod install_env;

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin;
use install_env::{Env, fake_claude};
use serde_json::Value;

/// The built binary under a name without `resume-tui` in it: a hard link (no
/// file is written, so none can be busy when it runs), else a copy.
fn renamed(env: &Env) -> PathBuf {
    let dir = env.home.path().join("downloads");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rt-copy");
    if std::fs::hard_link(cargo_bin("resume-tui"), &path).is_err() {
        std::fs::copy(cargo_bin("resume-tui"), &path).unwrap();
    }
    std::fs::canonicalize(path).unwrap()
}

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

/// Every handler of every event in `settings`, as (event, handler).
fn handlers(settings: &Value) -> Vec<(String, Value)> {
    let mut found = Vec::new();
    for (event, groups) in settings["hooks"].as_object().unwrap() {
        for group in groups.as_array().unwrap() {
            for h in group["hooks"].as_array().unwrap() {
                found.push((event.clone(), h.clone()));
            }
        }
    }
    found
}

const EVENTS: [&str; 5] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreCompact",
    "PostCompact",
    "PostToolUse",
];

#[cfg(unix)]
#[test]
fn a_binary_under_another_name_knows_its_own_entries() {
    let env = Env::new();
    let rt = renamed(&env);
    let shown = rt.display().to_string();
    let path = fake_claude(&env, "2.1.220");
    let install =
        |args: &[&str], path: &str| env.cmd_of(&rt, args).env("PATH", path).assert().success();

    install(&["hooks", "install", "--local", "--statusline"], &path);
    let text = std::fs::read_to_string(env.local_settings()).unwrap();
    let out = install(&["hooks", "install", "--local", "--statusline"], &path);
    assert!(stdout(&out).contains("nothing changed"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("NOT installed"), "{}", stdout(&out));
    assert_eq!(std::fs::read_to_string(env.local_settings()).unwrap(), text);
    let v = env.read(&env.local_settings());
    let all = handlers(&v);
    assert_eq!(all.len(), EVENTS.len(), "one entry an event: {all:?}");
    for (event, h) in &all {
        assert_eq!(h["command"], shown.as_str(), "{event}");
        assert_eq!(h["args"], serde_json::json!(["hook", event]));
    }
    assert_eq!(v["statusLine"]["command"], format!("'{shown}' statusline"));

    let out = env
        .cmd_of(&rt, &["doctor"])
        .env("PATH", &path)
        .assert()
        .success();
    let said = stdout(&out);
    for event in EVENTS {
        says(&said, &format!("ok      {event}: registered"));
    }
    assert!(!said.contains("not registered"), "{said}");
    assert!(
        said.contains("ok      statusLine: resume-tui statusline registered"),
        "{said}"
    );

    // Claude Code 2.1.100 ignores `args`: the same entries, now in shell form.
    let out = install(
        &["hooks", "install", "--local"],
        &fake_claude(&env, "2.1.100"),
    );
    assert!(
        stdout(&out).contains("SessionStart: updated args (removed), command"),
        "{}",
        stdout(&out)
    );
    let all = handlers(&env.read(&env.local_settings()));
    assert_eq!(all.len(), EVENTS.len(), "converted, not added: {all:?}");
    for (event, h) in &all {
        assert_eq!(h["command"], format!("'{shown}' hook {event}"));
        assert!(h.get("args").is_none(), "{h}");
    }

    // Claude Code 2.1.50 predates PostCompact: ours is taken out.
    let out = install(
        &["hooks", "install", "--local"],
        &fake_claude(&env, "2.1.50"),
    );
    assert!(
        stdout(&out).contains("PostCompact: removed: Claude Code 2.1.50 predates it"),
        "{}",
        stdout(&out)
    );
    let v = env.read(&env.local_settings());
    assert!(v["hooks"].get("PostCompact").is_none(), "{v}");
    assert_eq!(handlers(&v).len(), EVENTS.len() - 1);
}

/// `hooks install --statusline` at `level` (a flag, or none for the project).
fn install_statusline(env: &Env, level: Option<&str>, force: bool) -> String {
    let mut args = vec!["hooks", "install", "--statusline"];
    args.extend(level);
    if force {
        args.push("--force");
    }
    stdout(&env.cmd(&args).assert().success())
}

fn doctor(env: &Env) -> String {
    stdout(&env.cmd(&["doctor"]).assert().success())
}

/// Fails unless `said` holds `line`.
fn says(said: &str, line: &str) {
    assert!(said.contains(line), "expected {line:?} in:\n{said}");
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

#[test]
fn a_project_status_line_never_hides_the_users_without_force() {
    let env = Env::new();
    let user = env.user_settings();
    let user_text = r#"{"statusLine":{"type":"command","command":"npx ccstatusline"}}"#;
    env.write_settings(&user, user_text);

    let said = install_statusline(&env, None, false);
    says(
        &said,
        &format!(
            "statusLine: NOT installed: {} sets another status line (npx ccstatusline), and one added here would take precedence over it; --force adds it anyway",
            shown(&user)
        ),
    );
    let v = env.read(&env.settings());
    assert!(v.get("statusLine").is_none(), "{v}");
    assert_eq!(handlers(&v).len(), 5, "the hooks are still installed");
    assert_eq!(std::fs::read_to_string(&user).unwrap(), user_text);
    let said = doctor(&env);
    assert!(!said.contains("warning statusLine"), "{said}");
    says(
        &said,
        &format!(
            "info    {}: status line is another tool's (npx ccstatusline)",
            shown(&user)
        ),
    );

    let said = install_statusline(&env, None, true);
    says(
        &said,
        &format!(
            "statusLine: added (--force); it hides the status line {} sets (npx ccstatusline)",
            shown(&user)
        ),
    );
    let v = env.read(&env.settings());
    assert!(
        v["statusLine"]["command"]
            .as_str()
            .unwrap()
            .ends_with("statusline"),
        "{v}"
    );
    let said = doctor(&env);
    says(
        &said,
        &format!(
            "warning statusLine: resume-tui statusline registered at {} hides another tool's status line set at {} (npx ccstatusline)",
            shown(&env.settings()),
            shown(&user)
        ),
    );
    assert!(!said.contains("ok      statusLine"), "not also ok: {said}");

    // Already ours here: installing again keeps it, without --force.
    let said = install_statusline(&env, None, false);
    assert!(said.contains("nothing changed"), "{said}");
    assert!(!said.contains("NOT installed"), "{said}");
}

#[test]
fn a_local_status_line_never_hides_the_projects_and_a_user_one_hides_nothing() {
    let env = Env::new();
    let project_text = r#"{"statusLine":{"type":"command","command":"ccline --project"}}"#;
    env.write_settings(&env.settings(), project_text);

    let said = install_statusline(&env, Some("--local"), false);
    says(
        &said,
        &format!(
            "statusLine: NOT installed: {} sets another status line (ccline --project)",
            shown(&env.settings())
        ),
    );
    assert!(env.read(&env.local_settings()).get("statusLine").is_none());
    assert_eq!(
        std::fs::read_to_string(env.settings()).unwrap(),
        project_text
    );

    // The user level has the lowest precedence: it hides nothing, and doctor says
    // that the project's status line is the one shown here.
    let said = install_statusline(&env, Some("--user"), false);
    assert!(said.contains("statusLine: added"), "{said}");
    assert!(!said.contains("NOT installed"), "{said}");
    let said = doctor(&env);
    says(
        &said,
        &format!(
            "info    statusLine: resume-tui statusline registered at {}, but {} sets another status line (ccline --project), which takes precedence: resume-tui's does not run here",
            shown(&env.user_settings()),
            shown(&env.settings())
        ),
    );
}

#[test]
fn resume_tuis_own_status_line_below_does_not_block_an_install_above() {
    let env = Env::new();
    let said = install_statusline(&env, Some("--user"), false);
    assert!(said.contains("statusLine: added"), "{said}");
    let said = install_statusline(&env, None, false);
    assert!(said.contains("statusLine: added"), "{said}");
    assert!(!said.contains("NOT installed"), "{said}");
    let said = doctor(&env);
    assert!(!said.contains("warning statusLine"), "{said}");
}
