//! Issue 15, point 6, through the real binary: a Nexus precompact state too old
//! for SessionStart to inject is not lost from sight. `show PROJECT` (text and
//! `--json`) describes it on the project it names, and `list --json` on the
//! workspace, with its age, session, confidence, detection and whether the hooks
//! would still inject it (`hooks.nexus_state_max_age_minutes`).

#[path = "support/folder.rs"]
mod folder;

use std::path::Path;

use assert_cmd::Command;
use resume_tui::core::time::Timestamp;
use serde_json::{Value, json};

const MERCHANT: &str = "07-merchant-onboarding-research";
const STATE: &str = "00-system/.cache/precompact_state.json";

/// The demo unpacked now, its precompact state rewritten: `fields` over a state
/// naming the merchant project, written `age_minutes` ago, with no session.
fn workspace(age_minutes: i64, fields: Value) -> tempfile::TempDir {
    let now = resume_tui::io::clock::now();
    let dir = folder::demo_copy(now);
    let written = Timestamp(now.0 - age_minutes * 60).to_iso();
    let mut state = json!({
        "active_project_id": MERCHANT,
        "confidence": "high",
        "detection_method": "session",
        "timestamp": written,
    });
    if let (Value::Object(state), Value::Object(fields)) = (&mut state, fields) {
        state.extend(fields);
    }
    folder::write(dir.path(), STATE, &state.to_string());
    dir
}

fn run(root: &Path, config: Option<&str>, args: &[&str]) -> String {
    let config_path = root.join("test-config.toml");
    if let Some(config) = config {
        std::fs::write(&config_path, config).unwrap();
    }
    let out = Command::cargo_bin("resume-tui")
        .unwrap()
        .args(args)
        .arg("--root")
        .arg(root)
        .env("RESUME_TUI_CONFIG", &config_path)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("JERRY_LIFECYCLE_DIR")
        .env("HOME", root.join("no-home"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn show_json(root: &Path, config: Option<&str>, project: &str) -> Value {
    let text = run(root, config, &["show", project, "--json"]);
    serde_json::from_str(&text).unwrap()
}

#[test]
fn show_json_describes_an_old_state_that_is_never_injected() {
    let ws = workspace(50, json!({}));
    let json = show_json(ws.path(), None, "07-merchant");
    let state = &json["precompact_state"];
    let age = state["age_minutes"].as_i64().unwrap();
    assert!((50..=51).contains(&age), "{state}");
    assert_eq!(state["path"], STATE);
    assert_eq!(state["session_id"], Value::Null);
    assert_eq!(state["confidence"], "high");
    assert_eq!(state["detection_method"], "session");
    assert_eq!(state["injectable"], false);
    assert_eq!(state["injection"], "older than 30 min: never injected");
    assert!(
        state["timestamp"].as_str().unwrap().ends_with('Z'),
        "{state}"
    );
    // Additive: everything `show --json` had is still there.
    for key in [
        "format",
        "root",
        "now",
        "aliases",
        "project",
        "context",
        "context_window",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(json["format"], "resume-tui.show.v1");
}

#[test]
fn a_recent_state_is_injectable_and_other_projects_have_none() {
    let ws = workspace(5, json!({"session_id": "s-42"}));
    let state = show_json(ws.path(), None, MERCHANT)["precompact_state"].clone();
    assert_eq!(state["injectable"], true, "{state}");
    assert_eq!(state["session_id"], "s-42");
    assert_eq!(
        state["injection"],
        "younger than 30 min: the next SessionStart injects it"
    );
    for other in ["03-settlement-dashboard", "payouts-v2-20260302-001"] {
        let json = show_json(ws.path(), None, other);
        assert_eq!(json["precompact_state"], Value::Null, "{other}");
    }
}

#[test]
fn the_bound_comes_from_the_config() {
    let ws = workspace(50, json!({}));
    let config = "[hooks]\nnexus_state_max_age_minutes = 90\n";
    let state = show_json(ws.path(), Some(config), MERCHANT)["precompact_state"].clone();
    assert_eq!(state["injectable"], true, "{state}");
    let config = "[hooks]\nnexus_state_max_age_minutes = 10\n";
    let ws = workspace(20, json!({}));
    let state = show_json(ws.path(), Some(config), MERCHANT)["precompact_state"].clone();
    assert_eq!(state["injection"], "older than 10 min: never injected");
}

#[test]
fn the_text_show_has_a_section_for_it() {
    let ws = workspace(50, json!({}));
    let text = run(ws.path(), None, &["show", MERCHANT]);
    let section: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "Precompact state")
        .take(10)
        .collect();
    assert_eq!(
        section.get(1),
        Some(&"  path: 00-system/.cache/precompact_state.json"),
        "{text}"
    );
    for expected in [
        "  session id: -",
        "  confidence: high",
        "  detection method: session",
        "  injectable: no",
        "  injection: older than 30 min: never injected",
    ] {
        assert!(section.contains(&expected), "{expected:?} in {section:#?}");
    }
    let payouts = run(ws.path(), None, &["show", "payouts-v2-20260302-001"]);
    assert!(!payouts.contains("Precompact state"), "{payouts}");
}

#[test]
fn escapes_in_the_state_reach_json_as_written_and_text_cleaned() {
    let ws = workspace(
        50,
        json!({"session_id": "s\u{1b}]0;owned\u{7}-1\u{202e}", "confidence": "hi\u{1b}[2Jgh"}),
    );
    let json = show_json(ws.path(), None, MERCHANT);
    assert_eq!(
        json["precompact_state"]["session_id"],
        "s\u{1b}]0;owned\u{7}-1\u{202e}"
    );
    let text = run(ws.path(), None, &["show", MERCHANT]);
    assert!(
        !text
            .chars()
            .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
        "{text:?}"
    );
    assert!(text.contains("  session id: s]0;owned-1"), "{text}");
}

#[test]
fn list_json_names_the_project_or_none() {
    let ws = workspace(50, json!({}));
    let list: Value = serde_json::from_str(&run(ws.path(), None, &["list", "--json"])).unwrap();
    let state = &list["precompact_state"];
    assert_eq!(state["project_id"], MERCHANT, "{state}");
    assert_eq!(state["active_project_id"], MERCHANT);
    assert_eq!(state["injectable"], false);

    let ws = workspace(5, json!({"active_project_id": "42-gone"}));
    let list: Value = serde_json::from_str(&run(ws.path(), None, &["list", "--json"])).unwrap();
    let state = &list["precompact_state"];
    assert_eq!(state["project_id"], Value::Null, "{state}");
    assert_eq!(state["active_project_id"], "42-gone");
    assert_eq!(state["injectable"], false);
    assert!(
        state["injection"]
            .as_str()
            .unwrap()
            .starts_with("names no project here")
    );
}
