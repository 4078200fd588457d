//! End to end in tmux, on a copy of the demo: the first frame is what discovery
//! found, every row marked as loading and no counts in the header; keys work
//! meanwhile; then the read rows replace them, the selection on the file the
//! operator moved to. The load is held after discovery by the test-only
//! `RESUME_TUI_TEST_HOLD_LOAD` (until a file exists), so nothing here depends on
//! how fast the files are read.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;

use tmux::{Tmux, quote};

/// The dashboard on a copy of the demo, held by the test-only switch `hold`
/// until the file `release` exists.
struct Held {
    tmux: Tmux,
    root: std::path::PathBuf,
    release: std::path::PathBuf,
    _tmp: tempfile::TempDir,
}

impl Held {
    fn start(hold: &str) -> Held {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("workspace");
        resume_tui::io::demo::unpack_into(&root, resume_tui::io::clock::now()).unwrap();
        let release = tmp.path().join("release");
        let command = format!(
            "env XDG_CONFIG_HOME={} {hold}={} TERM=xterm-256color {} --root {}",
            quote(&tmp.path().join("xdg")),
            quote(&release),
            quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
            quote(&root)
        );
        Held {
            tmux: Tmux::start(&command),
            root,
            release,
            _tmp: tmp,
        }
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn rows_show_loading_until_read_and_keys_work_meanwhile() {
    let held = Held::start("RESUME_TUI_TEST_HOLD_LOAD");
    let (tmux, release) = (&held.tmux, &held.release);
    let loading = tmux.wait_for("the rows discovery found, loading", |s| {
        s.contains("Projects 11 loading…")
            && s.contains("▸       03-settlement-dashboard")
            && s.contains("04-chargeback-playbook")
            && s.contains("Reading the files…")
    });
    for never in ["CRITICAL", "STALE", "FRESH", "●", "▲", "◐"] {
        assert!(
            !loading.contains(never),
            "{never} before any file is read:\n{loading}"
        );
    }
    tmux.keys(&["j"]);
    tmux.wait_for_text("▸       04-chargeback-playbook");
    tmux.keys(&["?"]);
    tmux.wait_for_text("Keys");
    tmux.keys(&["Escape"]);
    tmux.wait_for("the help closed", |s| {
        !s.contains("Keys") && s.contains("Reading the files…")
    });
    tmux.keys(&["y"]);
    tmux.wait_for_text("still reading the files; try again in a moment");

    std::fs::write(release, "").unwrap();
    let read = tmux.wait_for("the read rows, the selection on its file", |s| {
        s.contains("CRITICAL 1")
            && s.contains("payouts-v2-20260302-001")
            && s.contains("▸     ◐ 04-chargeback-playbook")
            && !s.contains("loading…")
    });
    assert!(!read.contains("Reading the files…"), "{read}");
}

/// A project made after discovery's walk but before its folders are watched
/// raises no event; the passes walk the workspace again once the watches are set,
/// so it is read. The run loop is held in that gap by the test-only
/// `RESUME_TUI_TEST_HOLD_WATCH` (until a file exists), so nothing is timed.
#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_project_made_before_the_watches_are_set_is_read() {
    let held = Held::start("RESUME_TUI_TEST_HOLD_WATCH");
    let (tmux, release, root) = (&held.tmux, &held.release, &held.root);
    tmux.wait_for_text("Projects 11 loading…");
    let made = root.join("projects/PROJ-007-gap/orchestration/gap-20260301-001");
    std::fs::create_dir_all(&made).unwrap();
    std::fs::write(
        made.join("ORCHESTRATION.yaml"),
        "workflow:\n  id: \"gap-20260301-001\"\n  name: \"Made in the gap\"\nstatus: \"ACTIVE\"\n",
    )
    .unwrap();
    std::fs::write(release, "").unwrap();
    tmux.wait_for("the project made in the gap, read", |s| {
        s.contains("Projects 12 ") && s.contains("gap-20260301-001") && !s.contains("loading…")
    });
}
