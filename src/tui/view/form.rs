//! The decision form, the "changed on disk" prompt and the quit question.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{centered, clean, popup};
use crate::core::text::fit;
use crate::tui::form::{DecisionForm, Field};
use crate::tui::layout::inside;
use crate::tui::model::Model;

const LABEL_W: u16 = 18;

pub fn draw(model: &Model, form: &DecisionForm, frame: &mut Frame, area: Rect) {
    let t = &model.theme;
    let height = 2 + Field::ALL.iter().map(|f| f.rows() + 1).sum::<u16>() + 2;
    let popup_area = centered(area, 76, height);
    let title = match &form.editing {
        Some(id) => format!("Edit {} — {}", clean(id), clean(&form.project_id)),
        None => format!("New decision — {}", clean(&form.project_id)),
    };
    let block = popup(model, frame, popup_area, &title);
    frame.render_widget(block, popup_area);
    let inner = inside(popup_area);
    let mut y = inner.y;
    for (i, (field, area_widget)) in Field::ALL.iter().zip(&form.fields).enumerate() {
        if y >= inner.bottom() {
            break;
        }
        let rows = field.rows().min(inner.bottom() - y);
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
        let mut widget = area_widget.clone();
        widget.set_style(if focused { t.selected } else { t.base });
        widget.set_cursor_line_style(ratatui::style::Style::new());
        widget.set_placeholder_style(t.dim);
        if !focused {
            widget.set_cursor_style(widget.style());
        }
        frame.render_widget(&widget, input);
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
