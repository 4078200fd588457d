//! End to end in tmux, on a copy of the demo, the defects of issue 17 that the
//! other tmux tests do not cover: `m` on a checkpoint already merged says nothing
//! was written, `Y` copies a `cd` to the project root, messages expire and give the
//! status bar back to the position (`1/11`) and sort, `S` reverses the sort, the
//! Prompt tab of a Nexus project shows the loading sequence, a row a live refresh
//! changed is marked for a moment, and a wide pane shows ids whole.
//!
//! Waits poll the screen with a generous deadline; running out of time is a
//! failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::{Path, PathBuf};

use tmux::{Tmux, dashboard, demo_workspace};

const PAYOUTS: &str = "payouts-v2-20260302-001";

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_operators_defects_stay_fixed_in_tmux() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start(&dashboard(tmp.path(), &root));
    tmux.wait_for_list(11);
    tmux.wait_for_text(PAYOUTS);

    // m on a checkpoint compaction_events holds already: nothing written, and said.
    let yaml = std::fs::read_dir(root.join("projects"))
        .unwrap()
        .flatten()
        .flat_map(|e| walk(&e.path()))
        .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains(PAYOUTS)))
        .unwrap();
    let before = std::fs::read(&yaml).unwrap();
    tmux.keys(&["3", "m"]);
    tmux.wait_for_text("nothing written:");
    assert!(!tmux.capture().contains("saved"));
    assert_eq!(std::fs::read(&yaml).unwrap(), before, "no byte changed");

    // Y: the prompt behind a cd to the project root (the folder holding projects/).
    tmux.keys(&["Y"]);
    tmux.wait_for_text("with cd");
    let buffer = tmux.output(&["show-buffer"]);
    assert!(
        buffer.starts_with(&format!(
            "cd '{}' && claude 'You are resuming",
            root.display()
        )),
        "{buffer}"
    );

    // Messages expire: the status bar goes back to the position and the sort.
    tmux.wait_for("the message to expire", |s| {
        s.contains(&format!("· 1/11 · by attention ↓ · {}", root.display()))
    });
    // S reverses the order: the selection stays on payouts, now the last row.
    tmux.keys(&["S"]);
    tmux.wait_for_text("sorted by attention, reversed");
    tmux.wait_for("the reversed position", |s| {
        s.contains("· 11/11 · by attention ↑")
    });
    tmux.keys(&["S"]);
    tmux.wait_for("the order back", |s| s.contains("· 1/11 · by attention ↓"));

    // The Prompt tab of a Nexus project: its loading sequence, not Template 1.
    tmux.keys(&["/"]);
    tmux.text("03-settle");
    tmux.keys(&["Enter", "5"]);
    tmux.wait_for("the Nexus prompt", |s| {
        s.contains("Nexus loading sequence") && s.contains("MANDATORY LOADING SEQUENCE")
    });
    assert!(!tmux.capture().contains("You are resuming"));
    tmux.keys(&["Escape"]);
    tmux.wait_for_list(11);

    // A live refresh marks the row it changed (`*`), for a moment.
    let webhook = root.join("projects/PROJ-005-webhook-retry-spike/ORCHESTRATION.yaml");
    let text = std::fs::read_to_string(&webhook).unwrap();
    assert!(text.contains("next_action: \""));
    let tmp_file = webhook.with_file_name(".ORCHESTRATION.yaml.e2e.tmp");
    std::fs::write(
        &tmp_file,
        text.replace("next_action: \"", "next_action: \"Edited. "),
    )
    .unwrap();
    std::fs::rename(&tmp_file, &webhook).unwrap();
    tmux.wait_for("the changed row marked", |s| {
        s.lines()
            .any(|l| l.starts_with("│* ") && l.contains("webhook-spike"))
    });
    tmux.wait_for("the mark to go", |s| {
        s.lines()
            .any(|l| l.starts_with("│  ") && l.contains("webhook-spike"))
    });
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_wide_pane_shows_ids_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 250, 40);
    tmux.wait_for_text(&format!("{PAYOUTS}  Payouts API v2"));
    tmux.wait_for_text("fraud-audit-20260227-001");
}

fn walk(path: &Path) -> Vec<PathBuf> {
    if path.is_dir() {
        std::fs::read_dir(path)
            .unwrap()
            .flatten()
            .flat_map(|e| walk(&e.path()))
            .collect()
    } else if path.file_name().is_some_and(|n| n == "ORCHESTRATION.yaml") {
        vec![path.to_path_buf()]
    } else {
        Vec::new()
    }
}
