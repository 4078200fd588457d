//! Scrolling stops at the last line: in every tab, in the help, after a resize and
//! after a reload that shortened the text. Pure `update` and `view`, no terminal.
//!
//! What "the last line" is comes from the screen itself: the same model drawn on a
//! screen as wide but tall enough for everything shows the text's last line; at
//! the real size, scrolled to the bottom, that line must be the pane's last row.

mod tui_support;

use ratatui::layout::Rect;
use resume_tui::tui::layout::{areas, inside};
use resume_tui::tui::model::{Model, Overlay};
use resume_tui::tui::msg::{Msg, ReloadedProject};
use resume_tui::tui::update;
use tui_support::*;

const PAYOUTS: &str = "payouts-v2-20260302-001";
const TALL: u16 = 600;

/// Where the open tab's text is drawn, or the help's when it is open.
fn pane(model: &Model) -> Rect {
    let (w, h) = model.size;
    if matches!(model.overlay, Overlay::Help { .. }) {
        let popup_w = w.min(84);
        let popup = Rect::new((w - popup_w) / 2, 1, popup_w, h.saturating_sub(2));
        inside(popup)
    } else {
        areas(w, h).body
    }
}

/// The text's last line: the last non-blank row of the pane on a tall screen.
fn last_line(model: &Model) -> String {
    let mut tall = model.clone();
    update(&mut tall, Msg::Resize(model.size.0, TALL), NOW);
    let shown = area_rows(&draw(&tall), pane(&tall));
    shown
        .iter()
        .rev()
        .find(|r| !r.is_empty())
        .cloned()
        .unwrap_or_default()
}

fn scroll_of(model: &Model) -> u16 {
    match model.overlay {
        Overlay::Help { scroll } => scroll,
        _ => model.scroll,
    }
}

/// Scrolled to the bottom, the pane's last row is the text's last line (or, when
/// the whole text fits, it is not scrolled at all), and a further step down
/// changes nothing on screen.
fn assert_at_the_bottom(model: &mut Model, what: &str) {
    assert_at_the_bottom_by(model, what, ["j", "<C-d>", "G"], ["k", "j"]);
}

/// [`assert_at_the_bottom`] with the keys that scroll the pane: three down, then
/// one up and one down.
fn assert_at_the_bottom_by(model: &mut Model, what: &str, downs: [&str; 3], up_down: [&str; 2]) {
    let expected = last_line(model);
    let shown = area_rows(&draw(model), pane(model));
    let last = shown.iter().rposition(|r| !r.is_empty());
    let context = format!("{what}:\n{}", shown.join("\n"));
    assert_eq!(
        last.and_then(|i| shown.get(i)),
        Some(&expected),
        "{context}"
    );
    if last != Some(shown.len() - 1) {
        assert_eq!(
            scroll_of(model),
            0,
            "text that fits is not scrolled: {context}"
        );
    }
    let before = screen(model);
    for key in downs {
        press(model, &[key]);
        let after = screen(model);
        assert_eq!(after, before, "{what}: {key} at the bottom moves nothing");
    }
    if scroll_of(model) > 0 {
        // Not scrolled past the end out of sight: one step back up shows at once.
        press(model, &up_down[..1]);
        assert_ne!(
            screen(model),
            before,
            "{what}: {} from the bottom moves at once",
            up_down[0]
        );
        press(model, &up_down[1..]);
        assert_eq!(screen(model), before, "{what}");
    }
}

#[test]
fn every_scrolling_tab_stops_at_its_last_line() {
    for (w, h) in [(80, 24), (120, 40)] {
        for tab in ["1", "2", "5"] {
            let mut m = demo_model(w, h);
            select(&mut m, PAYOUTS);
            press(&mut m, &[tab, "l", "G"]);
            assert_at_the_bottom(&mut m, &format!("tab {tab} at {w}x{h}"));
        }
    }
}

#[test]
fn text_longer_than_its_pane_does_scroll_to_its_end() {
    // The tabs above would pass without scrolling if nothing were longer than its
    // pane; at 80x24 these are.
    for tab in ["1", "2", "5"] {
        let mut m = demo_model(80, 24);
        select(&mut m, PAYOUTS);
        press(&mut m, &[tab, "l"]);
        let top = area_rows(&draw(&m), pane(&m));
        assert_ne!(top.last(), Some(&last_line(&m)), "tab {tab} is longer");
        press(&mut m, &["G"]);
        assert!(m.scroll > 0, "tab {tab}");
        assert_at_the_bottom(&mut m, &format!("tab {tab}"));
    }
}

