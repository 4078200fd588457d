//! `hooks install` and `doctor` next to the Claude Code plugin, and what the
//! entries name: the project's shared file runs `resume-tui` from PATH, the
//! personal files this binary's path; a folder that is no workspace is named;
//! a path holding `'` (shell form) is read back whole.

#[path = "support/install_env.rs"]
mod install_env;

use assert_cmd::cargo::cargo_bin;
use install_env::{Env, fake_claude};

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stderr.clone()).unwrap()
}

/// The plugin installed as `claude plugin install resume-tui@resume-tui` records it.
fn enable_plugin(env: &Env) {
    env.write_settings(
        &env.user_settings(),
        r#"{"enabledPlugins": {"resume-tui@resume-tui": true}}"#,
    );
}

fn workspace(env: &Env) {
    std::fs::create_dir_all(env.project.path().join(".jerry")).unwrap();
}

#[test]
fn install_refuses_to_double_the_plugin_without_force() {
    let env = Env::new();
    workspace(&env);
    enable_plugin(&env);
    let out = env.cmd(&["hooks", "install"]).assert().failure();
    let said = stderr(&out);
    assert!(said.contains("plugin (resume-tui@resume-tui"), "{said}");
    assert!(said.contains("run every event twice"), "{said}");
    assert!(said.contains("--force"), "{said}");
    assert!(!env.settings().exists(), "nothing written");

    env.cmd(&["hooks", "install", "--force"]).assert().success();
    assert!(env.settings().exists());
    let said = stdout(&env.cmd(&["doctor"]).assert().success());
    for event in [
        "SessionStart",
        "UserPromptSubmit",
        "PreCompact",
        "PostCompact",
        "PostToolUse",
    ] {
        assert!(
            said.contains(&format!(
                "warning {event}: runs twice, from the plugin and from a settings file"
            )),
            "{event}: {said}"
        );
    }
}

#[test]
fn doctor_counts_the_plugins_hooks_and_needs_the_binary_on_path() {
    let env = Env::new();
    workspace(&env);
    enable_plugin(&env);
    let said = stdout(&env.cmd(&["doctor"]).assert().success());
    assert!(
        said.contains("ok      SessionStart: registered at plugin resume-tui@resume-tui"),
        "{said}"
    );
    assert!(!said.contains("not registered"), "{said}");
    assert!(!said.contains("runs twice"), "{said}");

    // Without the binary on PATH the plugin's hooks only say how to install it.
    let out = env
        .cmd(&["doctor"])
        .env("PATH", "/usr/bin:/bin")
        .assert()
        .code(1);
    let said = stdout(&out);
    assert!(
        said.contains(
            "`resume-tui` is not on PATH (the plugin's hooks only say how to install it)"
        ),
        "{said}"
    );

    // Disabled in the project: no hook runs, and doctor says so.
    env.write_settings(
        &env.settings(),
        r#"{"enabledPlugins": {"resume-tui@resume-tui": false}}"#,
    );
    let said = stdout(&env.cmd(&["doctor"]).assert().code(1));
    assert!(said.contains("SessionStart: not registered"), "{said}");
}

#[test]
fn the_project_file_names_the_binary_on_path_and_the_personal_files_its_path() {
    // Issue 37.3: .claude/settings.json is committed; a machine's path breaks it
    // for every teammate.
    let env = Env::new();
    workspace(&env);
    env.cmd(&["hooks", "install", "--project"])
        .assert()
        .success();
    let v = env.read(&env.settings());
    assert_eq!(
        v["hooks"]["PreCompact"][0]["hooks"][0]["command"],
        "resume-tui"
    );
    assert!(
        !std::fs::read_to_string(env.settings())
            .unwrap()
            .contains(env.home.path().to_str().unwrap())
    );
    let said = stdout(&env.cmd(&["doctor"]).assert().success());
    assert!(said.contains("ok      PreCompact: registered"), "{said}");

    env.cmd(&["hooks", "install", "--local"]).assert().success();
    let v = env.read(&env.local_settings());
    let exe = std::fs::canonicalize(cargo_bin("resume-tui")).unwrap();
    assert_eq!(
        v["hooks"]["PreCompact"][0]["hooks"][0]["command"],
        exe.to_str().unwrap()
    );

    // No `resume-tui` on PATH: the install says so; doctor calls it an error.
    let fresh = Env::new();
    workspace(&fresh);
    let out = fresh
        .cmd(&["hooks", "install"])
        .env("PATH", "/usr/bin:/bin")
        .assert()
        .success();
    assert!(
        stdout(&out).contains("note: the project's entries run `resume-tui` from PATH"),
        "{}",
        stdout(&out)
    );
    let said = stdout(
        &fresh
            .cmd(&["doctor"])
            .env("PATH", "/usr/bin:/bin")
            .assert()
            .code(1),
    );
    assert!(
        said.contains(
            "but `resume-tui` is not on PATH: the hook cannot run; install the binary on PATH"
        ),
        "{said}"
    );
}

#[test]
fn an_install_outside_a_workspace_says_so_and_what_to_do() {
    // Issue 37.1.
    let env = Env::new();
    let out = env.cmd(&["hooks", "install"]).assert().success();
    let said = stdout(&out);
    assert!(said.contains("is not a workspace"), "{said}");
    assert!(said.contains("run `resume-tui init`"), "{said}");
    workspace(&env);
    let said = stdout(&env.cmd(&["hooks", "install"]).assert().success());
    assert!(!said.contains("is not a workspace"), "{said}");
}

#[cfg(unix)]
#[test]
fn a_shell_form_install_from_a_path_with_a_quote_is_one_entry_and_doctor_reads_it() {
    // Issue 33.7: every run added a copy, and doctor looked for `/…/it`.
    let env = Env::new();
    workspace(&env);
    let dir = env.home.path().join("it's here");
    std::fs::create_dir_all(&dir).unwrap();
    let rt = dir.join("resume-tui");
    if std::fs::hard_link(cargo_bin("resume-tui"), &rt).is_err() {
        std::fs::copy(cargo_bin("resume-tui"), &rt).unwrap();
    }
    let path = fake_claude(&env, "2.1.100");
    let install = || {
        env.cmd_of(&rt, &["hooks", "install", "--local"])
            .env("PATH", &path)
            .assert()
            .success()
    };
    install();
    let text = std::fs::read_to_string(env.local_settings()).unwrap();
    let said = stdout(&install());
    assert!(said.contains("nothing changed"), "{said}");
    assert_eq!(std::fs::read_to_string(env.local_settings()).unwrap(), text);
    let v = env.read(&env.local_settings());
    assert_eq!(v["hooks"]["SessionStart"].as_array().unwrap().len(), 1);
    let said = stdout(
        &env.cmd_of(&rt, &["doctor"])
            .env("PATH", &path)
            .assert()
            .success(),
    );
    assert!(said.contains("ok      SessionStart: registered"), "{said}");
    assert!(!said.contains("does not exist"), "{said}");
}
