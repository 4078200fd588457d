//! Issue 14 through the real binary: a Nexus build without a manifest is listed
//! and has nothing to resume from; test fixtures are excluded and `list --all`
//! says why; Jerry's recorded tier is shown where no fill can be computed.

#[path = "support/folder.rs"]
mod folder;

use std::path::Path;

use assert_cmd::Command;
use folder::write;

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "02-builds/active/05-new-build/01-planning/01-overview.md",
        "---\nid: 05-new-build\nname: New Build\nstatus: PLANNING\ncreated: 2026-01-23\n---\n# New Build\n",
    );
    write(
        root,
        "02-builds/active/05-new-build/01-planning/04-steps.md",
        "## Phase 1: Planning\n- [x] overview\n- [ ] plan\n## Phase 2: Build\n- [ ] build\n",
    );
    write(
        root,
        "tests/fixtures/ORCHESTRATION.yaml",
        "workflow:\n  id: fixture-wf\n",
    );
    write(
        root,
        "projects/PROJ-001-x/ORCHESTRATION.yaml",
        "workflow:\n  id: wf-1\n  status: ACTIVE\n",
    );
    write(
        root,
        "life/context-state.json",
        r#"{"previous_tokens": 171000, "previous_session_id": "s-9", "last_tier": "critical"}"#,
    );
    dir
}

fn run(root: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::cargo_bin("resume-tui")
        .unwrap()
        .env_remove("CLAUDE_PROJECT_DIR")
        .env("JERRY_LIFECYCLE_DIR", root.join("life"))
        .env("HOME", root.join("no-home"))
        .env("RESUME_TUI_CONFIG", root.join("no-config.toml"))
        .arg("--root")
        .arg(root)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_build_without_manifest_is_listed_with_nothing_to_resume_from() {
    let ws = workspace();
    let (ok, list, _) = run(ws.path(), &["list"]);
    assert!(ok);
    let row = list
        .lines()
        .find(|l| l.contains("05-new-build"))
        .expect(&list);
    for part in ["New Build", "PLANNING", "planning", "nexus-no-manifest"] {
        assert!(row.contains(part), "{part}: {row}");
    }
    let (ok, _, err) = run(ws.path(), &["prompt", "05-new-build"]);
    assert!(!ok);
    assert!(
        err.contains("nothing to resume from: 02-builds/active/05-new-build has no 01-planning/resume-context.md"),
        "{err}"
    );
    let (ok, show, _) = run(ws.path(), &["show", "05-new-build"]);
    assert!(ok);
    assert!(show.contains("1 of 3 steps checked"), "{show}");
    assert!(show.contains("Phase 1: Planning"), "{show}");
}

#[test]
fn excluded_files_are_counted_by_list_and_named_by_list_all() {
    let ws = workspace();
    let (_, list, _) = run(ws.path(), &["list"]);
    assert!(!list.contains("fixture-wf"), "{list}");
    assert!(
        list.contains("1 state file excluded (`resume-tui list --all` says why)"),
        "{list}"
    );
    let (_, all, _) = run(ws.path(), &["list", "--all"]);
    assert!(
        all.contains("tests/fixtures/ORCHESTRATION.yaml: under a test-fixture folder (tests/)"),
        "{all}"
    );
    let (_, json, _) = run(ws.path(), &["list", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        json["excluded"][0]["path"],
        "tests/fixtures/ORCHESTRATION.yaml"
    );
}

#[test]
fn the_recorded_tier_is_shown_when_no_fill_can_be_computed() {
    let ws = workspace();
    let (ok, show, _) = run(ws.path(), &["show", "wf-1"]);
    assert!(ok);
    assert!(
        show.contains("context: CRITICAL (the last tier Jerry recorded, in "),
        "{show}"
    );
    let (_, json, _) = run(ws.path(), &["show", "wf-1", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["context"]["last_tier"], "critical");
    assert_eq!(json["context"]["fill"], serde_json::Value::Null);
}
