//! What reaches the run loop from the terminal: events read on a thread of their
//! own, taken in batches (everything pending before each frame), bursts merged.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::model::{Model, Overlay};
use super::msg::Msg;

/// Ages on screen are redrawn this often when nothing else happens.
const TICK: Duration = Duration::from_secs(30);

/// How long the reader waits for input before it looks at its gate again: how
/// soon a program the dashboard runs in its terminal (the editor) gets the input.
const GATE_CHECK: Duration = Duration::from_millis(200);

/// Lets the run loop take the terminal's input away from the reader thread while a
/// program it started reads the terminal (`$EDITOR` outside tmux): both reading
/// one terminal, each would get some of the keys.
#[derive(Clone, Default)]
pub struct ReaderGate(Arc<(Mutex<GateState>, Condvar)>);

#[derive(Default)]
struct GateState {
    closed: bool,
    /// The reader is waiting at the closed gate (it reads nothing).
    parked: bool,
}

impl ReaderGate {
    /// Closes the gate and waits (at most a second) for the reader to stop at it.
    pub fn close(&self) {
        let (lock, changed) = &*self.0;
        let mut state = lock.lock().unwrap_or_else(PoisonError::into_inner);
        state.closed = true;
        let deadline = std::time::Instant::now() + Duration::from_secs(1);
        while !state.parked {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return;
            }
            state = changed
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    pub fn open(&self) {
        let (lock, changed) = &*self.0;
        lock.lock().unwrap_or_else(PoisonError::into_inner).closed = false;
        changed.notify_all();
    }

    /// The reader's side: returns once the gate is open.
    fn pass(&self) {
        let (lock, changed) = &*self.0;
        let mut state = lock.lock().unwrap_or_else(PoisonError::into_inner);
        while state.closed {
            state.parked = true;
            changed.notify_all();
            state = changed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        state.parked = false;
    }
}

/// Reads terminal events on their own thread, stopping at `gate` while it is closed.
pub fn spawn_reader(tx: Sender<Msg>, gate: ReaderGate) {
    std::thread::spawn(move || {
        loop {
            gate.pass();
            match event::poll(GATE_CHECK) {
                Ok(false) => continue,
                Ok(true) => {}
                Err(e) => {
                    if tx
                        .send(Msg::Problem(format!("reading the terminal: {e}")))
                        .is_err()
                    {
                        return;
                    }
                    continue;
                }
            }
            let msg = match event::read() {
                Ok(Event::Key(key)) => Msg::Key(key),
                Ok(Event::Mouse(mouse)) => Msg::Mouse(mouse),
                Ok(Event::Paste(text)) => Msg::Paste(text),
                Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                Ok(_) => continue,
                Err(e) => Msg::Problem(format!("reading the terminal: {e}")),
            };
            if tx.send(msg).is_err() {
                return;
            }
        }
    });
}

/// Everything pending, waiting for the first message (a Tick after a quiet
/// while, or when the screen changes by itself, `Model::wake_in` from now);
/// `None` when every sender is gone.
pub fn next_batch(rx: &Receiver<Msg>, model: &Model) -> Option<Vec<Msg>> {
    let wait = model
        .wake_in()
        .map_or(TICK, |s| TICK.min(Duration::from_secs(s)));
    let first = match rx.recv_timeout(wait) {
        Ok(msg) => msg,
        Err(RecvTimeoutError::Timeout) => Msg::Tick,
        Err(RecvTimeoutError::Disconnected) => return None,
    };
    let mut batch = vec![first];
    batch.extend(rx.try_iter());
    Some(
        coalesce(batch)
            .into_iter()
            .flat_map(|msg| split_late_escape(model, msg))
            .collect(),
    )
}

/// Whether `msg` is the key Ctrl-`c`.
pub fn is_ctrl(msg: &Msg, c: char) -> bool {
    matches!(msg, Msg::Key(key) if key.code == KeyCode::Char(c)
        && key.modifiers.contains(KeyModifiers::CONTROL)
        && key.kind != KeyEventKind::Release)
}

/// Merges bursts: all file changes in one message, only the last resize.
fn coalesce(batch: Vec<Msg>) -> Vec<Msg> {
    let mut out = Vec::with_capacity(batch.len());
    let mut changed: Vec<String> = Vec::new();
    let mut resize = None;
    for msg in batch {
        match msg {
            Msg::FilesChanged(paths) => changed.extend(paths),
            Msg::Resize(w, h) => resize = Some((w, h)),
            other => out.push(other),
        }
    }
    if let Some((w, h)) = resize {
        out.insert(0, Msg::Resize(w, h));
    }
    if !changed.is_empty() {
        changed.sort();
        changed.dedup();
        out.push(Msg::FilesChanged(changed));
    }
    out
}

/// Over a slow link an Esc and the key after it can arrive together and read as
/// Alt and that key. An Alt key the keymap does not bind is taken as the two
/// (not in the decision form, whose fields use Alt keys).
fn split_late_escape(model: &Model, msg: Msg) -> Vec<Msg> {
    match &msg {
        Msg::Key(key)
            if key.modifiers == KeyModifiers::ALT
                && matches!(key.code, KeyCode::Char(_))
                && !matches!(model.overlay, Overlay::Form(_))
                && model.keymap.action_for(key).is_none() =>
        {
            let plain = KeyEvent {
                modifiers: KeyModifiers::NONE,
                ..*key
            };
            let escape = KeyEvent {
                code: KeyCode::Esc,
                ..plain
            };
            vec![Msg::Key(escape), Msg::Key(plain)]
        }
        _ => vec![msg],
    }
}

/// A model with the defaults and no workspace, for unit tests of input handling.
#[cfg(test)]
pub(crate) fn test_model() -> Model {
    Model::new(
        crate::config::Config::default(),
        super::theme::Theme::default_dark(),
        super::keymap::Keymap::defaults(),
        crate::core::time::Timestamp::from_unix(1_771_331_696),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Model {
        test_model()
    }

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Msg {
        Msg::Key(KeyEvent::new(code, modifiers))
    }

    fn keys(msgs: &[Msg]) -> Vec<(KeyCode, KeyModifiers)> {
        msgs.iter()
            .filter_map(|m| match m {
                Msg::Key(k) => Some((k.code, k.modifiers)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_unbound_alt_key_is_a_late_escape_and_the_key() {
        let split = split_late_escape(&model(), key(KeyCode::Char('j'), KeyModifiers::ALT));
        assert_eq!(
            keys(&split),
            [
                (KeyCode::Esc, KeyModifiers::NONE),
                (KeyCode::Char('j'), KeyModifiers::NONE)
            ]
        );
    }

    #[test]
    fn other_keys_and_the_form_are_left_alone() {
        let m = model();
        for msg in [
            key(KeyCode::Char('j'), KeyModifiers::NONE),
            key(KeyCode::Char('j'), KeyModifiers::CONTROL),
            key(KeyCode::Up, KeyModifiers::ALT),
        ] {
            assert_eq!(split_late_escape(&m, msg.clone()).len(), 1, "{msg:?}");
        }
        let mut in_form = model();
        in_form.overlay = Overlay::Form(Box::new(crate::tui::form::DecisionForm::new("p")));
        let alt_b = key(KeyCode::Char('b'), KeyModifiers::ALT);
        assert_eq!(
            keys(&split_late_escape(&in_form, alt_b)),
            [(KeyCode::Char('b'), KeyModifiers::ALT)]
        );
    }

    #[test]
    fn a_batch_keeps_the_last_resize_first_and_every_key_in_order() {
        let batch = vec![
            key(KeyCode::Char('a'), KeyModifiers::NONE),
            Msg::Resize(10, 10),
            key(KeyCode::Char('b'), KeyModifiers::NONE),
            Msg::Resize(30, 20),
        ];
        let out = coalesce(batch);
        assert!(matches!(out.first(), Some(Msg::Resize(30, 20))));
        assert_eq!(keys(&out).len(), 2);
    }
}
