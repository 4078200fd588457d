//! End to end in tmux, on a copy of the demo, issue 36's "what an operator
//! watches": the live fill on every row at 100, 120 and 140 columns, a row
//! turning and moving up when its session passes a threshold; the filters.
//!
//! Waits poll the screen with a generous deadline; running out of time is a
//! failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use resume_tui::io::context_fill::statusline_record::{self, Record};
use tmux::{Tmux, dashboard, demo_workspace};

const PAYOUTS: &str = "payouts-v2-20260302-001";
const RUNBOOK: &str = "09-ops-runbook-refresh";
const SETTLEMENT: &str = "03-settlement-dashboard";
/// The session 09-ops-runbook-refresh's resume-context.md records.
const RUNBOOK_SESSION: &str = "c4a1e7d9-8b2f-4d63-a015-7e9f3b6c2d80";

/// The list's rows (the list pane only), top to bottom.
fn list_rows(screen: &str) -> Vec<&str> {
    screen
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('│'))
        .map(|l| l.split("││").next().unwrap_or(l))
        .collect()
}

fn row_of<'a>(screen: &'a str, id: &str) -> Option<&'a str> {
    list_rows(screen).into_iter().find(|l| l.contains(id))
}

fn position(screen: &str, id: &str) -> usize {
    list_rows(screen)
        .iter()
        .position(|l| l.contains(id))
        .unwrap_or_else(|| panic!("no row {id}:\n{screen}"))
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn every_row_shows_its_live_fill_at_100_120_and_140_columns() {
    for width in [100, 120, 140] {
        let tmp = tempfile::tempdir().unwrap();
        let root = demo_workspace(tmp.path());
        let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), width, 30);
        let screen = tmux.wait_for_list(11);
        let header = list_rows(&format!("\n{screen}"))
            .first()
            .copied()
            .unwrap_or_default()
            .to_string();
        assert!(header.contains("fill"), "{width}: {header}\n{screen}");
        // The hooks' record (63%, past the 60% warning): the mark and the figure,
        // after a bar where the ids leave room for it (not at 120: the list is
        // beside the details, and every id stays whole).
        let (payouts, docs) = if width == 120 {
            ("!63%", "▅58%")
        } else {
            ("███·· !63%", "███··  58%")
        };
        let row = row_of(&screen, PAYOUTS).unwrap();
        assert!(row.contains(payouts), "{width}: {row}\n{screen}");
        let row = row_of(&screen, "docs-rewrite-20260225-001").unwrap();
        assert!(row.contains(docs), "{width}: {row}\n{screen}");
        if width > 100 {
            // Beside the details, the list shows every row, every id whole.
            assert!(
                screen.contains("07-merchant-onboarding-research "),
                "{screen}"
            );
        }
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_session_past_the_critical_fill_turns_its_row_and_moves_it_up() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 120, 30);
    let before = tmux.wait_for_list(11);
    assert!(
        position(&before, RUNBOOK) > position(&before, SETTLEMENT),
        "STALE below a session past the warning:\n{before}"
    );
    // The status line records 85% for the session 09-ops-runbook-refresh records.
    let record = Record {
        session_id: RUNBOOK_SESSION.into(),
        context_window_size: Some(200_000),
        used_percentage: Some(85.0),
        model: Some("claude-sonnet-4-5".into()),
        updated_at: resume_tui::io::clock::now().to_iso(),
    };
    assert!(statusline_record::put(&root, &record).unwrap());
    let after = tmux.wait_for("the runbook row at 85%", |s| {
        row_of(s, RUNBOOK).is_some_and(|r| r.contains("▲85%"))
    });
    assert!(
        position(&after, RUNBOOK) < position(&after, SETTLEMENT),
        "past the critical fill, above the warning:\n{after}"
    );
    // `list` puts it in the same place.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_resume-tui"))
        .args(["--root", root.to_str().unwrap(), "list"])
        .env("XDG_CONFIG_HOME", tmp.path().join("xdg"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let at = |id: &str| text.find(id).unwrap_or_else(|| panic!("{id}:\n{text}"));
    assert!(at(RUNBOOK) < at(SETTLEMENT), "{text}");
}

const LEDGER: &str = "ledger-mig-20260112-001";
const LEDGER_FILE: &str = "projects/PROJ-001-ledger-migration/ORCHESTRATION.yaml";

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn f_hides_complete_projects_and_skips_a_filter_that_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 120, 30);
    tmux.wait_for_list(11);
    // CRITICAL, STALE, unacknowledged, then not COMPLETE: the ledger (COMPLETE) goes.
    tmux.keys(&["F", "F", "F", "F"]);
    // The title and the status bar are written apart: wait for both.
    let screen = tmux.wait_for("the not-COMPLETE filter", |s| {
        s.contains("[open 10]") && s.contains("only not COMPLETE: 10 projects")
    });
    assert!(row_of(&screen, LEDGER).is_none(), "{screen}");
    assert!(row_of(&screen, PAYOUTS).is_some(), "{screen}");
    tmux.keys(&["F"]);
    tmux.wait_for_text("[Jerry 6]");
    drop(tmux);

    // No project COMPLETE: hiding them would change nothing, so F passes over it.
    let path = root.join(LEDGER_FILE);
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replacen("status: \"COMPLETE\"  #", "status: \"ACTIVE\"  #", 1);
    std::fs::write(&path, text).unwrap();
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 120, 30);
    tmux.wait_for_list(11);
    tmux.keys(&["F", "F", "F", "F"]);
    tmux.wait_for("the not-COMPLETE step passed over", |s| {
        s.contains("[Jerry 6]") && s.contains("only Jerry: 6 projects; skipped not COMPLETE all")
    });
}

