//! The timeline view (`t`): one lane per project with a timed compaction, on one
//! axis ending now; marks shaped and coloured by not acknowledged / acknowledged
//! but its summary dropped something / acknowledged; under the lanes every
//! compaction, newest first, `j`/`k` to select, Enter to open. Pure `update` and
//! `view` on the demo.

mod tui_support;

use resume_tui::core::time::Timestamp;
use resume_tui::tui::model::Overlay;
use resume_tui::tui::model::Tab;
use resume_tui::tui::view::timeline_lanes::{Mark, column, entries, lanes};
use tui_support::*;

#[test]
fn t_opens_the_lanes_and_t_or_esc_closes_them() {
    let mut m = demo_model(120, 40);
    press(&mut m, &["t"]);
    assert!(matches!(m.overlay, Overlay::Timeline { .. }));
    let text = screen(&m);
    assert!(
        text.contains("Timeline: every project's compactions"),
        "{text}"
    );
    let lane = |id: &str| {
        text.lines()
            .find(|l| l.contains(id) && l.contains('│'))
            .unwrap_or_else(|| panic!("no lane for {id}:\n{text}"))
            .to_string()
    };
    // payouts: cx-001 acknowledged, cx-002 waiting (its summary dropped items,
    // but it waits for the operator first).
    let payouts = lane("payouts-v2-20260302-001");
    assert_eq!(payouts.matches('✓').count(), 1, "{payouts}");
    assert_eq!(payouts.matches('⚑').count(), 1, "{payouts}");
    assert!(!payouts.contains('✗'), "{payouts}");
    assert!(
        payouts.find('✓') < payouts.find('⚑'),
        "older left: {payouts}"
    );
    // docs rewrite: cx-003 acknowledged by its marker, cx-004 waiting, no summary.
    let docs = lane("docs-rewrite-20260225-001");
    assert_eq!(docs.matches('⚑').count(), 1, "{docs}");
    assert_eq!(docs.matches('✓').count(), 1, "{docs}");
    assert!(
        text.contains(
            "cx-002   1 h ago     payouts-v2-20260302-001  not acknowledged · summary dropped 7"
        ),
        "{text}"
    );
    assert!(text.contains("4 h ago") && text.contains("now"), "{text}");
    assert!(
        text.contains("1 compaction event(s) record no time"),
        "{text}"
    );
    press(&mut m, &["t"]);
    assert!(matches!(m.overlay, Overlay::None));
    press(&mut m, &["t", "<Esc>"]);
    assert!(matches!(m.overlay, Overlay::None));
    assert!(!m.quit, "Esc closes the view, it does not quit");
}

#[test]
fn marks_say_what_needs_attention_most() {
    let m = demo_model(120, 40);
    let (lanes, untimed) = lanes(&m);
    let ids: Vec<&str> = lanes.iter().map(|l| l.project.as_str()).collect();
    assert_eq!(
        ids,
        ["payouts-v2-20260302-001", "docs-rewrite-20260225-001"]
    );
    assert_eq!(
        untimed, 1,
        "the fraud audit's bare-list session has no time"
    );
    let marks: Vec<Mark> = lanes[0].marks.iter().map(|(_, m)| *m).collect();
    assert_eq!(
        marks,
        [Mark::Acknowledged, Mark::Unacknowledged],
        "oldest first"
    );
    assert!(Mark::Unacknowledged > Mark::Dropped && Mark::Dropped > Mark::Acknowledged);
    let (all, _) = entries(&m);
    let ids: Vec<&str> = all.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(
        ids,
        ["cx-004", "cx-003", "cx-002", "cx-001"],
        "newest first"
    );
    assert_eq!(all[2].dropped, 7);
}

#[test]
fn j_k_move_the_selection_and_enter_opens_it_in_the_compaction_tab() {
    let mut m = demo_model(120, 40);
    press(&mut m, &["t", "j", "j", "k", "j"]);
    assert!(matches!(m.overlay, Overlay::Timeline { selected: 2 }));
    press(&mut m, &["G", "j"]);
    assert!(
        matches!(m.overlay, Overlay::Timeline { selected: 3 }),
        "stops at the last"
    );
    press(&mut m, &["k", "<Enter>"]);
    assert!(matches!(m.overlay, Overlay::None));
    assert_eq!(m.selected.as_deref(), Some("payouts-v2-20260302-001"));
    assert_eq!(m.tab, Tab::Compaction);
    let row = &m.timeline()[m.timeline_row];
    assert_eq!(row.id, "cx-002");
    // A project the filter hides is shown again.
    press(&mut m, &["/"]);
    type_text(&mut m, "fraud");
    press(&mut m, &["<Enter>", "t", "<Enter>"]);
    assert_eq!(m.selected.as_deref(), Some("docs-rewrite-20260225-001"));
    assert!(m.filter.is_empty());
    assert_eq!(m.timeline()[m.timeline_row].id, "cx-004");
}

#[test]
fn the_axis_maps_start_to_the_first_cell_and_now_to_the_last() {
    let start = Timestamp(1_000);
    let now = Timestamp(2_000);
    assert_eq!(column(start, start, now, 50), 0);
    assert_eq!(column(now, start, now, 50), 49);
    assert_eq!(column(Timestamp(1_500), start, now, 51), 25);
    assert_eq!(
        column(Timestamp(5_000), start, now, 50),
        49,
        "future clamps"
    );
    assert_eq!(column(start, start, start, 10), 0, "no span, no panic");
    assert_eq!(column(start, start, now, 0), 0);
}

#[test]
fn the_view_fits_a_small_terminal() {
    let mut m = demo_model(80, 24);
    press(&mut m, &["t"]);
    let text = screen(&m);
    assert!(text.contains('⚑'), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    let mut tiny = demo_model(20, 6);
    press(&mut tiny, &["t"]);
    let _ = screen(&tiny);
}

#[test]
fn checkpoints_tied_to_no_project_are_counted_not_laid_out() {
    let mut ws = demo_workspace();
    let mut loose = ws
        .projects
        .iter()
        .flat_map(|p| p.checkpoints.iter())
        .next()
        .unwrap()
        .clone();
    loose.id = "cx-950".into();
    loose.path = ".jerry/checkpoints/cx-950-checkpoint.json".into();
    ws.unassigned_checkpoints.push(loose);
    let mut m = model_with(ws, resume_tui::tui::theme::Theme::default_dark(), 120, 40);
    press(&mut m, &["t"]);
    let text = screen(&m);
    assert!(
        text.contains("1 checkpoint tied to no project: not on the lanes; resume-tui timeline"),
        "{text}"
    );
    assert!(!text.contains("cx-950"), "{text}");
}
