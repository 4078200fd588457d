//! Keys → named actions. Defaults are embedded from `assets/keymap.default.toml`
//! (entries `{on, run, desc}`, as yazi writes them); a user `keymap.toml` overlays
//! them. A bad user file is reported and the defaults carry on.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;

use super::action::{Action, Group};
use crate::config::{line_col, toml_error};

pub const DEFAULT_TOML: &str = include_str!("../../assets/keymap.default.toml");

/// A key with its modifiers, normalised so that `G` and `<S-g>` are the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub key: Key,
    pub action: Action,
    pub desc: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    keymap: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    on: toml::Spanned<String>,
    run: toml::Spanned<String>,
    #[serde(default)]
    desc: Option<String>,
}

impl Keymap {
    pub fn defaults() -> Keymap {
        let mut keymap = Keymap {
            bindings: Vec::new(),
        };
        // The embedded table is checked by a test; a defect there leaves keys unbound.
        let _ = keymap.overlay_text(DEFAULT_TOML, "keymap.default.toml", true);
        keymap
    }

    /// The defaults overlaid with a user file's text. The message names the file,
    /// line and column of the first problem; good entries still apply.
    pub fn with_user(text: &str, source: &str) -> (Keymap, Option<String>) {
        let mut keymap = Keymap::defaults();
        let problem = keymap.overlay_text(text, source, false).err();
        (keymap, problem)
    }

    fn overlay_text(&mut self, text: &str, source: &str, defaults: bool) -> Result<(), String> {
        let file: File = toml::from_str(text).map_err(|e| toml_error(source, text, &e))?;
        let mut first_problem = None;
        for entry in file.keymap {
            let at = |span: std::ops::Range<usize>| {
                let (line, col) = line_col(text, span.start);
                format!("{source}:{line}:{col}")
            };
            let Some(key) = parse_key(entry.on.get_ref()) else {
                let msg = format!(
                    "{}: unknown key {:?}",
                    at(entry.on.span()),
                    entry.on.get_ref()
                );
                first_problem.get_or_insert(msg);
                continue;
            };
            let Some(action) = Action::from_name(entry.run.get_ref()) else {
                let msg = format!(
                    "{}: unknown action {:?} (see docs/keybindings.md)",
                    at(entry.run.span()),
                    entry.run.get_ref()
                );
                first_problem.get_or_insert(msg);
                continue;
            };
            self.bindings.retain(|b| b.key != key);
            if action != Action::Noop {
                let desc = match entry.desc {
                    Some(desc) => desc,
                    None if defaults => String::new(),
                    None => self.desc_of(action).unwrap_or_default(),
                };
                self.bindings.push(Binding { key, action, desc });
            }
        }
        first_problem.map_or(Ok(()), Err)
    }

    fn desc_of(&self, action: Action) -> Option<String> {
        self.bindings
            .iter()
            .chain(Keymap::defaults().bindings.iter())
            .find(|b| b.action == action)
            .map(|b| b.desc.clone())
    }

    pub fn action_for(&self, event: &KeyEvent) -> Option<Action> {
        let key = Key::from_event(event);
        self.bindings
            .iter()
            .find(|b| b.key == key)
            .map(|b| b.action)
    }

    /// The first key bound to `action`, written in keymap notation.
    pub fn key_label(&self, action: Action) -> Option<String> {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .map(|b| key_name(&b.key))
    }

    pub fn bindings(&self) -> &[Binding] {
        &self.bindings
    }

    /// The help table: one row per action in keymap order, all its keys joined.
    pub fn help_rows(&self) -> Vec<(Group, String, String)> {
        let mut rows: Vec<(Group, Action, Vec<String>, String)> = Vec::new();
        for b in &self.bindings {
            match rows.iter_mut().find(|r| r.1 == b.action) {
                Some(row) => row.2.push(key_name(&b.key)),
                None => rows.push((
                    b.action.group(),
                    b.action,
                    vec![key_name(&b.key)],
                    b.desc.clone(),
                )),
            }
        }
        rows.sort_by_key(|r| r.0);
        rows.into_iter()
            .map(|(group, _, keys, desc)| (group, keys.join(" "), desc))
            .collect()
    }
}

impl Key {
    pub fn from_event(event: &KeyEvent) -> Key {
        normalise(event.code, event.modifiers)
    }
}

