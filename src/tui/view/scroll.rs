//! Text that scrolls in a pane, laid out to the pane's width before it is drawn, so
//! that `update` can tell how far it scrolls: no further than its last line at the
//! bottom of the pane, whatever the size of the screen and the length of the text.
//! Text cut at the bottom says so with `↓ more` on the border under the pane.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{compaction, decisions, help, overview, prompt, quality};
use crate::tui::layout;
use crate::tui::model::{Model, Tab};

/// Lines laid out to the width of `area`, the pane they scroll in.
pub struct Scrolling {
    pub lines: Vec<Line<'static>>,
    pub area: Rect,
}

impl Scrolling {
    /// The lines `lay_out` gives for the width of `area`.
    pub fn of(area: Rect, lay_out: impl FnOnce(usize) -> Vec<Line<'static>>) -> Scrolling {
        Scrolling {
            lines: lay_out(usize::from(area.width)),
            area,
        }
    }

    /// The furthest scroll: the last line at the bottom of the pane.
    pub fn max_scroll(&self) -> u16 {
        let beyond = self
            .lines
            .len()
            .saturating_sub(usize::from(self.area.height));
        u16::try_from(beyond).unwrap_or(u16::MAX)
    }

    /// Draws the lines from `scroll` (no further than [`Self::max_scroll`]), and
    /// `↓ more` in `marker` style on the row under the pane (every scrolling pane
    /// sits on a border) while lines are hidden below.
    pub fn draw(self, frame: &mut Frame, scroll: u16, marker: Style) {
        let scroll = scroll.min(self.max_scroll());
        let cut = scroll < self.max_scroll();
        let area = self.area;
        frame.render_widget(Paragraph::new(self.lines).scroll((scroll, 0)), area);
        if cut {
            draw_more_marker(frame, area, marker);
        }
    }
}

const MORE: &str = " ↓ more ";

/// `↓ more` on the row under `area`, right-aligned short of the border's corner.
fn draw_more_marker(frame: &mut Frame, area: Rect, style: Style) {
    let width = MORE.chars().count() as u16;
    let below = area.bottom();
    if below >= frame.area().bottom() || area.width < width + 1 {
        return;
    }
    let at = Rect::new(area.right() - width - 1, below, width, 1);
    frame.render_widget(Paragraph::new(Span::styled(MORE, style)), at);
}

/// How far the open tab of the selected project scrolls at the model's screen size.
pub fn max_scroll(model: &Model) -> u16 {
    open_tab(model).map_or(0, |s| s.max_scroll())
}

/// The pane the open tab's text scrolls in (under a table, the selected row's
/// details), if it has one.
pub fn scrolling_pane(model: &Model) -> Option<Rect> {
    open_tab(model).map(|s| s.area)
}

fn open_tab(model: &Model) -> Option<Scrolling> {
    let project = model.project()?;
    let body = areas(model).body;
    if body.width == 0 || body.height == 0 {
        return None;
    }
    match model.tab {
        Tab::Overview => Some(overview::scrolling(model, project, body)),
        Tab::Quality => Some(quality::scrolling(model, project, body)),
        Tab::Compaction => compaction::scrolling(model, project, body),
        Tab::Decisions => decisions::scrolling(model, project, body),
        Tab::Prompt => Some(prompt::scrolling(model, project, body)),
    }
}

/// How far the help scrolls at the model's screen size.
pub fn help_max_scroll(model: &Model) -> u16 {
    help_scrolling(model).max_scroll()
}

/// The pane the help's text scrolls in.
pub fn help_pane(model: &Model) -> Rect {
    help_scrolling(model).area
}

fn help_scrolling(model: &Model) -> Scrolling {
    let (w, h) = model.size;
    help::scrolling(model, Rect::new(0, 0, w, h))
}

fn areas(model: &Model) -> layout::Areas {
    layout::areas(model.size.0, model.size.1)
}
