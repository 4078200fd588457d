//! The hooks load a state file without placing its warnings and notes and
//! without its other fields (they show none, and placing them indexes every key
//! of the file, keeping them copies every unknown value): `LoadOptions::
//! hook_reading`. The other readers place and keep them as before.

use resume_tui::config::Config;
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;
use resume_tui::io::load::{LoadOptions, load_workspace_with};

#[test]
fn hook_loads_leave_warnings_unplaced_and_other_loads_place_them() {
    let dir = tempfile::tempdir().unwrap();
    // Past 16 KB, so that the hooks' pruned read is the one taken.
    let mut text = String::from(
        "workflow:\n  id: wf-u\n  status: ACTIVE\nresumption:\n  next_step: go\n  next_step: again\n  extra: [1, 2]\n  files_to_read:\n",
    );
    for i in 0..1_000 {
        text.push_str(&format!("    - {{path: f{i}.md, x{i}: 1}}\n"));
    }
    std::fs::write(dir.path().join("ORCHESTRATION.yaml"), &text).unwrap();
    let now = Timestamp::parse("2026-03-01T12:00:00Z").unwrap();
    let load = |options: &LoadOptions| {
        let ws = load_workspace_with(
            dir.path(),
            &Env::default(),
            now,
            &Config::default(),
            options,
        );
        let project = ws.projects.into_iter().next().expect("one project");
        assert_eq!(project.id, "wf-u");
        assert_eq!(project.summary.next_step.as_deref(), Some("again"));
        let other = project.resumption.as_ref().unwrap().other.clone();
        (project.diagnostics, other)
    };
    let hook = LoadOptions {
        fast_orchestration: true,
        reading: resume_tui::core::normalize::jerry::Reading::ForHooks,
        one_thread: true,
        ..LoadOptions::default()
    };
    let (placed, kept) = load(&LoadOptions::default());
    let (unplaced, not_kept) = load(&hook);
    assert!(kept.contains_key("extra"));
    assert!(not_kept.is_empty());
    let about = |all: &[resume_tui::core::model::Diagnostic], what: &str| {
        all.iter()
            .find(|d| d.message.contains(what))
            .map(|d| d.line)
            .unwrap_or_else(|| panic!("no diagnostic about {what}"))
    };
    for what in ["more than once", "keys not shown: x0", "more notes like"] {
        assert!(about(&placed, what).is_some(), "{what} placed");
        assert_eq!(about(&unplaced, what), None, "{what} not placed");
    }
}
