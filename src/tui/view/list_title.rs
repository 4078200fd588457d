//! The list's title: how many projects, the filter, the header counts (CRITICAL,
//! STALE, unacknowledged, by kind), each a filter a click turns on and off, and
//! the checkpoints tied to no project. Drawing and clicking read the same
//! segments, so they agree. Where the title does not fit the list's border, the
//! counts by kind go first, then the long words are shortened (`Fit`), so the
//! urgent counts and the checkpoints tied to no project stay in sight.

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

/// How much the title gives up to fit: the counts by kind (unless one is the
/// filter on), then the long words. What still does not fit (a long filter in
/// a narrow list) is cut at the border.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fit {
    Whole,
    NoKinds,
    Short,
}

/// The segments that fit in `room` cells (the list's width inside its corners),
/// as few given up as can be.
fn fitted(model: &Model, room: usize) -> Vec<Segment> {
    let mut out = Vec::new();
    for fit in [Fit::Whole, Fit::NoKinds, Fit::Short] {
        out = segments(model, fit);
        let used: usize = out.iter().map(|s| crate::core::text::width(&s.text)).sum();
        if used <= room {
            break;
        }
    }
    out
}

fn segments(model: &Model, fit: Fit) -> Vec<Segment> {
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
    let (loose, loose_waiting) = crate::tui::loose::counts(model);
    for (only, n) in model.tally.counts() {
        let on = model.only == Some(only);
        if only == Only::Jerry && loose > 0 {
            // Checkpoints tied to no project, the list's last row (`tui::loose`):
            // counted before the kinds, which give way first.
            let label = if fit >= Fit::Short {
                "no proj"
            } else {
                "no project"
            };
            let style = if loose_waiting > 0 { t.unacked } else { t.dim };
            out.push(plain(format!("{label} {loose} "), style));
        }
        // Not COMPLETE is `F`'s alone: its count is nearly the total.
        let kind = matches!(only, Only::Jerry | Only::Nexus);
        if (n == 0 || only == Only::Open || (kind && fit >= Fit::NoKinds)) && !on {
            continue;
        }
        let label = match only {
            Only::Unacknowledged => "⚑",
            Only::Open => "open",
            Only::Critical if fit >= Fit::Short => "CRIT",
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
    out
}

/// The title for a list `width` cells wide (its border included).
pub fn spans(model: &Model, width: u16) -> Vec<Span<'static>> {
    fitted(model, room(width))
        .into_iter()
        .map(|s| Span::styled(s.text, s.style))
        .collect()
}

/// The filter a click at column `x` of the list's top border sets (`Some(None)`:
/// every project again), if it hit a count.
pub fn click(model: &Model, list: Rect, x: u16) -> Option<Option<Only>> {
    // The title starts after the border's corner.
    let mut left = usize::from(list.x) + 1;
    for segment in fitted(model, room(list.width)) {
        let right = left + crate::core::text::width(&segment.text);
        if (left..right).contains(&usize::from(x)) {
            return segment.click;
        }
        left = right;
    }
    None
}

/// Cells the title has: the border's width less its two corners.
fn room(width: u16) -> usize {
    usize::from(width).saturating_sub(2)
}
