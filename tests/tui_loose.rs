//! Pure `update` tests of the checkpoints tied to no project as the list's last
//! row: the cursor reaches it and leaves it, no project is acted on from it, `a`
//! and `A` ask for their own files alone to be written, `u` takes that back, and
//! a filter that hides the row takes the cursor back to the projects.

mod tui_support;

use resume_tui::core::model::{Checkpoint, Workspace};
use resume_tui::core::time::Timestamp;
use resume_tui::tui::effect::{Effect, StateChange};
use resume_tui::tui::model::Focus;
use resume_tui::tui::msg::{Msg, Revert, Undo};
use resume_tui::tui::theme::Theme;
use resume_tui::tui::update;
use tui_support::*;

/// The demo with two checkpoints tied to no project, cx-011 the older.
fn with_loose() -> resume_tui::tui::Model {
    let mut ws: Workspace = demo_workspace();
    let template = ws
        .projects
        .iter()
        .flat_map(|p| &p.checkpoints)
        .next()
        .unwrap()
        .clone();
    for (id, at) in [("cx-011", 100), ("cx-012", 200)] {
        ws.unassigned_checkpoints.push(Checkpoint {
            id: id.into(),
            path: format!("elsewhere/.jerry/checkpoints/{id}.json"),
            workflow_id: None,
            acknowledged: false,
            created_at: Some(Timestamp(NOW.0 - 10_000 + at)),
            ..template.clone()
        });
    }
    model_with(ws, Theme::default_dark(), 120, 40)
}

fn write_of(effects: &[Effect]) -> &resume_tui::tui::effect::WriteRequest {
    match effects {
        [Effect::Write(request)] => request,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_cursor_reaches_the_no_project_row_and_leaves_it() {
    let mut m = with_loose();
    let last = m.visible.len() - 1;
    press(&mut m, &["G"]);
    assert!(m.on_loose);
    assert!(m.project().is_none(), "no project is acted on from it");
    assert!(screen(&m).contains("no project (2, 2 unacknowledged)"));
    assert!(screen(&m).contains("Checkpoints tied to no project"));
    press(&mut m, &["j"]);
    assert!(m.on_loose, "the last row: down stays");
    press(&mut m, &["k"]);
    assert!(!m.on_loose);
    assert_eq!(m.selected_row(), Some(last));
    assert!(m.project().is_some());

    // A filter's words match projects: the row goes, the cursor with it.
    press(&mut m, &["G"]);
    assert!(m.on_loose);
    press(&mut m, &["/"]);
    type_text(&mut m, "pay");
    assert!(!m.on_loose);
    assert!(m.project().is_some());
    assert!(!screen(&m).contains("no project ("));
}

#[test]
fn a_and_a_capital_write_the_checkpoints_files_alone_and_u_takes_it_back() {
    let mut m = with_loose();
    press(&mut m, &["G", "l"]);
    assert_eq!(m.focus, Focus::Detail);
    // Newest first: cx-012 selected, j moves to cx-011.
    press(&mut m, &["j"]);
    let effects = press(&mut m, &["a"]);
    let request = write_of(&effects);
    assert_eq!(request.target, None, "no state file to write");
    let StateChange::Acknowledge { checkpoint } = &request.op else {
        panic!("{:?}", request.op)
    };
    assert_eq!(checkpoint.id, "cx-011");

    // Saved: u asks for its marker to be removed, still with no project.
    let marker = "elsewhere/.jerry/checkpoints/cx-011.acknowledged";
    let undo = Undo {
        project_id: None,
        what: "acknowledged cx-011".into(),
        files: vec![Revert {
            path: marker.into(),
            written: String::new(),
            before: None,
        }],
    };
    update(
        &mut m,
        Msg::Written {
            what: "acknowledged cx-011".into(),
            result: Ok("x".into()),
            undo: Some(Box::new(undo)),
        },
        NOW,
    );
    let workspace = m.workspace.clone();
    update(&mut m, Msg::loaded(workspace), NOW);
    assert!(m.on_loose, "a reload keeps the cursor on the row");
    let effects = press(&mut m, &["u"]);
    let request = write_of(&effects);
    assert_eq!(request.target, None);
    let StateChange::Restore { what, files } = &request.op else {
        panic!("{:?}", request.op)
    };
    assert_eq!(what, "acknowledged cx-011 (tied to no project)");
    assert_eq!(files[0].path, marker);

    // Written and read back: A asks for every unacknowledged one.
    update(
        &mut m,
        Msg::Written {
            what: "undo".into(),
            result: Ok("x".into()),
            undo: None,
        },
        NOW,
    );
    let workspace = m.workspace.clone();
    update(&mut m, Msg::loaded(workspace), NOW);
    let effects = press(&mut m, &["A"]);
    let StateChange::AcknowledgeAll { checkpoints } = &write_of(&effects).op else {
        panic!("{effects:?}")
    };
    let ids: Vec<&str> = checkpoints.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["cx-012", "cx-011"]);
}

#[test]
fn the_other_project_keys_say_they_need_a_project() {
    let mut m = with_loose();
    press(&mut m, &["G"]);
    for key in ["y", "n", "m", "R"] {
        let effects = press(&mut m, &[key]);
        assert!(effects.is_empty(), "{key}: {effects:?}");
        let text = m
            .status
            .as_ref()
            .map(|s| s.text.clone())
            .unwrap_or_default();
        assert!(
            text.contains("pick a project for the rest"),
            "{key}: {text}"
        );
    }
}

#[test]
fn on_the_no_project_row_the_footer_offers_its_own_keys_and_the_position_counts_it() {
    let mut m = with_loose();
    let rows = m.visible.len() + 1;
    press(&mut m, &["G"]);
    m.status = None; // the idle line, not the load's count
    let s = screen(&m);
    let footer = s.lines().last().unwrap();
    assert!(
        footer.contains("ack all") && footer.contains("undo"),
        "{footer}"
    );
    assert!(!footer.contains("copy prompt"), "no prompt here: {footer}");
    assert!(!footer.contains("tab"), "no tabs here: {footer}");
    assert!(
        s.contains(&format!("{rows}/{rows} · checkpoints tied to no project")),
        "{s}"
    );
    press(&mut m, &["k"]);
    let s = screen(&m);
    assert!(s.lines().last().unwrap().contains("copy prompt"), "{s}");
    assert!(s.contains(&format!("{}/{rows}", rows - 1)), "{s}");
}
