//! Screen geometry, shared by `view` (to draw) and `update` (to scroll and to map
//! mouse clicks), so both always agree.

use ratatui::layout::Rect;

/// Widths from which the list sits left of the detail instead of above it.
pub const SIDE_BY_SIDE_FROM: u16 = 110;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub list: Rect,
    pub detail: Rect,
    /// The tab bar: the first row inside the detail border.
    pub tabs: Rect,
    /// The tab's content, inside the detail border, under the tab bar.
    pub body: Rect,
    pub status: Rect,
    pub hints: Rect,
    pub side_by_side: bool,
}

pub fn areas(width: u16, height: u16) -> Areas {
    let full = Rect::new(0, 0, width, height);
    let footer = height.min(2);
    let main_h = height - footer;
    let status = Rect::new(0, main_h, width, footer.min(1));
    let hints = Rect::new(0, main_h + footer.min(1), width, footer.saturating_sub(1));
    let side_by_side = width >= SIDE_BY_SIDE_FROM;
    let (list, detail) = if side_by_side {
        let list_w = (width * 45 / 100).clamp(46, 120).min(width);
        (
            Rect::new(0, 0, list_w, main_h),
            Rect::new(list_w, 0, width - list_w, main_h),
        )
    } else {
        let list_h = (main_h * 2 / 5).clamp(5.min(main_h), 14).min(main_h);
        (
            Rect::new(0, 0, width, list_h),
            Rect::new(0, list_h, width, main_h - list_h),
        )
    };
    let inner = inside(detail);
    let tabs = Rect::new(inner.x, inner.y, inner.width, inner.height.min(1));
    let body = Rect::new(
        inner.x,
        inner.y + tabs.height,
        inner.width,
        inner.height - tabs.height,
    );
    let _ = full;
    Areas {
        list,
        detail,
        tabs,
        body,
        status,
        hints,
        side_by_side,
    }
}

/// The area inside a one-cell border.
pub fn inside(area: Rect) -> Rect {
    Rect::new(
        area.x.saturating_add(1).min(area.right()),
        area.y.saturating_add(1).min(area.bottom()),
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    )
}

/// Rows of projects the list shows (inside its border, under its header row).
pub fn list_rows(areas: &Areas) -> usize {
    usize::from(inside(areas.list).height.saturating_sub(1))
}

/// Keeps `selected` within the window `[offset, offset + rows)`.
pub fn follow(offset: usize, selected: usize, rows: usize) -> usize {
    let rows = rows.max(1);
    if selected < offset {
        selected
    } else if selected >= offset + rows {
        selected + 1 - rows
    } else {
        offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_gives_areas_inside_the_screen() {
        for w in 0..200 {
            for h in [0, 1, 2, 3, 5, 10, 24, 40, 60] {
                let a = areas(w, h);
                for r in [a.list, a.detail, a.tabs, a.body, a.status, a.hints] {
                    assert!(r.right() <= w && r.bottom() <= h, "{w}x{h}: {r:?}");
                }
            }
        }
    }

    #[test]
    fn wide_screens_put_the_list_on_the_left() {
        let a = areas(120, 40);
        assert!(a.side_by_side);
        assert_eq!(a.list.height, 38);
        let a = areas(80, 24);
        assert!(!a.side_by_side);
        assert_eq!(a.list.width, 80);
    }

    #[test]
    fn follow_keeps_the_selection_visible() {
        assert_eq!(follow(0, 3, 5), 0);
        assert_eq!(follow(0, 7, 5), 3);
        assert_eq!(follow(6, 2, 5), 2);
        assert_eq!(follow(0, 0, 0), 0);
    }
}
