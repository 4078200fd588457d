//! End to end in tmux, on a copy of the demo, what the dashboard draws without
//! colours or without Unicode: a point two gates share on the Quality chart says
//! so, the footer lists the keys of the overlay that is open, and the ASCII
//! glyphs give the checkpoint flag and the fill's warning mark a character each.
//!
//! Waits poll the screen with a generous deadline; running out of time is a
//! failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use tmux::{Tmux, dashboard_with, demo_workspace};

const PAYOUTS_FILE: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";

/// How many times `c` is drawn on the ASCII chart's plot (right of its `|`).
fn on_plot(screen: &str, c: char) -> usize {
    screen
        .lines()
        .filter_map(|l| l.split_once('|').map(|(_, plot)| plot))
        .map(|plot| plot.matches(c).count())
        .sum()
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn without_colours_a_point_two_gates_share_shows_both() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    // qg-2's second score made qg-1's: one point for both, at any size (its
    // first, 0.95, over the pass line, apart from qg-1's 0.825).
    let text = std::fs::read_to_string(root.join(PAYOUTS_FILE)).unwrap();
    let text = text
        .replace("score: 0.88\n", "score: 0.95\n")
        .replace("score: 0.91\n", "score: 0.916\n")
        .replace("qg-2: [0.88, 0.91]", "qg-2: [0.95, 0.916]");
    std::fs::write(root.join(PAYOUTS_FILE), text).unwrap();
    for (w, h) in [(140, 40), (80, 24)] {
        let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, "NO_COLOR=1", ""), w, h);
        tmux.wait_for_list(11);
        tmux.keys(&["2"]);
        let screen = tmux.wait_for("the chart's legend", |s| {
            s.contains("*.. qg-1  o:: qg-2  - pass 0.92")
        });
        // The shared point is a `2`, named in the legend; no gate's other
        // points are lost: qg-1's first and last, qg-2's first.
        assert!(
            screen.contains("- pass 0.92  2 qg-1 and qg-2 at iteration 2"),
            "{w}x{h}:\n{screen}"
        );
        assert_eq!(on_plot(&screen, '2'), 1, "{w}x{h}:\n{screen}");
        assert_eq!(on_plot(&screen, '*'), 2, "{w}x{h}:\n{screen}");
        assert_eq!(on_plot(&screen, 'o'), 1, "{w}x{h}:\n{screen}");
        // The budget's bar beside its label, not under it: 5 of 9 filled.
        let budget = screen
            .lines()
            .find_map(|l| l.split_once("iterations 5 / 9 "))
            .map(|(_, bar)| bar.trim_end_matches(['│', ' ']));
        let (filled, empty) = budget.map_or((0, 0), |bar| {
            (bar.matches('█').count(), bar.matches('·').count())
        });
        assert!(
            filled > 0 && (filled * 9).abs_diff((filled + empty) * 5) <= 9,
            "{filled} of {}:\n{screen}",
            filled + empty
        );
        // The pass line shows where a gate runs along it, and the shared
        // point, 0.916, is under it (on it, it would read as passing).
        let pass = screen.lines().find_map(|l| l.split_once("0.92|"));
        assert!(
            pass.is_some_and(|(_, plot)| plot.contains("---") && !plot.contains('2')),
            "{w}x{h}:\n{screen}"
        );
    }
}

/// The footer: the screen's last line.
fn footer(screen: &str) -> &str {
    screen.lines().last().unwrap_or("")
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_footer_lists_the_keys_of_the_overlay_that_is_open() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, "", ""), 80, 24);
    tmux.wait_for_list(11);
    let list_keys = "j down  k up  l open  / filter";
    assert!(footer(&tmux.capture()).starts_with(list_keys));
    for (key, title, keys) in [
        ("?", "Keys — ? or Esc closes", "j/k scroll  ?/<Esc> close  "),
        (
            "t",
            "Timeline: every project's compactions",
            "j/k move  <Enter> open  t/<Esc> close  ",
        ),
        ("M", "Messages, newest first", "j/k scroll  M/<Esc> close  "),
    ] {
        tmux.keys(&[key]);
        let screen = tmux.wait_for(&format!("{title} and its keys"), |s| {
            s.contains(title) && footer(s).starts_with(keys)
        });
        let keys_shown = footer(&screen);
        assert!(keys_shown.ends_with("q quit"), "{keys_shown:?}");
        assert!(!keys_shown.contains("filter"), "{keys_shown:?}");
        tmux.keys(&["Escape"]);
        tmux.wait_for("the list's keys back", |s| footer(s).starts_with(list_keys));
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn in_ascii_a_waiting_checkpoint_and_a_fill_past_the_warning_look_different() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    // Tall enough for the whole legend under the help's last page.
    let tmux = Tmux::start_sized(
        &dashboard_with(tmp.path(), &root, "NO_COLOR=1", "--ascii"),
        80,
        60,
    );
    tmux.wait_for_list(11);
    let screen = tmux.wait_for_text("payouts-v2-20260302-001");
    assert!(screen.is_ascii(), "{screen}");
    // payouts: one checkpoint waiting, its session past the warning.
    let payouts = screen
        .lines()
        .find(|l| l.contains("payouts-v2-20260302-001  "))
        .unwrap();
    assert!(payouts.starts_with("|> @1 "), "{screen}");
    assert!(payouts.contains(" !63% "), "{screen}");
    assert!(
        screen.contains("Projects 11 CRITICAL 1 STALE 3 @ 2 "),
        "{screen}"
    );
    // The help's legend, in the characters on screen, each once.
    tmux.keys(&["?", "G"]);
    let screen = tmux.wait_for_text("Glyphs (ASCII)");
    let legend = screen.split_once("Glyphs (ASCII)").unwrap().1;
    for (glyph, meaning) in [
        ("@", "checkpoints waiting for the operator"),
        ("!", "in the fill column, a session past [context] warning"),
        ("~", "text cut to fit"),
    ] {
        let row = format!("|  {glyph:<18}{meaning}");
        assert_eq!(legend.matches(&row).count(), 1, "{row}:\n{screen}");
    }
    // The Quality tab's scores in order, not compared.
    tmux.keys(&["Escape", "2"]);
    tmux.wait_for_text("converging 0.825->0.916->0.941");
}
