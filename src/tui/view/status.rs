//! The status bar (what just happened) and the key hints (from the keymap).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::clean;
use crate::core::text::{truncate, width};
use crate::tui::action::Action;
use crate::tui::model::{Focus, Model, Overlay, StatusKind, Tab};
use crate::tui::shorten::fit_message;

pub fn draw(model: &Model, frame: &mut Frame, status: Rect, hints: Rect) {
    let t = &model.theme;
    let w = usize::from(status.width);
    let line = match model.live_status() {
        Some(s) => {
            let (glyph, style) = match s.kind {
                StatusKind::Info => ("·", t.info),
                StatusKind::Success => ("✓", t.ok),
                StatusKind::Error => ("✗", t.error),
                StatusKind::Flag => ("⚑", t.unacked),
            };
            let text = format!("{glyph} {}", clean(&s.text));
            Line::from(Span::styled(fit_message(&text, w).into_owned(), style))
        }
        None => Line::from(Span::styled(
            truncate(&idle_line(model), w).into_owned(),
            t.dim,
        )),
    };
    frame.render_widget(Paragraph::new(line), status);
    frame.render_widget(
        Paragraph::new(hint_line(model, usize::from(hints.width))),
        hints,
    );
}

/// With no message: where the selection is in the list ("3/41"), how the list
/// is sorted and filtered, a precompact state that names no project here, and
/// the workspace root.
fn idle_line(model: &Model) -> String {
    let rows = crate::tui::loose::list_len(model);
    let position = match crate::tui::loose::cursor_row(model) {
        Some(row) => format!("{}/{rows}", row + 1),
        None => format!("0/{rows}"),
    };
    let mut parts = vec![position];
    if model.on_loose {
        parts.push("checkpoints tied to no project".to_string());
    }
    if model.visible.len() != model.workspace.projects.len() {
        parts.push(format!("of {}", model.workspace.projects.len()));
    }
    let arrow = if model.reverse { "↑" } else { "↓" };
    parts.push(format!("by {} {arrow}", model.sort.label()));
    // A state naming a project shows on that project's tabs; any other, here.
    if let Some(note) = crate::core::precompact::orphan_note(&model.workspace, model.now) {
        parts.push(clean(&note).into_owned());
    }
    parts.push(clean(&model.workspace.root).into_owned());
    format!("· {}", parts.join(" · "))
}

fn hint_line(model: &Model, w: usize) -> Line<'static> {
    let t = &model.theme;
    // An overlay takes the keys first (`update::on_key`), so its hints come first.
    let mut pairs: Vec<(String, &str)> = match &model.overlay {
        Overlay::ConfirmQuit { .. } => {
            vec![("y".into(), "quit"), ("any other key".into(), "stay")]
        }
        Overlay::ChangedOnDisk { .. } => vec![("r".into(), "reload"), ("Esc".into(), "cancel")],
        Overlay::Form(_) => vec![
            ("Ctrl-S".into(), "save"),
            ("Tab".into(), "next field"),
            ("Esc".into(), "cancel"),
        ],
        Overlay::Help { .. } => overlay_keys(model, Action::Help, "scroll"),
        Overlay::Messages { .. } => overlay_keys(model, Action::Messages, "scroll"),
        Overlay::Timeline { .. } => {
            let mut keys = overlay_keys(model, Action::Timeline, "move");
            if let Some(open) = label_preferring(model, Action::FocusDetail, "<Enter>") {
                keys.insert(1, (open, "open"));
            }
            keys
        }
        Overlay::None if model.filtering => vec![
            ("type".into(), "to filter"),
            ("Enter".into(), "keep"),
            ("Esc".into(), "clear"),
            ("↑↓".into(), "move"),
        ],
        Overlay::None => actions(model)
            .iter()
            .filter_map(|(a, label)| model.keymap.key_label(*a).map(|k| (k, *label)))
            .collect(),
    };
    // The last hint (quit or back on the main screens) is kept; the others give way.
    let last = pairs.pop();
    let cost = |(key, label): &(String, &str)| width(key) + 1 + width(label) + 2;
    let mut used = last.as_ref().map_or(0, cost);
    let mut shown = Vec::new();
    for pair in pairs {
        if used + cost(&pair) > w {
            break;
        }
        used += cost(&pair);
        shown.push(pair);
    }
    shown.extend(last.filter(|pair| cost(pair) <= w));
    let spans: Vec<Span> = shown
        .into_iter()
        .flat_map(|(key, label)| {
            [
                Span::styled(key, t.key),
                Span::styled(format!(" {label}  "), t.dim),
            ]
        })
        .collect();
    Line::from(spans)
}

