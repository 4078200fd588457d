//! The details under the Compaction and Decisions tables scroll (pure `update` and
//! `view`): `J`/`K` a line, `ctrl-d`/`ctrl-u` half the pane, the wheel over them;
//! `j`/`k` and clicks still move the table's row, and another row starts at the
//! top. Every line is reachable at 80×24, and `↓ more` says when some are hidden.

mod tui_support;

use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use resume_tui::tui::Model;
use resume_tui::tui::Msg;
use resume_tui::tui::layout::areas;
use resume_tui::tui::model::{Focus, Overlay, Tab};
use resume_tui::tui::update;
use resume_tui::tui::view::{max_scroll, scrolling_pane, table_and_details};
use tui_support::*;

const PAYOUTS: &str = "payouts-v2-20260302-001";

/// The payouts project's Compaction tab at `w`×`h`, focused, on cx-002 (the
/// checkpoint with a PostCompact record).
fn compaction(w: u16, h: u16) -> Model {
    let mut m = demo_model(w, h);
    select(&mut m, PAYOUTS);
    press(&mut m, &["3", "l"]);
    assert_eq!(m.timeline_row, 0);
    assert!(screen(&m).contains("cx-002  .jerry/checkpoints/cx-002-checkpoint.json"));
    m
}

fn details(m: &Model) -> Rect {
    let [_, details] = table_and_details(m).expect("a table with details");
    details
}

fn details_rows(m: &Model) -> Vec<String> {
    area_rows(&draw(m), details(m))
}

fn wheel(kind: MouseEventKind, at: (u16, u16)) -> Msg {
    Msg::Mouse(MouseEvent {
        kind,
        column: at.0,
        row: at.1,
        modifiers: KeyModifiers::NONE,
    })
}

#[test]
fn capital_j_and_k_scroll_the_details_while_j_and_k_move_the_row() {
    let mut m = compaction(80, 24);
    assert!(
        max_scroll(&m) > 2,
        "cx-002's details are longer than the pane"
    );
    press(&mut m, &["J", "J"]);
    assert_eq!((m.scroll, m.timeline_row), (2, 0));
    press(&mut m, &["K"]);
    assert_eq!((m.scroll, m.timeline_row), (1, 0));
    press(&mut m, &["K", "K"]);
    assert_eq!(m.scroll, 0, "no further up than the top");
    press(&mut m, &["J", "j"]);
    assert_eq!(
        (m.scroll, m.timeline_row),
        (0, 1),
        "another row starts at the top"
    );
    press(&mut m, &["J", "k"]);
    assert_eq!((m.scroll, m.timeline_row), (0, 0));
}

#[test]
fn half_pages_scroll_the_details_by_half_their_pane() {
    let mut m = compaction(80, 24);
    let half = details(&m).height / 2;
    assert!(half > 1);
    press(&mut m, &["<C-d>"]);
    assert_eq!((m.scroll, m.timeline_row), (half, 0));
    press(&mut m, &["<PageDown>", "<C-u>"]);
    assert_eq!(m.scroll, half.min(max_scroll(&m)));
    press(&mut m, &["<PageUp>"]);
    assert_eq!(m.scroll, 0);
    // With the list focused, a half page still moves the list.
    press(&mut m, &["h", "<C-d>"]);
    assert_ne!(m.selected.as_deref(), Some(PAYOUTS));
}

/// In a tab without a table, a half page is half of the pane the text scrolls in
/// (the Quality text sits under the score chart), never more lines than it shows.
#[test]
fn half_pages_in_quality_move_half_its_text_pane() {
    let mut m = demo_model(80, 30);
    select(&mut m, PAYOUTS);
    press(&mut m, &["2", "l"]);
    assert_eq!((m.tab, m.focus), (Tab::Quality, Focus::Detail));
    let pane = scrolling_pane(&m).expect("the Quality text pane");
    let body = areas(m.size.0, m.size.1).body;
    assert!(pane.height < body.height / 2, "{pane:?} in {body:?}");
    let half = (pane.height / 2).max(1);
    assert!(
        max_scroll(&m) > half,
        "the text is longer than the pane: {} > {half}",
        max_scroll(&m)
    );
    press(&mut m, &["<C-d>"]);
    assert_eq!(m.scroll, half);
    press(&mut m, &["<C-d>"]);
    let most = max_scroll(&m);
    assert_eq!(m.scroll, (2 * half).min(most));
    press(&mut m, &["<C-u>"]);
    assert_eq!(m.scroll, (2 * half).min(most) - half);
}

