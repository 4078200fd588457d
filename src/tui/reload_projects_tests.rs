//! A project re-read alone leaves the workspace and the list as the whole rule
//! would: every unclaimed checkpoint offered again (`attribute_reloaded`) and
//! every row filtered, counted and sorted again (`refresh_visible`).

use super::*;
use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::env::Env;
use crate::tui::loader::{self, Pass};
use crate::tui::msg::Msg;
use crate::tui::only::Only;
use crate::tui::update::update;

const NOW: Timestamp = Timestamp(1_771_331_696);

#[test]
fn each_project_read_again_leaves_what_the_whole_rule_leaves() {
    let dir = crate::io::demo::unpack(NOW).unwrap();
    // A checkpoint of no workflow the workspace has: unassigned, and read again
    // with every project of its repository.
    std::fs::write(
        dir.path().join(".jerry/checkpoints/cx-950-checkpoint.json"),
        "{\"schema_version\": \"1.0.0\", \"event_type\": \"compaction\", \"event_id\": \"cx-950\", \
         \"timestamp\": \"2026-02-20T12:30:00Z\", \"trigger\": {\"type\": \"auto\"}, \
         \"orchestration_state\": {\"workflow_id\": \"no-such-workflow\", \"current_phase\": 3}, \
         \"metadata\": {\"acknowledged\": false}}\n",
    )
    .unwrap();
    let discovery = crate::io::discover::discover(dir.path(), &Env::default());
    let loaded = loader::load(
        dir.path(),
        &Env::default(),
        &discovery,
        NOW,
        &Config::default(),
        Pass::Full,
    );
    let mut model = crate::tui::input::test_model();
    update(&mut model, Msg::Loaded(Ok(Box::new(loaded))), NOW);
    model.only = Some(Only::Jerry);
    refresh_visible(&mut model);
    let sources: Vec<String> = model
        .workspace
        .projects
        .iter()
        .map(|p| p.source.clone())
        .collect();
    let mut offered_again = 0;
    for source in sources {
        let reloaded =
            loader::reload_project(dir.path(), &Env::default(), source, NOW, &Config::default());
        let project = reloaded.project.clone().expect("the project reads");
        // The whole rule, on a copy.
        let mut expected = model.workspace.clone();
        let slot = expected
            .projects
            .iter_mut()
            .find(|p| p.source == reloaded.source)
            .unwrap();
        *slot = *project;
        offered_again += reloaded
            .unclaimed
            .iter()
            .filter(|c| expected.unassigned_checkpoints.contains(c))
            .count();
        crate::core::workspace::attribute_reloaded(
            &mut expected.projects,
            &mut expected.unassigned_checkpoints,
            reloaded.unclaimed.clone(),
        );
        update(&mut model, Msg::ProjectsLoaded(vec![reloaded]), NOW);
        assert_eq!(model.workspace.projects, expected.projects);
        assert_eq!(
            model.workspace.unassigned_checkpoints,
            expected.unassigned_checkpoints
        );
        let (visible, counts, widest) = (
            model.visible.clone(),
            model.tally.counts(),
            model.tally.longest_id(),
        );
        refresh_visible(&mut model);
        assert_eq!(
            (visible, counts, widest),
            (
                model.visible.clone(),
                model.tally.counts(),
                model.tally.longest_id()
            )
        );
    }
    assert!(
        offered_again > 0,
        "some reload reads a checkpoint that is unassigned"
    );
}
