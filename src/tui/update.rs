//! The dashboard's state machine: `update(&mut Model, Msg, now) -> Vec<Effect>`.
//! Pure: no files, no terminal, no clock. Every effect is data for the runner.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent};

use super::action::Action;
use super::effect::{Effect, StateChange, WriteRequest};
use super::form::{DecisionForm, FormOutcome};
use super::layout::{self, Areas};
use super::list;
use super::model::{Focus, Model, Overlay, Saving, StatusKind, Tab};
use super::msg::{Msg, NotWritten};
use super::only::Only;
use super::{mouse, project_actions, quit, reload};
use crate::core::time::Timestamp;
use crate::core::timeline;
use crate::io::project_edit::Target;
use crate::io::watch::Reload;

pub fn update(model: &mut Model, msg: Msg, now: Timestamp) -> Vec<Effect> {
    model.now = now;
    let input = matches!(msg, Msg::Key(_) | Msg::Mouse(_) | Msg::Paste(_));
    let before = model.selected.clone();
    let was_read = model.loaded && !model.unread;
    let effects = on_msg(model, msg);
    if input {
        super::chosen::after_input(model, before);
        super::picked::after_input(model);
    } else {
        super::chosen::after_background(model, before, was_read);
        super::picked::after_background(model, was_read);
    }
    model.drop_mended_status();
    model.show_held_report();
    effects
}

fn on_msg(model: &mut Model, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Key(key) if key.kind != KeyEventKind::Release => on_key(model, key),
        Msg::Key(_) | Msg::Tick | Msg::Signal(_) => Vec::new(),
        Msg::Mouse(event) => on_mouse(model, event),
        Msg::Paste(text) => super::paste::on_paste(model, &text),
        Msg::Resize(w, h) => {
            model.size = (w, h);
            follow_selection(model);
            clamp_scroll(model);
            Vec::new()
        }
        Msg::Loaded(Ok(loaded)) => reload::on_loaded(model, *loaded),
        Msg::Loaded(Err(problem)) => {
            reload::on_load_failed(model, problem);
            Vec::new()
        }
        Msg::FilesChanged(paths) => {
            let is_record = super::live_records::is_record;
            match crate::io::watch::affected(&model.workspace, &paths, is_record) {
                Reload::Nothing => Vec::new(),
                Reload::Parts {
                    projects,
                    records,
                    checkpoints,
                } => [
                    (!projects.is_empty()).then_some(Effect::ReloadProjects(projects)),
                    (!records.is_empty()).then_some(Effect::ReloadRecords(records)),
                    (!checkpoints.is_empty()).then_some(Effect::ReloadCheckpoints(checkpoints)),
                ]
                .into_iter()
                .flatten()
                .collect(),
                Reload::All => vec![Effect::LoadAll],
            }
        }
        Msg::RecordsLoaded(records) => {
            super::live_records::apply(&mut model.workspace, records);
            model.fills.observe(&model.workspace.context_states);
            // A session past a threshold moves its row (`core::urgency`).
            refresh_visible(model);
            Vec::new()
        }
        Msg::Written { what, result, undo } => {
            if result.is_ok() {
                model.undo = undo.map(|u| *u);
            }
            on_written(model, what, result)
        }
        Msg::Copied {
            what,
            backend,
            copied,
            message,
            terminal,
        } => {
            if copied {
                // The message says where the text went (and what cannot be checked).
                model.set_status(StatusKind::Success, format!("copied {what}: {message}"));
            } else {
                model.set_status(
                    StatusKind::Error,
                    format!("{what} not copied ({backend}): {message}"),
                );
            }
            if terminal.is_empty() {
                Vec::new()
            } else {
                vec![Effect::WriteTerminal(terminal)]
            }
        }
        Msg::ProjectsLoaded(projects) => reload::on_projects_loaded(model, projects),
        Msg::CheckpointsLoaded(read) => {
            super::reload_checkpoints::on_loaded(model, read, model.now)
        }
        Msg::Problem(text) => {
            // The watcher's, from its own thread: a report, not an answer.
            model.report_status(StatusKind::Error, text);
            Vec::new()
        }
        Msg::Launched(Ok(text)) => {
            model.set_status(StatusKind::Success, text);
            Vec::new()
        }
        Msg::Launched(Err(text)) => {
            model.set_status(StatusKind::Error, text);
            Vec::new()
        }
    }
}

