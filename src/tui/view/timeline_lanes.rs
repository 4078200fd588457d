//! The timeline of every project's compactions (`t`): one lane per project on a
//! shared time axis ending now, a mark per compaction, coloured and shaped (for
//! terminals without colour) by what it needs: not acknowledged yet (`⚑`), else
//! its summary dropped something (`✗`, what compaction lost: docs/compaction.md),
//! else acknowledged (`✓`). Under the lanes, every compaction newest first:
//! `j`/`k` move the selection (its mark is highlighted in its lane), Enter opens
//! it in its project's Compaction tab (`tui::timeline_overlay`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::wrap::{Piece, hanging};
use super::{clean, dim, popup, styled};
use crate::core::dropped::{compare_checkpoint, known};
use crate::core::text::{fit, width};
use crate::core::time::{Timestamp, describe_age};
use crate::core::timeline::rows;
use crate::tui::layout;
use crate::tui::model::Model;

/// What a mark says, most urgent last (a cell shows the most urgent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Acknowledged,
    /// Acknowledged, and its summary dropped something.
    Dropped,
    /// Waiting for the operator (whatever its summary kept).
    Unacknowledged,
}

impl Mark {
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Acknowledged => "✓",
            Mark::Dropped => "✗",
            Mark::Unacknowledged => "⚑",
        }
    }

    fn style(self, model: &Model) -> Style {
        match self {
            Mark::Acknowledged => model.theme.acked,
            Mark::Dropped => model.theme.error,
            Mark::Unacknowledged => model.theme.unacked,
        }
    }

    fn legend(self) -> &'static str {
        match self {
            Mark::Unacknowledged => "not acknowledged",
            Mark::Dropped => "its summary dropped something",
            Mark::Acknowledged => "acknowledged",
        }
    }
}

/// One project's compactions that have a time.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    pub project: String,
    pub marks: Vec<(Timestamp, Mark)>,
}

/// One compaction with a time, as the list under the lanes shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub project: String,
    /// Its row in the project's Compaction tab (`core::timeline::rows`).
    pub row: usize,
    pub id: String,
    pub time: Timestamp,
    pub mark: Mark,
    /// Items its summary dropped (0 when it kept all, or there is no summary).
    pub dropped: usize,
}

/// Every timed compaction, newest first, and how many had no time to place.
pub fn entries(model: &Model) -> (Vec<Entry>, usize) {
    let mut untimed = 0;
    let mut entries = Vec::new();
    for project in &model.workspace.projects {
        for (row, line) in rows(project, &model.workspace.unassigned_checkpoints)
            .iter()
            .enumerate()
        {
            if line.event.and_then(|e| e.compactions) == Some(0) {
                continue;
            }
            let Some(time) = line.time else {
                untimed += 1;
                continue;
            };
            let dropped = line.checkpoint.map_or(0, |cp| {
                known(cp).map_or(0, |(_, s)| compare_checkpoint(cp, s).dropped().count())
            });
            let mark = match (line.acknowledged, dropped) {
                (Some(false), _) => Mark::Unacknowledged,
                (_, 0) => Mark::Acknowledged,
                _ => Mark::Dropped,
            };
            entries.push(Entry {
                project: project.id.clone(),
                row,
                id: line.id.clone(),
                time,
                mark,
                dropped,
            });
        }
    }
    entries.sort_by(|a, b| b.time.cmp(&a.time).then_with(|| a.project.cmp(&b.project)));
    (entries, untimed)
}

/// Lanes of every project with a timed compaction (in the workspace's order), and
/// how many compactions had no time to place.
pub fn lanes(model: &Model) -> (Vec<Lane>, usize) {
    let (entries, untimed) = entries(model);
    let lanes = model
        .workspace
        .projects
        .iter()
        .filter_map(|p| {
            let mut marks: Vec<(Timestamp, Mark)> = entries
                .iter()
                .filter(|e| e.project == p.id)
                .map(|e| (e.time, e.mark))
                .collect();
            marks.reverse();
            (!marks.is_empty()).then(|| Lane {
                project: p.id.clone(),
                marks,
            })
        })
        .collect();
    (lanes, untimed)
}

