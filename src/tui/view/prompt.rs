//! Prompt: Template 1 exactly as `y` copies it, with its token estimate. Its lines
//! are wrapped to the pane here: a continued line stays under its own indentation
//! and under the text of a `- ` or `1. ` list entry.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::wrap::{Piece, hanging};
use super::{Scrolling, dim, styled};
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
    let [head_area, body_area] = split(area);
    frame.render_widget(Paragraph::new(vec![Line::from(head), hint]), head_area);
    text_scrolling(&rendered.text, body_area).draw(frame, model.scroll, model.theme.accent);
}

/// The template's text, in the pane under the heading.
pub fn scrolling(_model: &Model, project: &Project, area: Rect) -> Scrolling {
    let [_, body_area] = split(area);
    text_scrolling(&render_prompt(project).text, body_area)
}

/// Two lines of heading and keys, then the text.
fn split(area: Rect) -> [Rect; 2] {
    Layout::vertical([Constraint::Length(2.min(area.height)), Constraint::Min(0)]).areas(area)
}

fn text_scrolling(text: &str, area: Rect) -> Scrolling {
    Scrolling::of(area, |width| wrapped(&sanitize(text, true), width))
}

/// Each line of `text` in lines of at most `width` cells.
fn wrapped(text: &str, width: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for line in text.lines() {
        let body = line.trim_start_matches(' ');
        if body.is_empty() {
            out.push(Line::default());
            continue;
        }
        // A pane too narrow for them shrinks a deep indentation and wraps a list
        // marker as text.
        let spaces = (line.len() - body.len()).min(width / 2);
        let marker = Some(list_marker(body)).filter(|m| spaces + m < width);
        let (marker, rest) = body
            .split_at_checked(marker.unwrap_or(0))
            .unwrap_or(("", body));
        let lead = format!("{}{marker}", " ".repeat(spaces));
        let indent = lead.len();
        let pieces = [Piece::words(rest.to_string(), Style::new())];
        out.extend(hanging(vec![Span::raw(lead)], indent, &pieces, width));
    }
    out
}

/// The bytes (all ASCII) of a `- ` or `12. ` list marker at the start of `text`.
fn list_marker(text: &str) -> usize {
    if text.starts_with("- ") {
        return 2;
    }
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0
        && text
            .get(digits..)
            .is_some_and(|rest| rest.starts_with(". "))
    {
        digits + 2
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn continued_lines_stay_under_their_indentation_and_list_text() {
        let shown = wrapped(
            "RECOVERY STATE:\n- Current phase: Phase 2\n\n12. [PRIORITY 1] a/b.md\n   Purpose: read it",
            16,
        );
        assert_eq!(
            text(&shown),
            [
                "RECOVERY STATE:",
                "- Current phase:",
                "  Phase 2",
                "",
                "12. [PRIORITY 1]",
                "    a/b.md",
                "   Purpose: read",
                "   it",
            ]
        );
    }

    #[test]
    fn no_line_is_wider_than_the_pane_and_no_text_is_lost() {
        let source = "- 決済APIの冪等キーはマーチャント単位 with a very_long_unbroken_identifier_here\n      deep";
        for width in 2..40 {
            let shown = text(&wrapped(source, width));
            for line in &shown {
                assert!(crate::tui::text::width(line) <= width, "{width}: {line:?}");
            }
            let squeeze = |s: &str| s.split_whitespace().collect::<String>();
            assert_eq!(squeeze(&shown.concat()), squeeze(source), "{width}");
        }
    }
}
