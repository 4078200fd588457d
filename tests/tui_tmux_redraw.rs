//! Through the real binary in tmux: Ctrl-L redraws the whole screen (cells
//! garbled behind the dashboard's back, by writing to the pane's tty, come back),
//! and a project name with wide characters (`⚠️`, `🇯🇵`, `👩‍💻`) takes the cells
//! the terminal gives it: every row's border stays in its column, and moving the
//! selection over it leaves nothing that a full redraw would change.

#[path = "support/dashboard.rs"]
mod dashboard;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::io::Write;

use dashboard::{Dashboard, PAYOUTS_STATE, on_demo, on_demo_with};
use resume_tui::core::text::width;

const GARBLE: &str = "#GARBLED#GARBLED#";
/// The list's width at 120 columns (side by side: 45 %).
const LIST_W: usize = 54;

/// The first `cells` display cells of `line` (a wide character counts two).
fn cells(line: &str, cells: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in line.chars() {
        let w = width(&c.to_string());
        if used + w > cells {
            break;
        }
        used += w;
        out.push(c);
    }
    out
}

/// Writes `text` at row `row` (0-based), column 60 straight to the pane's
/// terminal, behind the dashboard's back, and waits until tmux shows it.
fn garble(d: &Dashboard, row: usize) {
    let tty = d.tmux.pane("#{pane_tty}");
    let mut file = std::fs::OpenOptions::new().write(true).open(&tty).unwrap();
    write!(file, "\x1b[{};61H{GARBLE}", row + 1).unwrap();
    file.flush().unwrap();
    d.tmux.wait_for_text(GARBLE);
}

/// Ctrl-L, then the screen once the garbage is gone and the frame is whole.
fn redraw(d: &Dashboard) -> String {
    d.tmux.keys(&["C-l"]);
    d.tmux.wait_for("a whole frame without the garbage", |s| {
        !s.contains(GARBLE) && s.contains("Projects 11") && s.contains("j down")
    })
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn ctrl_l_redraws_what_was_garbled_behind_the_dashboards_back() {
    let d = on_demo(false);
    let before = d.tmux.wait_for("the overview", |s| {
        s.contains("Phase           2 — Handlers") && s.contains("j down")
    });
    let row = before
        .lines()
        .position(|l| l.contains("Phase           2 — Handlers"))
        .unwrap();
    garble(&d, row);
    // Nothing changed in the model: without Ctrl-L the garbage stays.
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(d.tmux.capture().contains(GARBLE));
    let after = redraw(&d);
    assert_eq!(
        after.lines().nth(row),
        before.lines().nth(row),
        "the garbled row is drawn again:\n{after}"
    );
    assert!(d.tmux.running());
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn wide_characters_in_a_name_leave_no_stale_cells_when_the_selection_moves() {
    let wide = "⚠️ 🇯🇵 👩‍💻 wide";
    let d = on_demo_with(false, |root| {
        let path = root.join(PAYOUTS_STATE);
        let text = std::fs::read_to_string(&path).unwrap();
        let name = "Payouts API v2: idempotent payout creation and batched settlement";
        assert!(text.contains(name));
        std::fs::write(&path, text.replace(name, wide)).unwrap();
    });
    // Each row of the list ends at the same cell, the wide one included.
    let screen = d.tmux.wait_for("the list with the wide name", |s| {
        s.contains("payouts-v2-20260302-001  ⚠") && s.contains("j down")
    });
    let border_at = |screen: &str| -> Vec<usize> {
        screen
            .lines()
            .take(14)
            .map(|l| {
                let end = l.find("┐┌").or_else(|| l.find("││")).unwrap_or(l.len());
                width(&l[..end]) + 1
            })
            .collect()
    };
    assert!(
        border_at(&screen).iter().all(|&w| w == LIST_W),
        "{:?}\n{screen}",
        border_at(&screen)
    );
    // The selection moves off the wide row and back, three times.
    for _ in 0..3 {
        d.tmux.keys(&["j"]);
        d.tmux.wait_for("the selection on docs-rewrite", |s| {
            s.contains("│▸ ⚑1  ▲ docs-rewrite")
        });
        d.tmux.keys(&["k"]);
        d.tmux.wait_for("the selection on payouts", |s| {
            s.contains("│▸ ⚑1  ● payouts-v2")
        });
    }
    let moved = d.tmux.capture();
    assert!(
        border_at(&moved).iter().all(|&w| w == LIST_W),
        "{:?}\n{moved}",
        border_at(&moved)
    );
    // A full redraw changes nothing in the list (its ages left out: a minute may
    // pass): no cell was left stale.
    garble(&d, 30);
    let whole = redraw(&d);
    let list =
        |s: &str| -> Vec<String> { s.lines().take(14).map(|l| cells(l, LIST_W - 6)).collect() };
    assert_eq!(
        list(&moved),
        list(&whole),
        "moved:\n{moved}\nredrawn:\n{whole}"
    );
    assert!(whole.contains("JP"), "the flag as its letters:\n{whole}");
}
