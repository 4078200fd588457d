//! The application's start-up: how the program is configured and where it looks —
//! the workspace root (`--demo`, `--root`, `$CLAUDE_PROJECT_DIR`, the current
//! directory), the config file and its overlay on the defaults, and the
//! environment snapshot and clock reading every front end is given.
//!
//! `cli`, `tui` and `hook` use this module; it uses none of them (checked by
//! tests/architecture.rs).

pub mod context;

pub use context::Context;
