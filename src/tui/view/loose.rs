//! Checkpoints tied to no project (`tui::loose`): the list's last row, and its
//! details pane, which lists them newest first with one selected.

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::badges::short_age;
use super::clean;
use crate::core::model::Checkpoint;
use crate::core::text::fit;
use crate::tui::action::Action;
use crate::tui::layout::Areas;
use crate::tui::loose::{counts, newest_first};
use crate::tui::model::{Focus, Model};

/// The `no project` row, `w` cells wide; `attention` is the width of the list's
/// `⚑` column (0 when the list has none).
pub fn row_line(model: &Model, w: usize, attention: usize, selected: bool) -> Line<'static> {
    let t = &model.theme;
    let (n, waiting) = counts(model);
    let marker = if selected { "▸ " } else { "  " };
    let flag = if waiting > 0 && attention > 0 {
        fit(&format!("⚑{waiting}"), attention)
    } else {
        fit("", attention)
    };
    let text = format!("no project ({n}, {waiting} unacknowledged)");
    let gap = if attention > 0 { " " } else { "" };
    let rest = w.saturating_sub(2 + attention + gap.len() + 2);
    let style = if waiting > 0 { t.unacked } else { t.dim };
    let line = Line::from(vec![
        Span::styled(marker, t.accent),
        Span::styled(flag, t.unacked),
        Span::raw(gap),
        Span::raw("  "),
        Span::styled(fit(&text, rest), style),
    ]);
    if selected {
        line.style(t.selected)
    } else {
        line
    }
}

/// The details pane while the cursor is on the `no project` row.
pub fn draw_detail(model: &Model, frame: &mut Frame, a: &Areas) {
    let t = &model.theme;
    let focused = model.focus == Focus::Detail;
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(if focused { t.border_focus } else { t.border })
        .title(Span::styled(" Checkpoints tied to no project ", t.title));
    frame.render_widget(block, a.detail);
    let w = usize::from(a.body.width);
    let (n, waiting) = counts(model);
    let key = |action| model.keymap.key_label(action).unwrap_or_default();
    let mut lines = vec![
        Line::from(Span::styled(
            fit(
                &format!("{n} name no workflow here; {waiting} unacknowledged"),
                w,
            ),
            t.header,
        )),
        Line::from(Span::styled(
            fit(
                &format!(
                    "{} acknowledges the selected, {} all; {} undoes; {} then j/k picks",
                    key(Action::Acknowledge),
                    key(Action::AcknowledgeAll),
                    key(Action::Undo),
                    key(Action::FocusDetail),
                ),
                w,
            ),
            t.dim,
        )),
    ];
    // The inside of the pane: the tab bar's row and the body.
    let height = usize::from(a.tabs.height + a.body.height);
    let rows = height.saturating_sub(lines.len()).max(1);
    let newest = newest_first(model);
    let first = model.loose_row.saturating_sub(rows - 1);
    for (i, cp) in newest.iter().enumerate().skip(first).take(rows) {
        lines.push(checkpoint_line(model, cp, w, i == model.loose_row));
    }
    let area = ratatui::layout::Rect {
        height: a.tabs.height + a.body.height,
        ..a.tabs
    };
    frame.render_widget(Paragraph::new(lines), area);
}

fn checkpoint_line(model: &Model, cp: &Checkpoint, w: usize, selected: bool) -> Line<'static> {
    let t = &model.theme;
    let flag = if cp.acknowledged { "✓" } else { "⚑" };
    let marker = if selected { "▸" } else { " " };
    let age = short_age(cp.created_at.map(|at| model.now.seconds_since(at)));
    let fill = super::badges::percent(cp.fill);
    let tier = cp.tier.as_deref().map(clean).unwrap_or_default();
    let trigger = cp.trigger.as_deref().map(clean).unwrap_or_default();
    let text = format!(
        "{marker}{flag} {:<10} {age:>4} {fill:>4} {tier:<9} {trigger}{}{}",
        clean(&cp.id),
        if trigger.is_empty() { "" } else { "  " },
        clean(&cp.path)
    );
    let style = if cp.acknowledged { t.dim } else { t.unacked };
    let line = Line::from(Span::styled(fit(&text, w), style));
    if selected {
        line.style(t.selected)
    } else {
        line
    }
}
