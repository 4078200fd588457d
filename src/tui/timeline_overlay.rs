//! Keys in the timeline overlay (`t`): the navigation keys move the selection
//! through its compactions (newest first) as they scroll the help and the
//! messages (a page is half the list's rows), Enter (or `l`) opens the selected one
//! in its project's Compaction tab, `t` or Esc closes it.

use crossterm::event::{KeyCode, KeyEvent};

use super::action::Action;
use super::effect::Effect;
use super::messages::scrolled;
use super::model::{Focus, Model, Overlay, StatusKind, Tab};
use super::quit;
use super::update::{refresh_visible, select_row};
use super::view::timeline_lanes::{self, Entry, entries};

pub(crate) fn on_key(
    model: &mut Model,
    selected: usize,
    key: KeyEvent,
    ctrl_c: bool,
) -> Vec<Effect> {
    let action = model.keymap.action_for(&key);
    if ctrl_c || action == Some(Action::Quit) {
        return quit::request(model);
    }
    let (list, _) = entries(model);
    let last = list.len().saturating_sub(1);
    let at = u16::try_from(selected).unwrap_or(u16::MAX);
    if let Some(moved) = scrolled(action, at, timeline_lanes::half_page(model)) {
        model.overlay = Overlay::Timeline {
            selected: usize::from(moved).min(last),
        };
        return Vec::new();
    }
    match action {
        Some(Action::FocusDetail) => match list.get(selected.min(last)) {
            Some(entry) => open(model, entry),
            None => Vec::new(),
        },
        Some(Action::Timeline | Action::Back) => close(model),
        _ if key.code == KeyCode::Esc => close(model),
        _ => Vec::new(),
    }
}

fn close(model: &mut Model) -> Vec<Effect> {
    model.overlay = Overlay::None;
    Vec::new()
}

/// The entry's project selected (the filters cleared if they hide it), its
/// Compaction tab open at the entry's row.
fn open(model: &mut Model, entry: &Entry) -> Vec<Effect> {
    model.overlay = Overlay::None;
    let row_of = |model: &Model| {
        model.visible.iter().position(|&i| {
            model.workspace.projects.get(i).map(|p| p.id.as_str()) == Some(&entry.project)
        })
    };
    let mut cleared = "";
    if row_of(model).is_none() {
        model.filter.clear();
        model.only = None;
        refresh_visible(model);
        cleared = " (the filter cleared to show it)";
    }
    let Some(row) = row_of(model) else {
        model.set_status(
            StatusKind::Error,
            format!("{} is no longer in the list", entry.project),
        );
        return Vec::new();
    };
    select_row(model, row);
    model.tab = Tab::Compaction;
    model.focus = Focus::Detail;
    model.timeline_row = entry.row;
    model.scroll = 0;
    model.set_status(
        StatusKind::Info,
        format!("{} of {}{cleared}", entry.id, entry.project),
    );
    Vec::new()
}
