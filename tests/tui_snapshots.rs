//! Screens drawn into ratatui's TestBackend and compared with insta snapshots:
//! every tab of a demo project at 80×24 and 120×40, help, the decision form, an
//! error state, and the NO_COLOR and light themes with their styles.

mod tui_support;

use resume_tui::core::model::{Diagnostic, Project, ProjectKind, Shape, Workspace};
use resume_tui::tui::Msg;
use resume_tui::tui::msg::NotWritten;
use resume_tui::tui::theme::Theme;
use resume_tui::tui::update;
use tui_support::*;

const PAYOUTS: &str = "payouts-v2-20260302-001";

fn tab_screen(width: u16, height: u16, keys: &[&str]) -> String {
    let mut m = demo_model(width, height);
    select(&mut m, PAYOUTS);
    press(&mut m, keys);
    screen(&m)
}

macro_rules! tab_snapshots {
    ($($name:ident: $keys:expr;)*) => {$(
        #[test]
        fn $name() {
            insta::assert_snapshot!(concat!(stringify!($name), "_80x24"), tab_screen(80, 24, $keys));
            insta::assert_snapshot!(concat!(stringify!($name), "_120x40"), tab_screen(120, 40, $keys));
        }
    )*};
}

tab_snapshots! {
    overview: &["1"];
    quality: &["2"];
    compaction: &["3"];
    compaction_second_checkpoint: &["3", "l", "j"];
    decisions: &["4", "l"];
    prompt: &["5"];
    help: &["?"];
    filtered_list: &["/", "a", "u", "d"];
}

/// The whole Overview in the narrowest side-by-side pane (59 columns): files to
/// read with their glyph column and paths shortened in the middle, wrapped values
/// under their own column.
#[test]
fn overview_whole_in_a_narrow_pane() {
    for (name, id) in [
        ("jerry_nested", PAYOUTS),
        ("jerry_flat", "docs-rewrite-20260225-001"),
        ("nexus", "03-settlement-dashboard"),
    ] {
        let mut m = demo_model(110, 72);
        select(&mut m, id);
        insta::assert_snapshot!(format!("overview_whole_110x72_{name}"), screen(&m));
    }
}

#[test]
fn decision_form_with_validation_errors() {
    let mut m = demo_model(80, 24);
    select(&mut m, PAYOUTS);
    press(&mut m, &["4", "n", "<Tab>", "<Tab>"]);
    type_text(&mut m, "two");
    press(&mut m, &["<Enter>"]);
    insta::assert_snapshot!(screen(&m));
}

#[test]
fn changed_on_disk_prompt() {
    let mut m = demo_model(120, 40);
    select(&mut m, PAYOUTS);
    press(&mut m, &["3", "a"]);
    let path = "projects/PROJ-002-payouts-api-v2/ORCHESTRATION.yaml".to_string();
    update(
        &mut m,
        Msg::Written {
            what: "acknowledged cx-002".into(),
            undo: None,
            result: Err(NotWritten::ChangedOnDisk { path }),
        },
        NOW,
    );
    insta::assert_snapshot!(screen(&m));
}

fn broken_project() -> Project {
    Project {
        name: Some("Hostile \u{202e}txt.exe name".into()),
        diagnostics: vec![
            Diagnostic::error(
                "projects/PROJ-009/ORCHESTRATION.yaml",
                "did not find expected ':' while scanning a simple key",
            )
            .at(14, 3),
        ],
        ..Project::at(
            ProjectKind::Jerry,
            "broken-\u{1b}[31mred\u{1b}[0m-workflow",
            "projects/PROJ-009/ORCHESTRATION.yaml",
            "projects/PROJ-009",
            Shape::Unreadable,
        )
    }
}

#[test]
fn error_state_unreadable_file_and_failed_write() {
    let ws = Workspace {
        root: "/work".into(),
        projects: vec![broken_project()],
        ..Default::default()
    };
    let mut m = model_with(ws, Theme::default_dark(), 80, 24);
    update(&mut m, Msg::Problem("/home/op/.config/resume-tui/theme.toml:3:9: unknown style \"colour\"; using the default theme".into()), NOW);
    let text = screen(&m);
    assert!(
        !text.contains('\u{1b}'),
        "escape sequences never reach the screen"
    );
    assert!(
        !text.contains('\u{202e}'),
        "bidi overrides never reach the screen"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn empty_workspace() {
    let ws = Workspace {
        root: "/empty".into(),
        ..Default::default()
    };
    let m = model_with(ws, Theme::default_dark(), 80, 24);
    insta::assert_snapshot!(screen(&m));
}

#[test]
fn no_color_theme_with_styles() {
    let theme = Theme::built_in("no-color").unwrap();
    let mut m = model_with(demo_workspace(), theme, 80, 24);
    select(&mut m, PAYOUTS);
    let text = styled_screen(&m);
    let legend = text.split("--- legend ---").nth(1).unwrap();
    assert!(
        !legend.contains("Rgb") && !legend.contains("fg=Red") && !legend.contains("fg=Green"),
        "no colours at all:\n{legend}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn light_theme_with_styles() {
    let theme = Theme::built_in("light").unwrap();
    let mut m = model_with(demo_workspace(), theme, 80, 24);
    select(&mut m, PAYOUTS);
    press(&mut m, &["3"]);
    insta::assert_snapshot!(styled_screen(&m));
}

#[test]
fn wide_and_cjk_text_is_measured_by_display_width() {
    let mut ws = demo_workspace();
    let p = ws.projects.iter_mut().find(|p| p.id == PAYOUTS).unwrap();
    p.name = Some("決済API 第二版：冪等な支払いと決済バッチ処理の全面的な書き直し".into());
    p.summary.next_step =
        Some("次の手順：QG-2 の第二反復を終えて、ハンドラーとバッチャーを再採点する。".into());
    let mut m = model_with(ws, Theme::default_dark(), 80, 24);
    select(&mut m, PAYOUTS);
    let text = screen(&m);
    for line in text.lines() {
        assert!(
            resume_tui::core::text::width(line) <= 80,
            "spills past 80 cells: {line}"
        );
    }
    assert!(text.contains('…'), "long wide text is cut with an ellipsis");
    insta::assert_snapshot!(text);
}
