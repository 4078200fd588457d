//! The first frame drawn from discovery alone: rows marked as loading, no state
//! made up for them, keys that move and quit, and the selection kept on the same
//! file when the files are read.

use super::*;
use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::env::Env;
use crate::tui::action::Action;
use crate::tui::keymap::Keymap;
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;
use crate::tui::update::{apply, update};

const NOW: Timestamp = Timestamp(1_771_331_696);

struct Demo {
    _dir: tempfile::TempDir,
    found: LoadedWorkspace,
    read: LoadedWorkspace,
    model: Model,
}

/// The demo as discovery finds it and as the preview pass reads it.
fn demo() -> Demo {
    let dir = tempfile::tempdir().unwrap();
    crate::io::demo::unpack_into(dir.path(), NOW).unwrap();
    let discovery = crate::io::discover::discover(dir.path(), &Env::default());
    let found = crate::tui::loader::discovered(dir.path(), &discovery);
    let read = crate::tui::loader::load(
        dir.path(),
        &Env::default(),
        &discovery,
        NOW,
        &Config::default(),
        crate::tui::loader::Pass::Preview,
    );
    let model = Model::new(
        Config::default(),
        Theme::no_color(),
        Keymap::defaults(),
        NOW,
    );
    Demo {
        _dir: dir,
        found,
        read,
        model,
    }
}

fn screen(model: &Model) -> String {
    crate::tui::event_loop::draw_to_text(model, 120, 20).unwrap()
}

#[test]
fn discovery_draws_every_state_file_as_a_loading_row_with_no_state() {
    let mut d = demo();
    let n = d.read.workspace.projects.len();
    assert_eq!(
        d.found.workspace.projects.len(),
        n,
        "one row per state file"
    );
    update(
        &mut d.model,
        Msg::Loaded(Ok(Box::new(d.found.clone()))),
        NOW,
    );
    assert!(d.model.unread && !d.model.loaded);
    let shown = screen(&d.model);
    assert!(shown.contains(&format!("Projects {n} loading…")), "{shown}");
    for never in ["CRITICAL", "STALE", "FRESH", "●", "▲", "◐", "○", "⚑1", "⚑2"] {
        assert!(
            !shown.contains(never),
            "{never} on a row not read:\n{shown}"
        );
    }
    assert!(shown.contains("PROJ-001-ledger-migration"), "{shown}");
    assert!(shown.contains("loading…"), "{shown}");
    assert!(shown.contains("Reading the files…"), "{shown}");
}

#[test]
fn keys_move_and_quit_while_loading_and_project_actions_wait() {
    let mut d = demo();
    update(
        &mut d.model,
        Msg::Loaded(Ok(Box::new(d.found.clone()))),
        NOW,
    );
    let first = d.model.selected.clone();
    apply(&mut d.model, Action::Down);
    assert_ne!(d.model.selected, first, "down moves");
    for action in [Action::CopyPrompt, Action::NewDecision, Action::Acknowledge] {
        assert!(apply(&mut d.model, action).is_empty(), "{action:?}");
        let status = d.model.live_status().map(|s| s.text.clone());
        assert_eq!(
            status.as_deref(),
            Some("still reading the files; try again in a moment")
        );
        assert!(matches!(d.model.overlay, crate::tui::model::Overlay::None));
    }
    apply(&mut d.model, Action::Quit);
    assert!(d.model.quit, "nothing unsaved: q quits at once");
}

#[test]
fn the_read_files_replace_the_rows_and_the_selection_stays_on_its_file() {
    let mut d = demo();
    update(
        &mut d.model,
        Msg::Loaded(Ok(Box::new(d.found.clone()))),
        NOW,
    );
    apply(&mut d.model, Action::Down);
    apply(&mut d.model, Action::Down);
    let source = d.model.project().unwrap().source.clone();
    update(&mut d.model, Msg::Loaded(Ok(Box::new(d.read.clone()))), NOW);
    assert!(!d.model.unread && d.model.loaded);
    let now_selected = d.model.project().unwrap();
    assert_eq!(now_selected.source, source);
    let by_source = d
        .read
        .workspace
        .projects
        .iter()
        .find(|p| p.source == source);
    assert_eq!(Some(&now_selected.id), by_source.map(|p| &p.id));
    let shown = screen(&d.model);
    assert!(!shown.contains("loading…"), "{shown}");
    assert!(shown.contains("CRITICAL 1"), "the header counts: {shown}");
    // A discovery arriving late (it never does) changes nothing once files are read.
    let before = d.model.visible.clone();
    update(
        &mut d.model,
        Msg::Loaded(Ok(Box::new(d.found.clone()))),
        NOW,
    );
    assert!(!d.model.unread);
    assert_eq!(d.model.visible, before);
}

#[test]
fn a_failed_first_load_leaves_no_unread_rows() {
    let mut d = demo();
    update(
        &mut d.model,
        Msg::Loaded(Ok(Box::new(d.found.clone()))),
        NOW,
    );
    update(&mut d.model, Msg::Loaded(Err("cannot read".into())), NOW);
    assert!(!d.model.unread);
    assert!(d.model.workspace.projects.is_empty());
}
