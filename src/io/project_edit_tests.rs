use super::*;
use crate::config::Config;
use crate::core::model::Workspace;
use crate::core::workspace::find_project;
use crate::io::env::Env;
use crate::io::{demo, load};

const NOW: Timestamp = Timestamp(1_771_331_696); // 2026-02-17T12:34:56Z
const PAYOUTS: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
const DOCS: &str = "projects/PROJ-004-docs-site-rewrite/ORCHESTRATION.yaml";

fn demo_workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    demo::unpack_into(dir.path(), NOW).unwrap();
    let ws = load::load_workspace(dir.path(), &Env::from_pairs([]), NOW, &Config::default());
    (dir, ws)
}

fn read(dir: &tempfile::TempDir, rel: &str) -> String {
    std::fs::read_to_string(dir.path().join(rel)).unwrap()
}

fn all_checkpoints(ws: &Workspace) -> Vec<&Checkpoint> {
    ws.projects
        .iter()
        .flat_map(|p| &p.checkpoints)
        .chain(&ws.unassigned_checkpoints)
        .collect()
}

#[test]
fn acknowledging_a_design_checkpoint_marks_the_file_and_the_section() {
    let (dir, ws) = demo_workspace();
    let project = find_project(&ws, "payouts").unwrap();
    let candidates = all_checkpoints(&ws);
    let cp = find_checkpoint(&candidates, "CX-2").unwrap();
    assert_eq!(cp.format, CheckpointFormat::Design);
    let section_before = read(&dir, PAYOUTS);
    let later = Timestamp(NOW.0 + 60);
    let outcome =
        acknowledge(dir.path(), &Target::of(project), &[cp], false, later, false).unwrap();
    let labels: Vec<&str> = outcome.changes.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, [PAYOUTS, cp.path.as_str()]);
    let section = read(&dir, PAYOUTS);
    assert_eq!(section, outcome.changes[0].edited.new);
    assert!(section_before.contains("acknowledged: false"));
    let value: yaml_serde::Value = yaml_serde::from_str(&section).unwrap();
    let events = &value["resumption"]["compaction_events"]["events"];
    assert_eq!(events[1]["acknowledged"], yaml_serde::Value::Bool(true));
    let before: yaml_serde::Value = yaml_serde::from_str(&section_before).unwrap();
    assert_eq!(
        value["resumption"]["recovery_state"]["updated_at"],
        before["resumption"]["recovery_state"]["updated_at"],
        "acknowledging leaves the orchestrator's updated_at alone"
    );
    let json: serde_json::Value = serde_json::from_str(&read(&dir, &cp.path)).unwrap();
    assert_eq!(json["metadata"]["acknowledged"], true);
    assert_eq!(json["metadata"]["acknowledged_at"], "2026-02-17T12:35:56Z");
    assert_eq!(
        outcome.changes[0].summary(),
        format!("{PAYOUTS}: 2 lines changed (+1 \u{2212}1)")
    );

    let again = acknowledge(dir.path(), &Target::of(project), &[cp], false, later, false).unwrap();
    assert!(again.changes.is_empty(), "{again:?}");
    assert_eq!(again.notes, ["cx-002 is already acknowledged"]);
}

#[test]
fn acknowledging_a_jerry_checkpoint_creates_its_marker() {
    let (dir, ws) = demo_workspace();
    let project = find_project(&ws, "docs-rewrite").unwrap();
    let candidates = all_checkpoints(&ws);
    let cp = find_checkpoint(&candidates, "cx-004").unwrap();
    assert_eq!(cp.format, CheckpointFormat::Jerry);
    let section_before = read(&dir, DOCS);
    let outcome = acknowledge(dir.path(), &Target::of(project), &[cp], false, NOW, false).unwrap();
    let marker = ".jerry/checkpoints/cx-004.acknowledged";
    assert_eq!(outcome.changes.len(), 1, "{outcome:?}");
    assert_eq!(
        outcome.changes[0].summary(),
        format!("{marker}: created (empty marker)")
    );
    assert_eq!(std::fs::read(dir.path().join(marker)).unwrap(), b"");
    assert_eq!(
        read(&dir, DOCS),
        section_before,
        "the Jerry-code events carry no acknowledged field, so the section is left alone"
    );
}

