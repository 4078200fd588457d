//! Shared fixtures for the dashboard tests: the demo workspace loaded at a fixed
//! moment, a model over it, keys by keymap notation, and screen dumps.
#![allow(dead_code)]

use crossterm::event::{KeyEvent, KeyEventKind, KeyEventState};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use resume_tui::config::Config;
use resume_tui::core::model::Workspace;
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;
use resume_tui::tui::keymap::{Keymap, parse_key};
use resume_tui::tui::theme::Theme;
use resume_tui::tui::{Effect, Model, Msg, update, view};

/// 2026-02-17T12:34:56Z: every demo timestamp is relative to it.
pub const NOW: Timestamp = Timestamp(1_771_331_696);

/// The demo unpacked at `NOW` and loaded; the root shown as `/demo`.
pub fn demo_workspace() -> Workspace {
    let dir = tempfile::tempdir().unwrap();
    resume_tui::io::demo::unpack_into(dir.path(), NOW).unwrap();
    let mut ws =
        resume_tui::io::load::load_workspace(dir.path(), &Env::default(), NOW, &Config::default());
    ws.root = "/demo".to_string();
    ws
}

pub fn model_with(ws: Workspace, theme: Theme, width: u16, height: u16) -> Model {
    let mut model = Model::new(Config::default(), theme, Keymap::defaults(), NOW);
    update(&mut model, Msg::Resize(width, height), NOW);
    update(&mut model, Msg::loaded(ws), NOW);
    model
}

pub fn demo_model(width: u16, height: u16) -> Model {
    model_with(demo_workspace(), Theme::default_dark(), width, height)
}

pub fn key_event(notation: &str) -> KeyEvent {
    let key = parse_key(notation).unwrap_or_else(|| panic!("bad key {notation}"));
    KeyEvent {
        code: key.code,
        modifiers: key.mods,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    }
}

/// Sends keys written in keymap notation, one after another; returns every effect.
pub fn press(model: &mut Model, keys: &[&str]) -> Vec<Effect> {
    keys.iter()
        .flat_map(|k| update(model, Msg::Key(key_event(k)), NOW))
        .collect()
}

/// Types text (each character a key).
pub fn type_text(model: &mut Model, text: &str) -> Vec<Effect> {
    let keys: Vec<String> = text
        .chars()
        .map(|c| {
            if c == ' ' {
                "<Space>".to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    press(model, &refs)
}

/// Selects the project with this id in the list.
pub fn select(model: &mut Model, id: &str) {
    update(model, Msg::Key(key_event("g")), NOW);
    for _ in 0..model.visible.len() {
        if model.selected.as_deref() == Some(id) {
            return;
        }
        update(model, Msg::Key(key_event("j")), NOW);
    }
    assert_eq!(
        model.selected.as_deref(),
        Some(id),
        "no project {id} in the list"
    );
}

pub fn draw(model: &Model) -> Buffer {
    let (w, h) = model.size;
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|frame| view(model, frame)).unwrap();
    terminal.backend().buffer().clone()
}

/// The rows of `area` in `buffer`, trailing spaces trimmed.
pub fn area_rows(buffer: &Buffer, area: ratatui::layout::Rect) -> Vec<String> {
    (area.top()..area.bottom())
        .map(|y| {
            let mut row = String::new();
            let mut skip = 0;
            for x in area.left()..area.right() {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let symbol = buffer[(x, y)].symbol();
                skip = resume_tui::core::text::width(symbol).saturating_sub(1);
                row.push_str(symbol);
            }
            row.trim_end().to_string()
        })
        .collect()
}

pub fn screen(model: &Model) -> String {
    resume_tui::tui::event_loop::buffer_text(&draw(model))
}

/// The screen's text, then each row's styles as letters with a legend, so a theme
/// snapshot shows which cells get which colours and modifiers.
pub fn styled_screen(model: &Model) -> String {
    let buffer = draw(model);
    let mut legend: Vec<String> = Vec::new();
    let width = usize::from(buffer.area.width);
    let mut styles = String::new();
    for row in buffer.content().chunks(width) {
        let mut line = String::new();
        for cell in row {
            let style = format!("fg={:?} bg={:?} mod={:?}", cell.fg, cell.bg, cell.modifier);
            let index = match legend.iter().position(|s| *s == style) {
                Some(i) => i,
                None => {
                    legend.push(style);
                    legend.len() - 1
                }
            };
            line.push(letter(index));
        }
        styles.push_str(&line);
        styles.push('\n');
    }
    let mut out = resume_tui::tui::event_loop::buffer_text(&buffer);
    out.push_str("\n--- styles ---\n");
    out.push_str(&styles);
    out.push_str("--- legend ---\n");
    for (i, style) in legend.iter().enumerate() {
        out.push_str(&format!("{} {style}\n", letter(i)));
    }
    out
}

fn letter(i: usize) -> char {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    LETTERS.get(i).map_or('?', |b| *b as char)
}
