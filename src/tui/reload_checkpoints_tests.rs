//! A checkpoint changed on disk and applied alone gives the workspace a full load
//! of the same files gives.

use std::path::Path;

use super::*;
use crate::core::time::Timestamp;
use crate::io::env::Env;
use crate::tui::loader::{self, Pass};

const NOW: Timestamp = Timestamp(1_771_331_696);

fn env() -> Env {
    Env::from_pairs([("HOME", "/nonexistent-home")])
}

fn full_load(root: &Path) -> Model {
    let mut model = crate::tui::input::test_model();
    let discovery = crate::io::discover::discover(root, &env());
    let config = crate::config::Config::default();
    let loaded = loader::load(root, &env(), &discovery, NOW, &config, Pass::Full);
    super::super::reload::on_loaded(&mut model, loaded);
    model
}

/// Loads the demo, changes it with `change`, applies the changed paths the way
/// the dashboard does (they must not ask for a full load), and compares with a
/// full load of the changed files. The status line after the change.
fn incremental_equals_full(changed: &[&str], change: impl FnOnce(&Path)) -> Option<String> {
    let demo = crate::io::demo::unpack(NOW).unwrap();
    let root = demo.path();
    let mut model = full_load(root);
    model.status = None;
    change(root);
    let paths: Vec<String> = changed.iter().map(|p| p.to_string()).collect();
    let reload = crate::io::watch::affected(
        &model.workspace,
        &paths,
        crate::tui::live_records::is_record,
    );
    let crate::io::watch::Reload::Parts {
        projects,
        records,
        checkpoints,
    } = reload
    else {
        panic!("{changed:?} asked for {reload:?}");
    };
    assert!(projects.is_empty() && records.is_empty(), "{changed:?}");
    let read = loader::reload_checkpoints(root, &env(), checkpoints);
    let effects = on_loaded(&mut model, read, NOW);
    assert!(!effects.contains(&Effect::LoadAll), "{effects:?}");
    let expected = full_load(root);
    assert_eq!(model.workspace.projects, expected.workspace.projects);
    assert_eq!(
        model.workspace.unassigned_checkpoints,
        expected.workspace.unassigned_checkpoints
    );
    assert_eq!(model.visible, expected.visible);
    assert_eq!(
        (model.tally.counts(), model.tally.longest_id()),
        (expected.tally.counts(), expected.tally.longest_id())
    );
    model.status.map(|s| s.text)
}

fn checkpoint(id: &str, workflow: &str) -> String {
    format!(
        "{{\"checkpoint_id\": \"{id}\", \"resumption_state\": {{\"workflow_id\": \"{workflow}\"}}, \
         \"created_at\": \"2026-02-17T12:00:00Z\", \
         \"context_state\": {{\"fill_percentage\": 0.9}}}}\n"
    )
}

const FOLDER: &str = ".jerry/checkpoints";

#[test]
fn a_new_checkpoint_joins_the_project_it_names() {
    let status = incremental_equals_full(&[".jerry/checkpoints/cx-005.json"], |root| {
        let text = checkpoint("cx-005", "docs-rewrite-20260225-001");
        std::fs::write(root.join(FOLDER).join("cx-005.json"), text).unwrap();
    });
    let status = status.unwrap_or_default();
    assert!(
        status.contains("compaction in") && status.contains("cx-005"),
        "{status}"
    );
}

#[test]
fn a_new_checkpoint_naming_no_project_is_placed_as_a_load_places_it() {
    incremental_equals_full(&[".jerry/checkpoints/cx-006-checkpoint.json"], |root| {
        let text = checkpoint("cx-006", "no-such-workflow");
        let path = root.join(FOLDER).join("cx-006-checkpoint.json");
        std::fs::write(path, text).unwrap();
    });
}

#[test]
fn a_checkpoint_rewritten_for_another_workflow_moves() {
    incremental_equals_full(&[".jerry/checkpoints/cx-004.json"], |root| {
        let text = checkpoint("cx-004", "no-such-workflow");
        std::fs::write(root.join(FOLDER).join("cx-004.json"), text).unwrap();
    });
}

#[test]
fn an_acknowledgement_marker_acknowledges_its_checkpoint() {
    incremental_equals_full(&[".jerry/checkpoints/cx-004.acknowledged"], |root| {
        std::fs::write(root.join(FOLDER).join("cx-004.acknowledged"), "").unwrap();
    });
}

#[test]
fn a_deleted_checkpoint_leaves_its_project() {
    incremental_equals_full(
        &[
            ".jerry/checkpoints/cx-003.json",
            ".jerry/checkpoints/cx-001-checkpoint.json",
        ],
        |root| {
            std::fs::remove_file(root.join(FOLDER).join("cx-003.json")).unwrap();
            std::fs::remove_file(root.join(FOLDER).join("cx-001-checkpoint.json")).unwrap();
        },
    );
}

#[test]
fn a_checkpoint_that_does_not_read_asks_for_a_full_load() {
    let demo = crate::io::demo::unpack(NOW).unwrap();
    let root = demo.path();
    let mut model = full_load(root);
    std::fs::write(root.join(FOLDER).join("cx-004.json"), "{ not json").unwrap();
    let read = loader::reload_checkpoints(root, &env(), vec![format!("{FOLDER}/cx-004.json")]);
    assert_eq!(on_loaded(&mut model, read, NOW), vec![Effect::LoadAll]);
}
