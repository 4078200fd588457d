//! The project list: one row per project with glyph + colour badges.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::badges::{self, percent, short_age, trend_arrow};
use super::clean;
use crate::core::model::Project;
use crate::tui::layout::inside;
use crate::tui::model::{Focus, Model};
use crate::tui::text::{fit, fit_right, width};

const ATTENTION_W: usize = 3;
const STATUS_W: usize = 11;
const SCORE_W: usize = 5;
const FILL_W: usize = 4;
const AGE_W: usize = 4;

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let theme = &model.theme;
    let focused = model.focus == Focus::List && !model.filtering;
    let total = model.workspace.projects.len();
    let title = super::list_title::spans(model);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(if focused || model.filtering {
            theme.border_focus
        } else {
            theme.border
        })
        .title(Line::from(title));
    let inner = inside(area);
    frame.render_widget(block, area);
    if inner.height == 0 || inner.width == 0 {
        return;
    }
    let w = usize::from(inner.width);
    let mut lines = vec![header(model, w)];
    if !model.loaded {
        lines.push(Line::from(Span::styled("Loading…", theme.dim)));
    } else if total == 0 {
        lines.push(Line::from(Span::styled(
            format!("No projects under {}", clean(&model.workspace.root)),
            theme.warn,
        )));
        lines.push(Line::from(Span::styled(
            "(looked for ORCHESTRATION.yaml and resume-context.md files)",
            theme.dim,
        )));
    } else if model.visible.is_empty() {
        lines.push(Line::from(Span::styled(
            format!(
                "Nothing matches /{}; esc clears the filter",
                clean(&model.filter)
            ),
            theme.warn,
        )));
    }
    let rows = usize::from(inner.height.saturating_sub(1));
    let max_offset = model.visible.len().saturating_sub(rows.max(1));
    let offset = model.list_offset.min(max_offset);
    let selected = model.selected_row();
    for (row, project) in model.visible_projects().enumerate().skip(offset).take(rows) {
        lines.push(row_line(model, project, w, Some(row) == selected));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn id_width(w: usize) -> usize {
    // Marker, attention, staleness glyph and the spaces between the columns.
    w.saturating_sub(2 + ATTENTION_W + 3 + 1 + STATUS_W + 1 + SCORE_W + 1 + FILL_W + 1 + AGE_W)
}

fn header(model: &Model, w: usize) -> Line<'static> {
    let text = format!(
        "  {}   {} {} {} {} {}",
        fit("⚑", ATTENTION_W),
        fit("project", id_width(w)),
        fit("status", STATUS_W),
        fit_right("score", SCORE_W),
        fit_right("fill", FILL_W),
        fit_right("age", AGE_W),
    );
    Line::from(Span::styled(fit(&text, w), model.theme.header))
}

fn row_line(model: &Model, project: &Project, w: usize, selected: bool) -> Line<'static> {
    let theme = &model.theme;
    let unacked = crate::tui::list::waiting(project, &model.workspace.unassigned_checkpoints);
    let attention = if unacked > 0 {
        Span::styled(fit(&format!("⚑{unacked}"), ATTENTION_W), theme.unacked)
    } else {
        Span::raw(fit("", ATTENTION_W))
    };
    let stale = badges::staleness(project.staleness.level, theme);
    let status = badges::status(project.summary.status.as_deref(), theme);
    let id_w = id_width(w);
    let id = clean(&project.id).into_owned();
    let mut id_cell = vec![Span::styled(fit(&id, id_w.min(width(&id))), theme.base)];
    if let Some(name) = project.name.as_deref().filter(|n| *n != project.id) {
        let room = id_w.saturating_sub(width(&id) + 2);
        if room >= 6 {
            id_cell.push(Span::styled(
                format!("  {}", fit(&clean(name), room)),
                theme.dim,
            ));
        } else {
            id_cell.push(Span::raw(fit("", id_w.saturating_sub(width(&id)))));
        }
    } else {
        id_cell.push(Span::raw(fit("", id_w.saturating_sub(width(&id)))));
    }
    let threshold = model.pass_threshold();
    let score = match project.trajectory.last_score() {
        Some((_, s)) => Span::styled(
            fit_right(
                &format!("{s:.2}{}", trend_arrow(project.trajectory.last_trend())),
                SCORE_W,
            ),
            badges::score_style(s, threshold, theme),
        ),
        None => Span::styled(fit_right("—", SCORE_W), theme.dim),
    };
    let (fill, _) = model.fill(project);
    let fill_style = match fill {
        Some(f) if f >= model.config.context.critical => theme.critical,
        Some(f) if f >= model.config.context.warning => theme.warn,
        _ => theme.base,
    };
    let age = project
        .summary
        .updated_at
        .map(|t| model.now.seconds_since(t));
    let mut spans = vec![
        Span::styled(row_marker(model, project, selected), theme.accent),
        attention,
        Span::raw(" "),
        stale.glyph_span(),
        Span::raw(" "),
    ];
    spans.extend(id_cell);
    spans.extend([
        Span::raw(" "),
        Span::styled(
            fit(&format!("{} {}", status.glyph, status.label), STATUS_W),
            status.style,
        ),
        Span::raw(" "),
        score,
        Span::raw(" "),
        Span::styled(fit_right(&percent(fill), FILL_W), fill_style),
        Span::raw(" "),
        Span::styled(fit_right(&short_age(age), AGE_W), stale.style),
    ]);
    let line = Line::from(spans);
    if selected {
        line.style(theme.selected)
    } else if model.highlighted(&project.id) {
        line.style(theme.accent.add_modifier(ratatui::style::Modifier::BOLD))
    } else {
        line
    }
}

/// `▸` on the selection, `*` for a moment on a row a live refresh changed.
fn row_marker(model: &Model, project: &Project, selected: bool) -> &'static str {
    match (selected, model.highlighted(&project.id)) {
        (true, _) => "▸ ",
        (false, true) => "* ",
        (false, false) => "  ",
    }
}