/// The column of `time` on an axis of `width` cells from `start` to `now`.
pub fn column(time: Timestamp, start: Timestamp, now: Timestamp, width: usize) -> usize {
    let span = now.seconds_since(start).max(1);
    let at = time.seconds_since(start).clamp(0, span);
    let last = width.saturating_sub(1) as i64;
    usize::try_from(at * last / span).unwrap_or(0)
}

/// Where the overlay is drawn: everything above the status bar, so that nothing
/// of the screen behind shows beside it.
pub fn area(frame: Rect) -> Rect {
    let status = layout::areas(frame.width, frame.height).status;
    Rect::new(
        frame.x,
        frame.y,
        frame.width,
        status.y.saturating_sub(frame.y),
    )
}

pub fn draw(model: &Model, frame: &mut Frame, selected: usize) {
    let area = area(frame.area());
    let block = popup(model, frame, area, "Timeline: every project's compactions");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let (entries, untimed) = entries(model);
    let (lanes, _) = lanes(model);
    let selected = entries.get(selected.min(entries.len().saturating_sub(1)));
    let width = usize::from(inner.width);
    let height = usize::from(inner.height);
    let Some(start) = entries.iter().map(|e| e.time).min() else {
        let mut lines = vec![Line::from(dim(
            model,
            fit("No project's compaction with a time recorded.", width),
        ))];
        lines.extend(notes(model, untimed, width));
        lines.push(Line::from(dim(model, fit("t or Esc closes", width))));
        frame.render_widget(Paragraph::new(lines), inner);
        return;
    };
    let mut footer = notes(model, untimed, width);
    footer.push(Line::from(dim(
        model,
        fit(
            "j/k select · Enter opens it (Compaction tab) · t or Esc closes",
            width,
        ),
    )));
    let Rows {
        lanes: lane_rows,
        list: list_rows,
    } = rows_for(lanes.len(), footer.len(), height);
    let lane_of = selected
        .and_then(|s| lanes.iter().position(|l| l.project == s.project))
        .unwrap_or(0);
    let first_lane = lane_of.saturating_sub(lane_rows.saturating_sub(1));
    let label_w = lanes
        .iter()
        .map(|l| width_of(&l.project))
        .max()
        .unwrap_or(0)
        .min(width / 3)
        .max(8);
    let axis_w = width.saturating_sub(label_w + 2).max(1);
    let mut lines: Vec<Line> = lanes
        .iter()
        .skip(first_lane)
        .take(lane_rows)
        .map(|lane| lane_line(model, lane, selected, start, label_w, axis_w))
        .collect();
    lines.push(Line::from(dim(
        model,
        fit(
            &format!("{} └{}", " ".repeat(label_w), "─".repeat(axis_w)),
            width,
        ),
    )));
    let left = describe_age(model.now.seconds_since(start));
    let gap = axis_w.saturating_sub(width_of(&left) + 3);
    lines.push(Line::from(dim(
        model,
        fit(
            &format!("{}  {left}{}now", " ".repeat(label_w), " ".repeat(gap)),
            width,
        ),
    )));
    lines.push(legend(model, width));
    let at = selected.map_or(0, |s| entries.iter().position(|e| e == s).unwrap_or(0));
    let first = at.saturating_sub(list_rows.saturating_sub(1));
    for entry in entries.iter().skip(first).take(list_rows) {
        lines.push(entry_line(model, entry, Some(entry) == selected, width));
    }
    lines.extend(footer);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The rows of the lanes and of the list under them.
struct Rows {
    lanes: usize,
    list: usize,
}

/// Lanes take at most half of a pane `height` rows high (scrolled to the selected
/// one's lane); under them the axis, the ages and the legend, then the list, then
/// `footer` rows.
fn rows_for(lanes: usize, footer: usize, height: usize) -> Rows {
    let lanes = lanes.min((height / 2).max(1));
    Rows {
        lanes,
        list: height.saturating_sub(lanes + 3 + footer),
    }
}

/// Half the rows the list of compactions has on the screen now (at least one): what
/// a page key moves its selection by.
pub fn half_page(model: &Model) -> u16 {
    let (w, h) = model.size;
    let inner = layout::inside(area(Rect::new(0, 0, w, h)));
    let (_, untimed) = entries(model);
    let (lanes, _) = lanes(model);
    // The notes, and the line of keys under them.
    let footer = notes(model, untimed, usize::from(inner.width)).len() + 1;
    let half = (rows_for(lanes.len(), footer, usize::from(inner.height)).list / 2).max(1);
    u16::try_from(half).unwrap_or(u16::MAX)
}

/// What the lanes leave out: events without a time, checkpoints tied to no project;
/// wrapped to `width`.
fn notes(model: &Model, untimed: usize, width: usize) -> Vec<Line<'static>> {
    let ws = &model.workspace;
    let shown: std::collections::HashSet<&str> = ws
        .projects
        .iter()
        .flat_map(|p| rows(p, &ws.unassigned_checkpoints))
        .filter_map(|row| row.checkpoint.map(|c| c.path.as_str()))
        .collect();
    let loose = ws
        .unassigned_checkpoints
        .iter()
        .filter(|c| !shown.contains(c.path.as_str()))
        .count();
    let checkpoints = if loose == 1 {
        "checkpoint"
    } else {
        "checkpoints"
    };
    [
        (untimed > 0)
            .then(|| format!("{untimed} compaction event(s) record no time and are not placed.")),
        (loose > 0).then(|| {
            format!(
                "{loose} {checkpoints} tied to no project: not on the lanes; \
                 resume-tui timeline lists them."
            )
        }),
    ]
    .into_iter()
    .flatten()
    .flat_map(|text| hanging(Vec::new(), 2, &[Piece::words(text, model.theme.dim)], width))
    .collect()
}

