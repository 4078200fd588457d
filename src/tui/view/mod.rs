//! `view(&Model, &mut Frame)`: pure drawing of the model. Every text read from a
//! file passes through `clean` (no escape sequences or controls reach the terminal).

mod ascii_chart;
mod badges;
mod compaction;
mod compaction_dropped;
mod decisions;
mod detail;
mod form;
mod help;
mod list;
pub(crate) mod list_title;
mod loose;
mod messages;
mod overview;
mod precompact;
mod prompt;
mod quality;
mod scroll;
mod status;
pub mod timeline_lanes;
pub(crate) mod wrap;
mod wrapped;

use std::borrow::Cow;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear};

use super::layout;
use super::model::{Model, Overlay, Tab};
pub use list::drawn_id_width;
#[cfg(test)]
pub use list::longest_id;
pub use messages::{messages_max_scroll, messages_pane};
pub use scroll::{Scrolling, help_max_scroll, help_pane, max_scroll, scrolling_pane};

pub fn view(model: &Model, frame: &mut Frame) {
    let area = frame.area();
    frame.render_widget(Block::new().style(model.theme.base), area);
    let a = layout::areas(area.width, area.height);
    list::draw(model, frame, a.list);
    detail::draw(model, frame, &a);
    status::draw(model, frame, a.status, a.hints);
    match &model.overlay {
        Overlay::None => {}
        Overlay::Help { scroll } => help::draw(model, frame, area, *scroll),
        Overlay::Timeline { selected } => timeline_lanes::draw(model, frame, *selected),
        Overlay::Messages { scroll } => messages::draw(model, frame, area, *scroll),
        Overlay::Form(f) => form::draw(model, f, frame, area),
        Overlay::ChangedOnDisk { path, form } => {
            if let Some(f) = form {
                form::draw(model, f, frame, area);
            }
            form::draw_changed_on_disk(model, path, form.is_some(), frame, area);
        }
        Overlay::ConfirmQuit { lost, previous } => {
            if let Overlay::Form(f) = previous.as_ref() {
                form::draw(model, f, frame, area);
            }
            form::draw_confirm_quit(model, lost, frame, area);
        }
    }
}

/// One line of file text, safe to draw. Only what can be drawn is cleaned: the
/// layout draws at most `wrap::MAX_DRAWN_BYTES` of a value, so a longer one is
/// cut a little past that (the layout cuts it again, with its note) before the
/// pass over its characters. A 10 MB value was cleaned and copied whole twice per
/// key, on every tab that shows it.
pub(crate) fn clean(text: &str) -> Cow<'_, str> {
    bounded(text, crate::core::text::clean)
}

/// File text of several lines, safe to draw (`core::text::sanitize`), cut like
/// [`clean`]: a 10 MB summary gives at most `wrap::MAX_DRAWN_BYTES` of lines.
pub(crate) fn drawn_lines(text: &str) -> Cow<'_, str> {
    bounded(text, |t| crate::core::text::sanitize(t, true))
}

fn bounded<'t>(text: &'t str, pass: impl Fn(&str) -> Cow<'_, str>) -> Cow<'t, str> {
    let head = crate::core::text::cut::prefix(text, wrap::MAX_DRAWN_BYTES + 1024);
    if head.len() == text.len() {
        return pass(text);
    }
    let mut out = pass(head).into_owned();
    out.push(' ');
    out.push_str(wrap::CUT_NOTE);
    Cow::Owned(out)
}

/// A centred rectangle of at most `w`×`h` inside `area`.
pub(crate) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// A bordered popup, cleared underneath.
pub(crate) fn popup<'a>(model: &Model, frame: &mut Frame, area: Rect, title: &'a str) -> Block<'a> {
    frame.render_widget(Clear, area);
    Block::new()
        .borders(Borders::ALL)
        .border_style(model.theme.border_focus)
        .title(Span::styled(format!(" {title} "), model.theme.title))
        .style(model.theme.base)
}

pub(crate) fn heading(model: &Model, text: &str) -> Line<'static> {
    Line::from(Span::styled(text.to_string(), model.theme.header))
}

pub(crate) fn dim<'a>(model: &Model, text: impl Into<Cow<'a, str>>) -> Span<'a> {
    Span::styled(text, model.theme.dim)
}

pub(crate) fn styled<'a>(style: Style, text: impl Into<Cow<'a, str>>) -> Span<'a> {
    Span::styled(text, style)
}

/// The tab bar's label for a tab: ` 1 Overview `.
pub fn tab_label(tab: Tab) -> String {
    format!(" {} {} ", tab.index() + 1, tab.title())
}

/// First visible row of a table of `height` rows (header included) with `selected`.
pub fn table_offset(selected: usize, height: u16) -> usize {
    let rows = usize::from(height.saturating_sub(1)).max(1);
    selected.saturating_sub(rows - 1)
}

/// A table of `rows` rows (and a header) at most `most` high, and the selected
/// row's details under it.
pub(crate) fn table_above_details(area: Rect, most: u16, rows: usize) -> [Rect; 2] {
    let rows = u16::try_from(rows).unwrap_or(u16::MAX);
    let table_h = most.min(rows.saturating_add(1));
    ratatui::layout::Layout::vertical([
        ratatui::layout::Constraint::Length(table_h),
        ratatui::layout::Constraint::Min(0),
    ])
    .areas(area)
}

/// The open tab's table and the selected row's details under it, at the model's
/// screen size: Compaction and Decisions with rows to show, else `None`.
pub fn table_and_details(model: &Model) -> Option<[Rect; 2]> {
    let project = model.project()?;
    let body = layout::areas(model.size.0, model.size.1).body;
    let (most, rows) = match model.tab {
        Tab::Compaction => (timeline_height(body), model.timeline().len()),
        Tab::Decisions => (
            decisions_height(body),
            super::project_actions::decision_count(project),
        ),
        Tab::Overview | Tab::Quality | Tab::Prompt => return None,
    };
    (rows > 0).then(|| table_above_details(body, most, rows))
}

/// Height of the Compaction timeline table inside the tab body.
pub fn timeline_height(body: Rect) -> u16 {
    (body.height / 2).max(3).min(body.height)
}

/// Height of the Decisions table inside the tab body.
pub fn decisions_height(body: Rect) -> u16 {
    body.height.saturating_sub(5).max(3).min(body.height)
}
