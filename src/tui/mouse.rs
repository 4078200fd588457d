//! Mouse: a click selects (a project, a tab, a timeline or decision row); the wheel
//! scrolls whatever is under the pointer.

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::action::Action;
use super::effect::Effect;
use super::model::{Focus, Model, Tab};
use super::update::{apply, areas, select_row, step};

pub fn on_mouse(model: &mut Model, event: MouseEvent) -> Vec<Effect> {
    let a = areas(model);
    let at = Position::new(event.column, event.row);
    match event.kind {
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let by = if event.kind == MouseEventKind::ScrollDown {
                3
            } else {
                -3
            };
            if a.list.contains(at) {
                model.focus = Focus::List;
            } else if a.detail.contains(at) {
                model.focus = Focus::Detail;
            } else {
                return Vec::new();
            }
            step(model, by)
        }
        MouseEventKind::Down(MouseButton::Left) => {
            if a.list.contains(at) {
                model.focus = Focus::List;
                click_list(model, a.list, at.y);
            } else if a.tabs.contains(at) {
                model.focus = Focus::Detail;
                if let Some(tab) = tab_at(a.tabs, at.x) {
                    return apply(model, tab_action(tab));
                }
            } else if a.body.contains(at) {
                model.focus = Focus::Detail;
                click_table(model, a.body, at.y);
            }
            Vec::new()
        }
        _ => Vec::new(),
    }
}

fn click_list(model: &mut Model, list: Rect, y: u16) {
    // Border, then the header row, then the projects.
    let first_row = list.y + 2;
    if y < first_row || y >= list.bottom().saturating_sub(1) {
        return;
    }
    let row = model.list_offset + usize::from(y - first_row);
    if row < model.visible.len() {
        select_row(model, row);
    }
}

/// Rows of the Compaction timeline and the Decisions table start under a header.
fn click_table(model: &mut Model, body: Rect, y: u16) {
    let Some(offset_row) = usize::from(y - body.y).checked_sub(1) else {
        return;
    };
    match model.tab {
        Tab::Compaction => {
            let len = model.project().map_or(0, |_| model.timeline().len());
            let offset =
                super::view::table_offset(model.timeline_row, super::view::timeline_height(body));
            let row = offset + offset_row;
            if row < len {
                model.timeline_row = row;
            }
        }
        Tab::Decisions => {
            let len = model.project().map_or(0, super::actions::decision_count);
            let offset =
                super::view::table_offset(model.decision_row, super::view::decisions_height(body));
            let row = offset + offset_row;
            if row < len {
                model.decision_row = row;
            }
        }
        _ => {}
    }
}

/// The tab under column `x` of the tab bar, as the view draws it: " 1 Overview " …
pub fn tab_at(tabs: Rect, x: u16) -> Option<Tab> {
    let mut left = tabs.x;
    for tab in Tab::ALL {
        let w = super::view::tab_label(tab).chars().count() as u16;
        if x >= left && x < left + w {
            return Some(tab);
        }
        left += w + 1;
    }
    None
}

fn tab_action(tab: Tab) -> Action {
    match tab {
        Tab::Overview => Action::TabOverview,
        Tab::Quality => Action::TabQuality,
        Tab::Compaction => Action::TabCompaction,
        Tab::Decisions => Action::TabDecisions,
        Tab::Prompt => Action::TabPrompt,
    }
}
