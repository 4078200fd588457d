//! The status bar's messages of this session, kept to be read again (`M`): a
//! message lasts seconds and is cut at the pane's width, the log keeps it whole
//! with the time it was shown, the newest first.

use std::collections::VecDeque;

use crossterm::event::{KeyCode, KeyEvent};

use super::action::Action;
use super::effect::Effect;
use super::model::{Model, Overlay, StatusKind};
use crate::core::time::Timestamp;

/// The log keeps the last this many messages.
const KEPT: usize = 500;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logged {
    pub at: Timestamp,
    pub kind: StatusKind,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessageLog(VecDeque<Logged>);

impl MessageLog {
    /// Takes in a message shown now; the same text shown again at once is one entry.
    pub fn push(&mut self, at: Timestamp, kind: StatusKind, text: &str) {
        if self.0.back().is_some_and(|last| last.text == text) {
            return;
        }
        if self.0.len() == KEPT {
            self.0.pop_front();
        }
        self.0.push_back(Logged {
            at,
            kind,
            text: text.to_string(),
        });
    }

    /// The newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &Logged> {
        self.0.iter().rev()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Where a navigation action takes a scrolling overlay (help, messages) or the
/// timeline's selection, if it is one.
pub(crate) fn scrolled(action: Option<Action>, scroll: u16, half_page: u16) -> Option<u16> {
    Some(match action? {
        Action::Down | Action::DetailDown => scroll.saturating_add(1),
        Action::Up | Action::DetailUp => scroll.saturating_sub(1),
        Action::PageDown => scroll.saturating_add(half_page),
        Action::PageUp => scroll.saturating_sub(half_page),
        Action::Top => 0,
        Action::Bottom => u16::MAX,
        _ => return None,
    })
}

/// A key while the messages are open: they scroll as the help does; `M`, `Esc`
/// or `back` close them.
pub(crate) fn on_key(model: &mut Model, scroll: u16, key: KeyEvent, ctrl_c: bool) -> Vec<Effect> {
    let half_page = (super::view::messages_pane(model).height / 2).max(1);
    let action = model.keymap.action_for(&key);
    let scroll = match action {
        _ if ctrl_c => return super::quit::request(model),
        Some(Action::Quit) => return super::quit::request(model),
        Some(Action::Messages | Action::Back) => {
            model.overlay = Overlay::None;
            return Vec::new();
        }
        _ if key.code == KeyCode::Esc => {
            model.overlay = Overlay::None;
            return Vec::new();
        }
        _ => scrolled(action, scroll, half_page).unwrap_or(scroll),
    };
    let most = super::view::messages_max_scroll(model);
    model.overlay = Overlay::Messages {
        scroll: scroll.min(most),
    };
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_each_message_once_newest_first_and_the_last_ones() {
        let mut log = MessageLog::default();
        log.push(Timestamp(1), StatusKind::Info, "reloading");
        log.push(Timestamp(2), StatusKind::Info, "reloading");
        log.push(Timestamp(3), StatusKind::Error, "not saved: x");
        let texts: Vec<&str> = log.newest_first().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["not saved: x", "reloading"]);
        for i in 0..KEPT + 10 {
            log.push(Timestamp(10), StatusKind::Info, &format!("m{i}"));
        }
        assert_eq!(log.newest_first().count(), KEPT);
        assert_eq!(
            log.newest_first().last().map(|l| l.text.as_str()),
            Some("m10")
        );
    }
}
