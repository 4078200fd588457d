//! Checkpoints and a project file that does not read, through the real binary
//! on a copy of the demo: a workflow whose file breaks keeps the checkpoints
//! that name it (its row ranks by them), and `ack` acknowledges a checkpoint tied
//! to no project by its id alone.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;

use std::path::{Path, PathBuf};

use resume_tui::core::time::Timestamp;

const NOW: Timestamp = Timestamp(1_771_331_696);
const DOCS_FILE: &str = "projects/PROJ-004-docs-site-rewrite/ORCHESTRATION.yaml";

fn demo(tmp: &Path) -> PathBuf {
    let root = tmp.join("workspace");
    resume_tui::io::demo::unpack_into(&root, NOW).unwrap();
    root
}

fn list_json(root: &Path) -> serde_json::Value {
    let (code, out, err) = cli::run(root, &["list", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_workflow_whose_file_does_not_read_keeps_the_checkpoints_that_name_it() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo(tmp.path());
    // Broken at line 2: the workflow's id is not known any more.
    std::fs::write(root.join(DOCS_FILE), "workflow:\n  id: [broken\n").unwrap();

    let json = list_json(&root);
    let projects = json["projects"].as_array().unwrap();
    let docs = projects
        .iter()
        .position(|p| p["source"] == DOCS_FILE)
        .unwrap();
    let row = &projects[docs];
    assert_eq!(row["shape"], "unreadable");
    let why = row["unreadable"].as_str().unwrap();
    assert!(
        why.starts_with(&format!("{DOCS_FILE}:3:1: error: not valid YAML")),
        "{why}"
    );
    // cx-004 names docs-rewrite-20260225-001, which no file carries now.
    assert_eq!(row["checkpoints"], 1, "{row}");
    assert_eq!(row["unacknowledged_checkpoints"], 1, "{row}");
    let loose: Vec<&str> = json["unassigned_checkpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert!(!loose.contains(&"cx-004"), "{loose:?}");
    // A checkpoint waits for it: ranked with the other one that waits, first.
    assert!(docs < 2, "{docs}: {projects:#?}");
    assert_eq!(projects[1 - docs]["unacknowledged_checkpoints"], 1);

    let (_, text, _) = cli::run(&root, &["list"]);
    let line = text
        .lines()
        .find(|l| l.contains("PROJ-004-docs-site-rewrite"))
        .unwrap();
    assert!(
        line.contains("✗ -") && line.contains("unreadable"),
        "{line}"
    );
    let footer = text.lines().last().unwrap();
    assert!(
        footer.contains(&format!(
            "✗ PROJ-004-docs-site-rewrite does not read, ranked by what is known: {DOCS_FILE}:3:1"
        )),
        "{footer}"
    );
}

/// A real Jerry checkpoint (no workflow named) at `rel`.
fn loose_checkpoint(root: &Path, rel: &str, id: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let body = format!(
        r#"{{"checkpoint_id": "{id}", "context_state": {{"fill_percentage": 0.9, "tier": "critical"}}, "resumption_state": null, "created_at": "2026-02-17T12:00:00Z"}}"#
    );
    std::fs::write(path, body).unwrap();
}

fn loose_acknowledged(root: &Path, path: &str) -> bool {
    let json = list_json(root);
    let found = json["unassigned_checkpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["path"] == path)
        .unwrap_or_else(|| panic!("{path} tied to no project: {json:#}"))
        .clone();
    found["acknowledged"].as_bool().unwrap()
}

#[test]
fn ack_takes_a_checkpoint_tied_to_no_project_by_its_id_or_path() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo(tmp.path());
    let here = ".jerry/checkpoints/cx-009.json";
    let there = "elsewhere/.jerry/checkpoints/cx-009.json";
    let single = "elsewhere/.jerry/checkpoints/cx-011.json";
    loose_checkpoint(&root, here, "cx-009");
    loose_checkpoint(&root, there, "cx-009");
    loose_checkpoint(&root, single, "cx-011");
    assert!(!loose_acknowledged(&root, here));

    // Two checkpoints answer to cx-009: named by path, as the message says.
    let (code, out, err) = cli::run(&root, &["ack", "cx-009"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("names no project and 2 checkpoints tied to no project; name one by its path")
            && err.contains(here)
            && err.contains(there),
        "{err}"
    );

    // A dry run prints the marker it would create, and creates nothing.
    let (code, out, err) = cli::run(&root, &["ack", here, "--dry-run"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("+++ b/.jerry/checkpoints/cx-009.acknowledged"),
        "{out}"
    );
    assert!(out.contains("dry run, nothing written"), "{out}");
    assert!(!root.join(".jerry/checkpoints/cx-009.acknowledged").exists());

    let (code, out, err) = cli::run(&root, &["ack", here]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        ".jerry/checkpoints/cx-009.acknowledged: created (empty marker)\n"
    );
    assert!(loose_acknowledged(&root, here));
    assert!(
        !loose_acknowledged(&root, there),
        "the other cx-009 is left"
    );

    // By its number alone, where it is the only one; again: nothing to do.
    let (code, out, err) = cli::run(&root, &["ack", "11"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("cx-011.acknowledged: created"), "{out}");
    let (code, out, _) = cli::run(&root, &["ack", "cx-011"]);
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "cx-011 is already acknowledged\n")
    );
    let (_, timeline, _) = cli::run(&root, &["timeline"]);
    let line = timeline.lines().find(|l| l.contains("cx-011")).unwrap();
    assert!(
        line.contains("acknowledged") && !line.contains("UNACK"),
        "{line}"
    );

    // --all is a project's; a name that is neither fails as before.
    let (code, _, err) = cli::run(&root, &["ack", "cx-011", "--all"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("cx-011 is a checkpoint tied to no project"),
        "{err}"
    );
    let (code, _, err) = cli::run(&root, &["ack", "cx-404"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("no project \"cx-404\""), "{err}");
}

#[test]
fn a_workflow_whose_file_may_not_be_read_keeps_them_too() {
    // The workspace is the temporary folder itself: the unprivileged user the
    // listing runs as (when this process is root) reaches it.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    resume_tui::io::demo::unpack_into(root, NOW).unwrap();
    hostile::hand_to_nobody(root);
    hostile::chmod(&root.join(DOCS_FILE), 0o000);
    let run = hostile::cli_as_nobody(root, &["list", "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let row = json["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["source"] == DOCS_FILE)
        .unwrap()
        .clone();
    let why = row["unreadable"].as_str().unwrap();
    assert!(
        why.starts_with(DOCS_FILE) && why.contains("ermission denied"),
        "{why}"
    );
    assert_eq!(row["unacknowledged_checkpoints"], 1, "{row}");
    hostile::chmod(&root.join(DOCS_FILE), 0o644);
}

/// `resume-tui ARGS… --root ROOT` run from `cwd`: (exit code, stdout, stderr).
fn run_in(cwd: &Path, root: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = assert_cmd::Command::cargo_bin("resume-tui")
        .unwrap()
        .current_dir(cwd)
        .args(args)
        .arg("--root")
        .arg(root)
        .env("RESUME_TUI_CONFIG", root.join("no-config.toml"))
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOME")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn ack_takes_a_checkpoint_by_an_absolute_or_a_current_folder_path() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo(tmp.path());
    let workspace = root.file_name().unwrap().to_str().unwrap();
    for n in ["011", "012", "013"] {
        loose_checkpoint(
            &root,
            &format!(".jerry/checkpoints/cx-{n}.json"),
            &format!("cx-{n}"),
        );
    }

    let absolute = root.join(".jerry/checkpoints/cx-011.json");
    let (code, out, err) = run_in(tmp.path(), &root, &["ack", absolute.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        ".jerry/checkpoints/cx-011.acknowledged: created (empty marker)\n"
    );

    let from_above = format!("{workspace}/.jerry/checkpoints/cx-012.json");
    let (code, out, err) = run_in(tmp.path(), &root, &["ack", &from_above]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("cx-012.acknowledged: created"), "{out}");

    let jerry = root.join(".jerry");
    let (code, out, err) = run_in(&jerry, &root, &["ack", "checkpoints/cx-013.json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("cx-013.acknowledged: created"), "{out}");
    for n in ["011", "012", "013"] {
        assert!(loose_acknowledged(
            &root,
            &format!(".jerry/checkpoints/cx-{n}.json")
        ));
    }

    // A project's own checkpoint, named by path after the project, the same ways.
    let (code, out, err) = run_in(&jerry, &root, &["ack", "docs", "checkpoints/cx-004.json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains(".jerry/checkpoints/cx-004.acknowledged: created"),
        "{out}"
    );
    let absolute = root.join(".jerry/checkpoints/cx-004.json");
    let (code, out, err) = run_in(
        tmp.path(),
        &root,
        &["ack", "docs", absolute.to_str().unwrap()],
    );
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "cx-004 is already acknowledged\n"),
        "{err}"
    );
}

#[test]
fn a_checkpoint_whose_file_is_not_named_by_its_id_gets_its_own_marker() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo(tmp.path());
    let named = ".jerry/checkpoints/cx-034.json";
    let renamed = ".jerry/checkpoints/cx-34.json";
    loose_checkpoint(&root, named, "cx-034");
    loose_checkpoint(&root, renamed, "cx-034");

    let (code, out, err) = cli::run(&root, &["ack", renamed]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        ".jerry/checkpoints/cx-34.acknowledged: created (empty marker)\n"
    );
    assert!(loose_acknowledged(&root, renamed));
    assert!(!loose_acknowledged(&root, named), "the other file is left");

    let (code, out, err) = cli::run(&root, &["ack", named]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        ".jerry/checkpoints/cx-034.acknowledged: created (empty marker)\n"
    );
    assert!(loose_acknowledged(&root, named));
    let (_, timeline, _) = cli::run(&root, &["timeline"]);
    let rows: Vec<&str> = timeline.lines().filter(|l| l.contains("cx-034")).collect();
    assert_eq!(rows.len(), 2, "{timeline}");
    assert!(rows.iter().all(|l| !l.contains("UNACK")), "{timeline}");
}
