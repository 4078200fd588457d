//! The timeline of every project's compactions (`t`): one lane per project on a
//! shared time axis ending now, a mark per compaction, coloured (and shaped, for
//! terminals without colour) by what needs attention: the summary dropped
//! something (by the recorded summary), not acknowledged, acknowledged.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{centered, clean, dim, popup, styled};
use crate::core::dropped::{compare_checkpoint, known};
use crate::core::text::fit;
use crate::core::time::{Timestamp, describe_age};
use crate::core::timeline::rows;
use crate::tui::model::Model;

/// What a mark says, most urgent last (a cell shows the most urgent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Acknowledged,
    Unacknowledged,
    Dropped,
}

impl Mark {
    fn glyph(self) -> &'static str {
        match self {
            Mark::Acknowledged => "●",
            Mark::Unacknowledged => "◆",
            Mark::Dropped => "✗",
        }
    }

    fn style(self, model: &Model) -> Style {
        match self {
            Mark::Acknowledged => model.theme.acked,
            Mark::Unacknowledged => model.theme.unacked,
            Mark::Dropped => model.theme.error,
        }
    }
}

/// One project's compactions that have a time.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    pub project: String,
    pub marks: Vec<(Timestamp, Mark)>,
}

/// Lanes of every project with a timed compaction, and how many compactions had
/// no time to place.
pub fn lanes(model: &Model) -> (Vec<Lane>, usize) {
    let mut untimed = 0;
    let mut lanes = Vec::new();
    for project in &model.workspace.projects {
        let mut marks = Vec::new();
        for row in rows(project, &model.workspace.unassigned_checkpoints) {
            if row.event.and_then(|e| e.compactions) == Some(0) {
                continue;
            }
            let Some(time) = row.time else {
                untimed += 1;
                continue;
            };
            let dropped = row.checkpoint.is_some_and(|cp| {
                known(cp).is_some_and(|(_, s)| compare_checkpoint(cp, s).dropped().next().is_some())
            });
            let mark = match (dropped, row.acknowledged) {
                (true, _) => Mark::Dropped,
                (false, Some(false)) => Mark::Unacknowledged,
                _ => Mark::Acknowledged,
            };
            marks.push((time, mark));
        }
        if !marks.is_empty() {
            lanes.push(Lane {
                project: project.id.clone(),
                marks,
            });
        }
    }
    (lanes, untimed)
}

/// The column of `time` on an axis of `width` cells from `start` to `now`.
pub fn column(time: Timestamp, start: Timestamp, now: Timestamp, width: usize) -> usize {
    let span = now.seconds_since(start).max(1);
    let at = time.seconds_since(start).clamp(0, span);
    let last = width.saturating_sub(1) as i64;
    usize::try_from(at * last / span).unwrap_or(0)
}

pub fn draw(model: &Model, frame: &mut Frame, area: Rect) {
    let area = centered(
        area,
        area.width.saturating_sub(4),
        area.height.saturating_sub(2),
    );
    let block = popup(
        model,
        frame,
        area,
        "Timeline: every project's compactions (t closes)",
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let (lanes, untimed) = lanes(model);
    let width = usize::from(inner.width);
    let mut lines = Vec::new();
    let start = lanes
        .iter()
        .flat_map(|l| l.marks.iter().map(|(t, _)| *t))
        .min();
    match start {
        None => lines.push(Line::from(dim(
            model,
            "No compaction with a time recorded.",
        ))),
        Some(start) => {
            let label_w = lanes
                .iter()
                .map(|l| l.project.chars().count())
                .max()
                .unwrap_or(0)
                .min(width / 3)
                .max(8);
            let axis_w = width.saturating_sub(label_w + 2).max(1);
            for lane in &lanes {
                lines.push(lane_line(model, lane, start, label_w, axis_w));
            }
            lines.push(Line::from(dim(
                model,
                format!("{} └{}", " ".repeat(label_w), "─".repeat(axis_w)),
            )));
            let left = describe_age(model.now.seconds_since(start));
            let gap = axis_w.saturating_sub(left.chars().count() + 3);
            lines.push(Line::from(dim(
                model,
                format!("{}  {left}{}now", " ".repeat(label_w), " ".repeat(gap)),
            )));
        }
    }
    lines.push(Line::default());
    lines.push(legend(model));
    if untimed > 0 {
        lines.push(Line::from(dim(
            model,
            format!("{untimed} compaction event(s) record no time and are not placed."),
        )));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn lane_line(
    model: &Model,
    lane: &Lane,
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
    let mut spans = vec![
        Span::raw(fit(&clean(&lane.project), label_w)),
        dim(model, " │"),
    ];
    for cell in cells {
        spans.push(match cell {
            Some(mark) => styled(mark.style(model), mark.glyph()),
            None => dim(model, "·"),
        });
    }
    Line::from(spans)
}

fn legend(model: &Model) -> Line<'static> {
    let mut spans = Vec::new();
    for (mark, text) in [
        (Mark::Acknowledged, " acknowledged   "),
        (Mark::Unacknowledged, " not acknowledged   "),
        (
            Mark::Dropped,
            " the summary dropped something (3, Compaction tab: which)",
        ),
    ] {
        spans.push(styled(mark.style(model), mark.glyph()));
        spans.push(dim(model, text));
    }
    Line::from(spans)
}
