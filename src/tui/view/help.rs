//! The help screen, generated from the keymap (plus the fixed filter and form keys).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{centered, heading, popup};
use crate::tui::model::Model;
use crate::tui::text::fit;

const FIXED: &[(&str, &[(&str, &str)])] = &[
    (
        "While filtering (/)",
        &[
            ("type", "Filter as you type"),
            ("<Enter>", "Keep the filter, back to the list"),
            ("<Esc>", "Clear the filter"),
            ("<Up> <Down>", "Move in the filtered list"),
        ],
    ),
    (
        "In the decision form",
        &[
            ("<Tab> <Down>", "Next field"),
            ("<BackTab> <Up>", "Previous field"),
            ("<Enter> <C-s>", "Validate and save"),
            ("<Esc>", "Cancel"),
        ],
    ),
    (
        "Mouse",
        &[
            ("click", "Select a project, a tab or a row"),
            ("wheel", "Scroll what is under the pointer"),
        ],
    ),
];

pub fn lines(model: &Model) -> Vec<Line<'static>> {
    let t = &model.theme;
    let rows = model.keymap.help_rows();
    let key_w = rows
        .iter()
        .map(|(_, k, _)| k.chars().count())
        .max()
        .unwrap_or(8)
        .clamp(8, 22);
    let mut out = Vec::new();
    let mut group = None;
    for (g, keys, desc) in rows {
        if group != Some(g) {
            if group.is_some() {
                out.push(Line::default());
            }
            out.push(heading(model, g.title()));
            group = Some(g);
        }
        out.push(Line::from(vec![
            Span::styled(format!("  {} ", fit(&keys, key_w)), t.key),
            Span::raw(super::clean(&desc).into_owned()),
        ]));
    }
    for (title, keys) in FIXED {
        out.push(Line::default());
        out.push(heading(model, title));
        for (key, desc) in *keys {
            out.push(Line::from(vec![
                Span::styled(format!("  {} ", fit(key, key_w)), t.key),
                Span::raw(*desc),
            ]));
        }
    }
    out
}

pub fn draw(model: &Model, frame: &mut Frame, area: Rect, scroll: u16) {
    let popup_area = centered(area, 84, area.height.saturating_sub(2));
    let block = popup(
        model,
        frame,
        popup_area,
        "Keys — ? or Esc closes · rebind in keymap.toml",
    );
    let para = Paragraph::new(lines(model))
        .block(block)
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0));
    frame.render_widget(para, popup_area);
}