fn normalise(code: KeyCode, mods: KeyModifiers) -> Key {
    let mods = mods & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
    match code {
        // Shift is in the character itself (`G`), and implied by BackTab.
        KeyCode::Char(c) if c.is_ascii_alphabetic() && mods.contains(KeyModifiers::CONTROL) => {
            Key {
                code: KeyCode::Char(c.to_ascii_lowercase()),
                mods: mods - KeyModifiers::SHIFT,
            }
        }
        KeyCode::Char(_) | KeyCode::BackTab => Key {
            code,
            mods: mods - KeyModifiers::SHIFT,
        },
        _ => Key { code, mods },
    }
}

/// `j`, `G`, `?`, `<C-d>`, `<A-x>`, `<S-Tab>`, `<Space>`, `<Enter>`, `<F5>`, …
pub fn parse_key(text: &str) -> Option<Key> {
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Some(normalise(KeyCode::Char(c), KeyModifiers::NONE));
    }
    let inner = text.strip_prefix('<')?.strip_suffix('>')?;
    let mut mods = KeyModifiers::NONE;
    let mut rest = inner;
    while let Some((prefix, tail)) = rest
        .split_once('-')
        .filter(|(p, t)| p.len() == 1 && !t.is_empty())
    {
        mods |= match prefix {
            "C" | "c" => KeyModifiers::CONTROL,
            "A" | "a" | "M" | "m" => KeyModifiers::ALT,
            "S" | "s" => KeyModifiers::SHIFT,
            _ => return None,
        };
        rest = tail;
    }
    let mut one = rest.chars();
    let code = match (one.next(), one.next()) {
        (Some(c), None) => KeyCode::Char(c),
        _ => named_key(rest)?,
    };
    let code = match code {
        KeyCode::Tab if mods.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
        KeyCode::Char(c)
            if mods.contains(KeyModifiers::SHIFT) && !mods.contains(KeyModifiers::CONTROL) =>
        {
            KeyCode::Char(c.to_ascii_uppercase())
        }
        code => code,
    };
    Some(normalise(code, mods))
}

fn named_key(name: &str) -> Option<KeyCode> {
    let lower = name.to_ascii_lowercase();
    Some(match lower.as_str() {
        "space" => KeyCode::Char(' '),
        "enter" | "cr" | "return" => KeyCode::Enter,
        "esc" | "escape" => KeyCode::Esc,
        "tab" => KeyCode::Tab,
        "backtab" => KeyCode::BackTab,
        "backspace" | "bs" => KeyCode::Backspace,
        "delete" | "del" => KeyCode::Delete,
        "insert" => KeyCode::Insert,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "pageup" => KeyCode::PageUp,
        "pagedown" => KeyCode::PageDown,
        "lt" => KeyCode::Char('<'),
        "gt" => KeyCode::Char('>'),
        f if f.starts_with('f') => {
            KeyCode::F(f.get(1..)?.parse().ok().filter(|n| (1..=24).contains(n))?)
        }
        _ => return None,
    })
}

/// The key in keymap notation.
pub fn key_name(key: &Key) -> String {
    let base = match key.code {
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char('<') => "lt".to_string(),
        KeyCode::Char('>') => "gt".to_string(),
        KeyCode::Char(c) if key.mods.is_empty() => return c.to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "BackTab".into(),
        KeyCode::Backspace => "Backspace".into(),
        KeyCode::Delete => "Delete".into(),
        KeyCode::Insert => "Insert".into(),
        KeyCode::Up => "Up".into(),
        KeyCode::Down => "Down".into(),
        KeyCode::Left => "Left".into(),
        KeyCode::Right => "Right".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::PageUp => "PageUp".into(),
        KeyCode::PageDown => "PageDown".into(),
        KeyCode::F(n) => format!("F{n}"),
        other => format!("{other:?}"),
    };
    let mut out = String::from("<");
    if key.mods.contains(KeyModifiers::CONTROL) {
        out.push_str("C-");
    }
    if key.mods.contains(KeyModifiers::ALT) {
        out.push_str("A-");
    }
    if key.mods.contains(KeyModifiers::SHIFT) {
        out.push_str("S-");
    }
    out.push_str(&base);
    out.push('>');
    out
}
