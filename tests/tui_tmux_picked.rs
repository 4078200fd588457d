//! End to end in tmux, on a copy of the demo: the checkpoint chosen in the
//! Compaction tab stays chosen when a newer one appears above it, so `m` merges
//! the chosen one, not the newcomer that took its row.
//!
//! Waits poll the screen with a generous deadline; running out of time is a
//! failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use resume_tui::core::time::Timestamp;
use tmux::{Tmux, dashboard, demo_workspace};

const DOCS_FILE: &str = "projects/PROJ-004-docs-site-rewrite/ORCHESTRATION.yaml";
const CHECKPOINTS: &str = ".jerry/checkpoints";

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_newer_checkpoint_does_not_take_the_chosen_ones_place_for_m() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start(&dashboard(tmp.path(), &root));
    tmux.wait_for_list(11);

    // docs-rewrite's Compaction tab: cx-004, its newest checkpoint, selected.
    tmux.keys(&["j", "l", "3"]);
    tmux.wait_for_text("cx-004  .jerry/checkpoints/cx-004.json");

    // cx-007 written from outside, newer: it is listed above cx-004.
    let checkpoints = root.join(CHECKPOINTS);
    let text = std::fs::read_to_string(checkpoints.join("cx-004.json")).unwrap();
    let created = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("\"created_at\": \""))
        .and_then(|rest| rest.split('"').next())
        .expect("cx-004 has a created_at")
        .to_string();
    let newer = Timestamp::parse(&created).unwrap().0 + 600;
    let copy = text
        .replace("\"cx-004\"", "\"cx-007\"")
        .replace(&created, &Timestamp::from_unix(newer).to_iso());
    let tmp_file = checkpoints.join(".cx-007.e2e.tmp");
    std::fs::write(&tmp_file, copy).unwrap();
    std::fs::rename(&tmp_file, checkpoints.join("cx-007.json")).unwrap();
    let screen = tmux.wait_for("cx-007 listed", |s| s.contains("⚑ cx-007"));
    assert!(
        screen.contains("cx-004  .jerry/checkpoints/cx-004.json"),
        "the details still show the chosen cx-004:\n{screen}"
    );

    // m: cx-004 (already in the file's compaction events), never cx-007.
    tmux.keys(&["m"]);
    tmux.wait_for_text("cx-004 is already in compaction_events");
    let state = std::fs::read_to_string(root.join(DOCS_FILE)).unwrap();
    assert!(!state.contains("cx-007"), "cx-007 was merged:\n{state}");
}
