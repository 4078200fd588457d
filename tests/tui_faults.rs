//! Faults while the dashboard runs, through the binary in tmux on a copy of the demo
//! workspace: a project's ORCHESTRATION.yaml deleted, replaced by a folder or made
//! unreadable under it, and edits refused because the folder is read-only, the file
//! changed behind the watcher's back, the file is gone, or the disk is full. Each
//! time the dashboard stays up, the status bar names the file and says what is
//! wrong, no byte on disk changes (no partial file, no temporary or lock file left),
//! and the other projects can still be read and edited.
//!
//! Permission cases run the dashboard as uid 65534 (root reads mode-000 files and
//! writes into read-only folders); the full disk is a 1 MiB tmpfs (needs root).

#[path = "support/dashboard.rs"]
mod dashboard;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use dashboard::{Dashboard, PAYOUTS_DIR, PAYOUTS_STATE, demo_in, on_demo};
use hostile::{TinyDisk, chmod, contents};

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_state_file_deleted_while_the_dashboard_runs_is_shown_the_rest_carry_on_and_it_comes_back() {
    let d = on_demo(false);
    let original = std::fs::read(d.path(PAYOUTS_STATE)).unwrap();
    std::fs::remove_file(d.path(PAYOUTS_STATE)).unwrap();
    d.wait_status(&[
        "ORCHESTRATION.yaml",
        "cannot read: No such file or directory",
    ]);
    d.select("payouts");
    // Shown as last read, marked (tui::last_known); at 120 columns the fill
    // column leaves the mark `✗ unread…`.
    d.tmux.wait_for_text("✗ unread");
    // The save's read-back is a full load: the file is no longer found.
    d.other_projects_still_edit();
    d.tmux.wait_for_text("Projects 1/10");
    // Back again: its folder is still watched, so it shows without `r`.
    std::fs::write(d.path(PAYOUTS_STATE), original).unwrap();
    d.tmux.wait_for_text("Projects 1/11");
    d.select("payouts");
    d.tmux.keys(&["1"]);
    d.tmux.wait_for_text("2 — Handlers and settlement batcher");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_state_file_replaced_by_a_folder_is_shown_and_a_full_reload_says_so() {
    let d = on_demo(false);
    std::fs::remove_file(d.path(PAYOUTS_STATE)).unwrap();
    std::fs::create_dir(d.path(PAYOUTS_STATE)).unwrap();
    d.wait_status(&["ORCHESTRATION.yaml", "is a folder, not a file"]);
    d.other_projects_still_edit();
    // A full reload no longer finds the project, and says why.
    d.tmux.keys(&["r"]);
    d.wait_status(&[
        "10 projects in",
        "ORCHESTRATION.yaml: warning: is a folder, not a file: not read",
    ]);
    assert!(d.path(PAYOUTS_STATE).is_dir(), "the folder is left alone");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_state_file_made_unreadable_is_shown_and_the_rest_carry_on() {
    let d = on_demo(true);
    chmod(&d.path(PAYOUTS_STATE), 0o000);
    d.wait_status(&["ORCHESTRATION.yaml", "cannot read: Permission denied"]);
    d.other_projects_still_edit();
    chmod(&d.path(PAYOUTS_STATE), 0o644);
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn edits_refused_by_a_read_only_folder_change_nothing() {
    let d = on_demo(true);
    let read_only = [d.path(PAYOUTS_DIR), d.path(".jerry/checkpoints")];
    for dir in &read_only {
        chmod(dir, 0o555);
    }
    let before = contents(&d.root);
    d.select("payouts");
    d.tmux.keys(&["3", "a"]);
    d.wait_status(&["not saved: acknowledged cx-002:", "Permission denied"]);
    d.tmux.keys(&["4", "l", "Space"]);
    d.wait_status(&[
        "not saved: marked RD-001 not applied:",
        "ORCHESTRATION.yaml",
        "Permission denied",
    ]);
    assert!(
        contents(&d.root) == before,
        "no byte changed, nothing left behind"
    );
    d.other_projects_still_edit();
    for dir in &read_only {
        chmod(dir, 0o755);
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn an_edit_of_a_file_changed_behind_the_watchers_back_is_refused_until_reloaded() {
    let d = on_demo(false);
    d.select("payouts");
    d.tmux.keys(&["4", "l"]);
    d.tmux.wait_for_text("RD-001");
    // Written through a hard link outside the workspace: the same file, but the
    // watcher (which watches the workspace's folders) is not told.
    let outside = tempfile::tempdir_in(d.root.parent().unwrap()).unwrap();
    let link = outside.path().join("ORCHESTRATION.yaml");
    std::fs::hard_link(d.path(PAYOUTS_STATE), &link).unwrap();
    let text = std::fs::read_to_string(&link).unwrap();
    let changed = text.replacen("qg-2-iteration-2\"", "changed-behind-its-back\"", 1);
    assert_ne!(
        changed, text,
        "the demo's activity line is where the test expects it"
    );
    std::fs::write(&link, &changed).unwrap();
    // One link again: an edit refuses a file with several (it would split them).
    std::fs::remove_file(&link).unwrap();

    d.tmux.keys(&["Space"]);
    let screen = d.wait_status(&[
        "not saved:",
        "ORCHESTRATION.yaml changed on disk since it was read; reload (r)",
    ]);
    assert!(screen.contains("r reload"), "{screen}");
    let on_disk = std::fs::read_to_string(d.path(PAYOUTS_STATE)).unwrap();
    assert!(
        on_disk == changed,
        "the file is as it was changed, not overwritten"
    );

    // `r` reads it again; the same key then applies to what is now shown.
    d.tmux.keys(&["r"]);
    d.wait_status(&["reloaded from disk; save again to apply"]);
    d.tmux.keys(&["Space"]);
    d.wait_status(&["✓ saved: marked RD-001 not applied"]);
    let saved = std::fs::read_to_string(d.path(PAYOUTS_STATE)).unwrap();
    assert!(saved.contains("changed-behind-its-back"), "{saved}");
    assert_eq!(
        saved.matches("applied: true").count(),
        changed.matches("applied: true").count() - 1
    );
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn an_edit_of_a_file_that_is_gone_is_refused_and_the_form_kept() {
    let d = on_demo(false);
    d.select("payouts");
    d.tmux.keys(&["4", "n"]);
    d.tmux.wait_for_text("New decision");
    d.tmux.text("Retry webhooks with full jitter");
    std::fs::remove_file(d.path(PAYOUTS_STATE)).unwrap();
    d.wait_status(&[
        "ORCHESTRATION.yaml",
        "cannot read: No such file or directory",
    ]);
    let before = contents(&d.root);
    d.tmux.keys(&["C-s"]);
    // Refused before any write: the project is shown as last read.
    let screen = d.wait_status(&["not written: payouts", "shown as last read"]);
    assert!(screen.contains("New decision"), "the form stays: {screen}");
    assert!(
        contents(&d.root) == before,
        "nothing written, nothing recreated"
    );
    // (Keys sent right after Esc would read as Alt and that key.)
    d.tmux.keys(&["Escape"]);
    d.tmux
        .wait_for("the form to close", |s| !s.contains("New decision"));
    d.other_projects_still_edit();
}

#[test]
#[cfg_attr(
    not(all(resume_tui_tmux, resume_tui_root)),
    ignore = "needs RESUME_TUI_TMUX=1 and RESUME_TUI_ROOT=1 (tmux, root)"
)]
fn a_full_disk_refuses_an_edit_and_leaves_the_file_whole() {
    let disk = TinyDisk::mount(1024);
    let root = disk.path().join("workspace");
    demo_in(&root);
    let d = Dashboard::start(&root, &[]);
    disk.fill(0);
    let before = contents(&root);
    d.select("payouts");
    d.tmux.keys(&["4", "l", "Space"]);
    d.wait_status(&[
        "not saved: marked RD-001 not applied:",
        "No space left on device",
    ]);
    assert!(
        contents(&root) == before,
        "no byte changed, nothing left behind"
    );
    // Reading goes on.
    d.select("docs-rewrite");
    d.tmux.keys(&["1"]);
    d.tmux.wait_for_text("Developer docs site rewrite");
}
