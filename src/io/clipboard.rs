//! Copying text where operators are: the native clipboard (with a timeout, since a
//! stuck X server blocks forever), OSC 52 escape sequences (over SSH, optionally
//! through tmux passthrough), `tmux load-buffer -w -`, a file, or nowhere.
//!
//! Which backend is used is a pure function of the requested backend, the
//! environment snapshot and the platform (`choose`). Nothing here writes to
//! stderr: the terminal's owner passes the writer OSC 52 goes to.

mod backend;
mod copier;
mod osc52;

pub use backend::{Backend, Plan, Platform, choose};
pub use copier::{
    Copier, CopyOutcome, NativeClipboard, SystemClipboard, TmuxBuffer, TmuxCommand, TmuxDelivery,
    copy,
};
pub use osc52::{osc52, tmux_passthrough};