fn on_written(model: &mut Model, what: String, result: Result<String, NotWritten>) -> Vec<Effect> {
    model.saving = match result {
        Ok(_) => Saving::Reloading,
        Err(_) => Saving::Idle,
    };
    match result {
        Ok(path) => {
            if matches!(model.overlay, Overlay::Form(_)) {
                model.overlay = Overlay::None;
            }
            model.writes += 1;
            model.set_status(StatusKind::Success, format!("saved: {what} ({path})"));
            vec![Effect::LoadAll]
        }
        Err(NotWritten::Unchanged(why)) => {
            if matches!(model.overlay, Overlay::Form(_)) {
                model.overlay = Overlay::None;
            }
            model.set_status(StatusKind::Info, format!("nothing written: {why}"));
            Vec::new()
        }
        Err(NotWritten::ChangedOnDisk { path }) => {
            let form = match std::mem::replace(&mut model.overlay, Overlay::None) {
                Overlay::Form(form) => Some(form),
                _ => None,
            };
            model.set_status(
                StatusKind::Error,
                format!("not saved: {path} changed on disk since it was read; reload (r)"),
            );
            model.overlay = Overlay::ChangedOnDisk { path, form };
            Vec::new()
        }
        Err(NotWritten::Failed(why)) => {
            if let Overlay::Form(form) = &mut model.overlay {
                form.errors.push((form.focused_field(), why.clone()));
            }
            model.set_status(StatusKind::Error, format!("not saved: {what}: {why}"));
            Vec::new()
        }
    }
}

fn on_key(model: &mut Model, key: KeyEvent) -> Vec<Effect> {
    let ctrl_c = key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
    match &mut model.overlay {
        Overlay::Form(_) if ctrl_c => return quit::request(model),
        Overlay::Form(form) => {
            return match form.handle_key(key) {
                FormOutcome::Editing => Vec::new(),
                FormOutcome::Cancel => {
                    model.overlay = Overlay::None;
                    model.set_status(StatusKind::Info, "decision not saved");
                    Vec::new()
                }
                FormOutcome::Submit(draft) => {
                    // Opened on the chosen project, which follows its file: a copy
                    // of it appearing meanwhile may have given it a suffixed id.
                    let project_id = match &model.chosen {
                        Some(chosen) if !model.chosen_gone => chosen.clone(),
                        _ => form.project_id.clone(),
                    };
                    let op = match form.editing.clone() {
                        Some(id) => StateChange::EditDecision { id, draft },
                        None => StateChange::AddDecision(draft),
                    };
                    write(model, &project_id, op)
                }
            };
        }
        Overlay::ChangedOnDisk { form, .. } => {
            let action = model.keymap.action_for(&key);
            if action == Some(Action::Reload) || key.code == KeyCode::Char('r') {
                model.overlay = match form.take() {
                    Some(form) => Overlay::Form(form),
                    None => Overlay::None,
                };
                model.saving = Saving::Rereading;
                model.set_status(StatusKind::Info, "reading the file again…");
                return vec![Effect::LoadAll];
            }
            if ctrl_c || action == Some(Action::Quit) {
                return quit::request(model);
            }
            if action == Some(Action::Back) || key.code == KeyCode::Esc {
                model.overlay = Overlay::None;
            }
            return Vec::new();
        }
        Overlay::Help { scroll } => {
            let scroll = *scroll;
            return on_help_key(model, scroll, key, ctrl_c);
        }
        Overlay::ConfirmQuit { .. } => return quit::on_confirm_key(model, key),
        Overlay::Messages { scroll } => {
            let scroll = *scroll;
            return super::messages::on_key(model, scroll, key, ctrl_c);
        }
        Overlay::Timeline { selected } => {
            let selected = *selected;
            return super::timeline_overlay::on_key(model, selected, key, ctrl_c);
        }
        Overlay::None => {}
    }
    if model.filtering {
        return on_filter_key(model, key, ctrl_c);
    }
    match model.keymap.action_for(&key) {
        Some(action) => apply(model, action),
        None if ctrl_c => quit::request(model),
        None => Vec::new(),
    }
}

