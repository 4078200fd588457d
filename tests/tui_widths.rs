//! The dashboard at the widths operators give it — a tmux side pane of 30, 40 or 60
//! columns, a wide screen of 250 — drawn into ratatui's TestBackend and compared
//! with insta snapshots. The list drops whole columns so that the project's id keeps
//! its room, never a value's tail; tab labels that do not fit end in `…`.

mod tui_support;

use tui_support::*;

/// The list's rows (between the list's borders) of a screen.
fn list_rows(screen: &str) -> Vec<&str> {
    screen
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with('└'))
        .collect()
}

#[test]
fn narrow_and_wide_screens() {
    for (w, h) in [(30, 24), (40, 24), (60, 24), (120, 40), (250, 40)] {
        let m = demo_model(w, h);
        insta::assert_snapshot!(format!("demo_{w}x{h}"), screen(&m));
    }
}

#[test]
fn a_narrow_list_keeps_each_id_and_cuts_no_value() {
    for w in [30, 40, 60] {
        let m = demo_model(w, 24);
        let text = screen(&m);
        let rows = list_rows(&text);
        let first = rows
            .first()
            .unwrap_or_else(|| panic!("{w}: no rows:\n{text}"));
        assert!(
            first.contains("payouts-v2-20260"),
            "{w} columns: the id keeps its room:\n{text}"
        );
        // The age (`10m`) is whole when it is shown at all.
        assert!(
            first.trim_end_matches('│').trim_end().ends_with("10m"),
            "{w} columns: the age is the last column, whole:\n{text}"
        );
    }
}

#[test]
fn from_40_columns_every_demo_id_is_whole_dropping_lower_columns_first() {
    for w in [40, 60, 120, 250] {
        let m = demo_model(w, 40);
        let text = screen(&m);
        let rows = list_rows(&text);
        for id in [
            "payouts-v2-20260302-001",
            "docs-rewrite-20260225-001",
            "fraud-audit-20260227-001",
        ] {
            assert!(
                rows.iter().any(|r| r.contains(id)),
                "{w} columns: {id} whole:\n{text}"
            );
        }
        let header = text.lines().nth(1).unwrap_or_default();
        assert!(header.contains("age"), "{w}: the age stays:\n{text}");
    }
    // At 120 columns (the list beside the detail) every id of the demo is whole,
    // the longest (`07-merchant-onboarding-research`, 31 cells) included: the
    // score, status and fill bar made way for it; the fill (mark and figure), the
    // attention count and age stay.
    let m = demo_model(120, 40);
    let text = screen(&m);
    let list: Vec<String> = text.lines().map(|l| l.chars().take(54).collect()).collect();
    for project in &m.workspace.projects {
        assert!(
            list.iter()
                .any(|r| r.contains(&format!(" {} ", project.id))),
            "120 columns: {} whole:\n{text}",
            project.id
        );
    }
    let header = &list[1];
    assert!(
        header.contains("⚑") && header.contains("age") && header.contains("fill"),
        "{header}"
    );
}

#[test]
fn at_250_columns_the_list_uses_the_width() {
    let m = demo_model(250, 40);
    let text = screen(&m);
    let rows = list_rows(&text);
    assert!(
        rows.iter()
            .any(|r| r.contains("payouts-v2-20260302-001  Payouts API v2")),
        "ids and names whole:\n{text}"
    );
}

#[test]
fn a_tab_label_cut_by_a_narrow_pane_ends_in_an_ellipsis() {
    let m = demo_model(40, 24);
    let text = screen(&m);
    let tabs = text
        .lines()
        .find(|l| l.contains("1 Overview"))
        .unwrap_or_else(|| panic!("no tab bar:\n{text}"));
    assert!(
        tabs.trim_end_matches('│').trim_end().ends_with('…'),
        "{tabs}"
    );
}
