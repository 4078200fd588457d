//! The decision form, the "changed on disk" prompt and the quit question.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};
use ratatui_textarea::{CursorMove, TextArea};

use super::{centered, clean, popup};
use crate::core::text::fit;
use crate::tui::form::{DecisionForm, Field};
use crate::tui::layout::inside;
use crate::tui::model::Model;

const LABEL_W: u16 = 18;
/// The form's width: all of a narrow screen, wider on a wide one.
const MIN_W: u16 = 76;
const MAX_W: u16 = 100;

pub fn draw(model: &Model, form: &DecisionForm, frame: &mut Frame, area: Rect) {
    let t = &model.theme;
    let width = area
        .width
        .saturating_sub(8)
        .clamp(MIN_W, MAX_W)
        .min(area.width);
    // Border, label column and the column kept for a cursor after a full row.
    let text_w = width.saturating_sub(2 + LABEL_W + 1);
    let least = 2 + Field::ALL.iter().map(|f| f.rows() + 1).sum::<u16>() + 2;
    let rows = field_rows(form, text_w, area.height.saturating_sub(least));
    let height = 2 + rows.iter().map(|r| r + 1).sum::<u16>() + 2;
    let popup_area = centered(area, width, height);
    let title = match &form.editing {
        Some(id) => format!("Edit {} — {}", clean(id), clean(&form.project_id)),
        None => format!("New decision — {}", clean(&form.project_id)),
    };
    let block = popup(model, frame, popup_area, &title);
    frame.render_widget(block, popup_area);
    let inner = inside(popup_area);
    let mut y = inner.y;
    for (i, ((field, area_widget), field_rows)) in
        Field::ALL.iter().zip(&form.fields).zip(rows).enumerate()
    {
        if y >= inner.bottom() {
            break;
        }
        let rows = field_rows.min(inner.bottom() - y);
        let focused = i == form.focus;
        let label_style = if focused { t.key } else { t.label };
        let marker = if focused { "▸ " } else { "  " };
        let label = Rect::new(inner.x, y, LABEL_W.min(inner.width), 1);
        frame.render_widget(
            Paragraph::new(Span::styled(
                format!("{marker}{}", fit(field.label(), usize::from(LABEL_W) - 2)),
                label_style,
            )),
            label,
        );
        let input = Rect::new(
            inner.x + label.width,
            y,
            inner.width.saturating_sub(label.width),
            rows,
        );
        let field_style = if focused { t.selected } else { t.base };
        let mut widget = area_widget.clone();
        widget.set_style(field_style);
        widget.set_cursor_line_style(Style::new());
        widget.set_placeholder_style(t.dim);
        widget.set_cursor_style(if focused {
            cursor_style(field_style)
        } else {
            field_style
        });
        frame.render_widget(Block::new().style(field_style), input);
        let text = Rect {
            width: input.width.saturating_sub(1),
            ..input
        };
        frame.render_widget(&widget, text);
        if focused && !widget.is_empty() {
            draw_cursor_past_the_end(&widget, text, frame);
        }
        y += rows;
        if y < inner.bottom() {
            let note = Rect::new(input.x, y, input.width, 1);
            let line = match form.error_for(*field) {
                Some(err) => Line::from(Span::styled(format!("✗ {}", clean(err)), t.error)),
                None => Line::default(),
            };
            frame.render_widget(Paragraph::new(line), note);
        }
        y += 1;
    }
    if y < inner.bottom() {
        let footer = Rect::new(inner.x, y, inner.width, 1);
        let line = Line::from(vec![
            Span::styled("Ctrl-S", t.key),
            Span::styled(" save (Enter in a one-line field)  ", t.dim),
            Span::styled("Tab", t.key),
            Span::styled(" next field  ", t.dim),
            Span::styled("Esc", t.key),
            Span::styled(" cancel", t.dim),
        ]);
        frame.render_widget(Paragraph::new(line), footer);
    }
}

