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

/// Projects that share an id are told apart by a suffix a reload hands out
/// again: the choice is held by file, so the suffix passing to another copy
/// takes neither the selection's edits nor the choice with it.
#[test]
fn a_suffix_handed_to_another_copy_does_not_take_the_choice() {
    let dir = crate::io::demo::unpack(NOW).unwrap();
    let original = dir
        .path()
        .join("projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001");
    let text = std::fs::read_to_string(original.join("ORCHESTRATION.yaml")).unwrap();
    for copy in ["copy-a", "copy-b"] {
        let folder = original.with_file_name(copy);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("ORCHESTRATION.yaml"), &text).unwrap();
    }
    let mut model = crate::tui::input::test_model();
    load(dir.path(), &mut model);
    let copies = |model: &crate::tui::model::Model| -> Vec<(String, String)> {
        model
            .workspace
            .projects
            .iter()
            .filter(|p| p.id.starts_with("payouts-v2-20260302-001"))
            .map(|p| (p.id.clone(), p.source.clone()))
            .collect()
    };
    let before = copies(&model);
    assert_eq!(before.len(), 3, "{before:?}");
    // Choose the copy whose suffixed id another copy takes once it is gone.
    let taken = before.iter().find_map(|(id, source)| {
        let folder = dir.path().join(source).parent()?.to_path_buf();
        let away = folder.with_extension("away");
        std::fs::rename(&folder, &away).ok()?;
        let mut probe = crate::tui::input::test_model();
        load(dir.path(), &mut probe);
        std::fs::rename(&away, &folder).ok()?;
        copies(&probe)
            .iter()
            .any(|(other_id, other_source)| other_id == id && other_source != source)
            .then(|| (id.clone(), folder))
    });
    let (id, folder) = taken.expect("a suffix that passes to another copy");
    while model.selected.as_deref() != Some(id.as_str()) {
        let at = model.selected.clone();
        apply(&mut model, Action::Down);
        assert_ne!(model.selected, at, "{id} not reached");
    }
    apply(&mut model, Action::TabDecisions);
    let away = folder.with_extension("away");
    std::fs::rename(&folder, &away).unwrap();
    load(dir.path(), &mut model);
    let said = model.live_status().unwrap().text.clone();
    assert!(said.contains(&format!("{id} is gone")), "{said}");
    // The row now carrying the id is another copy: nothing is written to it.
    assert!(apply(&mut model, Action::ToggleApplied).is_empty());
    assert!(apply(&mut model, Action::NewDecision).is_empty());
    let refused = model.live_status().unwrap().text.clone();
    assert!(refused.starts_with("not done:"), "{refused}");
    // Back: the choice is that file's project again, and the report goes.
    std::fs::rename(&away, &folder).unwrap();
    load(dir.path(), &mut model);
    let source = model.project().map(|p| p.source.clone()).unwrap();
    assert!(dir.path().join(&source).starts_with(&folder), "{source}");
    assert!(
        model
            .live_status()
            .is_none_or(|s| !s.text.contains("is gone")),
        "{:?}",
        model.status
    );
}

/// A decision form open while a copy of its project's folder appears (the
/// copies' ids get suffixes) saves to the file it was opened for.
#[test]
fn a_form_open_while_its_project_gains_a_copy_saves_to_its_own_file() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let dir = crate::io::demo::unpack(NOW).unwrap();
    let mut model = crate::tui::input::test_model();
    load(dir.path(), &mut model);
    apply(&mut model, Action::Down);
    assert_eq!(model.chosen.as_deref(), Some(DOCS));
    let source = model.project().map(|p| p.source.clone()).unwrap();
    apply(&mut model, Action::TabDecisions);
    apply(&mut model, Action::NewDecision);
    let key = |model: &mut crate::tui::model::Model, code, modifiers| {
        let msg = crate::tui::msg::Msg::Key(KeyEvent::new(code, modifiers));
        crate::tui::update::update(model, msg, NOW)
    };
    for c in "Keep the copy apart".chars() {
        key(&mut model, KeyCode::Char(c), KeyModifiers::NONE);
    }
    let folder = dir.path().join("projects/PROJ-004-docs-site-rewrite");
    let copy = dir.path().join("projects/PROJ-004-docs-site-rewrite-copy");
    std::fs::create_dir_all(&copy).unwrap();
    let text = std::fs::read_to_string(folder.join("ORCHESTRATION.yaml")).unwrap();
    std::fs::write(copy.join("ORCHESTRATION.yaml"), text).unwrap();
    load(dir.path(), &mut model);
    let effects = key(&mut model, KeyCode::Char('s'), KeyModifiers::CONTROL);
    let [crate::tui::effect::Effect::Write(request)] = effects.as_slice() else {
        panic!("{effects:?} {:?}", model.status);
    };
    let target = request.target.as_ref().expect("a project's file");
    let written = model
        .workspace
        .projects
        .iter()
        .find(|p| p.id == target.project_id)
        .map(|p| p.source.clone());
    assert_eq!(written, Some(source));
}