#[test]
fn a_dry_run_writes_nothing_and_shows_the_diff() {
    let (dir, ws) = demo_workspace();
    let project = find_project(&ws, "payouts").unwrap();
    let before = read(&dir, PAYOUTS);
    let candidates = all_checkpoints(&ws);
    let cps = [find_checkpoint(&candidates, "cx-002").unwrap()];
    let outcome = acknowledge(dir.path(), &Target::of(project), &cps, true, NOW, true).unwrap();
    assert_eq!(read(&dir, PAYOUTS), before);
    let diff = outcome.changes[0].diff();
    assert!(
        diff.starts_with(&format!("--- a/{PAYOUTS}\n+++ b/{PAYOUTS}\n@@ ")),
        "{diff}"
    );
    assert!(diff.contains("\n+        acknowledged: true"), "{diff}");
    let merged = merge(dir.path(), &Target::of(project), cps[0], true).unwrap();
    assert!(merged.changes.is_empty());
    assert_eq!(
        merged.notes,
        [format!("{PAYOUTS}: cx-002 is already in compaction_events")]
    );
}

#[test]
fn nexus_projects_have_no_checkpoints_to_acknowledge() {
    let (dir, ws) = demo_workspace();
    let project = find_project(&ws, "03-settlement-dashboard").unwrap();
    let err = acknowledge(dir.path(), &Target::of(project), &[], true, NOW, false).unwrap_err();
    assert!(err.to_string().contains("Nexus project"), "{err}");
    let candidates = all_checkpoints(&ws);
    let err = find_checkpoint(&candidates, "cx-099").unwrap_err();
    assert!(err.starts_with("no checkpoint cx-099 (found: "), "{err}");
}

#[test]
fn marker_paths_sit_beside_their_checkpoint() {
    assert_eq!(
        marker_path(".jerry/checkpoints/cx-007.json", "CX-007"),
        ".jerry/checkpoints/cx-007.acknowledged"
    );
    assert_eq!(marker_path("cx-1.json", "cx-1"), "cx-1.acknowledged");
    // Named after the file, as the loader reads it, whatever id the file holds.
    assert_eq!(
        marker_path("a/cx-34.json", "cx-034"),
        "a/cx-34.acknowledged"
    );
    assert_eq!(
        marker_path("a/cx-007-checkpoint.json", "cx-007"),
        "a/cx-007.acknowledged"
    );
}

#[test]
fn retrying_rereads_after_a_change_on_disk_and_gives_up_in_time() {
    let mut calls = 0;
    let result = retrying(3, || {
        calls += 1;
        if calls < 3 {
            Err(WriteError::ChangedOnDisk { path: "f".into() })
        } else {
            Ok(calls)
        }
    });
    assert_eq!(result.unwrap(), 3);
    let mut calls = 0;
    let result: Result<(), _> = retrying(2, || {
        calls += 1;
        Err(WriteError::ChangedOnDisk { path: "f".into() })
    });
    assert!(matches!(result, Err(WriteError::ChangedOnDisk { .. })));
    assert_eq!(calls, 2);
    let mut calls = 0;
    let result: Result<(), _> = retrying(5, || {
        calls += 1;
        Err(WriteError::ReadOnly { path: "f".into() })
    });
    assert!(matches!(result, Err(WriteError::ReadOnly { .. })));
    assert_eq!(calls, 1, "other failures are not retried");
}

#[test]
fn a_brief_outcome_names_files_only_and_says_when_nothing_changed() {
    let (dir, ws) = demo_workspace();
    let project = find_project(&ws, "payouts").unwrap();
    let candidates = all_checkpoints(&ws);
    let cp = find_checkpoint(&candidates, "cx-002").unwrap();
    let target = Target::of(project);
    let outcome = acknowledge(dir.path(), &target, &[cp], false, NOW, true).unwrap();
    assert_eq!(
        outcome.brief(),
        "ORCHESTRATION.yaml: 2 lines changed (+1 \u{2212}1); \
         cx-002-checkpoint.json: 4 lines changed (+2 \u{2212}2)"
    );
    assert_eq!(Outcome::default().brief(), "nothing to change");
}

