//! The chosen project: a reload never moves an edit onto another project.

use crate::core::time::Timestamp;
use crate::tui::action::Action;
use crate::tui::last_known::tests::load;
use crate::tui::update::apply;

const NOW: Timestamp = Timestamp(1_771_331_696);
const DOCS: &str = "docs-rewrite-20260225-001";

#[test]
fn a_deleted_project_moves_the_selection_but_not_the_edits() {
    let dir = crate::io::demo::unpack(NOW).unwrap();
    let mut model = crate::tui::input::test_model();
    load(dir.path(), &mut model);
    apply(&mut model, Action::Down);
    assert_eq!(model.selected.as_deref(), Some(DOCS));
    assert_eq!(model.chosen.as_deref(), Some(DOCS));
    apply(&mut model, Action::TabDecisions);
    let folder = dir.path().join("projects/PROJ-004-docs-site-rewrite");
    let away = tempfile::tempdir().unwrap();
    let moved = away.path().join("moved-away");
    std::fs::rename(&folder, &moved).unwrap();
    load(dir.path(), &mut model);
    let other = model.selected.clone().expect("another row selected");
    assert_ne!(other, DOCS);
    let said = model.live_status().unwrap().text.clone();
    assert!(said.contains(&format!("{DOCS} is gone")), "{said}");
    // The next key does not edit the row the selection fell on.
    assert!(apply(&mut model, Action::DeleteDecision).is_empty());
    assert!(apply(&mut model, Action::ToggleApplied).is_empty());
    assert!(model.live_status().unwrap().text.starts_with("not done:"));
    // Back: the selection goes back to it.
    std::fs::rename(&moved, &folder).unwrap();
    load(dir.path(), &mut model);
    assert_eq!(model.selected.as_deref(), Some(DOCS));
    // Gone again, then the operator picks a row: that row is theirs.
    std::fs::rename(&folder, &moved).unwrap();
    load(dir.path(), &mut model);
    apply(&mut model, Action::Down);
    apply(&mut model, Action::Up);
    assert_eq!(model.chosen, model.selected);
    let effects = apply(&mut model, Action::ToggleApplied);
    assert!(
        matches!(effects.as_slice(), [crate::tui::effect::Effect::Write(_)]),
        "{effects:?} {:?}",
        model.status
    );
}