/// Keys while the help is open: the navigation keys scroll it.
fn on_help_key(model: &mut Model, scroll: u16, key: KeyEvent, ctrl_c: bool) -> Vec<Effect> {
    let half_page = (super::view::help_pane(model).height / 2).max(1);
    let action = model.keymap.action_for(&key);
    if let Some(scroll) = super::messages::scrolled(action, scroll, half_page) {
        model.overlay = Overlay::Help { scroll };
        clamp_scroll(model);
        return Vec::new();
    }
    let scroll = match action {
        Some(Action::Quit) => return quit::request(model),
        _ if ctrl_c => return quit::request(model),
        Some(Action::Help | Action::Back) => {
            model.overlay = Overlay::None;
            return Vec::new();
        }
        _ if key.code == KeyCode::Esc => {
            model.overlay = Overlay::None;
            return Vec::new();
        }
        _ => scroll,
    };
    model.overlay = Overlay::Help { scroll };
    clamp_scroll(model);
    Vec::new()
}

fn on_filter_key(model: &mut Model, key: KeyEvent, ctrl_c: bool) -> Vec<Effect> {
    match key.code {
        _ if ctrl_c => return quit::request(model),
        KeyCode::Esc => {
            model.filtering = false;
            model.filter.clear();
        }
        KeyCode::Enter => model.filtering = false,
        KeyCode::Up => return apply(model, Action::Up),
        KeyCode::Down => return apply(model, Action::Down),
        _ if super::line_edit::edit(&mut model.filter, &key) => {}
        _ => return Vec::new(),
    }
    refresh_visible(model);
    Vec::new()
}

/// Applies one named action: what every key ends up as.
pub fn apply(model: &mut Model, action: Action) -> Vec<Effect> {
    match action {
        Action::Noop => Vec::new(),
        Action::Quit => quit::request(model),
        Action::Back => back(model),
        Action::Help => {
            model.overlay = Overlay::Help { scroll: 0 };
            Vec::new()
        }
        Action::Timeline => {
            model.overlay = Overlay::Timeline { selected: 0 };
            Vec::new()
        }
        Action::Messages => {
            model.overlay = Overlay::Messages { scroll: 0 };
            Vec::new()
        }
        Action::Filter => {
            model.filtering = true;
            model.focus = Focus::List;
            Vec::new()
        }
        Action::CycleSort => {
            model.sort = model.sort.next();
            refresh_visible(model);
            sorted(model)
        }
        Action::CycleOnly => super::only::cycle(model),
        Action::ReverseSort => {
            model.reverse = !model.reverse;
            refresh_visible(model);
            sorted(model)
        }
        Action::Reload => {
            model.reload_asked = true;
            model.set_status(StatusKind::Info, "reloading");
            vec![Effect::LoadAll]
        }
        Action::Up => step(model, -1),
        Action::Down => step(model, 1),
        Action::PageUp => page(model, -1),
        Action::PageDown => page(model, 1),
        Action::DetailUp => scroll_by(model, -1),
        Action::DetailDown => scroll_by(model, 1),
        Action::Top => step(model, isize::MIN / 2),
        Action::Bottom => step(model, isize::MAX / 2),
        Action::FocusList => {
            model.focus = Focus::List;
            Vec::new()
        }
        Action::FocusDetail => {
            if model.project().is_some() || model.on_loose {
                model.focus = Focus::Detail;
            }
            Vec::new()
        }
        Action::NextTab => set_tab(model, model.tab.offset(1)),
        Action::PrevTab => set_tab(model, model.tab.offset(-1)),
        Action::TabOverview => set_tab(model, Tab::Overview),
        Action::TabQuality => set_tab(model, Tab::Quality),
        Action::TabCompaction => set_tab(model, Tab::Compaction),
        Action::TabDecisions => set_tab(model, Tab::Decisions),
        Action::TabPrompt => set_tab(model, Tab::Prompt),
        Action::Acknowledge
        | Action::AcknowledgeAll
        | Action::MergeCheckpoint
        | Action::NewDecision
        | Action::EditDecision
        | Action::ToggleApplied
        | Action::CopyPrompt
        | Action::CopyPromptWithCd
        | Action::CopyAlert
        | Action::ResumeNow
        | Action::OpenInEditor
        | Action::DeleteDecision => {
            if model.on_loose && !model.unread {
                super::loose::action(model, action)
            } else {
                project_actions::project_action(model, action)
            }
        }
        Action::Undo => undo(model),
        Action::CopyDropped => super::copy_dropped::copy(model),
    }
}

