//! The Nexus precompact state on the dashboard (pure `update` and `view` into a
//! `TestBackend`): the project it names shows it on the Compaction tab and in one
//! line of the Overview, with its age, session, confidence and whether the hooks
//! would still inject it; a state naming no project here is said on the status line.

mod tui_support;

use resume_tui::config::Config;
use resume_tui::core::model::Workspace;
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;
use resume_tui::tui::theme::Theme;
use resume_tui::tui::{Model, Msg, update};
use tui_support::*;

const MERCHANT: &str = "07-merchant-onboarding-research";

/// The demo (its state names the merchant project, written 50 minutes before
/// `NOW`, no session), the state rewritten with `state` when given.
fn workspace(state: Option<&str>, config: &Config) -> Workspace {
    let files: Vec<(&str, &str)> = state
        .map(|s| ("00-system/.cache/precompact_state.json", s))
        .into_iter()
        .collect();
    workspace_with(&files, config)
}

/// The demo with `files` (root-relative path, text) written over it.
fn workspace_with(files: &[(&str, &str)], config: &Config) -> Workspace {
    let dir = tempfile::tempdir().unwrap();
    resume_tui::io::demo::unpack_into(dir.path(), NOW).unwrap();
    for (rel, text) in files {
        std::fs::write(dir.path().join(rel), text).unwrap();
    }
    let mut ws = resume_tui::io::load::load_workspace(dir.path(), &Env::default(), NOW, config);
    ws.root = "/demo".to_string();
    ws
}

fn merchant_tab(state: Option<&str>, config: Config, tab: &str) -> Model {
    let ws = workspace(state, &config);
    let mut m = model_with(ws, Theme::default_dark(), 120, 40);
    m.config = config;
    select(&mut m, MERCHANT);
    press(&mut m, &[tab]);
    m
}

#[test]
fn the_compaction_tab_shows_an_old_state_left_for_the_operator() {
    let m = merchant_tab(None, Config::default(), "3");
    let screen = screen(&m);
    for expected in [
        "Precompact state  00-system/.cache/precompact_state.json",
        "Written         2026-02-17T11:44:56Z (50 min ago)",
        "Session         no session",
        "Confidence      high · detected by transcript",
        "Injection       older than 30 min: never injected",
    ] {
        assert!(screen.contains(expected), "{expected:?} in\n{screen}");
    }
}

#[test]
fn with_checkpoints_it_heads_the_selected_ones_details() {
    let checkpoint = format!(
        r#"{{"event_id": "cx-009", "timestamp": "2026-02-17T11:40:00Z",
            "orchestration_state": {{"workflow_id": "{MERCHANT}"}}}}"#
    );
    let files = [(
        ".jerry/checkpoints/cx-009-checkpoint.json",
        checkpoint.as_str(),
    )];
    let ws = workspace_with(&files, &Config::default());
    let mut m = model_with(ws, Theme::default_dark(), 120, 40);
    select(&mut m, MERCHANT);
    press(&mut m, &["3"]);
    let rows = screen(&m)
        .lines()
        .map(|l| l.chars().skip(54).collect::<String>())
        .collect::<Vec<_>>();
    let at = |needle: &str| {
        rows.iter()
            .position(|r| r.contains(needle))
            .unwrap_or_else(|| panic!("{needle:?} in\n{}", rows.join("\n")))
    };
    let table = at("cx-009     54 min ago");
    let state = at("Precompact state  00-system/.cache/precompact_state.json");
    let injection = at("Injection       older than 30 min: never injected");
    let title = at("cx-009  .jerry/checkpoints/cx-009-checkpoint.json");
    assert!(
        table < state && state < injection && injection < title,
        "{rows:#?}"
    );
}

#[test]
fn the_overview_has_one_line_about_it() {
    let m = merchant_tab(None, Config::default(), "1");
    let screen = screen(&m);
    for expected in [
        "│  · precompact state from 50 min ago (no session; high, detected│",
        "│    by transcript) — older than 30 min: never injected          │",
    ] {
        assert!(screen.contains(expected), "{expected:?} in\n{screen}");
    }
}

#[test]
fn a_recent_state_of_a_session_says_the_next_session_start_injects_it() {
    let state = format!(
        r#"{{"active_project_id": "{MERCHANT}", "confidence": "medium",
            "detection_method": "cache", "timestamp": "2026-02-17T12:24:56Z",
            "session_id": "7c1e5d2a-0b94"}}"#
    );
    let m = merchant_tab(Some(&state), Config::default(), "3");
    let screen = screen(&m);
    for expected in [
        "Written         2026-02-17T12:24:56Z (10 min ago)",
        "Session         7c1e5d2a-0b94",
        "Confidence      medium · detected by cache",
        "Injection       younger than 30 min: the next SessionStart      │",
        "                injects it  ",
    ] {
        assert!(screen.contains(expected), "{expected:?} in\n{screen}");
    }
}

#[test]
fn the_bound_is_the_configured_one() {
    let mut config = Config::default();
    config.hooks.nexus_state_max_age_minutes = 45;
    let m = merchant_tab(None, config, "3");
    assert!(
        screen(&m).contains("Injection       older than 45 min: never injected"),
        "{}",
        screen(&m)
    );
}

#[test]
fn other_projects_do_not_show_it() {
    let ws = workspace(None, &Config::default());
    let mut m = model_with(ws, Theme::default_dark(), 120, 40);
    for id in ["03-settlement-dashboard", "payouts-v2-20260302-001"] {
        select(&mut m, id);
        for tab in ["1", "3"] {
            press(&mut m, &[tab]);
            let screen = screen(&m);
            assert!(
                !screen.contains("recompact state"),
                "{id} tab {tab}:\n{screen}"
            );
        }
    }
}

#[test]
fn a_state_naming_no_project_here_is_said_on_the_status_line() {
    let state = r#"{"active_project_id": "42-gone", "confidence": "high",
        "detection_method": "transcript", "timestamp": "2026-02-17T11:44:56Z"}"#;
    let mut m = merchant_tab(Some(state), Config::default(), "3");
    // Once the load's message has gone.
    update(&mut m, Msg::Tick, Timestamp(NOW.0 + 10));
    let screen = screen(&m);
    assert!(!screen.contains("Precompact state"), "{screen}");
    assert!(screen.contains("No compaction events"), "{screen}");
    assert!(
        screen
            .contains(r#"· precompact state 50 min ago names "42-gone": no such project · /demo"#),
        "{screen}"
    );
}

#[test]
fn terminal_escapes_in_the_state_never_reach_the_screen() {
    let state = format!(
        r#"{{"active_project_id": "{MERCHANT}", "confidence": "hi\u001b[2Jgh",
            "detection_method": "tran\u202escript\u0007", "timestamp": "2026-02-17T11:44:56Z",
            "session_id": "s\u001b]0;owned\u0007-1\u200b"}}"#
    );
    for tab in ["1", "3"] {
        let m = merchant_tab(Some(&state), Config::default(), tab);
        let screen = screen(&m);
        assert!(
            !screen
                .chars()
                .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
            "{screen:?}"
        );
        assert!(screen.contains("precompact state") || screen.contains("Precompact state"));
    }
}
