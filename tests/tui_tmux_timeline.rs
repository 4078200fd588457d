//! The timeline view in a real terminal (tmux) on a copy of the demo: `t` opens the
//! lanes of every project's compactions, the list under them says the payouts
//! compaction's recorded summary dropped 7 items, `t` closes it, and the Compaction
//! tab lists that checkpoint's kept and dropped items.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;

use tmux::{Tmux, quote, wait_until};

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_timeline_view_and_the_dropped_items_in_tmux() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("workspace");
    resume_tui::io::demo::unpack_into(&root, resume_tui::io::clock::now()).unwrap();
    let config = tmp.path().join("config.toml");
    std::fs::write(&config, "[clipboard]\nbackend = \"off\"\n").unwrap();
    let command = format!(
        "env -u NO_COLOR XDG_CONFIG_HOME={} TERM=xterm-256color {} --root {} --config {} 2>{}",
        quote(&tmp.path().join("xdg")),
        quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
        quote(&root),
        quote(&config),
        quote(&tmp.path().join("stderr.txt")),
    );
    let tmux = Tmux::start(&command);
    tmux.wait_for_list(11);
    tmux.wait_for_text("payouts-v2-20260302-001");

    tmux.keys(&["t"]);
    // (A frame can reach the pane in pieces: wait for its title and its legend.)
    let screen = tmux.wait_for("the timeline drawn whole", |s| {
        s.contains("Timeline: every project's compactions")
            && s.contains("its summary dropped something")
    });
    let lane = |id: &str| {
        screen
            .lines()
            .find(|l| l.contains(id) && l.contains('│'))
            .unwrap_or_else(|| panic!("no lane for {id}:\n{screen}"))
            .to_string()
    };
    let payouts = lane("payouts-v2-20260302-001");
    assert!(payouts.contains('⚑') && payouts.contains('✓'), "{payouts}");
    let docs = lane("docs-rewrite-20260225-001");
    assert!(docs.contains('⚑'), "{docs}");
    assert!(screen.contains("summary dropped 7"), "{screen}");

    tmux.keys(&["t"]);
    tmux.wait_for("the lanes closed", |s| {
        !s.contains("Timeline: every project")
    });

    // The payouts project is first (it waits on a checkpoint); its Compaction tab.
    tmux.keys(&["3"]);
    tmux.keys(&["l"]);
    for _ in 0..12 {
        tmux.keys(&["J"]);
    }
    tmux.wait_for_text("Kept and dropped by the summary (7 dropped of 11)");
    tmux.wait_for_text("✗ defect DF-212: unresolved defect");

    tmux.keys(&["C-c"]);
    wait_until("the dashboard to quit", || !tmux.running());
}