/// Takes the last decision change or acknowledge back, if every file it wrote
/// still holds what it wrote.
fn undo(model: &mut Model) -> Vec<Effect> {
    let Some(undo) = model.undo.take() else {
        model.set_status(StatusKind::Info, "nothing to undo");
        return Vec::new();
    };
    let Some(project_id) = undo.project_id.clone() else {
        let op = StateChange::Restore {
            what: format!("{} (tied to no project)", undo.what),
            files: undo.files,
        };
        return write_loose(model, op);
    };
    // Said with its project: the selection may be on another one by now.
    let op = StateChange::Restore {
        what: format!("{} in {project_id}", undo.what),
        files: undo.files,
    };
    write(model, &project_id, op)
}

/// Shows only the projects the header count `only` counts (all for `None`).
pub(crate) fn set_only(model: &mut Model, only: Option<Only>) -> Vec<Effect> {
    model.only = only;
    // A filter the operator sets shows its set alone (`list::View::keep`).
    model.chosen = None;
    model.chosen_source = None;
    model.focus = Focus::List;
    refresh_visible(model);
    let text = match only {
        Some(only) => {
            let n = model.visible.len();
            let noun = if n == 1 { "project" } else { "projects" };
            format!("only {}: {n} {noun}", only.label())
        }
        None => "every project".to_string(),
    };
    model.set_status(StatusKind::Info, text);
    Vec::new()
}

fn sorted(model: &mut Model) -> Vec<Effect> {
    let order = if model.reverse { ", reversed" } else { "" };
    let text = format!("sorted by {}{order}", model.sort.label());
    model.set_status(StatusKind::Info, text);
    Vec::new()
}

/// Esc: closes the detail focus, then clears the filters; at the top it only says
/// how to quit.
fn back(model: &mut Model) -> Vec<Effect> {
    if model.focus == Focus::Detail {
        model.focus = Focus::List;
    } else if !model.filter.is_empty() || model.only.is_some() {
        model.filter.clear();
        model.only = None;
        refresh_visible(model);
    } else {
        let key = model.keymap.key_label(Action::Quit).unwrap_or_default();
        model.set_status(StatusKind::Info, format!("{key} quits"));
    }
    Vec::new()
}

fn set_tab(model: &mut Model, tab: Tab) -> Vec<Effect> {
    if model.tab != tab {
        model.tab = tab;
        model.scroll = 0;
    }
    Vec::new()
}

