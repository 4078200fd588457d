//! End to end in tmux, on a copy of the demo: the checkpoints tied to no project
//! are the list's last row, which the cursor reaches; its details list them, `a`
//! acknowledges the one selected (its marker alone) and `u` takes that back; the
//! title counts them at 100 to 140 columns; a new one is announced with `⚑`. And
//! a workflow whose file does not read at a fresh start keeps the checkpoint
//! that names it: its row is flagged, marked unreadable, and ranked by the flag.
//!
//! Waits poll the screen with a generous deadline; running out of time is a
//! failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::{Path, PathBuf};

use tmux::{Tmux, dashboard, demo_workspace};

const DOCS_FILE: &str = "projects/PROJ-004-docs-site-rewrite/ORCHESTRATION.yaml";

/// A real Jerry checkpoint (it names no workflow) in the demo's `.jerry/checkpoints`.
fn loose_checkpoint(root: &Path, id: &str, created: &str) {
    let body = format!(
        r#"{{"checkpoint_id": "{id}", "context_state": {{"fill_percentage": 0.9, "tier": "critical"}}, "resumption_state": null, "created_at": "{created}"}}"#
    );
    std::fs::write(root.join(format!(".jerry/checkpoints/{id}.json")), body).unwrap();
}

fn marker(root: &Path, id: &str) -> PathBuf {
    root.join(format!(".jerry/checkpoints/{id}.acknowledged"))
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn checkpoints_tied_to_no_project_are_a_row_to_select_and_acknowledge() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    loose_checkpoint(&root, "cx-011", "2026-02-17T10:00:00Z");
    loose_checkpoint(&root, "cx-012", "2026-02-17T11:00:00Z");
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 120, 40);
    let screen = tmux.wait_for_list(11);
    let title = screen.lines().next().unwrap();
    assert!(title.contains("no project 2 "), "{title}");

    // The last row; the cursor reaches it, and its details list them, newest first.
    tmux.keys(&["G"]);
    let screen = tmux.wait_for("the no-project row selected", |s| {
        s.contains("┌ Checkpoints tied to no project")
    });
    let row = screen
        .lines()
        .find(|l| l.contains("no project (2, 2 unacknowledged)"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(row.starts_with("│▸ ⚑2 "), "{row}");
    assert!(screen.contains("▸⚑ cx-012"), "{screen}");

    // l, j: cx-011 selected; a acknowledges it by its marker alone.
    tmux.keys(&["l", "j"]);
    tmux.wait_for_text("▸⚑ cx-011");
    tmux.keys(&["a"]);
    let screen = tmux.wait_for("cx-011 acknowledged and read back", |s| {
        s.contains("saved: acknowledged cx-011") && s.contains("▸✓ cx-011")
    });
    assert!(
        screen.contains("no project (2, 1 unacknowledged)"),
        "{screen}"
    );
    assert!(marker(&root, "cx-011").exists());
    assert!(!marker(&root, "cx-012").exists());

    // u takes it back.
    tmux.keys(&["u"]);
    tmux.wait_for("the marker removed and the flag back", |s| {
        s.contains("saved: undo \"acknowledged cx-011 (tied to no project)\"")
            && s.contains("▸⚑ cx-011")
    });
    assert!(!marker(&root, "cx-011").exists());

    // k back to the projects: the last project's details again.
    tmux.keys(&["h", "k"]);
    tmux.wait_for("a project selected", |s| {
        !s.contains("┌ Checkpoints tied to no project") && s.contains("1 Overview")
    });

    // A new one written meanwhile is said with the flag of a checkpoint waiting.
    loose_checkpoint(&root, "cx-013", "2026-02-17T12:00:00Z");
    let screen = tmux.wait_for_text("compaction: cx-013");
    let status = screen
        .lines()
        .find(|l| l.contains("compaction: cx-013"))
        .unwrap();
    assert!(status.starts_with("⚑ compaction: cx-013"), "{status}");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_title_counts_them_from_100_to_140_columns() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    for id in ["cx-011", "cx-012", "cx-013"] {
        loose_checkpoint(&root, id, "2026-02-17T10:00:00Z");
    }
    for width in [100, 110, 120, 140] {
        let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), width, 40);
        let screen = tmux.wait_for_list(11);
        let title = screen.lines().next().unwrap();
        // CRITICAL, STALE and ⚑ too, before the counts by kind.
        assert!(
            title.contains("CRIT") && title.contains("⚑ 2") && title.contains(" 3 "),
            "{width}: {title}"
        );
        assert!(
            title.contains("no project 3 ") || title.contains("no proj 3 "),
            "{width}: {title}"
        );
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_workflow_whose_file_does_not_read_at_start_keeps_its_flag_and_rank() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    std::fs::write(root.join(DOCS_FILE), "workflow:\n  id: [broken\n").unwrap();
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 120, 40);
    let screen = tmux.wait_for_list(11);
    let lines: Vec<&str> = screen.lines().collect();
    // The two rows with a checkpoint waiting come first: docs is one of them.
    let docs = lines
        .iter()
        .position(|l| l.contains("PROJ-004-docs-site-rewrite"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!((2..=3).contains(&docs), "{screen}");
    let row = lines[docs];
    // Marked, as far as the id leaves room (`✗ unreadable`, cut).
    assert!(row.contains("⚑1") && row.contains("✗ unr"), "{row}");
    // cx-004 names its workflow: it stays with it. cx-003 (acknowledged) was
    // named only by the file's compaction events, which do not read now.
    assert!(
        screen.contains("no project (1, 0 unacknowledged)"),
        "{screen}"
    );
}
