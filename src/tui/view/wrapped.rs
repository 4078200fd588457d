//! Text laid out to a pane's width by the tabs that show labelled values (the
//! Overview, the Compaction and Decisions details, the Quality summary): a value
//! that wraps hangs under its own column, never back under its label.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::wrap::{Piece, hanging};
use super::{clean, heading};
use crate::core::text::fit;
use crate::tui::model::Model;
use crate::tui::shorten::truncate_path;

/// Lines being laid out to a width, with labels `label_w` cells wide.
pub struct Wrapped<'m> {
    pub model: &'m Model,
    pub width: usize,
    label_w: usize,
    pub lines: Vec<Line<'static>>,
}

impl<'m> Wrapped<'m> {
    pub fn new(model: &'m Model, width: usize, label_w: usize) -> Wrapped<'m> {
        Wrapped {
            model,
            width,
            label_w,
            lines: Vec::new(),
        }
    }

    /// `lead` then `pieces`, the lines after the first indented by `indent` cells.
    pub fn hang(&mut self, lead: Vec<Span<'static>>, indent: usize, pieces: Vec<Piece>) {
        self.lines
            .extend(hanging(lead, indent, &pieces, self.width));
    }

    /// The label column: `label_w` cells, or a third of a pane too narrow for it.
    fn label_column(&self) -> usize {
        self.label_w.min(self.width / 3).max(1)
    }

    /// `Label           value`, the value wrapping under itself.
    pub fn field(&mut self, label: &str, value: Vec<Piece>) {
        let column = self.label_column();
        let lead = vec![Span::styled(fit(label, column), self.model.theme.label)];
        self.hang(lead, column, value);
    }

    pub fn field_text(&mut self, label: &str, value: Option<String>) {
        if let Some(value) = value {
            self.field(label, vec![Piece::words(value, Style::new())]);
        }
    }

    /// `  key: value`, the value wrapping under the entry's text (`indent` cells in).
    pub fn labelled(&mut self, key: &str, indent: usize, value: Vec<Piece>) {
        let lead = vec![Span::styled(format!("  {key}: "), self.model.theme.label)];
        self.hang(lead, indent, value);
    }

    /// A blank line, then the title.
    pub fn section(&mut self, title: &str) {
        self.blank();
        let title = crate::core::text::truncate(title, self.width);
        self.lines.push(heading(self.model, &title));
    }

    pub fn blank(&mut self) {
        self.lines.push(Line::default());
    }

    /// A path that fits the rest of the line after `used` cells, shortened by
    /// leaving folders out of the middle.
    pub fn path(&self, path: &str, used: usize) -> String {
        let room = self.width.saturating_sub(used).max(1);
        truncate_path(&clean(path), room).into_owned()
    }
}

/// A lead of one span.
pub fn lead(text: &str, style: Style) -> Vec<Span<'static>> {
    vec![Span::styled(text.to_string(), style)]
}

/// File text as words that wrap, made safe to draw.
pub fn words(text: &str) -> Piece {
    Piece::words(clean(text).into_owned(), Style::new())
}
