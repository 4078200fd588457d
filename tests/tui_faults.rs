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

#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::{Path, PathBuf};

use hostile::{TinyDisk, chmod, contents, hand_to_nobody, unprivileged};
use tmux::{Tmux, quote};

const PAYOUTS_STATE: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
const PAYOUTS_DIR: &str = "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001";
const DOCS_STATE: &str = "projects/PROJ-004-docs-site-rewrite/ORCHESTRATION.yaml";
const HEIGHT: u16 = 40;

struct Dashboard {
    tmux: Tmux,
    root: PathBuf,
    /// Where the dashboard's stderr goes, outside the workspace.
    _logs: tempfile::TempDir,
    /// The workspace, when it is a folder of its own (dropped after tmux).
    _workspace: Option<tempfile::TempDir>,
}

impl Dashboard {
    /// The dashboard on `root` (a demo unpacked there), run through `prefix`.
    fn start(root: &Path, prefix: &[String]) -> Dashboard {
        let logs = tempfile::tempdir().unwrap();
        let prefix: Vec<String> = prefix.iter().map(|p| quote(Path::new(p))).collect();
        let no_home = root.join(".no-home");
        let command = format!(
            "{prefix} env -u NO_COLOR TERM=xterm-256color HOME={home} XDG_CONFIG_HOME={home} \
             RESUME_TUI_CONFIG={config} {bin} --root {root} 2>{stderr}",
            prefix = prefix.join(" "),
            home = quote(&no_home),
            config = quote(&no_home.join("config.toml")),
            bin = quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
            root = quote(root),
            stderr = quote(&logs.path().join("stderr.txt")),
        );
        let dashboard = Dashboard {
            tmux: Tmux::start_sized(&command, 120, HEIGHT),
            root: root.to_path_buf(),
            _logs: logs,
            _workspace: None,
        };
        dashboard.tmux.wait_for_text("Projects 11");
        dashboard
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Waits until the status bar says every one of `words`; returns the screen.
    fn wait_status(&self, words: &[&str]) -> String {
        let screen = self
            .tmux
            .wait_for(&format!("a status bar with {words:?}"), |s| {
                let status = status_line(s);
                words.iter().all(|w| status.contains(w))
            });
        assert!(self.tmux.running(), "the dashboard is still up");
        screen
    }

    /// Selects the one project whose id matches `filter`. (The last filter is
    /// cleared with Backspace: an Escape followed at once by another key reads as
    /// Alt and that key.)
    fn select(&self, filter: &str) {
        self.tmux.keys(&["/"]);
        self.tmux.keys(&["BSpace"; 20]);
        self.tmux.text(filter);
        self.tmux.keys(&["Enter"]);
        self.tmux.wait_for_text("Projects 1/");
    }

    /// Another project can still be edited: `Space` on the docs workflow's first
    /// decision marks it not applied, on disk.
    fn other_projects_still_edit(&self) {
        let before = std::fs::read_to_string(self.path(DOCS_STATE)).unwrap();
        self.select("docs-rewrite");
        self.tmux.keys(&["4", "l", "Space"]);
        self.wait_status(&["✓ saved: marked RD-001 not applied"]);
        let after = std::fs::read_to_string(self.path(DOCS_STATE)).unwrap();
        let applied = |t: &str| t.matches("applied: true").count();
        assert_eq!(applied(&after), applied(&before) - 1, "{after}");
        self.tmux.keys(&["h"]);
    }
}

/// The dashboard on a fresh copy of the demo; as uid 65534 when `as_nobody` (and
/// this process is root).
fn on_demo(as_nobody: bool) -> Dashboard {
    let ws = tempfile::tempdir().unwrap();
    demo_in(ws.path());
    let prefix = if as_nobody {
        hand_to_nobody(ws.path());
        unprivileged()
    } else {
        Vec::new()
    };
    let mut dashboard = Dashboard::start(ws.path(), &prefix);
    dashboard._workspace = Some(ws);
    dashboard
}

fn demo_in(root: &Path) {
    resume_tui::io::demo::unpack_into(root, resume_tui::io::clock::now()).unwrap();
}

/// The status bar: the line above the key hints.
fn status_line(screen: &str) -> &str {
    screen
        .lines()
        .nth(usize::from(HEIGHT) - 2)
        .unwrap_or_default()
}

#[test]
fn a_state_file_deleted_while_the_dashboard_runs_is_shown_and_the_rest_carry_on() {
    let d = on_demo(false);
    let original = std::fs::read(d.path(PAYOUTS_STATE)).unwrap();
    std::fs::remove_file(d.path(PAYOUTS_STATE)).unwrap();
    d.wait_status(&[
        "ORCHESTRATION.yaml",
        "cannot read: No such file or directory",
    ]);
    d.select("payouts");
    d.tmux.wait_for_text("(jerry · unreadable)");
    // The save's read-back is a full load: the file is no longer found.
    d.other_projects_still_edit();
    d.tmux.wait_for_text("Projects 1/10");
    // Back again, read again by `r`.
    std::fs::write(d.path(PAYOUTS_STATE), original).unwrap();
    d.tmux.keys(&["r"]);
    d.wait_status(&["11 projects in"]);
    d.select("payouts");
    d.tmux.keys(&["1"]);
    d.tmux.wait_for_text("2 — Handlers and settlement batcher");
}

#[test]
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
fn a_state_file_made_unreadable_is_shown_and_the_rest_carry_on() {
    let d = on_demo(true);
    chmod(&d.path(PAYOUTS_STATE), 0o000);
    d.wait_status(&["ORCHESTRATION.yaml", "cannot read: Permission denied"]);
    d.other_projects_still_edit();
    chmod(&d.path(PAYOUTS_STATE), 0o644);
}

#[test]
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
    d.tmux.keys(&["Enter"]);
    let screen = d.wait_status(&[
        "not saved: added a decision:",
        "ORCHESTRATION.yaml",
        "No such file or directory",
    ]);
    assert!(screen.contains("New decision"), "the form stays: {screen}");
    assert!(
        contents(&d.root) == before,
        "nothing written, nothing recreated"
    );
    d.tmux.keys(&["Escape"]);
    d.other_projects_still_edit();
}

#[test]
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
