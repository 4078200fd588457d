//! End to end in tmux, on a copy of the demo, the rest of issue 36's item 5: `R`
//! without `claude` on PATH says so instead of reporting a window; `u` takes an
//! acknowledge back (and refuses once a file it wrote changed); the timeline
//! overlay fits 80×24, moves with `j`/`k` and jumps with Enter; the no-color
//! chart tells gates apart; a gate recorded PASS below its threshold shows both.
//!
//! Waits poll the screen with a generous deadline; running out of time is a
//! failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;

use tmux::{Tmux, dashboard_with, demo_workspace, quote};

const PAYOUTS_FILE: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
const PAYOUTS_CHECKPOINT: &str = ".jerry/checkpoints/cx-002-checkpoint.json";

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap()
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn resume_now_without_claude_on_path_says_so_and_opens_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    // A PATH with tmux and nothing called claude.
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let tmux_bin = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join("tmux"))
        .find(|p| p.is_file())
        .expect("tmux on PATH");
    std::os::unix::fs::symlink(&tmux_bin, bin.join("tmux")).unwrap();
    let env = format!("PATH={}", quote(&bin));
    let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, &env, ""), 200, 40);
    tmux.wait_for_list(11);
    tmux.keys(&["R"]);
    let screen = tmux.wait_for("what is missing", |s| {
        s.contains("not started: claude is not on the dashboard's PATH")
    });
    assert!(screen.contains("install Claude Code"), "{screen}");
    assert!(!screen.contains("in a new tmux window"), "{screen}");
    assert_eq!(tmux.output(&["list-windows"]).lines().count(), 1);
    assert!(tmux.running());
}

/// Saved and read back (a key pressed before then waits for it).
fn acknowledged(tmux: &Tmux) {
    tmux.wait_for("cx-002 acknowledged and read back", |s| {
        s.contains("saved: acknowledged cx-002") && !s.contains("NOT ACKNOWLEDGED")
    });
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn an_acknowledge_is_undone_unless_its_files_changed_since() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, "", ""), 200, 40);
    tmux.wait_for_list(11);
    let state = read(&root, PAYOUTS_FILE);
    let checkpoint = read(&root, PAYOUTS_CHECKPOINT);

    // payouts (the first row) acknowledged, then undone: both files as they were.
    tmux.keys(&["3", "a"]);
    acknowledged(&tmux);
    assert_ne!(read(&root, PAYOUTS_CHECKPOINT), checkpoint);
    tmux.keys(&["u"]);
    tmux.wait_for_text("saved: undo \"acknowledged cx-002 in payouts-v2-20260302-001\"");
    assert_eq!(read(&root, PAYOUTS_FILE), state);
    assert_eq!(read(&root, PAYOUTS_CHECKPOINT), checkpoint);
    tmux.wait_for("the flag back", |s| s.contains("⚑ NOT ACKNOWLEDGED"));

    // Acknowledged again, the checkpoint changed from outside: u refuses and
    // writes nothing.
    tmux.keys(&["a"]);
    acknowledged(&tmux);
    let acked = read(&root, PAYOUTS_FILE);
    let changed = read(&root, PAYOUTS_CHECKPOINT).replacen('{', "{ ", 1);
    std::fs::write(root.join(PAYOUTS_CHECKPOINT), &changed).unwrap();
    tmux.keys(&["u"]);
    tmux.wait_for_text("cx-002-checkpoint.json changed since; nothing undone");
    assert_eq!(read(&root, PAYOUTS_FILE), acked);
    assert_eq!(read(&root, PAYOUTS_CHECKPOINT), changed);
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_timeline_fits_80x24_moves_with_j_k_and_opens_with_enter() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, "", ""), 80, 24);
    tmux.wait_for_list(11);
    tmux.keys(&["t"]);
    // Drawn whole: its list's newest entry is there and nothing of the tabs
    // behind is left (a capture can fall between two writes of one frame).
    let screen = tmux.wait_for("the timeline drawn whole", |s| {
        s.contains("Timeline: every project's compactions")
            && s.contains("✓ acknowledged")
            && s.contains("cx-004")
            && !s.contains("1 Overview")
    });
    let lines: Vec<&str> = screen.lines().collect();
    // Nothing of the screen behind beside it: it takes every row above the
    // status bar, from border to border.
    assert!(lines[0].starts_with("┌ Timeline"), "{screen}");
    for line in &lines[1..21] {
        assert!(
            line.starts_with('│') && line.ends_with('│') && line.chars().count() == 80,
            "{line:?} in\n{screen}"
        );
    }
    assert!(lines[21].starts_with('└'), "{screen}");
    // cx-002 waits for the operator: flagged, not called dropped.
    let payouts = lines
        .iter()
        .find(|l| l.contains("payouts-v2-20260302-001 ") && l.contains('·'))
        .unwrap();
    assert!(payouts.contains('⚑') && !payouts.contains('✗'), "{screen}");
    let cx002 = lines.iter().find(|l| l.contains("cx-002")).unwrap();
    assert!(
        cx002.contains("⚑ cx-002") && cx002.contains("not acknowledged"),
        "{screen}"
    );

    // Newest first: cx-004 selected; j moves to cx-003, Enter opens it.
    assert!(screen.contains("▸ ⚑ cx-004"), "{screen}");
    tmux.keys(&["j"]);
    tmux.wait_for_text("▸ ✓ cx-003");
    tmux.keys(&["k", "j", "Enter"]);
    let screen = tmux.wait_for("cx-003 in the docs project's Compaction tab", |s| {
        s.contains("┌ docs-rewrite-20260225-001") && s.contains("cx-003  .jerry/checkpoints/")
    });
    assert!(!screen.contains("Timeline: every"), "{screen}");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn without_colours_each_gate_has_its_own_mark_on_the_chart() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    for (w, h) in [(140, 40), (80, 24)] {
        let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, "NO_COLOR=1", ""), w, h);
        tmux.wait_for_list(11);
        // payouts, the first row: qg-1 and qg-2 scored.
        tmux.keys(&["2"]);
        let marks = |screen: &str, c: char| {
            screen
                .lines()
                .filter_map(|l| l.split_once('|').map(|(_, plot)| plot))
                .map(|plot| plot.matches(c).count())
                .sum::<usize>()
        };
        // Waited for whole: a capture can fall between two writes of one frame.
        // Where both gates' scores share a cell (at 80x24 every qg-2 score
        // does), the cell says 2 and the legend names both.
        tmux.wait_for("the legend and each gate's marks on the plot", |s| {
            s.contains("*.. qg-1  o:: qg-2  - pass 0.92")
                && marks(s, '*') >= 1
                && (marks(s, 'o') >= 1 || s.contains("2 qg-1 and qg-2 at"))
        });
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_gate_recorded_pass_below_its_threshold_shows_both() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    // qg-1 recorded PASS, its last score 0.890 under its 0.92 threshold.
    let text = read(&root, PAYOUTS_FILE).replace("0.941", "0.890");
    std::fs::write(root.join(PAYOUTS_FILE), text).unwrap();
    let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, "", ""), 140, 40);
    tmux.wait_for_list(11);
    tmux.keys(&["2"]);
    let screen = tmux.wait_for_text("qg-1    PASS (recorded) · 0.890 < 0.92 threshold");
    assert!(!screen.contains("✗ below 0.890"), "{screen}");
    // qg-2 is in progress: its verdict is the threshold's alone.
    assert!(screen.contains("qg-2    ✗ below 0.910"), "{screen}");
}
