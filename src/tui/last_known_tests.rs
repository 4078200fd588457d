//! A state file broken or unreadable under the dashboard: the project keeps its
//! last state read, id, urgency and checkpoints; mended, it is not announced.

use crate::config::Config;
use crate::core::staleness::StalenessLevel;
use crate::core::time::Timestamp;
use crate::io::env::Env;
use crate::tui::action::Action;
use crate::tui::loader::{self, Pass};
use crate::tui::model::{Model, Tab};
use crate::tui::msg::Msg;
use crate::tui::update::{apply, update};

const NOW: Timestamp = Timestamp(1_771_331_696);
const DOCS: &str = "docs-rewrite-20260225-001";
const DOCS_FILE: &str = "projects/PROJ-004-docs-site-rewrite/ORCHESTRATION.yaml";

/// A whole load of `root` arriving in `model`.
pub(crate) fn load(root: &std::path::Path, model: &mut Model) {
    let discovery = crate::io::discover::discover(root, &Env::default());
    let loaded = loader::load(
        root,
        &Env::default(),
        &discovery,
        NOW,
        &Config::default(),
        Pass::Full,
    );
    update(model, Msg::Loaded(Ok(Box::new(loaded))), NOW);
}

fn reload_one(root: &std::path::Path, model: &mut Model, source: &str) {
    let reloaded = loader::reload_project(
        root,
        &Env::default(),
        source.to_string(),
        NOW,
        &Config::default(),
    );
    update(model, Msg::ProjectsLoaded(vec![reloaded]), NOW);
}

fn docs(model: &Model) -> &crate::core::model::Project {
    model
        .workspace
        .projects
        .iter()
        .find(|p| p.id == DOCS)
        .expect("docs-rewrite listed")
}

fn waiting(model: &Model) -> usize {
    crate::tui::list::waiting(docs(model), &model.workspace.unassigned_checkpoints)
}

fn select_docs(model: &mut Model) {
    apply(model, Action::Top);
    while model.selected.as_deref() != Some(DOCS) {
        let before = model.selected.clone();
        apply(model, Action::Down);
        assert_ne!(model.selected, before, "{DOCS} not in the list");
    }
}

/// The demo loaded, docs-rewrite (CRITICAL, one checkpoint waiting) selected on
/// its Decisions tab.
fn setup() -> (tempfile::TempDir, Model, String) {
    let dir = crate::io::demo::unpack(NOW).unwrap();
    let mut model = crate::tui::input::test_model();
    load(dir.path(), &mut model);
    select_docs(&mut model);
    apply(&mut model, Action::TabDecisions);
    let text = std::fs::read_to_string(dir.path().join(DOCS_FILE)).unwrap();
    assert_eq!(docs(&model).staleness.level, StalenessLevel::Critical);
    assert_eq!(waiting(&model), 1);
    (dir, model, text)
}

fn break_and_check(whole: bool) {
    let (dir, mut model, text) = setup();
    std::fs::write(
        dir.path().join(DOCS_FILE),
        format!("{text}bad: [unclosed\n"),
    )
    .unwrap();
    if whole {
        load(dir.path(), &mut model);
    } else {
        reload_one(dir.path(), &mut model, DOCS_FILE);
        if model.workspace.projects.iter().all(|p| p.id != DOCS) {
            load(dir.path(), &mut model);
        }
    }
    // The last state read, marked, at its urgency, still selected.
    assert_eq!(model.selected.as_deref(), Some(DOCS));
    assert!(model.unreadable.contains_key(DOCS_FILE));
    assert_eq!(docs(&model).staleness.level, StalenessLevel::Critical);
    assert_eq!(waiting(&model), 1, "its checkpoint still counts");
    assert_eq!(model.selected_row(), Some(1), "still second, after payouts");
    assert!(
        docs(&model).diagnostics[0]
            .message
            .contains("not valid YAML")
    );
    // No edit of a file that does not read, and the status bar says why.
    assert_eq!(model.tab, Tab::Decisions);
    assert!(apply(&mut model, Action::DeleteDecision).is_empty());
    let status = model.live_status().unwrap().text.clone();
    assert!(status.contains("shown as last read"), "{status}");
    // Mended: read again, and not announced as a change.
    // The refusal was about the broken file: it goes with it, not 20 s later.
    std::fs::write(dir.path().join(DOCS_FILE), &text).unwrap();
    if whole {
        load(dir.path(), &mut model);
    } else {
        reload_one(dir.path(), &mut model, DOCS_FILE);
    }
    assert!(model.unreadable.is_empty());
    assert!(
        !docs(&model)
            .diagnostics
            .iter()
            .any(|d| d.message.contains("not valid YAML"))
    );
    assert!(model.live_status().is_none(), "{:?}", model.status);
}

#[test]
fn a_broken_file_read_whole_keeps_its_last_state() {
    break_and_check(true);
}

#[test]
fn a_broken_file_read_alone_keeps_its_last_state() {
    break_and_check(false);
}

#[test]
fn a_file_never_read_is_listed_as_it_is() {
    let dir = crate::io::demo::unpack(NOW).unwrap();
    let file = dir.path().join(DOCS_FILE);
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("{text}bad: [unclosed\n")).unwrap();
    let mut model = crate::tui::input::test_model();
    load(dir.path(), &mut model);
    assert!(model.unreadable.is_empty());
    assert!(model.workspace.projects.iter().all(|p| p.id != DOCS));
}