/// The rows each field gets: one for a one-line field; for the Decision and the
/// Rationale their text soft-wrapped at `width`, at least `Field::rows`, as far as
/// `spare` rows allow, the focused field served first (past that the field scrolls
/// with its cursor).
fn field_rows(form: &DecisionForm, width: u16, mut spare: u16) -> Vec<u16> {
    let mut rows: Vec<u16> = Field::ALL.iter().map(|f| f.rows()).collect();
    let others = (0..Field::ALL.len()).filter(|i| *i != form.focus);
    for i in std::iter::once(form.focus).chain(others) {
        let (Some(field), Some(text), Some(row)) =
            (Field::ALL.get(i), form.fields.get(i), rows.get_mut(i))
        else {
            continue;
        };
        if field.multiline() {
            let extra = wrapped_rows(text, width).saturating_sub(*row).min(spare);
            *row += extra;
            spare -= extra;
        }
    }
    rows
}

/// The rows `text` takes soft-wrapped at `width`: the row its end lands on, drawn
/// on a copy.
fn wrapped_rows(text: &TextArea<'static>, width: u16) -> u16 {
    let mut probe = text.clone();
    probe.move_cursor(CursorMove::Bottom);
    probe.move_cursor(CursorMove::End);
    let rect = Rect::new(0, 0, width.max(1), 1);
    (&probe).render(rect, &mut Buffer::empty(rect));
    u16::try_from(probe.screen_cursor().row + 1).unwrap_or(u16::MAX)
}

/// The cursor drawn on the field: the field's colours swapped, or unswapped where
/// the field is itself drawn reversed (no colours), so it shows either way.
fn cursor_style(field: Style) -> Style {
    if field.add_modifier.contains(Modifier::REVERSED) {
        Style::new().remove_modifier(Modifier::REVERSED)
    } else {
        Style::new().add_modifier(Modifier::REVERSED)
    }
}

/// A cursor after a row that fills the width sits one column past the text; the
/// input keeps that column, and the cursor is drawn there.
fn draw_cursor_past_the_end(widget: &TextArea<'static>, text: Rect, frame: &mut Frame) {
    let cursor = widget.screen_cursor();
    let (top, _) = widget.scroll_offset();
    let (Ok(row), Ok(col)) = (
        u16::try_from(cursor.row.saturating_sub(usize::from(top))),
        u16::try_from(cursor.col),
    ) else {
        return;
    };
    if col == text.width && row < text.height && cursor.row >= usize::from(top) {
        let at = Position::new(text.x + col, text.y + row);
        if let Some(cell) = frame.buffer_mut().cell_mut(at) {
            cell.set_style(cursor_style(widget.style()));
        }
    }
}

pub fn draw_changed_on_disk(
    model: &Model,
    path: &str,
    has_form: bool,
    frame: &mut Frame,
    area: Rect,
) {
    let t = &model.theme;
    let popup_area = centered(area, 64, 7);
    let block = popup(model, frame, popup_area, "Changed on disk");
    let kept = if has_form { " (your form is kept)" } else { "" };
    let text = vec![
        Line::from(Span::styled(
            format!("✗ {} changed since it was read.", clean(path)),
            t.error,
        )),
        Line::from("Nothing was written."),
        Line::from(vec![
            Span::styled("r", t.key),
            Span::raw(format!(" reload and try again{kept}  ")),
            Span::styled("Esc", t.key),
            Span::raw(" cancel"),
        ]),
    ];
    frame.render_widget(
        Paragraph::new(text).block(block).wrap(Wrap { trim: false }),
        popup_area,
    );
}

/// "Quit and lose …?": `y` quits, any other key stays.
pub fn draw_confirm_quit(model: &Model, lost: &str, frame: &mut Frame, area: Rect) {
    let t = &model.theme;
    let popup_area = centered(area, 64, 6);
    let block = popup(model, frame, popup_area, "Quit?");
    let text = vec![
        Line::from(Span::styled(format!("Quitting now loses {lost}."), t.warn)),
        Line::default(),
        Line::from(vec![
            Span::styled("y", t.key),
            Span::raw(" quit  "),
            Span::styled("any other key", t.key),
            Span::raw(" stay"),
        ]),
    ];
    frame.render_widget(
        Paragraph::new(text).block(block).wrap(Wrap { trim: false }),
        popup_area,
    );
}
