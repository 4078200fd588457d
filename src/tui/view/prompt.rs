//! Prompt: Template 1 exactly as `y` copies it, with its token estimate.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{dim, styled};
use crate::core::model::Project;
use crate::core::render::render_prompt;
use crate::tui::action::Action;
use crate::tui::model::Model;
use crate::tui::text::sanitize;

pub fn draw(model: &Model, project: &Project, frame: &mut Frame, area: Rect) {
    let t = &model.theme;
    let rendered = render_prompt(project);
    let key = |a: Action| model.keymap.key_label(a).unwrap_or_default();
    let mut head = vec![
        styled(t.title, "Template 1"),
        dim(
            model,
            format!(
                " · ~{} tokens · {} chars",
                rendered.tokens_estimate,
                rendered.text.chars().count()
            ),
        ),
    ];
    if rendered.truncated {
        head.push(styled(t.warn, " · shortened to fit"));
    }
    let hint = Line::from(vec![
        styled(t.key, key(Action::CopyPrompt)),
        dim(model, " copy  "),
        styled(t.key, key(Action::CopyPromptWithCd)),
        dim(model, " copy with cd  "),
        styled(t.key, key(Action::CopyAlert)),
        dim(model, " copy Template 2"),
    ]);
    let [head_area, body_area] =
        Layout::vertical([Constraint::Length(2.min(area.height)), Constraint::Min(0)]).areas(area);
    frame.render_widget(Paragraph::new(vec![Line::from(head), hint]), head_area);
    let text = sanitize(&rendered.text, true);
    let lines: Vec<Line> = text
        .lines()
        .map(|l| Line::from(Span::raw(l.to_string())))
        .collect();
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((model.scroll, 0)),
        body_area,
    );
}
