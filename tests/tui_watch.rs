//! Live refresh through the binary in tmux, on a copy of the demo: a project
//! folder deleted and made again, and new projects, show without `r` (a state file
//! deleted and written again: `tui_faults.rs`).
//!
//! Each file is written only once the dashboard has loaded the workspace without
//! it (at its start, or after `r`), so that only the watcher can bring it in; the
//! folders it goes into are made before the dashboard starts where that matters,
//! so that no load is still under way when the file is written. Waits poll the
//! screen with a generous deadline as a hang detector; nothing is timed.

#[path = "support/dashboard.rs"]
mod dashboard;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;

use dashboard::{Dashboard, PAYOUTS_DIR, PAYOUTS_STATE, on_demo, on_demo_with};

const NEW_JERRY: &str = "workflow:\n  id: \"brand-new-20260301-001\"\n  name: \"Brand new workflow\"\nstatus: \"ACTIVE\"\n";
const NEW_NEXUS: &str = "# Fresh Research - Resume Context\n\n> **Status**: Just started\n";
const LATER_PROJECT: &str = "projects/PROJ-008-later";
const LATER_WORKFLOW: &str = "projects/PROJ-002-payouts-api-v2/orchestration/later-wf-20260303-001";
const LATER_NEXUS: &str = "02-projects/10-fresh-research/01-planning";

/// A full load (`r`) of the workspace as it is now, finished. (`s` first, so that
/// the status bar changes even when the count of projects does not.)
fn reload_by_hand(d: &Dashboard, projects: usize) {
    d.tmux.keys(&["s"]);
    d.wait_status(&["sorted by"]);
    d.tmux.keys(&["r"]);
    d.wait_status(&[&format!("{projects} projects in")]);
}

/// Writes `text` to `rel` as editors and the write path do: a temporary file in
/// the same folder, renamed over the name.
fn replace(d: &Dashboard, rel: &str, text: &str) {
    let path = d.path(rel);
    let temporary = path.with_extension("new");
    std::fs::write(&temporary, text).unwrap();
    std::fs::rename(&temporary, &path).unwrap();
}

/// Waits until the list counts `projects` (`Projects 12`, or `Projects 1/12`
/// while filtered).
fn wait_projects(d: &Dashboard, projects: usize) {
    let (all, filtered) = (format!("Projects {projects} "), format!("/{projects} /"));
    d.tmux
        .wait_for(&format!("{projects} projects in the list"), |s| {
            s.contains(&all) || s.contains(&filtered)
        });
    assert!(d.tmux.running(), "the dashboard is still up");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_project_folder_removed_and_made_again_is_watched_again() {
    let d = on_demo(false);
    let original = std::fs::read_to_string(d.path(PAYOUTS_STATE)).unwrap();
    let with_activity = |activity: &str| {
        let text = original.replacen("qg-2-iteration-2\"", &format!("{activity}\""), 1);
        assert_ne!(
            text, original,
            "the demo's activity is where the test expects it"
        );
        text
    };
    d.select("payouts");
    d.tmux.keys(&["1"]);
    d.tmux.wait_for_text("qg-2-iteration-2");

    // Removed and made again at once, project and all (a checkout): the name is
    // the same, but the old watch went with the old folder.
    std::fs::remove_dir_all(d.path(PAYOUTS_DIR)).unwrap();
    std::fs::create_dir(d.path(PAYOUTS_DIR)).unwrap();
    std::fs::write(d.path(PAYOUTS_STATE), with_activity("after-checkout")).unwrap();
    d.tmux.wait_for_text("after-checkout");
    // Edited afterwards: seen through a watch on the new folder.
    replace(&d, PAYOUTS_STATE, &with_activity("edited-after-checkout"));
    d.tmux.wait_for_text("edited-after-checkout");

    // Removed, loaded without it, then made again, empty at first.
    std::fs::remove_dir_all(d.path(PAYOUTS_DIR)).unwrap();
    reload_by_hand(&d, 10);
    std::fs::create_dir(d.path(PAYOUTS_DIR)).unwrap();
    reload_by_hand(&d, 10);
    std::fs::write(d.path(PAYOUTS_STATE), &original).unwrap();
    wait_projects(&d, 11);
}

/// Empty folders where projects are made, there before the dashboard starts.
fn empty_project_folders(root: &Path) {
    for dir in [LATER_PROJECT, LATER_WORKFLOW, LATER_NEXUS] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn new_projects_appear_without_r() {
    let d = on_demo_with(false, empty_project_folders);
    let later = |dir: &str, name: &str| format!("{dir}/{name}");

    replace(&d, &later(LATER_PROJECT, "ORCHESTRATION.yaml"), NEW_JERRY);
    wait_projects(&d, 12);
    d.select("brand-new");
    d.tmux.keys(&["1"]);
    d.tmux.wait_for_text("Brand new workflow");

    let workflow = NEW_JERRY.replace("brand-new", "later-wf");
    std::fs::write(
        d.path(&later(LATER_WORKFLOW, "ORCHESTRATION.yaml")),
        workflow,
    )
    .unwrap();
    wait_projects(&d, 13);

    std::fs::write(d.path(&later(LATER_NEXUS, "resume-context.md")), NEW_NEXUS).unwrap();
    wait_projects(&d, 14);
    d.select("fresh-research");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_project_folder_made_while_the_dashboard_runs_is_watched() {
    let d = on_demo(false);
    // Folder and file at once: the load the new folder asks for finds the file.
    let at_once = "projects/PROJ-007-new/orchestration/at-once-20260301-001/ORCHESTRATION.yaml";
    let path = d.path(at_once);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, NEW_JERRY.replace("brand-new", "at-once")).unwrap();
    wait_projects(&d, 12);

    // The folder first; its state file once the dashboard has loaded it. The
    // pause lets the load the new folder asks for end before `r`, so that the
    // file is not written while a load is still to come (which would find it
    // without the watcher); nothing is timed.
    std::fs::create_dir_all(d.path("02-projects/11-later/01-planning")).unwrap();
    std::thread::sleep(std::time::Duration::from_secs(1));
    reload_by_hand(&d, 12);
    std::fs::write(
        d.path("02-projects/11-later/01-planning/resume-context.md"),
        NEW_NEXUS,
    )
    .unwrap();
    wait_projects(&d, 13);
}
