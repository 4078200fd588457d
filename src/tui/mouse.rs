//! Mouse: a click selects (a project, a tab, a timeline or decision row); the wheel
//! scrolls whatever is under the pointer (over a table's details, the details).

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::action::Action;
use super::effect::Effect;
use super::model::{Focus, Model, Tab};
use super::update::{apply, areas, scroll_by, select_row, select_table_row, step};
use super::view::table_and_details;

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
                if table_and_details(model).is_some_and(|[_, details]| details.contains(at)) {
                    return scroll_by(model, by);
                }
            } else {
                return Vec::new();
            }
            step(model, by)
        }
        MouseEventKind::Down(MouseButton::Left) => {
            if at.y == a.list.y && a.list.contains(at) {
                if let Some(only) = super::view::list_title::click(model, a.list, at.x) {
                    return super::update::set_only(model, only);
                }
            } else if a.list.contains(at) {
                model.focus = Focus::List;
                click_list(model, a.list, at.y);
            } else if a.tabs.contains(at) {
                model.focus = Focus::Detail;
                if let Some(tab) = tab_at(a.tabs, at.x) {
                    return apply(model, tab_action(tab));
                }
            } else if a.body.contains(at) {
                model.focus = Focus::Detail;
                click_table(model, at);
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
    } else if row < super::loose::list_len(model) {
        super::loose::enter(model);
    }
}

/// Rows of the Compaction timeline and the Decisions table start under a header;
/// a click on the details under the table selects nothing.
fn click_table(model: &mut Model, at: Position) {
    let Some([table, _]) = table_and_details(model).filter(|[table, _]| table.contains(at)) else {
        return;
    };
    let Some(offset_row) = usize::from(at.y - table.y).checked_sub(1) else {
        return;
    };
    let (selected, len) = match model.tab {
        Tab::Compaction => (model.timeline_row, model.timeline().len()),
        _ => (
            model.decision_row,
            model
                .project()
                .map_or(0, super::project_actions::decision_count),
        ),
    };
    let row = super::view::table_offset(selected, table.height) + offset_row;
    if row < len {
        select_table_row(model, row);
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