#[test]
fn the_decision_details_scroll_too() {
    // 16 rows leave RD-001's rationale below its pane.
    let mut m = demo_model(80, 16);
    select(&mut m, PAYOUTS);
    press(&mut m, &["4", "l"]);
    assert_eq!(m.tab, Tab::Decisions);
    let most = max_scroll(&m);
    assert!(most > 0, "RD-001's details are longer than the pane");
    for _ in 0..50 {
        press(&mut m, &["J"]);
    }
    assert_eq!((m.scroll, m.decision_row), (most, 0));
    let rows = details_rows(&m);
    assert!(
        rows.iter()
            .any(|r| r.contains("retry policy seen in logs.")),
        "the rationale's end is reached:\n{}",
        rows.join("\n")
    );
    press(&mut m, &["j"]);
    assert_eq!((m.scroll, m.decision_row), (0, 1));
}

#[test]
fn capital_j_scrolls_whatever_has_the_focus_and_the_text_tabs_too() {
    let mut m = compaction(80, 24);
    press(&mut m, &["h", "J"]);
    assert_eq!((m.focus, m.scroll), (Focus::List, 1));
    assert_eq!(
        m.selected.as_deref(),
        Some(PAYOUTS),
        "the list did not move"
    );
    press(&mut m, &["1", "J", "J"]);
    assert_eq!((m.tab, m.scroll), (Tab::Overview, 2));
    press(&mut m, &["?", "J", "J", "K"]);
    assert!(matches!(m.overlay, Overlay::Help { scroll: 1 }));
}

#[test]
fn every_line_of_a_checkpoint_is_reachable_at_80x24_up_to_its_postcompact_record() {
    let mut m = compaction(80, 24);
    let first = details_rows(&m).join("\n");
    assert!(first.contains("Gate"), "{first}");
    assert!(
        !first.contains("PostCompact"),
        "the record is below the pane at first:\n{first}"
    );
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..100 {
        for row in details_rows(&m) {
            if !seen.contains(&row) {
                seen.push(row);
            }
        }
        let before = m.scroll;
        press(&mut m, &["J"]);
        if m.scroll == before {
            break;
        }
    }
    let all = seen.join("\n");
    for expected in [
        "Next action",
        "Critical",
        "PostCompact",
        "  Trigger",
        "  Recorded",
        "  Compact summary:",
        "RD-002 awaiting sign-off.",
        "Kept and dropped by the summary (7 dropped of 11)",
        "✗ defect DF-212: unresolved defect",
        "✓ decision RD-002: Close settlement windows",
        "Defect patterns",
        "Files to read",
    ] {
        assert!(all.contains(expected), "{expected:?} never shown:\n{all}");
    }
    assert_eq!(m.scroll, max_scroll(&m), "J stops at the last line");
}

#[test]
fn more_below_is_marked_until_the_last_line_shows() {
    let mut m = compaction(80, 24);
    let border = |m: &Model| {
        let d = details(m);
        area_rows(&draw(m), Rect::new(d.x, d.bottom(), d.width, 1))
            .pop()
            .unwrap_or_default()
    };
    assert!(border(&m).contains("↓ more"), "{}", border(&m));
    for _ in 0..100 {
        press(&mut m, &["J"]);
    }
    assert!(!border(&m).contains("↓ more"), "{}", border(&m));
    press(&mut m, &["K"]);
    assert!(border(&m).contains("↓ more"));
    // A checkpoint whose details fit has no marker.
    let mut tall = compaction(120, 120);
    assert_eq!(max_scroll(&tall), 0);
    assert!(!border(&tall).contains("↓ more"), "{}", border(&tall));
    press(&mut tall, &["J"]);
    assert_eq!(tall.scroll, 0);
}

#[test]
fn the_wheel_scrolls_the_details_under_the_pointer_and_the_table_over_it() {
    let mut m = compaction(80, 24);
    let [table, details] = table_and_details(&m).unwrap();
    let on_details = (details.x + 2, details.y + 2);
    update(&mut m, wheel(MouseEventKind::ScrollDown, on_details), NOW);
    assert_eq!((m.scroll, m.timeline_row), (3, 0));
    update(&mut m, wheel(MouseEventKind::ScrollUp, on_details), NOW);
    assert_eq!(m.scroll, 0);
    for _ in 0..100 {
        update(&mut m, wheel(MouseEventKind::ScrollDown, on_details), NOW);
    }
    assert_eq!(m.scroll, max_scroll(&m), "the wheel stops at the last line");
    // Over the table the wheel moves the row; the new row starts at the top.
    let on_table = (table.x + 2, table.y + 1);
    update(&mut m, wheel(MouseEventKind::ScrollDown, on_table), NOW);
    assert_eq!((m.scroll, m.timeline_row), (0, 1));
}