pub(crate) fn areas(model: &Model) -> Areas {
    layout::areas(model.size.0, model.size.1)
}

fn half_page(model: &Model) -> isize {
    let a = areas(model);
    let rows = match model.focus {
        Focus::List => layout::list_rows(&a),
        Focus::Detail => usize::from(a.body.height),
    };
    (rows / 2).max(1) as isize
}

/// Half a page up (`-1`) or down (`1`): with the focus on the detail, half of the
/// pane its text scrolls in (under the table in Compaction and Decisions, where
/// `j`/`k` move the table's row, the details); else of the list.
fn page(model: &mut Model, direction: isize) -> Vec<Effect> {
    let pane = match model.focus {
        Focus::Detail => super::view::scrolling_pane(model),
        Focus::List => None,
    };
    match pane {
        Some(pane) => scroll_by(model, direction * (pane.height / 2).max(1) as isize),
        None => step(model, direction * half_page(model)),
    }
}

/// Scrolls the open tab's text (under a table, the selected row's details) by
/// `by` lines, no further than its last line.
pub(crate) fn scroll_by(model: &mut Model, by: isize) -> Vec<Effect> {
    let next = i64::from(model.scroll).saturating_add(by as i64);
    model.scroll = u16::try_from(next.max(0)).unwrap_or(u16::MAX);
    // Moving up stays within the maximum the scroll was already clamped to.
    if by > 0 {
        clamp_scroll(model);
    }
    Vec::new()
}

/// Moves whatever the focus is on by `by` rows (clamped at both ends).
pub(crate) fn step(model: &mut Model, by: isize) -> Vec<Effect> {
    match model.focus {
        Focus::List => {
            let len = super::loose::list_len(model);
            if len == 0 {
                return Vec::new();
            }
            let current = super::loose::cursor_row(model).unwrap_or(0);
            let next = moved(current, by, len);
            if next == model.visible.len() {
                super::loose::enter(model);
                follow_selection(model);
            } else {
                select_row(model, next);
            }
        }
        Focus::Detail if model.on_loose => {
            let (len, _) = super::loose::counts(model);
            model.loose_row = moved(model.loose_row, by, len);
            // A move is a choice, also one that stays on the last row.
            super::picked::take(model, super::picked::Kind::Loose);
        }
        Focus::Detail => match model.tab {
            Tab::Compaction => {
                let len = model.timeline().len();
                select_table_row(model, moved(model.timeline_row, by, len));
                super::picked::take(model, super::picked::Kind::Timeline);
            }
            Tab::Decisions => {
                let len = model.project().map_or(0, project_actions::decision_count);
                select_table_row(model, moved(model.decision_row, by, len));
                super::picked::take(model, super::picked::Kind::Decision);
            }
            Tab::Overview | Tab::Quality | Tab::Prompt => return scroll_by(model, by),
        },
    }
    Vec::new()
}

/// Selects row `row` of the open tab's table (Compaction, Decisions); another
/// row's details start at the top.
pub(crate) fn select_table_row(model: &mut Model, row: usize) {
    if table_row(model).is_some_and(|current| current != row) {
        match model.tab {
            Tab::Compaction => model.timeline_row = row,
            _ => model.decision_row = row,
        }
        model.scroll = 0;
    }
}

/// The selected row of the open tab's table, if it has one.
fn table_row(model: &Model) -> Option<usize> {
    match model.tab {
        Tab::Compaction => Some(model.timeline_row),
        Tab::Decisions => Some(model.decision_row),
        Tab::Overview | Tab::Quality | Tab::Prompt => None,
    }
}

fn moved(current: usize, by: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    let next = (current as i128 + by as i128).clamp(0, len as i128 - 1);
    usize::try_from(next).unwrap_or(0)
}

pub(crate) fn select_row(model: &mut Model, row: usize) {
    model.on_loose = false;
    select(model, visible_id(model, row));
    super::chosen::adopt(model);
    follow_selection(model);
}