/// The keys of an overlay the navigation keys move in (help, messages,
/// timeline): `j/k scroll  ?/<Esc> close  <C-d>/<C-u> page  g/G top/bottom  q
/// quit`, as bound.
fn overlay_keys(model: &Model, toggle: Action, moves: &'static str) -> Vec<(String, &'static str)> {
    let pair = |a: Action, b: Action| {
        let keys: Vec<String> = [a, b]
            .into_iter()
            .filter_map(|action| model.keymap.key_label(action))
            .collect();
        (!keys.is_empty()).then(|| keys.join("/"))
    };
    // Esc closes every overlay whatever the keymap says.
    let close = match model.keymap.key_label(toggle) {
        Some(key) if key != "<Esc>" => format!("{key}/<Esc>"),
        _ => "<Esc>".to_string(),
    };
    // In the order they give way to a narrow pane: the last ones first.
    let mut keys: Vec<(String, &'static str)> = [
        (pair(Action::Down, Action::Up), moves),
        (Some(close), "close"),
        (pair(Action::PageDown, Action::PageUp), "page"),
        (pair(Action::Top, Action::Bottom), "top/bottom"),
    ]
    .into_iter()
    .filter_map(|(keys, label)| keys.map(|k| (k, label)))
    .collect();
    keys.extend(model.keymap.key_label(Action::Quit).map(|k| (k, "quit")));
    keys
}

/// The key bound to `action` named `preferred` if it is one of them, else its
/// first.
fn label_preferring(model: &Model, action: Action, preferred: &str) -> Option<String> {
    let bound = model
        .keymap
        .bindings()
        .iter()
        .any(|b| b.action == action && crate::tui::keymap::key_name(&b.key) == preferred);
    if bound {
        Some(preferred.to_string())
    } else {
        model.keymap.key_label(action)
    }
}

fn actions(model: &Model) -> Vec<(Action, &'static str)> {
    use Action::*;
    if model.on_loose {
        return loose_actions(model);
    }
    let mut out = match (model.focus, model.tab) {
        (Focus::List, _) => vec![
            (Down, "down"),
            (Up, "up"),
            (FocusDetail, "open"),
            (Filter, "filter"),
            (CycleSort, "sort"),
        ],
        (Focus::Detail, Tab::Compaction) => vec![
            (Down, "next"),
            (DetailDown, "details"),
            (Acknowledge, "ack"),
            (AcknowledgeAll, "ack all"),
            (MergeCheckpoint, "merge"),
            (CopyAlert, "copy alert"),
        ],
        (Focus::Detail, Tab::Decisions) => vec![
            (Down, "next"),
            (DetailDown, "details"),
            (NewDecision, "new"),
            (EditDecision, "edit"),
            (ToggleApplied, "applied"),
        ],
        (Focus::Detail, _) => vec![(Down, "scroll"), (FocusList, "list")],
    };
    out.extend([(NextTab, "tab"), (CopyPrompt, "copy prompt")]);
    out.extend([(Action::Help, "help"), leave(model)]);
    out
}

/// On the `no project` row: its checkpoints have no tabs and no prompt.
fn loose_actions(model: &Model) -> Vec<(Action, &'static str)> {
    use Action::*;
    let mut out = match model.focus {
        Focus::List => vec![(Down, "down"), (Up, "up"), (FocusDetail, "open")],
        Focus::Detail => vec![(Down, "next"), (FocusList, "list")],
    };
    out.extend([
        (Acknowledge, "ack"),
        (AcknowledgeAll, "ack all"),
        (Undo, "undo"),
    ]);
    out.extend([(Action::Help, "help"), leave(model)]);
    out
}

/// The last hint: `Esc` leaves the details, `q` the dashboard.
fn leave(model: &Model) -> (Action, &'static str) {
    if model.focus == Focus::Detail {
        (Action::Back, "back")
    } else {
        (Action::Quit, "quit")
    }
}
