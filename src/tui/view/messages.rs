//! The messages overlay (`M`): every status bar message of the session, whole,
//! with the time it was shown, the newest first (`tui::messages`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::wrapped::{Wrapped, words};
use super::{Scrolling, centered, popup};
use crate::tui::layout::inside;
use crate::tui::model::{Model, StatusKind};

/// `03:50:13Z ✓ `: the time and the kind's glyph, as the status bar marks it.
const LEAD: usize = 12;

pub fn lines(model: &Model, width: usize) -> Vec<Line<'static>> {
    let t = &model.theme;
    let mut out = Wrapped::new(model, width, LEAD);
    if model.messages.is_empty() {
        out.lines
            .push(Line::from(Span::styled("No messages yet", t.dim)));
        return out.lines;
    }
    for logged in model.messages.newest_first() {
        let iso = logged.at.to_iso();
        let time = iso.get(11..).unwrap_or(&iso).to_string();
        let (glyph, style) = match logged.kind {
            StatusKind::Info => ("·", t.info),
            StatusKind::Success => ("✓", t.ok),
            StatusKind::Error => ("✗", t.error),
            StatusKind::Flag => ("⚑", t.unacked),
        };
        let lead = vec![
            Span::styled(format!("{time:<9} "), t.dim),
            Span::styled(format!("{glyph} "), style),
        ];
        out.hang(lead, LEAD, vec![words(&logged.text)]);
    }
    out.lines
}

pub fn draw(model: &Model, frame: &mut Frame, area: Rect, scroll: u16) {
    let popup_area = popup_area(area);
    let block = popup(
        model,
        frame,
        popup_area,
        "Messages, newest first — M or Esc closes",
    );
    frame.render_widget(block, popup_area);
    scrolling(model, area).draw(frame, scroll, model.theme.accent);
}

/// The messages inside their popup on a screen of `area`.
pub fn scrolling(model: &Model, area: Rect) -> Scrolling {
    Scrolling::of(inside(popup_area(area)), |width| lines(model, width))
}

/// How far the messages scroll at the model's screen size.
pub fn messages_max_scroll(model: &Model) -> u16 {
    on_screen(model).max_scroll()
}

/// The pane the messages scroll in.
pub fn messages_pane(model: &Model) -> Rect {
    on_screen(model).area
}

fn on_screen(model: &Model) -> Scrolling {
    let (w, h) = model.size;
    scrolling(model, Rect::new(0, 0, w, h))
}

fn popup_area(area: Rect) -> Rect {
    centered(area, 100, area.height.saturating_sub(2))
}
