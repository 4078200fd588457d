//! Prompt: the resumption prompt exactly as `y` copies it and `resume-tui prompt`
//! prints it (a Jerry workflow's, or the Nexus loading sequence, in the plain style on an
//! ASCII screen), with its token estimate.
//! The renderer wraps prose at `WRAP_WIDTH`; the pane joins those lines again and
//! wraps them to its own width, so no line is wrapped twice: a continued line stays
//! under its own indentation and under the text of a `- ` or `1. ` list entry.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::wrap::{Piece, hanging};
use super::{Scrolling, dim, styled};
use crate::core::model::{Project, ProjectKind};
use crate::core::render::format::WRAP_WIDTH;
use crate::core::render::nexus::Style as NexusStyle;
use crate::core::text::{sanitize, width};
use crate::tui::action::Action;
use crate::tui::model::Model;
use crate::tui::resume;

pub fn draw(model: &Model, project: &Project, frame: &mut Frame, area: Rect) {
    let t = &model.theme;
    let [head_area, body_area] = split(area);
    let rendered = match resume::prompt(model, project) {
        Ok(rendered) => rendered,
        Err(why) => {
            let line = Line::from(styled(t.warn, format!("No prompt: {why}")));
            frame.render_widget(Paragraph::new(line), head_area);
            return;
        }
    };
    let key = |a: Action| model.keymap.key_label(a).unwrap_or_default();
    let mut head = vec![
        styled(
            t.title,
            crate::core::text::capitalised(resume::title(project)),
        ),
        dim(
            model,
            format!(
                " · ~{} tokens · {} chars",
                rendered.tokens_estimate,
                rendered.text.chars().count()
            ),
        ),
    ];
    if project.kind == ProjectKind::Nexus && resume::nexus_style(model.glyphs) == NexusStyle::Plain
    {
        head.push(dim(model, " · plain style (ASCII screen)"));
    }
    if rendered.truncated {
        head.push(styled(t.warn, " · shortened to fit"));
    }
    let hint = Line::from(vec![
        styled(t.key, key(Action::CopyPrompt)),
        dim(model, " copy  "),
        styled(t.key, key(Action::CopyPromptWithCd)),
        dim(model, " copy with cd  "),
        styled(t.key, key(Action::CopyAlert)),
        dim(model, " copy compaction alert"),
    ]);
    frame.render_widget(Paragraph::new(vec![Line::from(head), hint]), head_area);
    text_scrolling(&rendered.text, body_area).draw(frame, model.scroll, model.theme.accent);
}

/// The template's text, in the pane under the heading.
pub fn scrolling(model: &Model, project: &Project, area: Rect) -> Scrolling {
    let [_, body_area] = split(area);
    let text = resume::prompt(model, project).map_or_else(|why| why, |r| r.text);
    text_scrolling(&text, body_area)
}

/// Two lines of heading and keys, then the text.
fn split(area: Rect) -> [Rect; 2] {
    Layout::vertical([Constraint::Length(2.min(area.height)), Constraint::Min(0)]).areas(area)
}

fn text_scrolling(text: &str, area: Rect) -> Scrolling {
    Scrolling::of(area, |width| {
        wrapped(&unwrapped(&sanitize(text, true)), width)
    })
}

/// `text` with the renderer's own line breaks taken out again: a line continues
/// the one before when the renderer's greedy wrap at `WRAP_WIDTH` must have broken
/// it there, i.e. its first word would not have fitted after the line before.
/// Blank lines, list entries, rules (`═══`) and a line of one word are never
/// joined.
fn unwrapped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last: Option<&str> = None;
    for line in text.lines() {
        let body = line.trim_start();
        let first_word = body.split_whitespace().next().unwrap_or("");
        let continues = last.is_some_and(|before| {
            let before = before.trim_end();
            before.trim().contains(' ')
                && !body.is_empty()
                && list_marker(body) == 0
                && !is_rule(first_word)
                && width(before) + 1 + width(first_word) > WRAP_WIDTH
        });
        if continues {
            out.push(' ');
            out.push_str(body);
        } else {
            if last.is_some() {
                out.push('\n');
            }
            out.push_str(line);
        }
        last = Some(line);
    }
    out
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

/// A word of one character repeated: a rule drawn across the text.
fn is_rule(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|first| chars.clone().count() >= 2 && chars.all(|c| c == first))
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

    #[test]
    fn the_renderers_wrapped_lines_are_joined_and_nothing_else() {
        let long = format!("{} goal is to", "word ".repeat(17).trim_end());
        assert!(width(&long) + 1 + "continue".len() > WRAP_WIDTH);
        let text = format!(
            "{long}\ncontinue here.\n\n- Phase: {long}\n  next words\n- Next: x\nshort line\nnext line\n{}\n/a/very/long/path/that/does/not/fit/anywhere",
            "═".repeat(89)
        );
        assert_eq!(
            unwrapped(&text),
            format!(
                "{long} continue here.\n\n- Phase: {long} next words\n- Next: x\nshort line\nnext line\n{}\n/a/very/long/path/that/does/not/fit/anywhere",
                "═".repeat(89)
            )
        );
    }

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
                assert!(crate::core::text::width(line) <= width, "{width}: {line:?}");
            }
            let squeeze = |s: &str| s.split_whitespace().collect::<String>();
            assert_eq!(squeeze(&shown.concat()), squeeze(source), "{width}");
        }
    }
}