/// The selected row of the list.
fn selected_row(screen: &str) -> Option<&str> {
    list_rows(screen).into_iter().find(|l| l.starts_with("│▸"))
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_cursor_stays_on_the_top_project_after_acknowledging_it() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 120, 30);
    tmux.wait_for_list(11);
    // Only the projects with a checkpoint waiting: payouts on top, selected.
    tmux.keys(&["F", "F", "F"]);
    let screen = tmux.wait_for_text("[⚑ 2]");
    assert!(
        selected_row(&screen).is_some_and(|r| r.contains(PAYOUTS)),
        "{screen}"
    );
    // Its checkpoint acknowledged: it leaves the set, re-sorts under docs-rewrite,
    // and the cursor stays on it.
    tmux.keys(&["3", "a"]);
    tmux.wait_for_text("saved: acknowledged cx-002");
    let screen = tmux.wait_for("the list re-sorted", |s| {
        s.contains("[⚑ 1]") && list_rows(s).get(1).is_some_and(|r| r.contains(PAYOUTS))
    });
    let row = selected_row(&screen).unwrap_or_default();
    assert!(
        row.contains(PAYOUTS),
        "the cursor stays on payouts:\n{screen}"
    );
    assert!(
        list_rows(&screen)
            .get(1)
            .is_some_and(|r| r.contains(PAYOUTS)),
        "below docs-rewrite now:\n{screen}"
    );
    // The next key acts on it, not on the row that came up to the top.
    tmux.keys(&["a"]);
    tmux.wait_for_text("cx-002 is already acknowledged");
    // F round to CRITICAL: a filter the operator picks shows its set alone, the
    // chosen project too leaves it.
    tmux.keys(&["h", "F", "F", "F", "F", "F"]);
    let screen = tmux.wait_for_text("[CRITICAL 1]");
    assert!(row_of(&screen, PAYOUTS).is_none(), "{screen}");
    assert!(
        selected_row(&screen).is_some_and(|r| r.contains("docs-rewrite")),
        "{screen}"
    );
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn m_shows_the_messages_whole_with_their_times_at_80x24() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 80, 24);
    tmux.wait_for_list(11);
    tmux.keys(&["3", "a"]);
    // The status bar cuts the message at the pane's width.
    let screen = tmux.wait_for_text("saved: acknowledged cx-002");
    assert!(!screen.contains("4 lines changed (+2 −2))"), "{screen}");
    tmux.keys(&["M"]);
    let screen = tmux.wait_for_text("Messages, newest first");
    // Whole, wrapped, the newest first, each with its time.
    let text: String = screen
        .lines()
        .map(|l| l.trim_matches('│').trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("4 lines changed (+2 −2))"),
        "the whole message:\n{screen}"
    );
    let saved = text.find("✓ saved: acknowledged cx-002").unwrap();
    let loaded = text.find("· 11 projects in").unwrap();
    assert!(saved < loaded, "the newest first:\n{screen}");
    let time = text
        .get(saved.saturating_sub(10)..saved)
        .unwrap_or_default();
    assert!(
        time.len() == 10 && time.ends_with("Z ") && time.as_bytes()[2] == b':',
        "a time before it ({time:?}):\n{screen}"
    );
    tmux.keys(&["Escape"]);
    tmux.wait_for("the messages closed", |s| {
        !s.contains("Messages, newest first")
    });
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_help_ends_with_a_legend_of_the_glyphs() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 100, 40);
    tmux.wait_for_list(11);
    tmux.keys(&["?", "G"]);
    let screen = tmux.wait_for_text("Glyphs (ASCII without Unicode)");
    for line in [
        "◐ (%)             STALE",
        "⚑ (@)             checkpoints waiting for the operator",
        "!                 in the fill column, a session past [context] warning",
        "… (~)             text cut to fit",
    ] {
        assert!(screen.contains(line), "{line}:\n{screen}");
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn d_copies_what_the_compaction_dropped_as_the_dropped_command_says_it() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let tmux = Tmux::start_sized(&dashboard(tmp.path(), &root), 120, 30);
    tmux.wait_for_list(11);
    // payouts' Compaction tab: cx-002 selected.
    tmux.keys(&["3"]);
    tmux.wait_for_text("cx-002  .jerry/checkpoints/cx-002-checkpoint.json");
    tmux.keys(&["D"]);
    tmux.wait_for_text("copied what the compaction after cx-002 dropped");
    let copied = tmux.output(&["show-buffer"]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_resume-tui"))
        .args([
            "--root",
            root.to_str().unwrap(),
            "dropped",
            PAYOUTS,
            "cx-002",
        ])
        .env("XDG_CONFIG_HOME", tmp.path().join("xdg"))
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("Dropped (7):"), "{printed}");
    // The same text; the first line's age is the moment's.
    let body = |t: &str| t.split_once('\n').map(|(_, b)| b.trim_end().to_string());
    assert_eq!(body(&copied), body(&printed), "copied:\n{copied}");
    assert!(copied.starts_with(&format!("{PAYOUTS} · checkpoint cx-002 (")));
}
