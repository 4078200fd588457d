//! Pure `update` tests of the item chosen inside the details pane (a checkpoint
//! of the Compaction tab, a decision, a checkpoint tied to no project): a
//! reload that adds rows before it keeps it selected, so `a`, `m`, `d` act on
//! it; when it is gone, nothing is written until the operator moves.

mod tui_support;

use resume_tui::core::model::{Checkpoint, Decision, Workspace};
use resume_tui::core::time::Timestamp;
use resume_tui::tui::effect::{Effect, StateChange};
use resume_tui::tui::msg::Msg;
use resume_tui::tui::only::Only;
use resume_tui::tui::theme::Theme;
use resume_tui::tui::{Model, update};
use tui_support::*;

fn reload(model: &mut Model, ws: Workspace) {
    update(model, Msg::loaded(ws), NOW);
}

fn op_of(effects: &[Effect]) -> &StateChange {
    match effects {
        [Effect::Write(request)] => &request.op,
        other => panic!("expected one write, got {other:?}"),
    }
}

fn status(model: &Model) -> String {
    model
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

fn project_index(model: &Model, part: &str) -> usize {
    let found = model
        .workspace
        .projects
        .iter()
        .position(|p| p.id.contains(part));
    found.unwrap_or_else(|| panic!("no project like {part}"))
}

fn selected_decision_id(model: &Model) -> Option<String> {
    let project = model.project()?;
    project.decisions().get(model.decision_row)?.id.clone()
}

/// The payouts project's Decisions tab with RD-002 selected.
fn on_rd_002() -> (Model, usize) {
    let mut m = demo_model(120, 40);
    let at = project_index(&m, "payouts");
    let id = m.workspace.projects[at].id.clone();
    select(&mut m, &id);
    press(&mut m, &["l", "4"]);
    while selected_decision_id(&m).as_deref() != Some("RD-002") {
        let row = m.decision_row;
        press(&mut m, &["j"]);
        assert_ne!(row, m.decision_row, "no RD-002 in payouts");
    }
    (m, at)
}

#[test]
fn a_decision_inserted_above_keeps_the_chosen_one_selected_and_d_deletes_it() {
    let (mut m, at) = on_rd_002();
    let row = m.decision_row;
    let mut ws = m.workspace.clone();
    let decisions = &mut ws.projects[at].resumption.as_mut().unwrap().decisions;
    decisions.insert(
        0,
        Decision {
            id: Some("RD-000".into()),
            decision: "written from outside".into(),
            ..Decision::default()
        },
    );
    reload(&mut m, ws);

    assert_eq!(
        m.decision_row,
        row + 1,
        "the chosen decision moved down a row"
    );
    assert_eq!(selected_decision_id(&m).as_deref(), Some("RD-002"));
    let effects = press(&mut m, &["d"]);
    assert!(
        matches!(op_of(&effects), StateChange::DeleteDecision { id } if id == "RD-002"),
        "{effects:?}"
    );
}

#[test]
fn a_chosen_decision_that_is_gone_is_not_replaced_by_its_neighbour() {
    let (mut m, at) = on_rd_002();
    let mut ws = m.workspace.clone();
    let decisions = &mut ws.projects[at].resumption.as_mut().unwrap().decisions;
    decisions.retain(|d| d.id.as_deref() != Some("RD-002"));
    reload(&mut m, ws);

    assert!(status(&m).contains("RD-002 is gone"), "{}", status(&m));
    for key in ["d", "<Space>"] {
        let effects = press(&mut m, &[key]);
        assert!(effects.is_empty(), "{key} wrote {effects:?}");
        assert!(
            status(&m).contains("not done: RD-002 is gone"),
            "{}",
            status(&m)
        );
    }
    // A move is a new choice: the row now selected is what `d` deletes.
    press(&mut m, &["k"]);
    let chosen = selected_decision_id(&m).unwrap();
    let effects = press(&mut m, &["d"]);
    assert!(
        matches!(op_of(&effects), StateChange::DeleteDecision { id } if *id == chosen),
        "{effects:?}"
    );
}

fn selected_checkpoint_path(model: &Model) -> Option<String> {
    let rows = model.timeline();
    Some(rows.get(model.timeline_row)?.checkpoint?.path.clone())
}

/// The Compaction tab of a demo project with two checkpoints or more.
fn on_compaction_tab() -> (Model, usize) {
    let mut m = demo_model(120, 40);
    let at = (0..m.workspace.projects.len())
        .find(|&i| m.workspace.projects[i].checkpoints.len() >= 2)
        .expect("a demo project with two checkpoints");
    let id = m.workspace.projects[at].id.clone();
    select(&mut m, &id);
    press(&mut m, &["l", "3"]);
    (m, at)
}

#[test]
fn a_newer_checkpoint_keeps_the_chosen_one_selected_and_m_merges_it() {
    let (mut m, at) = on_compaction_tab();
    press(&mut m, &["j"]);
    let chosen = selected_checkpoint_path(&m).expect("a checkpoint selected");
    let row = m.timeline_row;

    let mut ws = m.workspace.clone();
    let project = &mut ws.projects[at];
    let newest = project
        .checkpoints
        .iter()
        .filter_map(|c| c.created_at)
        .max();
    let template = project.checkpoints[0].clone();
    project.checkpoints.push(Checkpoint {
        id: "cx-097".into(),
        path: ".jerry/checkpoints/cx-097.json".into(),
        acknowledged: false,
        created_at: Some(Timestamp(newest.map_or(NOW.0, |t| t.0) + 60)),
        ..template
    });
    reload(&mut m, ws);

    assert_eq!(m.timeline_row, row + 1, "the newer one is listed above");
    assert_eq!(selected_checkpoint_path(&m), Some(chosen.clone()));
    let effects = press(&mut m, &["m"]);
    assert!(
        matches!(op_of(&effects), StateChange::Merge { checkpoint } if checkpoint.path == chosen),
        "{effects:?}"
    );
}

#[test]
fn a_chosen_checkpoint_that_is_gone_is_neither_merged_nor_acknowledged() {
    let (mut m, at) = on_compaction_tab();
    let chosen = selected_checkpoint_path(&m).expect("a checkpoint selected");
    let mut ws = m.workspace.clone();
    ws.projects[at].checkpoints.retain(|c| c.path != chosen);
    // No compaction event keeps a row for it: the cursor falls on another checkpoint.
    ws.projects[at].resumption.as_mut().unwrap().compaction = None;
    reload(&mut m, ws);

    assert!(selected_checkpoint_path(&m).is_some_and(|p| p != chosen));
    for key in ["m", "a"] {
        let effects = press(&mut m, &[key]);
        assert!(effects.is_empty(), "{key} wrote {effects:?}");
        assert!(status(&m).contains("is gone"), "{}", status(&m));
    }
    // A move among the decisions is no new choice of checkpoint.
    press(&mut m, &["4"]);
    let row = m.decision_row;
    press(&mut m, &["j"]);
    assert_ne!(m.decision_row, row, "a second decision to move to");
    press(&mut m, &["3"]);
    assert!(selected_checkpoint_path(&m).is_some());
    assert!(press(&mut m, &["m"]).is_empty(), "{}", status(&m));
}

/// The demo with checkpoints tied to no project, cx-011 the oldest; every
/// project's own checkpoints acknowledged when `quiet`.
fn with_loose(quiet: bool) -> Model {
    let mut ws: Workspace = demo_workspace();
    let template = ws.projects.iter().flat_map(|p| &p.checkpoints).next();
    let template = template.unwrap().clone();
    for (id, at) in [("cx-011", 100), ("cx-012", 200)] {
        ws.unassigned_checkpoints.push(loose(&template, id, at));
    }
    if quiet {
        for cp in ws.projects.iter_mut().flat_map(|p| &mut p.checkpoints) {
            cp.acknowledged = true;
        }
    }
    model_with(ws, Theme::default_dark(), 120, 40)
}

fn loose(template: &Checkpoint, id: &str, at: i64) -> Checkpoint {
    Checkpoint {
        id: id.into(),
        path: format!("elsewhere/.jerry/checkpoints/{id}.json"),
        workflow_id: None,
        acknowledged: false,
        created_at: Some(Timestamp(NOW.0 - 10_000 + at)),
        ..template.clone()
    }
}

#[test]
fn a_newer_loose_checkpoint_keeps_the_chosen_one_and_a_gone_one_is_refused() {
    let mut m = with_loose(false);
    press(&mut m, &["G", "l", "j"]);
    let ack_of = |effects: &[Effect]| match op_of(effects) {
        StateChange::Acknowledge { checkpoint } => checkpoint.id.clone(),
        other => panic!("{other:?}"),
    };
    let mut ws = m.workspace.clone();
    let template = ws.unassigned_checkpoints[0].clone();
    ws.unassigned_checkpoints
        .push(loose(&template, "cx-013", 300));
    reload(&mut m, ws);
    assert_eq!(m.loose_row, 2, "cx-011 is third now");
    let effects = press(&mut m, &["a"]);
    assert_eq!(ack_of(&effects), "cx-011");

    // Gone (its file deleted): `a` is refused until a move.
    let mut m = with_loose(false);
    press(&mut m, &["G", "l", "j"]);
    let mut ws = m.workspace.clone();
    ws.unassigned_checkpoints.retain(|c| c.id != "cx-011");
    reload(&mut m, ws);
    assert!(press(&mut m, &["a"]).is_empty());
    assert!(
        status(&m).contains("not done: cx-011 is gone"),
        "{}",
        status(&m)
    );
    press(&mut m, &["k"]);
    assert_eq!(ack_of(&press(&mut m, &["a"])), "cx-012");
}

#[test]
fn f_offers_unacknowledged_when_only_loose_checkpoints_wait() {
    let mut m = with_loose(true);
    let mut seen = Vec::new();
    for _ in 0..Only::ALL.len() + 1 {
        press(&mut m, &["F"]);
        seen.push(m.only);
    }
    assert!(
        seen.contains(&Some(Only::Unacknowledged)),
        "{seen:?}: {}",
        status(&m)
    );
}
