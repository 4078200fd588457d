//! `list`, `show` and `validate` over the hand-written workspace in
//! tests/fixtures/workspace: through the real binary for behaviour, and in process
//! with a fixed clock for the `show --json` snapshots (one per shape).

#[path = "support/output.rs"]
mod output;

use std::path::PathBuf;

use assert_cmd::Command;
use clap::Parser;
use resume_tui::cli::{Cli, run};
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/workspace")
}

fn cmd() -> Command {
    let mut cmd = Command::cargo_bin("resume-tui").unwrap();
    // No real ~/.jerry or $JERRY_LIFECYCLE_DIR, no user config.
    cmd.env_remove("JERRY_LIFECYCLE_DIR")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env("HOME", fixture().join("no-home"))
        .env("RESUME_TUI_CONFIG", fixture().join("no-config.toml"));
    cmd
}

fn stdout(args: &[&str]) -> String {
    let out = cmd()
        .args(args)
        .arg("--root")
        .arg(fixture())
        .output()
        .unwrap();
    output::success_stdout(args, out)
}

#[test]
fn list_shows_one_aligned_line_per_project_most_urgent_first() {
    let text = stdout(&["list"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12, "header, 10 projects, footer:\n{text}");
    let header = lines[0];
    for column in [
        "KIND",
        "ID",
        "NAME",
        "STATUS",
        "PHASE",
        "ACTIVITY",
        "STALENESS",
        "UNACK",
        "SCORE",
        "UPDATED",
        "SHAPE",
        "WARN",
    ] {
        assert!(header.contains(column), "{column} missing from {header}");
    }
    // The one project with an unacknowledged checkpoint comes first.
    assert!(
        lines[1].starts_with("jerry  beta-20260301-001 "),
        "{}",
        lines[1]
    );
    assert!(
        lines[1].contains("CRITICAL") && lines[1].contains("0.89↑"),
        "{}",
        lines[1]
    );
    // Columns line up: every row has its SHAPE where the header has it.
    let shape_at = header.find("SHAPE").unwrap();
    for row in &lines[1..11] {
        let shape: String = row.chars().skip(shape_at).collect();
        assert!(
            ["v1", "v2-", "other", "none", "nexus-"]
                .iter()
                .any(|s| shape.starts_with(s)),
            "misaligned: {row}"
        );
    }
    for id in [
        "alpha-20260210-001",
        "gamma-20260215-001",
        "delta-20260220-001",
        "epsilon-20260225-001",
        "01-onboarding",
        "02-state-refactor",
        "03-legacy",
        "04-unversioned",
        "05-plain",
    ] {
        assert!(text.contains(id), "{id} missing");
    }
    let footer = lines[11];
    assert!(
        footer.starts_with("10 projects (jerry 5, nexus 5) · shapes: nexus-1.0 1,"),
        "{footer}"
    );
    assert!(
        footer.ends_with("2 checkpoints not tied to a project (1 unacknowledged)"),
        "{footer}"
    );
}

#[test]
fn list_json_is_the_documented_layout() {
    let text = stdout(&["list", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["format"], "resume-tui.list.v1");
    let keys = output::keys(&json);
    assert_eq!(
        keys,
        [
            "format",
            "root",
            "now",
            "projects",
            "unassigned_checkpoints",
            "counts",
            "diagnostics",
            "excluded",
            "precompact_state"
        ]
    );
    let projects = json["projects"].as_array().unwrap();
    assert_eq!(projects.len(), 10);
    let beta = &projects[0];
    assert_eq!(beta["id"], "beta-20260301-001");
    assert_eq!(beta["shape"], "v2-nested");
    assert_eq!(beta["staleness"], "CRITICAL");
    assert_eq!(beta["unacknowledged_checkpoints"], 1);
    assert_eq!(beta["checkpoints"], 2);
    assert_eq!(beta["last_score"]["score"], 0.89);
    assert_eq!(beta["last_score"]["trend"], "rising");
    assert_eq!(json["counts"]["by_kind"]["nexus"], 5);
    assert_eq!(json["unassigned_checkpoints"].as_array().unwrap().len(), 2);
}

/// `show`'s text without the lines that follow the real clock (the age in
/// seconds, "… ago"): two runs a second apart differ only there.
fn without_clock(text: &str) -> String {
    text.lines()
        .filter(|line| !line.contains("age seconds:") && !line.contains(" ago"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn show_names_a_project_by_id_prefix_or_path() {
    let by_prefix = stdout(&["show", "BETA"]);
    assert!(
        by_prefix.starts_with("beta-20260301-001  (jerry · v2-nested)"),
        "{by_prefix}"
    );
    for section in [
        "\nSummary\n",
        "\nStaleness\n",
        "\nResumption\n",
        "\nScore trajectory\n",
        "\nCheckpoints\n",
        "\nDiagnostics (1)\n",
    ] {
        assert!(by_prefix.contains(section), "{section:?} missing");
    }
    assert!(
        by_prefix.contains(
            "checkpoint cx-002 at 2026-03-01T11:30:00Z is newer than the resumption section \
             (resumption.recovery_state.updated_at 2026-03-01T11:00:00Z)"
        ) && !by_prefix.contains("contradicts itself"),
        "the fixture's resumption predates its checkpoint cx-002: {by_prefix}"
    );
    assert!(
        by_prefix.contains("before checkpoint cx-002 was written"),
        "{by_prefix}"
    );
    let by_prefix = without_clock(&by_prefix);
    let by_path = stdout(&[
        "show",
        "projects/PROJ-002-beta/orchestration/beta-20260301-001/ORCHESTRATION.yaml",
    ]);
    assert_eq!(without_clock(&by_path), by_prefix);
    let by_folder = stdout(&[
        "show",
        "projects/PROJ-002-beta/orchestration/beta-20260301-001/",
    ]);
    assert_eq!(without_clock(&by_folder), by_prefix);
    let absolute = fixture().join("projects/PROJ-002-beta/orchestration/beta-20260301-001");
    let by_absolute = stdout(&["show", absolute.to_str().unwrap()]);
    assert_eq!(without_clock(&by_absolute), by_prefix);

    let alpha = stdout(&["show", "alpha"]);
    assert!(
        alpha.contains(
            "other fields, kept as written:\n    execution_notes: Agents ran one at a time."
        ),
        "{alpha}"
    );
    let nexus = stdout(&["show", "01-onb"]);
    assert!(nexus.contains("\nNexus manifest\n"), "{nexus}");
}

#[test]
fn an_ambiguous_or_unknown_name_says_what_to_type() {
    let out = cmd()
        .args(["show", "PROJ-00", "--root"])
        .arg(fixture())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "an ambiguous name exits 2");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("\"PROJ-00\" matches 5 projects (newest first); name one of them as its line starts (its id, or its path where others share the id):\n  beta-20260301-001  ·  Beta: payouts API v2  ·  ACTIVE  ·  updated 2026-03-01T11:00:00Z\n  gamma-20260215-001  ·"),
        "{err}"
    );
    assert!(
        err.contains(
            "  epsilon-20260225-001  ·  Epsilon: ledger migration  ·  ACTIVE  ·  updated -"
        ),
        "{err}"
    );
    // A bare number names only the folders it numbers (issue 34): no folder is
    // numbered 0, so `0` is unknown, never a prefix of `01-…`.
    let out = cmd()
        .args(["show", "0", "--root"])
        .arg(fixture())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no project \"0\"; did you mean 01-onboarding"),
        "{err}"
    );
    let out = cmd()
        .args(["show", "gama-20260215-001", "--root"])
        .arg(fixture())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no project \"gama-20260215-001\"; did you mean gamma-20260215-001?"),
        "{err}"
    );
}