/// Selects project `id` again if the list shows it (`chosen`).
pub(crate) fn reselect(model: &mut Model, id: &str) -> bool {
    let listed = model.visible_projects().any(|p| p.id == id);
    if listed {
        model.on_loose = false;
        select(model, Some(id.to_string()));
        settle_selection(model);
    }
    listed
}

/// The id of the project on visible row `row`.
fn visible_id(model: &Model, row: usize) -> Option<String> {
    model
        .visible
        .get(row)
        .and_then(|&i| model.workspace.projects.get(i))
        .map(|p| p.id.clone())
}

/// Selects project `id`; another project starts at the top of its tabs.
fn select(model: &mut Model, id: Option<String>) {
    if id != model.selected {
        model.selected = id;
        model.scroll = 0;
        model.timeline_row = 0;
        model.decision_row = 0;
    }
}

fn follow_selection(model: &mut Model) {
    let rows = layout::list_rows(&areas(model));
    let selected = super::loose::cursor_row(model).unwrap_or(0);
    let max_offset = super::loose::list_len(model).saturating_sub(rows.max(1));
    model.list_offset = layout::follow(model.list_offset, selected, rows).min(max_offset);
}

/// Recomputes the visible rows after a load, a filter or a sort, keeping the
/// selection (by id) and clamping the detail rows.
pub(crate) fn refresh_visible(model: &mut Model) {
    let mut haystacks = std::mem::take(&mut model.haystacks);
    let ws = &model.workspace;
    let waiting = list::urgency_inputs(ws, &model.config.context);
    let visible = list::visible(&ws.projects, &waiting, list_view(model), &mut haystacks);
    let tally = super::list_change::Tally::of(&ws.projects, &waiting);
    model.haystacks = haystacks;
    model.visible = visible;
    take_tally(model, tally);
}

/// `refresh_visible` after the projects at `changed` were replaced in place
/// (the same ids, no checkpoint moved): only their rows, counts and widths are
/// done again, not every project's.
pub(crate) fn refresh_changed(model: &mut Model, changed: &[usize]) {
    if model.unread || !model.tally.covers(&model.workspace.projects) {
        return refresh_visible(model);
    }
    let (mut haystacks, mut visible) = (
        std::mem::take(&mut model.haystacks),
        std::mem::take(&mut model.visible),
    );
    let mut tally = std::mem::take(&mut model.tally);
    let ws = &model.workspace;
    let waiting = list::urgency_inputs(ws, &model.config.context);
    for &index in changed {
        if let Some(project) = ws.projects.get(index) {
            tally.replace(index, project, &waiting);
        }
    }
    let view = list_view(model);
    super::list_change::replace_rows(
        &mut visible,
        changed,
        &ws.projects,
        &waiting,
        view,
        &mut haystacks,
    );
    model.haystacks = haystacks;
    model.visible = visible;
    take_tally(model, tally);
}

fn list_view(model: &Model) -> list::View<'_> {
    list::View {
        keep: model.chosen.as_deref(),
        query: &model.filter,
        only: model.only,
        sort: model.sort,
        reverse: model.reverse,
    }
}

/// The header counts and the id column's width, then the selection.
fn take_tally(model: &mut Model, tally: super::list_change::Tally) {
    model.tally = tally;
    settle_selection(model);
}

/// After the rows changed: a selection that is gone goes to the first row, and
/// the details pane and the list's scroll follow it.
fn settle_selection(model: &mut Model) {
    super::loose::settle(model);
    if model.selected_row().is_none() {
        select(model, visible_id(model, 0));
    }
    if model.selected.is_none() && !model.on_loose {
        model.focus = Focus::List;
    }
    let (timeline_len, decisions_len) = model.project().map_or((0, 0), |p| {
        (
            timeline::rows(p, &model.workspace.unassigned_checkpoints).len(),
            project_actions::decision_count(p),
        )
    });
    let shown_row = table_row(model);
    model.timeline_row = model.timeline_row.min(timeline_len.saturating_sub(1));
    model.decision_row = model.decision_row.min(decisions_len.saturating_sub(1));
    if table_row(model) != shown_row {
        // The selected row is gone: the one now selected shows its details from the top.
        model.scroll = 0;
    }
    follow_selection(model);
    clamp_scroll(model);
}

