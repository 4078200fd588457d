//! The project list: one row per project with glyph + colour badges.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::badges::{self, percent, short_age, trend_arrow};
use super::clean;
use crate::core::model::Project;
use crate::core::text::{fit, fit_right, width};
use crate::core::time::update_effective;
use crate::core::urgency::FillLevel;
use crate::tui::layout::inside;
use crate::tui::model::{Focus, Model};

const ATTENTION_W: usize = 3;
const STATUS_W: usize = 11;
const SCORE_W: usize = 5;
/// The fill: a glyph (a block as high as the fill, or the threshold's mark) and
/// the percentage.
const FILL_W: usize = 4;
/// The fill as a bar, left of `FILL_W`, where there is room.
const FILL_BAR: usize = 5;
const AGE_W: usize = 4;

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let theme = &model.theme;
    let focused = model.focus == Focus::List && !model.filtering;
    let total = model.workspace.projects.len();
    let title = super::list_title::spans(model, area.width);
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
    let cols = Columns::for_width(w, model.tally.longest_id());
    let mut lines = vec![header(model, &cols, w)];
    if !model.loaded && !model.unread {
        lines.push(Line::from(Span::styled("Loading…", theme.dim)));
    } else if total == 0 {
        // The folder is in the status bar; the next steps in the details pane.
        lines.push(Line::from(Span::styled(
            "No projects in this folder",
            theme.warn,
        )));
        lines.push(Line::from(Span::styled(
            fit("(no ORCHESTRATION.yaml, no resume-context.md)", w),
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
    let len = crate::tui::loose::list_len(model);
    let max_offset = len.saturating_sub(rows.max(1));
    let offset = model.list_offset.min(max_offset);
    let selected = model.selected_row().filter(|_| !model.on_loose);
    for (row, project) in model.visible_projects().enumerate().skip(offset).take(rows) {
        lines.push(row_line(model, project, &cols, Some(row) == selected));
    }
    // The checkpoints tied to no project: the last row (`tui::loose`).
    if len > model.visible.len() && (offset..offset + rows).contains(&model.visible.len()) {
        let attention = if cols.has(Column::Attention) {
            ATTENTION_W
        } else {
            0
        };
        lines.push(super::loose::row_line(model, w, attention, model.on_loose));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The columns right of the project, in the order they are dropped in when the
/// pane is narrow: the score and status first (the detail shows both), then the
/// fill's bar, the fill, the age last. The first four go while the longest id
/// does not fit (`Columns`: every demo id is whole, the fill shown, from 120
/// columns), the fill only in a list narrower than `FILL_STAYS_FROM`; the
/// attention count and the age only while the id has less than `MIN_ID` cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Bar,
    Fill,
    Score,
    Status,
    Attention,
    Age,
}

const DROP_ORDER: [Column; 6] = [
    Column::Score,
    Column::Status,
    Column::Bar,
    Column::Fill,
    Column::Attention,
    Column::Age,
];

/// Columns dropped to give the id the room it needs; the rest go only for `MIN_ID`.
const DROPPED_FOR_THE_ID: [Column; 4] = [Column::Score, Column::Status, Column::Bar, Column::Fill];

const MIN_ID: usize = 16;
/// From this width (the list beside the details from 110 columns, or the whole
/// width) the fill keeps its place and a longer id is cut instead.
const FILL_STAYS_FROM: usize = 46;
/// The most room the id is given by dropping columns: a longer id is cut instead.
const MAX_WANTED_ID: usize = 40;

/// The selection marker, the staleness glyph and the space after it.
const FIXED: usize = 2 + 2;

impl Column {
    /// Cells taken, with the space that separates it.
    fn cells(self) -> usize {
        1 + match self {
            Column::Bar => FILL_BAR,
            Column::Fill => FILL_W,
            Column::Score => SCORE_W,
            Column::Status => STATUS_W,
            Column::Attention => ATTENTION_W,
            Column::Age => AGE_W,
        }
    }
}

/// Which columns a list `w` cells wide shows, and the id's width.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Columns {
    shown: Vec<Column>,
    id: usize,
}

impl Columns {
    /// `longest_id`: the widest project id of the workspace, which the id column
    /// is given (up to `MAX_WANTED_ID`) by dropping the score, status and fill.
    fn for_width(w: usize, longest_id: usize) -> Columns {
        let mut shown = DROP_ORDER.to_vec();
        let id = |shown: &[Column]| {
            w.saturating_sub(FIXED + shown.iter().map(|c| c.cells()).sum::<usize>())
        };
        let wanted = longest_id.clamp(MIN_ID, MAX_WANTED_ID);
        for column in DROP_ORDER {
            let for_the_id = DROPPED_FOR_THE_ID.contains(&column)
                && (column != Column::Fill || w < FILL_STAYS_FROM);
            let needed = if for_the_id { wanted } else { MIN_ID };
            if id(&shown) >= needed {
                break;
            }
            shown.retain(|c| *c != column);
        }
        Columns {
            id: id(&shown),
            shown,
        }
    }

    fn has(&self, column: Column) -> bool {
        self.shown.contains(&column)
    }
}

/// The widest project id (as drawn) of `projects`: what `Model::tally` keeps, for
/// the tests to hold it to.
#[cfg(test)]
pub fn longest_id(projects: &[Project]) -> usize {
    projects
        .iter()
        .map(|p| drawn_id_width(&p.id))
        .max()
        .unwrap_or(0)
}

/// How many cells a project id takes in the list.
pub fn drawn_id_width(id: &str) -> usize {
    if id.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        // Printable ASCII: drawn as it is, one cell a byte.
        id.len()
    } else {
        width(&clean(id))
    }
}

fn header(model: &Model, cols: &Columns, w: usize) -> Line<'static> {
    let mut text = String::from("  ");
    if cols.has(Column::Attention) {
        text.push_str(&fit("⚑", ATTENTION_W));
        text.push(' ');
    }
    text.push_str("  ");
    text.push_str(&fit("project", cols.id));
    for (column, label, right) in [
        (Column::Status, "status", false),
        (Column::Score, "score", true),
        (Column::Bar, "", true),
        (Column::Fill, "fill", true),
        (Column::Age, "age", true),
    ] {
        if cols.has(column) {
            let cells = column.cells() - 1;
            text.push(' ');
            text.push_str(&if right {
                fit_right(label, cells)
            } else {
                fit(label, cells)
            });
        }
    }
    Line::from(Span::styled(fit(&text, w), model.theme.header))
}

fn row_line(model: &Model, project: &Project, cols: &Columns, selected: bool) -> Line<'static> {
    if model.unread {
        return unread_row(model, project, cols, selected);
    }
    let theme = &model.theme;
    let unacked = crate::tui::list::waiting(project, &model.workspace.unassigned_checkpoints);
    let attention = if unacked > 0 {
        Span::styled(fit(&format!("⚑{unacked}"), ATTENTION_W), theme.unacked)
    } else {
        Span::raw(fit("", ATTENTION_W))
    };
    let stale = badges::staleness(project.staleness.level, theme);
    let status = badges::status(project.summary.status.as_deref(), theme);
    let id_w = cols.id;
    let id = clean(&project.id).into_owned();
    let mut id_cell = vec![Span::styled(fit(&id, id_w.min(width(&id))), theme.base)];
    let room = id_w.saturating_sub(width(&id) + 2);
    if crate::tui::last_known::is_unreadable(model, project) && room >= 3 {
        // Shown as last read: the file does not read now (`last_known`).
        let mark = format!("  {}", fit("✗ unreadable", room));
        let pad = id_w.saturating_sub(width(&id) + width(&mark));
        id_cell.extend([Span::styled(mark, theme.critical), Span::raw(fit("", pad))]);
    } else if let Some(name) = project.name.as_deref().filter(|n| *n != project.id) {
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
    let raw = project.summary.updated_at_raw.as_deref();
    let age = project
        .summary
        .updated_at
        .map(|t| model.now.seconds_since(update_effective(raw, t)));
    let mut spans = vec![Span::styled(
        row_marker(model, project, selected),
        theme.accent,
    )];
    if cols.has(Column::Attention) {
        spans.extend([attention, Span::raw(" ")]);
    }
    spans.extend([stale.glyph_span(), Span::raw(" ")]);
    spans.extend(id_cell);
    let status = Span::styled(
        fit(&format!("{} {}", status.glyph, status.label), STATUS_W),
        status.style,
    );
    let (bar, fill) = fill_cells(model, project, cols.has(Column::Bar));
    let age = Span::styled(fit_right(&short_age(age), AGE_W), stale.style);
    for (column, span) in [
        (Column::Status, status),
        (Column::Score, score),
        (Column::Bar, bar),
        (Column::Fill, fill),
        (Column::Age, age),
    ] {
        if cols.has(column) {
            spans.extend([Span::raw(" "), span]);
        }
    }
    let line = Line::from(spans);
    if selected {
        line.style(theme.selected)
    } else if model.highlighted(&project.id) {
        line.style(theme.accent.add_modifier(ratatui::style::Modifier::BOLD))
    } else {
        line
    }
}

/// The live fill of the project's session (`session_fill`): a bar of
/// `FILL_BAR` cells where there is room, then a glyph and the percentage. The
/// glyph is a block as high as the fill (none beside the bar), or past a
/// threshold its mark (`!` warning, `▲` critical, for a terminal without
/// colour). Without a fill, the tier Jerry recorded for its session.
fn fill_cells(model: &Model, project: &Project, with_bar: bool) -> (Span<'static>, Span<'static>) {
    let theme = &model.theme;
    let (fill, _) = model.fill(project);
    let context = &model.config.context;
    let blank = || Span::raw(fit("", FILL_BAR));
    let Some(f) = fill else {
        let cell = match model.tier(project) {
            Some(tier) => {
                let lower = tier.to_ascii_lowercase();
                let style = if lower.starts_with("crit")
                    || lower.starts_with("emer")
                    || lower.starts_with("compa")
                {
                    theme.critical
                } else if lower.starts_with("warn") {
                    theme.warn
                } else {
                    theme.base
                };
                let short: String = tier.to_uppercase().chars().take(FILL_W).collect();
                Span::styled(fit_right(&short, FILL_W), style)
            }
            None => Span::styled(fit_right("—", FILL_W), theme.dim),
        };
        return (blank(), cell);
    };
    let (glyph, style) = match FillLevel::of(Some(f), context.warning, context.critical) {
        FillLevel::Critical => ('▲', theme.critical),
        FillLevel::Warning => ('!', theme.warn),
        FillLevel::Below if with_bar => (' ', theme.base),
        FillLevel::Below => (block(f), theme.base),
    };
    let shown = percent(Some(f));
    let cell = if width(&shown) < FILL_W {
        format!("{glyph}{}", fit_right(&shown, FILL_W - 1))
    } else {
        // `100%` and over: no room for the glyph; the colour and figure say it.
        fit_right(&shown, FILL_W)
    };
    (Span::styled(fill_bar(f), style), Span::styled(cell, style))
}

/// One cell as high as the fill: `▁` to `█`.
fn block(fill: f64) -> char {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let at = (fill.clamp(0.0, 1.0) * 7.0).round() as usize;
    BLOCKS.get(at).copied().unwrap_or('█')
}

/// `███··`: the fill in `FILL_BAR` cells, rounded to the nearest (a fill
/// above zero shows at least one cell).
fn fill_bar(fill: f64) -> String {
    let cells = FILL_BAR as f64;
    let full = (fill.clamp(0.0, 1.0) * cells).round() as usize;
    let full = if fill > 0.0 { full.max(1) } else { full };
    let full = full.min(FILL_BAR);
    format!("{}{}", "█".repeat(full), "·".repeat(FILL_BAR - full))
}

/// A row discovery found and no pass has read yet: where it is, and `loading…`
/// where its state would be (no staleness, status, score, fill or age it could
/// be taken to have).
fn unread_row(model: &Model, project: &Project, cols: &Columns, selected: bool) -> Line<'static> {
    let theme = &model.theme;
    let mut spans = vec![Span::styled(
        row_marker(model, project, selected),
        theme.accent,
    )];
    if cols.has(Column::Attention) {
        spans.push(Span::raw(fit("", ATTENTION_W + 1)));
    }
    spans.push(Span::raw("  "));
    spans.push(Span::styled(fit(&clean(&project.id), cols.id), theme.base));
    let rest: usize = [
        Column::Status,
        Column::Score,
        Column::Bar,
        Column::Fill,
        Column::Age,
    ]
    .into_iter()
    .filter(|c| cols.has(*c))
    .map(Column::cells)
    .sum();
    if rest > 0 {
        let text = if rest > 9 { " loading…" } else { " …" };
        spans.push(Span::styled(fit(text, rest), theme.dim));
    }
    let line = Line::from(spans);
    if selected {
        line.style(theme.selected)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_lists_drop_whole_columns_and_keep_room_for_the_id() {
        use Column::*;
        // The demo's longest id, `docs-rewrite-20260225-001`.
        let at = |w| Columns::for_width(w, 25);
        assert_eq!(
            at(78).shown,
            [Score, Status, Bar, Fill, Attention, Age],
            "80 columns"
        );
        assert_eq!(at(58).shown, [Bar, Fill, Attention, Age], "60 columns");
        assert_eq!(
            at(52).shown,
            [Bar, Fill, Attention, Age],
            "120, side by side"
        );
        assert_eq!(at(52).id, 28);
        assert_eq!(
            Columns::for_width(50, 31).shown,
            [Fill, Attention, Age],
            "120 columns, a 31-cell id: no room for the bar"
        );
        assert_eq!(at(38).shown, [Attention, Age], "40 columns");
        assert_eq!(at(28).shown, [Age], "30 columns");
        assert_eq!(at(10).shown, Vec::<Column>::new());
        for longest in [0, 16, 25, 40, 90] {
            for w in [18, 28, 38, 52, 58, 78, 200] {
                let cols = Columns::for_width(w, longest);
                let used = FIXED + cols.id + cols.shown.iter().map(|c| c.cells()).sum::<usize>();
                assert_eq!(used, w, "{w}: the row fills the width exactly");
                assert!(
                    cols.id >= MIN_ID.min(w - FIXED),
                    "{w}: id keeps {MIN_ID} cells: {cols:?}"
                );
                let wanted = longest.clamp(MIN_ID, MAX_WANTED_ID);
                if cols.id < wanted {
                    let gone =
                        |c: &Column| !cols.has(*c) || (*c == Column::Fill && w >= FILL_STAYS_FROM);
                    assert!(
                        DROPPED_FOR_THE_ID.iter().all(gone),
                        "{w}, {longest}: the id is cut only once the lower columns are gone: {cols:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn from_a_46_cell_list_the_fill_stays_and_a_long_id_is_cut() {
        // The Jerry corpus: ids of 45 cells, the list 50 cells wide at 120 columns.
        let cols = Columns::for_width(50, 45);
        assert_eq!(cols.shown, [Column::Fill, Column::Attention, Column::Age]);
        assert_eq!(cols.id, 32);
        assert!(!Columns::for_width(44, 45).has(Column::Fill));
    }

    #[test]
    fn the_fill_bar_rounds_to_whole_cells() {
        assert_eq!(fill_bar(0.0), "·····");
        assert_eq!(fill_bar(0.01), "█····");
        assert_eq!(fill_bar(0.634), "███··");
        assert_eq!(fill_bar(0.85), "████·");
        assert_eq!(fill_bar(1.4), "█████");
        assert_eq!([block(0.0), block(0.5), block(1.0)], ['▁', '▅', '█']);
    }

    #[test]
    fn short_ids_keep_every_column() {
        assert_eq!(Columns::for_width(58, 12).shown.len(), 6);
        assert_eq!(Columns::for_width(58, 12).id, 16);
    }
}