#[test]
fn validate_exits_by_severity() {
    let out = cmd()
        .args(["validate", "--root"])
        .arg(fixture())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.trim_end()
            .ends_with("16 files: 0 errors, 11 warnings, 7 notes"),
        "{text}"
    );
    assert!(
        text.contains("nexus/02-projects/01-onboarding/_resume.md: info: legacy duplicate"),
        "{text}"
    );

    let out = cmd()
        .args(["validate", "--strict", "--root"])
        .arg(fixture())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "warnings fail with --strict");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(
            "projects/PROJ-003-gamma/ORCHESTRATION.yaml:14:3: error: resumption.files_to_read: is empty"
        ),
        "--strict shows each warning as an error"
    );

    // A path is judged with the workspace around it, as `show` judges it: beta's
    // resumption predates a checkpoint the workspace ties to it.
    let beta = fixture().join("projects/PROJ-002-beta");
    let out = cmd()
        .args(["validate", "--strict", "--root"])
        .arg(fixture())
        .arg(&beta)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("checkpoint cx-002 at 2026-03-01T11:30:00Z is newer than the resumption")
            && text.contains("1 file: 1 error, 0 warnings, 0 notes"),
        "{text}"
    );

    let clean = fixture().join("projects/PROJ-004-delta");
    let out = cmd()
        .args(["validate", "--strict", "--root"])
        .arg(fixture())
        .arg(&clean)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("1 file: 0 errors, 0 warnings"), "{text}");

    let out = cmd()
        .args(["validate", "--json", "--root"])
        .arg(fixture())
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["format"], "resume-tui.validate.v1");
    assert_eq!(json["counts"]["warning"], 11);
    assert_eq!(json["exit_code"], 0);
    assert_eq!(json["files_checked"], 16);
}