/// Keeps the open tab's text and the help scrolled no further than their last
/// line at the bottom of their pane: after a scroll, a resize, or a reload that
/// made the text shorter.
/// Laying the text out costs a full render of it, so nothing at the top (scroll
/// 0, which no maximum can lower) is laid out.
pub(crate) fn clamp_scroll(model: &mut Model) {
    if model.scroll > 0 {
        model.scroll = model.scroll.min(super::view::max_scroll(model));
    }
    if matches!(model.overlay, Overlay::Help { scroll } if scroll > 0) {
        let most = super::view::help_max_scroll(model);
        if let Overlay::Help { scroll } = &mut model.overlay {
            *scroll = (*scroll).min(most);
        }
    }
}

/// A change to checkpoints tied to no project: only their own files are
/// written (`io::project_edit::acknowledge_loose`), with no project to choose.
pub(crate) fn write_loose(model: &mut Model, op: StateChange) -> Vec<Effect> {
    if let Some(busy) = busy(model) {
        model.set_status(StatusKind::Info, busy);
        return Vec::new();
    }
    model.saving = Saving::Writing;
    model.set_status(StatusKind::Info, format!("saving: {}", op.describe()));
    vec![Effect::Write(WriteRequest { target: None, op })]
}

/// Why no write may start now (the last one is not read back yet), if so.
fn busy(model: &Model) -> Option<String> {
    let busy = match model.saving {
        Saving::Idle => None,
        Saving::Writing | Saving::Reloading => Some("still saving the last change"),
        Saving::Rereading => Some("still reading the file again"),
    };
    busy.map(|busy| format!("{busy}; try again once it shows"))
}

pub(crate) fn write(model: &mut Model, project_id: &str, op: StateChange) -> Vec<Effect> {
    let deletes = matches!(op, StateChange::DeleteDecision { .. });
    let undo = matches!(op, StateChange::Restore { .. });
    let refused = super::chosen::refusal(model, project_id).filter(|_| !undo);
    if let Some(why) = refused {
        model.set_status(StatusKind::Error, why);
        return Vec::new();
    }
    if let Some((why, problems)) = super::chosen::unreadable(model, project_id) {
        model.set_status_about(StatusKind::Error, why, problems);
        return Vec::new();
    }
    let Some(target) = model
        .workspace
        .projects
        .iter()
        .find(|p| p.id == project_id)
        .map(|p| Target::of(p).expecting(model.hashes.get(&p.source).copied()))
    else {
        model.set_status(
            StatusKind::Error,
            format!("{project_id}: no longer in the workspace"),
        );
        return Vec::new();
    };
    if let Some(busy) = busy(model) {
        model.set_status(StatusKind::Info, busy);
        return Vec::new();
    }
    if deletes {
        // The operator's own delete: the row then shows the next decision.
        super::picked::forget(model, super::picked::Kind::Decision);
    }
    model.saving = Saving::Writing;
    model.set_status(StatusKind::Info, format!("saving: {}", op.describe()));
    vec![Effect::Write(WriteRequest {
        target: Some(target),
        op,
    })]
}

fn on_mouse(model: &mut Model, event: MouseEvent) -> Vec<Effect> {
    if !matches!(model.overlay, Overlay::None) {
        return Vec::new();
    }
    mouse::on_mouse(model, event)
}

pub(crate) fn open_form(model: &mut Model, form: DecisionForm) {
    model.overlay = Overlay::Form(Box::new(form));
}
