//! A late background pass does not hide the operator's own message: its report
//! waits until that message is gone, then shows.

use super::*;
use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::env::Env;
use crate::tui::loader::{self, Pass};
use crate::tui::model::StatusKind;
use crate::tui::msg::Msg;
use crate::tui::update::update;

const NOW: Timestamp = Timestamp(1_771_331_696);
const PAYOUTS_STATE: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";

fn pass(root: &std::path::Path, pass: Pass) -> Msg {
    let discovery = crate::io::discover::discover(root, &Env::default());
    let loaded = loader::load(
        root,
        &Env::default(),
        &discovery,
        NOW,
        &Config::default(),
        pass,
    );
    Msg::Loaded(Ok(Box::new(loaded)))
}

/// The demo, and a model that has drawn its preview pass.
fn demo_read() -> (tempfile::TempDir, Model) {
    let dir = crate::io::demo::unpack(NOW).unwrap();
    let mut model = crate::tui::input::test_model();
    update(&mut model, pass(dir.path(), Pass::Preview), NOW);
    (dir, model)
}

/// The payouts project's state file replaced by a folder (a problem every pass
/// reports); its bytes, to put back.
fn state_file_made_a_folder(root: &std::path::Path) -> Vec<u8> {
    let state = root.join(PAYOUTS_STATE);
    let text = std::fs::read(&state).unwrap();
    std::fs::remove_file(&state).unwrap();
    std::fs::create_dir(&state).unwrap();
    text
}

fn status(model: &Model) -> (StatusKind, String) {
    let s = model.live_status().expect("a status");
    (s.kind, s.text.clone())
}

#[test]
fn a_late_pass_about_another_file_waits_for_the_operators_saved_message() {
    let (dir, mut model) = demo_read();
    // The operator saves an edit; its read-back comes.
    update(
        &mut model,
        Msg::Written {
            what: "marked RD-001 not applied".into(),
            result: Ok("docs/ORCHESTRATION.yaml".into()),
            undo: None,
        },
        NOW,
    );
    update(&mut model, pass(dir.path(), Pass::Full), NOW);
    let saved = (
        StatusKind::Success,
        "saved: marked RD-001 not applied (docs/ORCHESTRATION.yaml)".to_string(),
    );
    assert_eq!(status(&model), saved);
    // Another project's state file becomes a folder; a pass started before the
    // save lands after it and finds that.
    state_file_made_a_folder(dir.path());
    let later = Timestamp(NOW.0 + 1);
    update(&mut model, pass(dir.path(), Pass::Full), later);
    assert_eq!(status(&model), saved, "the operator's message stays up");
    // Once it is gone, the report shows, for as long as a report does.
    let gone = Timestamp(NOW.0 + StatusKind::Success.lasts());
    update(&mut model, Msg::Tick, gone);
    let (kind, text) = status(&model);
    assert_eq!(kind, StatusKind::Error);
    assert!(
        text.contains("ORCHESTRATION.yaml") && text.contains("is a folder, not a file"),
        "{text}"
    );
    assert_eq!(
        model.live_status().map(|s| s.until),
        Some(Timestamp(gone.0 + StatusKind::Error.lasts()))
    );
}

/// The same, but the file is mended before the operator's message goes: the
/// held report of its problem is dropped, never shown late as if it still stood.
#[test]
fn a_held_report_of_a_problem_mended_meanwhile_is_dropped() {
    let (dir, mut model) = demo_read();
    update(&mut model, pass(dir.path(), Pass::Full), NOW);
    model.set_status(StatusKind::Success, "saved: the operator's edit");
    let text = state_file_made_a_folder(dir.path());
    let later = Timestamp(NOW.0 + 1);
    update(&mut model, pass(dir.path(), Pass::Full), later);
    assert!(model.held_report.is_some(), "the folder's report is held");
    let state = dir.path().join(PAYOUTS_STATE);
    std::fs::remove_dir(&state).unwrap();
    std::fs::write(&state, text).unwrap();
    update(
        &mut model,
        pass(dir.path(), Pass::Full),
        Timestamp(NOW.0 + 2),
    );
    let gone = Timestamp(NOW.0 + StatusKind::Success.lasts());
    update(&mut model, Msg::Tick, gone);
    assert!(model.live_status().is_none(), "{:?}", model.status);
    assert!(model.held_report.is_none());
}

/// A load that fails in the background (the watcher's) is a report too: it waits
/// for the operator's message; asked for with `r`, it is the answer, at once.
#[test]
fn a_failed_background_load_waits_and_an_asked_one_answers() {
    let (_dir, mut model) = demo_read();
    model.set_status(StatusKind::Success, "saved: the operator's edit");
    let later = Timestamp(NOW.0 + 1);
    update(
        &mut model,
        Msg::Loaded(Err("cannot read the root".into())),
        later,
    );
    assert_eq!(
        status(&model),
        (StatusKind::Success, "saved: the operator's edit".into())
    );
    let gone = Timestamp(NOW.0 + StatusKind::Success.lasts());
    update(&mut model, Msg::Tick, gone);
    assert_eq!(
        status(&model),
        (StatusKind::Error, "cannot read the root".into())
    );
    model.set_status(StatusKind::Success, "saved: another edit");
    update(&mut model, Msg::Key(key_r()), gone);
    update(
        &mut model,
        Msg::Loaded(Err("still unreadable".into())),
        gone,
    );
    assert_eq!(
        status(&model),
        (StatusKind::Error, "still unreadable".into())
    );
}

#[test]
fn a_background_report_replaces_an_earlier_background_report_at_once() {
    let (dir, mut model) = demo_read();
    let (_, count) = status(&model);
    assert!(count.contains("projects in"), "{count}");
    state_file_made_a_folder(dir.path());
    update(&mut model, pass(dir.path(), Pass::Full), NOW);
    let (kind, text) = status(&model);
    assert_eq!(kind, StatusKind::Error);
    assert!(text.contains("is a folder, not a file"), "{text}");
}

/// The operator's own message, and a second later a problem the watcher sends
/// from its thread: like a pass's report, it waits.
#[test]
fn a_watcher_problem_waits_for_the_operators_message() {
    let (_dir, mut model) = demo_read();
    update(&mut model, Msg::Key(key_r()), NOW);
    let asked = status(&model);
    let later = Timestamp(NOW.0 + 1);
    update(&mut model, Msg::Problem("watching stopped".into()), later);
    assert_eq!(status(&model), asked);
    let gone = Timestamp(NOW.0 + asked.0.lasts());
    update(&mut model, Msg::Tick, gone);
    assert_eq!(
        status(&model),
        (StatusKind::Error, "watching stopped".into())
    );
}

/// A report held behind the operator's message is dropped when a newer report
/// shows first: the status bar never goes back to an older one.
#[test]
fn a_newer_report_replaces_a_held_one() {
    let (_dir, mut model) = demo_read();
    model.set_status(StatusKind::Info, "the operator's message");
    model.report_status(StatusKind::Error, "older");
    let gone = Timestamp(NOW.0 + StatusKind::Info.lasts());
    model.now = gone;
    model.report_status(StatusKind::Error, "newer");
    model.show_held_report();
    assert_eq!(status(&model), (StatusKind::Error, "newer".into()));
    model.now = Timestamp(gone.0 + StatusKind::Error.lasts());
    model.show_held_report();
    assert!(model.live_status().is_none(), "{:?}", model.status);
}

fn key_r() -> crossterm::event::KeyEvent {
    crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('r'),
        crossterm::event::KeyModifiers::NONE,
    )
}
