//! resume-tui: see and restore Claude Code workflow resumption state.
//!
//! `core` is pure (no I/O, no clock, no environment); `io` is the only layer that
//! touches the outside world; `app` is the start-up every front end shares (root,
//! config, environment). `cli` (the plain commands), `hook` (headless) and `tui`
//! (the dashboard) are front ends over them; `hook` and `tui` never use `cli` or
//! each other (docs/architecture.md, "Layers: the module map").

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

pub mod app;
pub mod cli;
pub mod config;
pub mod core;
pub mod error;
pub mod hook;
pub mod io;
pub mod tui;

pub use error::{Error, Result};
