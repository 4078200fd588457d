//! The terminal as the dashboard holds it: raw mode, the alternate screen, mouse
//! capture and bracketed paste, set up and given back in one place.
//!
//! Three threads may give it back: the UI thread (quit, error, suspend, a signal),
//! and the panic hook on whichever thread panics. One lock orders them: every draw
//! and every write to the terminal runs under it and only while the terminal is
//! held, and giving it back takes the same lock. So no draw can follow a restore:
//! a worker's panic waits for a draw in progress to end, gives the terminal back,
//! and keeps the lock until the process exits.

use std::cell::Cell;
use std::io::Write;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crossterm::cursor::{MoveTo, Show};
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::queue;
use crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

/// What the dashboard asks of the terminal beyond raw mode and bracketed paste.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Modes {
    pub alternate_screen: bool,
    pub mouse: bool,
}

impl Modes {
    /// Everything, but for the VT terminals (`TERM=vt100`, `vt220`, …), which have
    /// neither an alternate screen nor mouse reporting.
    pub fn for_term(term: Option<&str>) -> Modes {
        let vt = term.is_some_and(|t| t.to_ascii_lowercase().starts_with("vt"));
        Modes {
            alternate_screen: !vt,
            mouse: !vt,
        }
    }
}

/// The modes the terminal is set up with while the dashboard holds it, under the lock.
static HELD: Mutex<Option<Modes>> = Mutex::new(None);

thread_local! {
    /// The modes held while this thread is inside `with_held` (its panic hook must
    /// not wait for the lock it holds).
    static INSIDE: Cell<Option<Modes>> = const { Cell::new(None) };
}

fn lock() -> MutexGuard<'static, Option<Modes>> {
    HELD.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Sets the terminal up for the dashboard; on failure gives back what was set.
pub fn take(modes: Modes) -> std::io::Result<()> {
    let mut held = lock();
    enable_raw_mode()?;
    if let Err(e) = set_up(modes) {
        restore(modes);
        return Err(e);
    }
    *held = Some(modes);
    Ok(())
}

fn set_up(modes: Modes) -> std::io::Result<()> {
    let mut stdout = std::io::stdout();
    if modes.alternate_screen {
        queue!(stdout, EnterAlternateScreen)?;
    } else {
        queue!(stdout, Clear(ClearType::All))?;
    }
    if modes.mouse {
        queue!(stdout, EnableMouseCapture)?;
    }
    queue!(stdout, EnableBracketedPaste)?;
    stdout.flush()
}

/// The sequences that undo `set_up`.
fn tear_down(modes: Modes) -> std::io::Result<()> {
    let mut stdout = std::io::stdout();
    queue!(stdout, DisableBracketedPaste)?;
    if modes.mouse {
        queue!(stdout, DisableMouseCapture)?;
    }
    if modes.alternate_screen {
        queue!(stdout, LeaveAlternateScreen)?;
    } else {
        queue!(stdout, Clear(ClearType::All), MoveTo(0, 0))?;
    }
    queue!(stdout, Show)?;
    stdout.flush()
}

/// Runs `f` (a draw, a write to the terminal) while the terminal is held: nothing
/// can give it back meanwhile. `None`, without running `f`, once it is given back.
pub fn with_held<T>(f: impl FnOnce() -> T) -> Option<T> {
    let held = lock();
    INSIDE.set(Some((*held)?));
    // A panic in `f` leaves `INSIDE` set: this thread's panic hook then knows it
    // holds the lock already.
    let out = f();
    INSIDE.set(None);
    drop(held);
    Some(out)
}

/// Gives the terminal back as it was found (quit, suspend, a signal). Returns
/// whether it was held.
pub fn give_back() -> std::io::Result<bool> {
    let Some(modes) = lock().take() else {
        return Ok(false);
    };
    disable_raw_mode()?;
    tear_down(modes)?;
    Ok(true)
}

/// For the panic hook and a second ending signal: waits for a draw in progress on
/// another thread to end, gives the terminal back, and returns the lock. Kept until
/// the process exits, it keeps every later draw from starting. On a thread that
/// panicked inside `with_held` (it holds the lock) it restores at once: `None`.
pub fn give_back_for_good() -> Option<MutexGuard<'static, Option<Modes>>> {
    if let Some(modes) = INSIDE.get() {
        restore(modes);
        return None;
    }
    let mut held = lock();
    if let Some(modes) = held.take() {
        restore(modes);
    }
    Some(held)
}

/// Best effort, for panics and a failed set-up: nothing here may panic.
fn restore(modes: Modes) {
    let _ = disable_raw_mode();
    let _ = tear_down(modes);
}

/// A writer that writes to `inner` only while the terminal is held (for what the
/// runner sends between frames, such as an OSC 52 copy).
pub struct HeldWriter<'a, W: Write>(pub &'a mut W);

impl<W: Write> Write for HeldWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        with_held(|| self.0.write(buf)).unwrap_or_else(|| Err(given_back()))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        with_held(|| self.0.flush()).unwrap_or_else(|| Err(given_back()))
    }
}

fn given_back() -> std::io::Error {
    std::io::Error::other("the dashboard has given the terminal back")
}
