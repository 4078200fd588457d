//! Signals while the dashboard runs. SIGTERM, SIGHUP, SIGINT and SIGQUIT end it
//! the way a quit does — the terminal given back, the demo folder removed — with
//! the shell's exit code for the signal (128 + its number); SIGTSTP suspends it as
//! Ctrl-Z does. A thread turns each into a message for the run loop. Signals that
//! follow the first ending one are left to it (a hang-up often comes twice: from
//! the terminal closing and from the program that closed it); if the run loop has
//! not ended `GRACE` later, the process ends anyway, after giving the terminal back.

use std::sync::mpsc::Sender;
use std::time::Duration;

use super::msg::Msg;

/// How long the run loop has to end after an ending signal.
const GRACE: Duration = Duration::from_secs(3);

/// What a signal asks of the run loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// Give the terminal back, stop until continued, then set it up and redraw.
    Suspend,
    /// End as a quit does, with exit code 128 + the signal's number.
    End(i32),
}

impl Signal {
    /// The exit code a shell reports for a process ended by `signal`.
    pub fn exit_code(signal: i32) -> u8 {
        u8::try_from(128 + signal).unwrap_or(u8::MAX)
    }
}

/// Starts the thread that forwards signals to the run loop.
#[cfg(unix)]
pub fn listen(tx: Sender<Msg>) -> Result<(), String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP};

    let mut signals =
        signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP])
            .map_err(|e| format!("signals are not handled ({e}); quit with q"))?;
    std::thread::spawn(move || {
        let mut ending = false;
        for signal in signals.forever() {
            let asked = if signal == SIGTSTP {
                Signal::Suspend
            } else if ending {
                continue;
            } else {
                ending = true;
                end_after_grace(signal);
                Signal::End(signal)
            };
            if tx.send(Msg::Signal(asked)).is_err() {
                return;
            }
        }
    });
    Ok(())
}

/// Ends the process `GRACE` after `signal` unless the run loop has ended it first.
#[cfg(unix)]
fn end_after_grace(signal: i32) {
    std::thread::spawn(move || {
        std::thread::sleep(GRACE);
        let _held = super::terminal::give_back_for_good();
        std::process::exit(i32::from(Signal::exit_code(signal)));
    });
}

#[cfg(not(unix))]
pub fn listen(_tx: Sender<Msg>) -> Result<(), String> {
    Ok(())
}

/// Stops the process until it is continued (`fg`), as the default SIGTSTP would.
#[cfg(unix)]
pub fn stop_until_continued() -> std::io::Result<()> {
    signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGTSTP)
}

#[cfg(not(unix))]
pub fn stop_until_continued() -> std::io::Result<()> {
    Ok(())
}
