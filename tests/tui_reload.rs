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
        unclaimed: Vec::new(),
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

/// A checkpoint that names no workflow belongs to the only workflow of its
/// workspace: after a full load, and after the dashboard re-reads that workflow's
/// file alone (the same rule, `attribute_reloaded` → `attribute_unclaimed`).
#[test]
fn a_reloaded_workflow_keeps_the_checkpoint_that_names_no_workflow() {
    use resume_tui::config::Config;
    use resume_tui::io::env::Env;
    use resume_tui::tui::loader::reload_project;

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let source = "projects/PROJ-001-x/ORCHESTRATION.yaml";
    write(source, "workflow:\n  id: only-wf\n  status: ACTIVE\n");
    write(
        ".jerry/checkpoints/cx-001.json",
        r#"{"checkpoint_id": "cx-001", "context_state": {"fill_percentage": 0.9, "tier": "CRITICAL"}, "resumption_state": null, "created_at": "2026-02-17T12:00:00Z"}"#,
    );
    let ws = resume_tui::io::load::load_workspace(root, &Env::default(), NOW, &Config::default());
    let held = |m: &Model| -> Vec<String> {
        m.workspace.projects[0]
            .checkpoints
            .iter()
            .map(|c| c.id.clone())
            .collect()
    };
    let mut m = model_with(ws, resume_tui::tui::theme::Theme::default_dark(), 120, 40);
    assert_eq!(held(&m), ["cx-001"], "full load");

    let reloaded = reload_project(
        root,
        &Env::default(),
        source.to_string(),
        NOW,
        &Config::default(),
    );
    assert!(reloaded.project.as_ref().unwrap().checkpoints.is_empty());
    assert_eq!(reloaded.unclaimed.len(), 1);
    update(&mut m, Msg::ProjectsLoaded(vec![reloaded]), NOW);
    assert_eq!(held(&m), ["cx-001"], "after the one-file reload");
    assert!(m.workspace.unassigned_checkpoints.is_empty());
}
