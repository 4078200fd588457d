//! What loads say in the status bar (pure `update`): a live reload that finds a
//! project's file gone, a folder or unreadable names the file; `r` sums the
//! workspace up with its problems; a load the watcher asked for says only what is
//! new; a save's read-back keeps `saved: …`.

mod tui_support;

use resume_tui::core::model::{Diagnostic, Shape};
use resume_tui::tui::Model;
use resume_tui::tui::model::StatusKind;
use resume_tui::tui::msg::{Msg, ReloadedProject};
use resume_tui::tui::update;
use tui_support::*;

const PAYOUTS: &str = "payouts-v2-20260302-001";

fn status(model: &Model) -> (StatusKind, String) {
    let s = model.status.as_ref().expect("a status");
    (s.kind, s.text.clone())
}

/// The selected project as a reload of its missing state file gives it back.
fn unreadable(model: &Model, why: &str) -> ReloadedProject {
    let mut project = model.project().unwrap().clone();
    project.shape = Shape::Unreadable;
    project.resumption = None;
    project.diagnostics = vec![Diagnostic::error(project.source.clone(), why)];
    ReloadedProject {
        source: project.source.clone(),
        project: Some(Box::new(project)),
        hash: None,
    }
}

fn folder_warning() -> Diagnostic {
    Diagnostic::warning(
        "projects/PROJ-009/ORCHESTRATION.yaml",
        "is a folder, not a file: not read",
    )
}

#[test]
fn a_live_reload_that_cannot_read_a_project_names_its_file() {
    let mut m = demo_model(120, 40);
    select(&mut m, PAYOUTS);
    let others = m.workspace.projects.len();
    let gone = unreadable(&m, "cannot read: No such file or directory (os error 2)");
    let source = gone.source.clone();
    update(&mut m, Msg::ProjectsLoaded(vec![gone.clone()]), NOW);
    let (kind, text) = status(&m);
    assert_eq!(kind, StatusKind::Error);
    assert_eq!(
        text,
        format!("{source}: error: cannot read: No such file or directory (os error 2)")
    );
    assert_eq!(m.selected.as_deref(), Some(PAYOUTS), "still selected");
    assert_eq!(m.workspace.projects.len(), others, "the rest are kept");

    // The same problem again is not news: the status bar is left alone.
    m.set_status(StatusKind::Info, "something else");
    update(&mut m, Msg::ProjectsLoaded(vec![gone]), NOW);
    assert_eq!(status(&m).1, "something else");
}

#[test]
fn r_sums_the_workspace_up_with_its_problems() {
    let mut m = demo_model(120, 40);
    press(&mut m, &["r"]);
    let mut ws = m.workspace.clone();
    ws.diagnostics.push(folder_warning());
    update(&mut m, Msg::loaded(ws.clone()), NOW);
    let (kind, text) = status(&m);
    assert_eq!(kind, StatusKind::Error);
    assert_eq!(
        text,
        format!(
            "11 projects in /demo · {}",
            "projects/PROJ-009/ORCHESTRATION.yaml: warning: is a folder, not a file: not read"
        )
    );
    // Asked again, said again; without problems, the count alone.
    press(&mut m, &["r"]);
    update(&mut m, Msg::loaded(ws.clone()), NOW);
    assert!(status(&m).1.contains("is a folder"));
    press(&mut m, &["r"]);
    ws.diagnostics.clear();
    update(&mut m, Msg::loaded(ws), NOW);
    assert_eq!(
        status(&m),
        (StatusKind::Info, "11 projects in /demo".into())
    );
}

#[test]
fn a_load_the_watcher_asked_for_says_only_what_is_new() {
    let mut m = demo_model(120, 40);
    let mut ws = m.workspace.clone();
    ws.diagnostics.push(folder_warning());
    ws.diagnostics
        .push(Diagnostic::error("x/ORCHESTRATION.yaml", "cannot read"));
    update(&mut m, Msg::loaded(ws.clone()), NOW);
    let (kind, text) = status(&m);
    assert_eq!(kind, StatusKind::Error);
    assert!(text.ends_with("not read (+1 more)"), "{text}");
    m.set_status(StatusKind::Info, "unchanged");
    update(&mut m, Msg::loaded(ws), NOW);
    assert_eq!(status(&m).1, "unchanged");
}

#[test]
fn a_saves_read_back_keeps_saved() {
    let mut m = demo_model(120, 40);
    select(&mut m, PAYOUTS);
    press(&mut m, &["4", "l", "<Space>"]);
    update(
        &mut m,
        Msg::Written {
            what: "marked RD-001 not applied".into(),
            undo: None,
            result: Ok("ORCHESTRATION.yaml: 1 line changed".into()),
        },
        NOW,
    );
    let saved = status(&m);
    let mut ws = m.workspace.clone();
    ws.diagnostics.push(folder_warning());
    update(&mut m, Msg::loaded(ws), NOW);
    assert_eq!(status(&m), saved);
}