#[test]
fn the_wheel_stops_at_the_last_line_too() {
    use crossterm::event::{KeyModifiers, MouseEvent, MouseEventKind};
    let mut m = demo_model(80, 24);
    select(&mut m, PAYOUTS);
    press(&mut m, &["5"]);
    let body = areas(80, 24).body;
    for _ in 0..500 {
        let wheel = MouseEvent {
            kind: MouseEventKind::ScrollDown,
            column: body.x + 1,
            row: body.y + 1,
            modifiers: KeyModifiers::NONE,
        };
        update(&mut m, Msg::Mouse(wheel), NOW);
    }
    assert_at_the_bottom(&mut m, "the wheel");
}

#[test]
fn the_help_stops_at_its_last_line() {
    for (w, h) in [(80, 24), (120, 40), (60, 12)] {
        let mut m = demo_model(w, h);
        press(&mut m, &["?"]);
        for _ in 0..200 {
            press(&mut m, &["j"]);
        }
        assert_at_the_bottom(&mut m, &format!("help at {w}x{h}"));
        press(&mut m, &["g", "G"]);
        assert_at_the_bottom(&mut m, &format!("help G at {w}x{h}"));
        assert!(matches!(m.overlay, Overlay::Help { scroll } if scroll > 0));
    }
}

#[test]
fn a_resize_keeps_the_last_line_at_the_bottom() {
    for tab in ["1", "2", "5", "?"] {
        let mut m = demo_model(80, 24);
        select(&mut m, PAYOUTS);
        press(&mut m, &[tab, "l", "G"]);
        for (w, h) in [(120, 40), (100, 30), (200, 60), (80, 24)] {
            update(&mut m, Msg::Resize(w, h), NOW);
            press(&mut m, &["G"]);
            update(&mut m, Msg::Resize(w + 40, h + 30), NOW);
            assert_at_the_bottom(&mut m, &format!("tab {tab} grown from {w}x{h}"));
        }
    }
}

#[test]
fn a_reload_that_shortens_the_text_pulls_the_scroll_back() {
    for tab in ["1", "5"] {
        let mut m = demo_model(80, 24);
        select(&mut m, PAYOUTS);
        press(&mut m, &[tab, "l", "G"]);
        let long = m.scroll;
        let mut shorter = m.project().unwrap().clone();
        if let Some(r) = shorter.resumption.as_mut() {
            r.files_to_read.clear();
            r.agent_summaries.clear();
            r.decisions.clear();
        }
        let source = shorter.source.clone();
        update(
            &mut m,
            Msg::ProjectsLoaded(vec![ReloadedProject {
                source,
                project: Some(Box::new(shorter)),
                hash: None,
                unclaimed: Vec::new(),
            }]),
            NOW,
        );
        assert!(m.scroll < long, "tab {tab}: {} < {long}", m.scroll);
        assert_at_the_bottom(&mut m, &format!("tab {tab} after a live reload"));

        // A whole load as well (`r`, or a change the watcher cannot pin down).
        press(&mut m, &["G"]);
        let mut ws = m.workspace.clone();
        for p in &mut ws.projects {
            p.resumption = None;
        }
        update(&mut m, Msg::loaded(ws), NOW);
        assert_at_the_bottom(&mut m, &format!("tab {tab} after a load"));
    }
}

#[test]
fn the_details_under_a_table_stop_at_their_last_line() {
    // At 80x16 both the checkpoint's and the decision's details are longer than
    // their pane; `J` and `ctrl-d` scroll them, `j` and `G` would move the row.
    for (w, h) in [(80, 16), (80, 24), (120, 40)] {
        for tab in ["3", "4"] {
            let mut m = demo_model(w, h);
            select(&mut m, PAYOUTS);
            press(&mut m, &[tab, "l"]);
            for _ in 0..100 {
                press(&mut m, &["J"]);
            }
            if (w, h) == (80, 16) {
                assert!(m.scroll > 0, "tab {tab} is longer than its pane");
            }
            let what = format!("details in tab {tab} at {w}x{h}");
            assert_at_the_bottom_by(&mut m, &what, ["J", "<C-d>", "<PageDown>"], ["K", "J"]);
        }
    }
}
