//! Checkpoints and a project file that does not read, through the real binary
//! on a copy of the demo: a workflow whose file breaks keeps the checkpoints
//! that name it (its row ranks by them), and `ack` acknowledges a checkpoint tied
//! to no project by its id alone.

#[path = "support/cli.rs"]
mod cli;

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
