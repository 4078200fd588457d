//! The detail pane: a border titled with the project, the tab bar, the tab.

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::{clean, compaction, decisions, overview, prompt, quality, tab_label};
use crate::core::text::{truncate, width};
use crate::tui::layout::Areas;
use crate::tui::model::{Focus, Model, Tab};

pub fn draw(model: &Model, frame: &mut Frame, a: &Areas) {
    if model.on_loose {
        return super::loose::draw_detail(model, frame, a);
    }
    let theme = &model.theme;
    let focused = model.focus == Focus::Detail;
    let project = model.project();
    let title = match project {
        Some(p) => {
            let name = p
                .name
                .as_deref()
                .filter(|n| *n != p.id)
                .map(|n| format!(" — {}", clean(n)))
                .unwrap_or_default();
            format!(" {}{name} ", clean(&p.id))
        }
        None => " No project selected ".to_string(),
    };
    let room = usize::from(a.detail.width.saturating_sub(4));
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(if focused {
            theme.border_focus
        } else {
            theme.border
        })
        .title(Span::styled(
            truncate(&title, room).into_owned(),
            theme.title,
        ));
    frame.render_widget(block, a.detail);

    let mut tabs = Vec::new();
    let mut room = usize::from(a.tabs.width);
    for tab in Tab::ALL {
        let style = if tab == model.tab {
            theme.tab_active
        } else {
            theme.tab_inactive
        };
        // A label that does not fit whole is cut with an ellipsis, and is the last.
        let label = tab_label(tab);
        let shown = truncate(&label, room).into_owned();
        room = room.saturating_sub(width(&shown) + 1);
        let cut = shown != label;
        tabs.push(Span::styled(shown, style));
        if cut || room == 0 {
            break;
        }
        tabs.push(Span::raw(" "));
    }
    frame.render_widget(Paragraph::new(Line::from(tabs)), a.tabs);

    if model.unread {
        let hint = "Reading the files…";
        frame.render_widget(Paragraph::new(Span::styled(hint, theme.dim)), a.body);
        return;
    }
    let Some(project) = project else {
        if model.loaded && model.workspace.projects.is_empty() {
            let wrap = ratatui::widgets::Wrap { trim: false };
            let text = next_steps(theme);
            frame.render_widget(Paragraph::new(text).wrap(wrap), a.body);
            return;
        }
        let hint = if model.loaded {
            "Select a project in the list."
        } else {
            "Loading…"
        };
        frame.render_widget(Paragraph::new(Span::styled(hint, theme.dim)), a.body);
        return;
    };
    if a.body.height == 0 || a.body.width == 0 {
        return;
    }
    match model.tab {
        Tab::Overview => overview::draw(model, project, frame, a.body),
        Tab::Quality => quality::draw(model, project, frame, a.body),
        Tab::Compaction => compaction::draw(model, project, frame, a.body),
        Tab::Decisions => decisions::draw(model, project, frame, a.body),
        Tab::Prompt => prompt::draw(model, project, frame, a.body),
    }
}

/// What to do in a folder with no workspace: what resume-tui reads, and the
/// commands that give it one to show.
fn next_steps(theme: &crate::tui::theme::Theme) -> Vec<Line<'static>> {
    let step = |command: &'static str, what: &'static str| {
        Line::from(vec![
            Span::styled(format!("  {command:<24}"), theme.accent),
            Span::styled(what, theme.base),
        ])
    };
    vec![
        Line::from(Span::styled("Nothing to show here yet.", theme.warn)),
        Line::from(Span::styled(
            "resume-tui reads Jerry workflows (ORCHESTRATION.yaml, .jerry/checkpoints/) \
             and Nexus manifests (resume-context.md) under the folder it is given.",
            theme.dim,
        )),
        Line::from(""),
        Line::from(Span::styled("Next:", theme.base)),
        step("resume-tui --demo", "try it on a demo workspace"),
        step("resume-tui init", "start a workspace in this folder"),
        step("resume-tui --root DIR", "open the folder of a workspace"),
        Line::from(""),
        Line::from(Span::styled(
            "README.md and docs/ (docs/keybindings.md for the keys); q quits.",
            theme.dim,
        )),
    ]
}