/// `resume-tui list | head -1`: the reader goes away before the output is
/// written; the command stops quietly, as `ls` and `git log` do.
#[test]
fn a_reader_that_goes_away_is_not_an_error() {
    for args in [&["list"][..], &["show", "beta"], &["validate"]] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("resume-tui"))
            .args(args)
            .arg("--root")
            .arg(fixture())
            .env("HOME", fixture().join("no-home"))
            .env("RESUME_TUI_CONFIG", fixture().join("no-config.toml"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "",
            "{args:?}: nothing on stderr"
        );
    }
}

#[test]
fn the_demo_workspace_lists() {
    let out = cmd().args(["--demo", "list"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().count() >= 3, "{text}");
    assert!(
        text.lines().last().unwrap().contains(" projects ("),
        "{text}"
    );
}

/// `show --json` in process, with a fixed clock and the root path replaced.
fn show_json(name: &str) -> String {
    let root = fixture();
    let cli = Cli::parse_from([
        "resume-tui",
        "show",
        name,
        "--json",
        "--root",
        root.to_str().unwrap(),
    ]);
    let now = Timestamp::parse("2026-03-01T12:10:00Z").unwrap();
    let mut out = Vec::new();
    run(cli, Env::default(), now, &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .replace(root.to_str().unwrap(), "[fixture]")
}

#[test]
fn show_json_snapshots_one_per_shape() {
    for (shape, id) in [
        ("v1", "alpha-20260210-001"),
        ("v2-nested", "beta-20260301-001"),
        ("v2-flat", "gamma-20260215-001"),
        ("none", "delta-20260220-001"),
        ("other", "epsilon-20260225-001"),
        ("nexus-1.0", "01-onboarding"),
        ("nexus-2.0", "02-state-refactor"),
        ("nexus-legacy", "03-legacy"),
        ("nexus-unversioned", "04-unversioned"),
        ("nexus-no-frontmatter", "05-plain"),
    ] {
        let text = show_json(id);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["project"]["shape"], shape, "{id}");
        assert_eq!(json["format"], "resume-tui.show.v1");
        insta::assert_snapshot!(format!("show_json_{shape}"), text);
    }
}