fn width_of(text: &str) -> usize {
    width(text)
}

fn lane_line(
    model: &Model,
    lane: &Lane,
    selected: Option<&Entry>,
    start: Timestamp,
    label_w: usize,
    axis_w: usize,
) -> Line<'static> {
    let mut cells: Vec<Option<Mark>> = vec![None; axis_w];
    for (time, mark) in &lane.marks {
        let at = column(*time, start, model.now, axis_w);
        if let Some(cell) = cells.get_mut(at) {
            *cell = (*cell).max(Some(*mark));
        }
    }
    let highlighted = selected
        .filter(|s| s.project == lane.project)
        .map(|s| column(s.time, start, model.now, axis_w));
    let mut spans = vec![
        Span::raw(fit(&clean(&lane.project), label_w)),
        dim(model, " │"),
    ];
    for (at, cell) in cells.into_iter().enumerate() {
        let span = match cell {
            Some(mark) => styled(mark.style(model), mark.glyph()),
            None => dim(model, "·"),
        };
        spans.push(if highlighted == Some(at) {
            span.patch_style(model.theme.selected.add_modifier(Modifier::REVERSED))
        } else {
            span
        });
    }
    Line::from(spans)
}

/// `▸ ⚑ cx-002  payouts-v2-…  1 h ago  not acknowledged · its summary dropped 7`.
fn entry_line(model: &Model, entry: &Entry, selected: bool, width: usize) -> Line<'static> {
    let dropped = (entry.dropped > 0).then(|| format!("summary dropped {}", entry.dropped));
    let said = match (entry.mark, dropped) {
        (Mark::Dropped, Some(dropped)) => format!("acknowledged · {dropped}"),
        (mark, Some(dropped)) => format!("{} · {dropped}", mark.legend()),
        (mark, None) => mark.legend().to_string(),
    };
    let age = describe_age(model.now.seconds_since(entry.time));
    let rest = format!(
        " {} {} {}  {said}",
        fit(&clean(&entry.id), 8),
        fit(&age, 11),
        clean(&entry.project)
    );
    let pointer = if selected { "▸ " } else { "  " };
    let text_w = width.saturating_sub(4);
    let line = Line::from(vec![
        Span::raw(pointer),
        styled(entry.mark.style(model), entry.mark.glyph()),
        Span::raw(fit(&rest, text_w + 1)),
    ]);
    if selected {
        line.style(model.theme.selected)
    } else {
        line
    }
}

fn legend(model: &Model, width: usize) -> Line<'static> {
    let mut spans = Vec::new();
    let mut used = 0;
    for mark in [Mark::Unacknowledged, Mark::Dropped, Mark::Acknowledged] {
        let text = format!(" {}   ", mark.legend());
        let cells = 1 + width_of(&text);
        if used + cells > width {
            break;
        }
        used += cells;
        spans.push(styled(mark.style(model), mark.glyph()));
        spans.push(dim(model, text));
    }
    Line::from(spans)
}
