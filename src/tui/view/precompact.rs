//! The Nexus precompact state a project is named by (`core::precompact`): a line
//! on the Overview, a section on the Compaction tab. A state too old for the hooks
//! to inject is left in place for the operator, and this is where it is seen.

use ratatui::style::Style;

use super::clean;
use super::wrap::Piece;
use super::wrapped::{Wrapped, lead};
use crate::core::model::Project;
use crate::core::precompact::{PrecompactView, of_project};
use crate::tui::model::Model;

/// The state naming `project`, seen at the model's clock.
pub fn of(model: &Model, project: &Project) -> Option<PrecompactView> {
    let max = model.config.hooks.nexus_state_max_age_minutes;
    of_project(&model.workspace, project, model.now, max)
}

fn style(model: &Model, view: &PrecompactView) -> Style {
    if view.injectable {
        model.theme.info
    } else {
        model.theme.warn
    }
}

/// `  · precompact state from 50 min ago (no session; high, detected by
/// transcript) — older than 30 min: never injected`, wrapping under its text.
pub fn overview_line(out: &mut Wrapped, project: &Project) {
    let model = out.model;
    if let Some(view) = of(model, project) {
        let style = style(model, &view);
        let text = clean(&view.summary()).into_owned();
        out.hang(lead("  · ", style), 4, vec![Piece::words(text, style)]);
    }
}

/// The Compaction tab's section: where the state is, when it was written, the
/// session, confidence and detection, and what the hooks will do with it.
pub fn section(out: &mut Wrapped, project: &Project) {
    let model = out.model;
    let Some(view) = of(model, project) else {
        return;
    };
    let t = &model.theme;
    let heading = "Precompact state";
    let path = out.path(&view.path, heading.len() + 2);
    out.hang(
        vec![
            ratatui::text::Span::styled(heading, t.header),
            ratatui::text::Span::raw("  "),
        ],
        heading.len() + 2,
        vec![Piece::whole(path, t.dim)],
    );
    let text = |s: &str| Some(clean(s).into_owned());
    out.field_text("Written", text(&view.written()));
    out.field_text("Session", text(view.session()));
    out.field_text("Confidence", text(&view.detection()));
    let injection = clean(&view.injection).into_owned();
    out.field(
        "Injection",
        vec![Piece::words(injection, style(model, &view))],
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::core::time::Timestamp;
    use crate::io::env::Env;
    use crate::tui::keymap::Keymap;
    use crate::tui::msg::Msg;
    use crate::tui::theme::Theme;

    const NOW: Timestamp = Timestamp(1_771_331_696);
    const MERCHANT: &str = "07-merchant-onboarding-research";

    /// The demo, whose precompact state names the merchant project, written
    /// 50 minutes before `NOW`, rewritten with `state` when given.
    fn model(state: Option<&str>, config: Config) -> Model {
        let dir = tempfile::tempdir().unwrap();
        crate::io::demo::unpack_into(dir.path(), NOW).unwrap();
        if let Some(state) = state {
            let path = dir.path().join("00-system/.cache/precompact_state.json");
            std::fs::write(path, state).unwrap();
        }
        let ws = crate::io::load::load_workspace(dir.path(), &Env::default(), NOW, &config);
        let mut model = Model::new(config, Theme::no_color(), Keymap::defaults(), NOW);
        crate::tui::update(&mut model, Msg::loaded(ws), NOW);
        model
    }

    fn project<'m>(model: &'m Model, id: &str) -> &'m Project {
        model
            .workspace
            .projects
            .iter()
            .find(|p| p.id == id)
            .unwrap()
    }

    fn shown(model: &Model, id: &str, width: usize, f: fn(&mut Wrapped, &Project)) -> Vec<String> {
        let mut out = Wrapped::new(model, width, 16);
        f(&mut out, project(model, id));
        out.lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn the_compaction_section_says_what_the_hooks_will_do() {
        let model = model(None, Config::default());
        assert_eq!(
            shown(&model, MERCHANT, 80, section),
            [
                "Precompact state  00-system/.cache/precompact_state.json",
                "Written         2026-02-17T11:44:56Z (50 min ago)",
                "Session         no session",
                "Confidence      high · detected by transcript",
                "Injection       older than 30 min: never injected",
            ]
        );
        assert_eq!(
            shown(&model, MERCHANT, 80, overview_line),
            [
                "  · precompact state from 50 min ago (no session; high, detected by transcript)",
                "    — older than 30 min: never injected",
            ]
        );
    }

    #[test]
    fn only_the_named_project_shows_it() {
        let model = model(None, Config::default());
        for p in &model.workspace.projects {
            let lines = shown(&model, &p.id, 80, section);
            assert_eq!(lines.is_empty(), p.id != MERCHANT, "{}", p.id);
        }
    }

    #[test]
    fn the_bound_is_the_configured_one() {
        let mut config = Config::default();
        config.hooks.nexus_state_max_age_minutes = 90;
        let model = model(None, config);
        let lines = shown(&model, MERCHANT, 80, section);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("Injection       younger than 90 min: the next SessionStart injects it")
        );
    }

    #[test]
    fn text_from_the_file_is_cleaned() {
        let state = format!(
            r#"{{"active_project_id": "{MERCHANT}", "confidence": "hi\u001b[31mgh\u202e",
                "detection_method": "trans\u0007cript", "timestamp": "2026-02-17T12:00:00Z",
                "session_id": "s\u001b]0;x\u0007-1"}}"#
        );
        let model = model(Some(&state), Config::default());
        let lines = shown(&model, MERCHANT, 80, section).join("\n")
            + &shown(&model, MERCHANT, 80, overview_line).join("\n");
        assert!(
            !lines.chars().any(|c| c.is_control() && c != '\n'),
            "{lines:?}"
        );
        assert!(!lines.contains('\u{202e}'), "{lines:?}");
        assert!(lines.contains("Session         s"), "{lines}");
    }
}
