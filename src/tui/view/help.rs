//! The help screen, generated from the keymap (plus the fixed filter and form keys).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::wrapped::{Wrapped, words};
use super::{Scrolling, centered, heading, popup};
use crate::core::text::fit;
use crate::tui::layout::inside;
use crate::tui::model::Model;

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

/// The help's lines, laid out `width` cells wide: each description wraps under
/// itself, right of the key column.
pub fn lines(model: &Model, width: usize) -> Vec<Line<'static>> {
    let t = &model.theme;
    let rows = model.keymap.help_rows();
    let key_w = rows
        .iter()
        .map(|(_, k, _)| k.chars().count())
        .max()
        .unwrap_or(8)
        .clamp(8, 22);
    let mut out = Wrapped::new(model, width, key_w);
    let entry = |out: &mut Wrapped, key: &str, desc: &str| {
        let lead = vec![Span::styled(format!("  {} ", fit(key, key_w)), t.key)];
        out.hang(lead, key_w + 3, vec![words(desc)]);
    };
    let mut group = None;
    for (g, keys, desc) in rows {
        if group != Some(g) {
            if group.is_some() {
                out.blank();
            }
            out.lines.push(heading(model, g.title()));
            group = Some(g);
        }
        entry(&mut out, &keys, &desc);
    }
    for (title, keys) in FIXED {
        out.section(title);
        for (key, desc) in *keys {
            entry(&mut out, key, desc);
        }
    }
    out.lines
}

pub fn draw(model: &Model, frame: &mut Frame, area: Rect, scroll: u16) {
    let popup_area = popup_area(area);
    let block = popup(
        model,
        frame,
        popup_area,
        "Keys — ? or Esc closes · rebind in keymap.toml",
    );
    frame.render_widget(block, popup_area);
    scrolling(model, area).draw(frame, scroll, model.theme.accent);
}

/// The help's text inside its popup on a screen of `area`.
pub fn scrolling(model: &Model, area: Rect) -> Scrolling {
    Scrolling::of(inside(popup_area(area)), |width| lines(model, width))
}

fn popup_area(area: Rect) -> Rect {
    centered(area, 84, area.height.saturating_sub(2))
}
