//! The list's title: how many projects, the filter, and the header counts (CRITICAL, STALE, unacknowledged, by kind), each a filter a click turns
//! on and off. Drawing and clicking read the same segments, so they agree.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;

use super::clean;
use crate::tui::model::Model;
use crate::tui::only::Only;

/// One piece of the title; `click` is the filter a click on it sets.
struct Segment {
    text: String,
    style: Style,
    click: Option<Option<Only>>,
}

fn segments(model: &Model) -> Vec<Segment> {
    let t = &model.theme;
    let total = model.workspace.projects.len();
    let plain = |text: String, style: Style| Segment {
        text,
        style,
        click: None,
    };
    let mut out = vec![plain(
        if model.visible.len() == total {
            format!(" Projects {total} ")
        } else {
            format!(" Projects {}/{total} ", model.visible.len())
        },
        t.title,
    )];
    if model.filtering || !model.filter.is_empty() {
        let cursor = if model.filtering { "▏" } else { "" };
        out.push(plain(
            format!("/{}{cursor} ", clean(&model.filter)),
            t.filter,
        ));
    }
    if model.unread {
        // Counts of files not read yet would be wrong.
        out.push(plain("loading… ".to_string(), t.dim));
        return out;
    }
    for (only, n) in model.tally.counts() {
        let on = model.only == Some(only);
        // Not COMPLETE is `F`'s alone: its count is nearly the total.
        if (n == 0 || only == Only::Open) && !on {
            continue;
        }
        let label = match only {
            Only::Unacknowledged => "⚑",
            Only::Open => "open",
            other => other.label(),
        };
        let (text, style) = if on {
            (format!("[{label} {n}] "), t.filter)
        } else {
            let style = match only {
                Only::Critical => t.critical,
                Only::Stale => t.warn,
                Only::Unacknowledged => t.unacked,
                Only::Open | Only::Jerry | Only::Nexus => t.dim,
            };
            (format!("{label} {n} "), style)
        };
        out.push(Segment {
            text,
            style,
            click: Some(if on { None } else { Some(only) }),
        });
    }
    let (loose, _) = super::loose::counts(model);
    if loose > 0 {
        // Checkpoints tied to no project, listed under the rows (`loose`).
        out.push(plain(format!("no project {loose} "), t.dim));
    }
    out
}

pub fn spans(model: &Model) -> Vec<Span<'static>> {
    segments(model)
        .into_iter()
        .map(|s| Span::styled(s.text, s.style))
        .collect()
}

/// The filter a click at column `x` of the list's top border sets (`Some(None)`:
/// every project again), if it hit a count.
pub fn click(model: &Model, list: Rect, x: u16) -> Option<Option<Only>> {
    // The title starts after the border's corner.
    let mut left = usize::from(list.x) + 1;
    for segment in segments(model) {
        let right = left + crate::core::text::width(&segment.text);
        if (left..right).contains(&usize::from(x)) {
            return segment.click;
        }
        left = right;
    }
    None
}
