//! resume-tui: see and restore Claude Code workflow resumption state.
//!
//! `core` is pure (no I/O, no clock, no environment); `io` is the only layer that
//! touches the outside world; `hook` (headless) and `tui` (dashboard) are front
//! ends over both, and never depend on each other. `cli` holds the plain commands.

// Input is hostile: nothing read from disk, stdin or the environment may panic.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

pub mod cli;
pub mod config;
pub mod core;
pub mod error;
pub mod hook;
pub mod io;
pub mod tui;

pub use error::{Error, Result};
