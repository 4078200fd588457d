//! Issue 33 items 5 and 7 through the real binary on a copy of the demo
//! workspace: every output path cleans (controls, C1, U+2028, invisible
//! characters), then redacts, so a token split by a BEL goes out redacted; and
//! the commands that print what files hold redact too, unless `--show-secrets`.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/transcript.rs"]
mod transcript;

use assert_cmd::Command;
use hook_fixture::*;
use serde_json::json;

const WORKFLOW_DIR: &str = "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001";
const TOKEN_TAIL: &str = "16C7e42F292c6912E7710c838347Ae178B4a";

/// The demo's payouts `next_step` with an OSC 52, a BEL inside a GitHub
/// token, a CSI as C1, NEL, a line separator and a TAG character, in YAML
/// escapes.
fn hostile(fx: &Fixture) {
    let plan = fx.root().join(WORKFLOW_DIR).join("ORCHESTRATION.yaml");
    let yaml = std::fs::read_to_string(&plan).unwrap().replace(
        "next_step: \"Finish",
        &format!(
            "next_step: \"\\e]52;c;aGk=\\x07 gh\\x07p_{TOKEN_TAIL} \\x9b2J\\x85\\u2028\\U000E0041 Finish"
        ),
    );
    std::fs::write(&plan, yaml).unwrap();
}

fn unsafe_chars(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t')
                || matches!(c, '\u{2028}' | '\u{2029}' | '\u{E0000}'..='\u{E007F}')
        })
        .collect()
}

#[test]
fn precompact_steer_stdout_and_the_checkpoint_are_cleaned_then_redacted() {
    let fx = Fixture::demo();
    hostile(&fx);
    let config = fx.home.path().join("config.toml");
    std::fs::write(&config, "[hooks]\nprecompact_steer = true\n").unwrap();
    let t = fx.edits_in(WORKFLOW_DIR);
    let (stdout, _) = fx.run_env(
        &[],
        &payload("PreCompact", Some(&t), json!({"trigger": "auto"})),
        &[("RESUME_TUI_CONFIG", config.to_str().unwrap())],
    );
    assert!(stdout.contains("S-004"), "the steer text: {stdout:?}");
    assert_eq!(unsafe_chars(&stdout), [], "{stdout:?}");
    assert!(!stdout.contains(TOKEN_TAIL), "{stdout:?}");
    assert!(stdout.contains("[REDACTED]"), "{stdout:?}");

    let name = fx
        .checkpoints()
        .into_iter()
        .find(|n| n.starts_with("cx-005"))
        .unwrap();
    let checkpoint = fx.read(&format!(".jerry/checkpoints/{name}"));
    let value: serde_json::Value = serde_json::from_str(&checkpoint).unwrap();
    let text = value.to_string();
    let decoded: String = serde_json::from_str::<serde_json::Value>(&checkpoint)
        .map(|v| format!("{v:?}"))
        .unwrap();
    assert!(!text.contains(TOKEN_TAIL), "{checkpoint}");
    assert_eq!(unsafe_chars(&decoded), [], "{checkpoint}");
    for escaped in ["\\u0085", "\\u009b", "\\u0007", "\\u001b"] {
        assert!(!checkpoint.contains(escaped), "{escaped} in {checkpoint}");
    }
    assert!(!fx.log().contains(TOKEN_TAIL), "{}", fx.log());
}

fn cli(fx: &Fixture, args: &[&str]) -> String {
    let out = Command::cargo_bin("resume-tui")
        .unwrap()
        .env_clear()
        .env("HOME", fx.home.path())
        .env("RESUME_TUI_CONFIG", "/nonexistent/config.toml")
        .arg("--root")
        .arg(fx.root())
        .args(args)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn show_list_and_validate_redact_unless_asked_to_show_secrets() {
    let fx = Fixture::demo();
    let plan = fx.root().join(WORKFLOW_DIR).join("ORCHESTRATION.yaml");
    let yaml = std::fs::read_to_string(&plan).unwrap().replace(
        "next_step: \"Finish",
        "next_step: \"DB_PASSWORD=alpha7,bravo9charlie then gh\\x07p_16C7e42F292c6912E7710c838347Ae178B4a. Finish",
    );
    std::fs::write(&plan, yaml).unwrap();
    for args in [
        &["show", "payouts-v2"][..],
        &["show", "payouts-v2", "--json"],
        &["list", "--json"],
    ] {
        let out = cli(&fx, args);
        assert!(out.contains("[REDACTED]"), "{args:?}: {out}");
        for leak in ["bravo9charlie", "alpha7", TOKEN_TAIL] {
            assert!(!out.contains(leak), "{args:?} leaks {leak}: {out}");
        }
    }
    let shown = cli(&fx, &["show", "payouts-v2", "--show-secrets"]);
    assert!(
        shown.contains("DB_PASSWORD=alpha7,bravo9charlie"),
        "{shown}"
    );
    let help = cli(&fx, &["show", "--help"]);
    assert!(help.contains("--show-secrets"), "{help}");
}
