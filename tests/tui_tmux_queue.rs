//! End to end in tmux, on a copy of the demo, issue 36's queue defects: with
//! files changing underneath, the next key never edits a project the operator
//! did not choose. A broken state file keeps its project's last state, marked,
//! at its urgency, and refuses edits; a deleted project folder is said, and the
//! row the selection fell on is not edited until the operator picks it.
//!
//! Waits poll the screen with a generous deadline; running out of time is a
//! failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;

use tmux::{Tmux, dashboard, demo_workspace};

const DOCS: &str = "docs-rewrite-20260225-001";
const DOCS_DIR: &str = "projects/PROJ-004-docs-site-rewrite";
const PAYOUTS_FILE: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";

/// The row of the list showing `id`.
fn row_of<'a>(screen: &'a str, id: &str) -> Option<&'a str> {
    screen
        .lines()
        .filter(|l| l.starts_with('│'))
        .map(|l| l.split("││").next().unwrap_or(l))
        .find(|l| l.contains(id))
}

/// Replaces `path` the way an editor does (a new file renamed over it).
fn replace(path: &Path, text: &str) {
    let tmp = path.with_file_name(".ORCHESTRATION.yaml.e2e.tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn files_changing_underneath_never_move_an_edit_to_another_project() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start(&dashboard(tmp.path(), &root));
    tmux.wait_for_list(11);
    let payouts_before = std::fs::read(root.join(PAYOUTS_FILE)).unwrap();

    // docs-rewrite (CRITICAL, a checkpoint waiting) chosen, its Decisions tab open.
    tmux.keys(&["j", "4"]);
    tmux.wait_for("docs-rewrite's decisions", |s| {
        s.contains(&format!("┌ {DOCS}")) && s.contains("Generate the API reference")
    });

    // Its YAML broken from outside: the row keeps its place, flag and glyph.
    let docs_file = root.join(DOCS_DIR).join("ORCHESTRATION.yaml");
    let text = std::fs::read_to_string(&docs_file).unwrap();
    let broken = format!("{text}bad: [unclosed\n");
    replace(&docs_file, &broken);
    let screen = tmux.wait_for("the row marked unreadable", |s| {
        // At 120 columns the fill column leaves the mark 6 cells: `✗ unre…`.
        row_of(s, DOCS).is_some_and(|r| r.contains("✗ unre"))
    });
    let row = row_of(&screen, DOCS).unwrap();
    assert!(
        row.starts_with("│▸ ⚑1  ▲ "),
        "selected, flagged, CRITICAL: {row}"
    );
    assert!(
        screen.contains("CRITICAL 1") && screen.contains("⚑ 2"),
        "{screen}"
    );

    // d: refused, said; no file touched.
    tmux.keys(&["d"]);
    tmux.wait_for_text("not written: docs-rewrite");
    assert_eq!(std::fs::read_to_string(&docs_file).unwrap(), broken);
    assert_eq!(
        std::fs::read(root.join(PAYOUTS_FILE)).unwrap(),
        payouts_before
    );

    // Mended: the mark goes; no change is announced.
    replace(&docs_file, &text);
    tmux.wait_for("the mark gone", |s| {
        row_of(s, DOCS).is_some_and(|r| !r.contains("✗ unre") && r.contains("Develo"))
    });
    assert!(!tmux.capture().contains("turned CRITICAL"));

    // Its folder moved out of the workspace: said, and the row the selection
    // fell on is not edited by the next key.
    let away = tmp.path().join("away");
    std::fs::rename(root.join(DOCS_DIR), &away).unwrap();
    tmux.wait_for_text(&format!("{DOCS} is gone"));
    tmux.keys(&["d"]);
    tmux.wait_for_text("not done: docs-rewrite");
    assert_eq!(
        std::fs::read(root.join(PAYOUTS_FILE)).unwrap(),
        payouts_before
    );

    // Back: the selection is on it again.
    std::fs::rename(&away, root.join(DOCS_DIR)).unwrap();
    tmux.wait_for("docs-rewrite selected again", |s| {
        row_of(s, DOCS).is_some_and(|r| r.starts_with("│▸"))
    });
}

/// Issue 37: a folder with no workspace says what to do next, within 80×24.
#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn an_empty_folder_says_what_to_do_next() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("empty");
    std::fs::create_dir(&root).unwrap();
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 80, 24);
    let screen = tmux.wait_for("the next steps", |s| {
        s.contains("resume-tui --demo") && s.contains("q quits")
    });
    assert!(screen.contains("resume-tui init"), "{screen}");
    assert!(screen.contains("resume-tui --root DIR"), "{screen}");
    assert!(!screen.contains("Select a project"), "{screen}");
    assert!(screen.contains("No projects in this folder"), "{screen}");
}

/// Checkpoints tied to no project are counted in the header and are the list's last
/// row (`list` and `timeline` show them too).
#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn checkpoints_tied_to_no_project_are_seen() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    std::fs::write(
        root.join(".jerry/checkpoints/cx-950-checkpoint.json"),
        "{\"schema_version\": \"1.0.0\", \"event_type\": \"compaction\", \"event_id\": \"cx-950\", \
         \"timestamp\": \"2026-02-20T12:30:00Z\", \"trigger\": {\"type\": \"auto\"}, \
         \"orchestration_state\": {\"workflow_id\": \"no-such-workflow\", \"current_phase\": 3}, \
         \"metadata\": {\"acknowledged\": false}}\n",
    )
    .unwrap();
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 200, 40);
    tmux.wait_for_list(11);
    let screen = tmux.wait_for("their row, the last", |s| {
        s.contains("no project (1, 1 unacknowledged)")
    });
    assert!(screen.contains("no project 1"), "{screen}");
    // The cursor reaches it: its details list the checkpoint.
    tmux.keys(&["G"]);
    tmux.wait_for("the checkpoint listed", |s| {
        s.contains("┌ Checkpoints tied to no project") && s.contains("▸⚑ cx-950")
    });
}