/// An edit of a file over the loader's cap took minutes and gigabytes, then wrote.
#[test]
fn files_the_loader_refuses_are_not_edited_either() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("ORCHESTRATION.yaml");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(MAX_FILE_BYTES + 1).unwrap();
    let err = read_to_edit(&big).unwrap_err().to_string();
    assert!(
        err.ends_with("refused: file too large (16 MB); limit 16 MB: not edited"),
        "{err}"
    );
    let fifo = dir.path().join("cx-001-checkpoint.json");
    crate::io::test_support::mkfifo(&fifo);
    let err = read_to_edit(&fifo).unwrap_err().to_string();
    assert!(
        err.ends_with("refused: not a regular file (a pipe, socket or device): not edited"),
        "{err}"
    );
    std::fs::write(dir.path().join("ok.yaml"), "a: 1\n").unwrap();
    assert_eq!(
        read_to_edit(&dir.path().join("ok.yaml")).unwrap().bytes,
        b"a: 1\n"
    );
}

#[test]
fn a_checkpoint_tied_to_no_project_is_acknowledged_by_its_file_and_put_back() {
    let (dir, ws) = demo_workspace();
    let candidates = all_checkpoints(&ws);
    // cx-002 is a design checkpoint (its JSON holds the flag), cx-003 a real
    // Jerry one (a marker beside it): each as if tied to no project.
    let design = find_checkpoint(&candidates, "cx-002").unwrap();
    let jerry = find_checkpoint(&candidates, "cx-003").unwrap();
    let jerry = Checkpoint {
        acknowledged: false,
        ..jerry.clone()
    };
    std::fs::remove_file(dir.path().join(".jerry/checkpoints/cx-003.acknowledged")).unwrap();
    let state_before = read(&dir, PAYOUTS);
    let json_before = read(&dir, &design.path);

    let dry = acknowledge_loose(dir.path(), &[design, &jerry], NOW, true).unwrap();
    assert_eq!(dry.changes.len(), 2);
    assert_eq!(
        read(&dir, &design.path),
        json_before,
        "a dry run writes nothing"
    );

    let outcome = acknowledge_loose(dir.path(), &[design, &jerry], NOW, false).unwrap();
    let labels: Vec<&str> = outcome.changes.iter().map(|c| c.label.as_str()).collect();
    let marker = ".jerry/checkpoints/cx-003.acknowledged";
    assert_eq!(labels, [design.path.as_str(), marker]);
    assert_eq!(
        read(&dir, PAYOUTS),
        state_before,
        "no state file is written"
    );
    let json: serde_json::Value = serde_json::from_str(&read(&dir, &design.path)).unwrap();
    assert_eq!(json["metadata"]["acknowledged"], true);
    assert!(dir.path().join(marker).exists());

    // Put back: the JSON as it was, the marker gone; not once either changed since.
    let files: Vec<Revert> = outcome
        .changes
        .iter()
        .map(|c| Revert {
            path: c.label.clone(),
            written: c.edited.new.clone(),
            before: (!c.created).then(|| c.edited.old.clone()),
        })
        .collect();
    std::fs::write(dir.path().join(marker), "changed").unwrap();
    let refused = revert_loose(dir.path(), &files).unwrap_err();
    assert!(refused.is_changed_on_disk(), "{refused}");
    assert!(read(&dir, &design.path).contains("\"acknowledged\": true"));
    std::fs::write(dir.path().join(marker), "").unwrap();
    revert_loose(dir.path(), &files).unwrap();
    assert_eq!(read(&dir, &design.path), json_before);
    assert!(!dir.path().join(marker).exists());
}

#[test]
fn a_checkpoint_whose_file_was_deleted_gets_no_marker() {
    let (dir, ws) = demo_workspace();
    let candidates = all_checkpoints(&ws);
    let jerry = find_checkpoint(&candidates, "cx-003").unwrap();
    let jerry = Checkpoint {
        acknowledged: false,
        ..jerry.clone()
    };
    let marker = dir.path().join(".jerry/checkpoints/cx-003.acknowledged");
    std::fs::remove_file(&marker).unwrap();
    // Deleted from outside after the dashboard read it.
    std::fs::remove_file(dir.path().join(&jerry.path)).unwrap();

    let refused = acknowledge_loose(dir.path(), &[&jerry], NOW, false).unwrap_err();
    assert!(refused.to_string().contains("cx-003 is gone"), "{refused}");
    assert!(!marker.exists(), "no marker for a file that is gone");
}
