//! End to end in tmux, on a copy of the demo: a Nexus build's decisions, read
//! from its `02-resources/decisions.md`, on the Decisions tab, read-only (an
//! edit key says where to edit them and writes nothing), refreshed when the file
//! changes.
//!
//! Waits poll the screen with a generous deadline; running out of time is a
//! failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;

use tmux::{Tmux, quote};

const DECISIONS: &str = "02-projects/09-ops-runbook-refresh/02-resources/decisions.md";

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_nexus_builds_decisions_show_on_the_decisions_tab_read_only() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("workspace");
    resume_tui::io::demo::unpack_into(&root, resume_tui::io::clock::now()).unwrap();
    let before = std::fs::read(root.join(DECISIONS)).unwrap();
    let command = format!(
        "env XDG_CONFIG_HOME={} TERM=xterm-256color {} --root {}",
        quote(&tmp.path().join("xdg")),
        quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
        quote(&root)
    );
    let tmux = Tmux::start_sized(&command, 120, 40);
    tmux.wait_for_list(11);
    tmux.keys(&["/"]);
    tmux.text("09-ops");
    tmux.keys(&["Enter", "4"]);
    let screen = tmux.wait_for("the build's decisions", |s| {
        s.contains("D-001") && s.contains("D-004") && s.contains("One runbook per alert")
    });
    assert!(!screen.contains("No decisions recorded"), "{screen}");
    // The selected one's rationale and where it comes from, under the table.
    tmux.wait_for("D-001's details", |s| {
        s.contains("on-call engineers arrive from the alert") && s.contains("(read-only here)")
    });
    // An edit key says where to edit them; nothing is written.
    tmux.keys(&["l", "d"]);
    tmux.wait_for_text(&format!("Nexus decisions are read from {DECISIONS}"));
    tmux.keys(&["<Space>"]);
    tmux.keys(&["n"]);
    tmux.wait_for_text("edit it there (o opens it)");
    assert_eq!(std::fs::read(root.join(DECISIONS)).unwrap(), before);
    // Edited there, it shows here without a key.
    let mut more = before.clone();
    more.extend_from_slice(b"- D-005: Page the owning team first\n");
    std::fs::write(root.join(DECISIONS), more).unwrap();
    tmux.wait_for_text("Page the owning team first");

    // A build without the file says where they would be.
    drop(tmux);
    let tmux = Tmux::start_sized(&command, 120, 40);
    tmux.wait_for_list(11);
    tmux.keys(&["/"]);
    tmux.text("07-merchant");
    tmux.keys(&["Enter", "4"]);
    tmux.wait_for("where a build keeps them", |s| {
        s.contains("A Nexus build keeps them in 02-resources/decisions.md")
            && s.contains("this one has not")
    });
}