#[test]
fn a_click_selects_a_row_of_the_table_but_not_through_the_details() {
    // Ten decisions: more than the table shows, so rows of a longer table would
    // lie where the details are.
    let mut ws = demo_workspace();
    for p in &mut ws.projects {
        if let Some(r) = p.resumption.as_mut()
            && let Some(first) = r.decisions.first().cloned()
        {
            r.decisions.resize(10, first);
        }
    }
    let mut m = model_with(ws, resume_tui::tui::theme::Theme::default_dark(), 80, 16);
    select(&mut m, PAYOUTS);
    press(&mut m, &["4", "l", "J"]);
    let [table, details] = table_and_details(&m).unwrap();
    assert!(
        usize::from(table.height) < 10,
        "the table is cut: {table:?}"
    );
    let click = |x, y| {
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        })
    };
    update(&mut m, click(details.x + 2, details.y + 1), NOW);
    assert_eq!(
        (m.decision_row, m.scroll),
        (0, 1),
        "the details were clicked"
    );
    // The second row of the table: under the header and the first row.
    update(&mut m, click(table.x + 2, table.y + 2), NOW);
    assert_eq!((m.decision_row, m.scroll), (1, 0));
}

#[test]
fn the_details_scroll_stops_at_their_end_after_a_resize_and_a_reload() {
    let mut m = compaction(80, 24);
    for _ in 0..100 {
        press(&mut m, &["J"]);
    }
    let long = m.scroll;
    update(&mut m, Msg::Resize(80, 40), NOW);
    assert!(m.scroll < long, "a taller pane scrolls less: {}", m.scroll);
    assert_eq!(m.scroll, max_scroll(&m));
    update(&mut m, Msg::Resize(80, 24), NOW);
    for _ in 0..100 {
        press(&mut m, &["J"]);
    }
    // A reload that shortens cx-002's details pulls the scroll back.
    let mut ws = m.workspace.clone();
    for cp in ws
        .projects
        .iter_mut()
        .flat_map(|p| p.checkpoints.iter_mut())
        .filter(|cp| cp.id == "cx-002")
    {
        cp.post_compact = None;
        cp.files_to_read.clear();
        cp.defect_patterns.clear();
        cp.decisions.clear();
    }
    update(&mut m, Msg::loaded(ws), NOW);
    assert_eq!(m.timeline_row, 0);
    assert!(m.scroll < long, "{} < {long}", m.scroll);
    assert_eq!(m.scroll, max_scroll(&m));
}

#[test]
fn a_reload_that_takes_the_selected_row_away_shows_the_next_from_the_top() {
    let mut m = demo_model(80, 16);
    select(&mut m, PAYOUTS);
    press(&mut m, &["4", "l", "j", "J"]);
    assert_eq!((m.decision_row, m.scroll), (1, 1));
    let mut ws = m.workspace.clone();
    for p in &mut ws.projects {
        if let Some(r) = p.resumption.as_mut() {
            r.decisions.truncate(1);
        }
    }
    update(&mut m, Msg::loaded(ws), NOW);
    assert_eq!((m.decision_row, m.scroll), (0, 0));
}

/// An update written as a bare date counts from that day's end everywhere: the
/// list's age, the Overview and `list` agree (the list and the Overview counted
/// from midnight, a day more than `list` and the staleness reason).
#[test]
fn an_update_written_as_a_date_is_as_old_in_the_row_and_the_overview() {
    let mut ws = demo_workspace();
    let day = 86_400;
    let midnight = (NOW.0 / day - 3) * day;
    let p = &mut ws.projects[0];
    p.summary.updated_at = Some(resume_tui::core::time::Timestamp(midnight));
    let date = resume_tui::core::time::Timestamp(midnight).to_iso();
    p.summary.updated_at_raw = Some(date[..10].to_string());
    let id = p.id.clone();
    let mut m = model_with(ws, resume_tui::tui::theme::Theme::default_dark(), 140, 40);
    select(&mut m, &id);
    let s = screen(&m);
    let row = s
        .lines()
        .find(|l| l.contains(&id) && l.contains('▸'))
        .unwrap();
    assert!(row.contains(" 2d"), "{row}");
    assert!(s.contains("updated 2 d ago"), "{s}");
}
