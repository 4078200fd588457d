//! Headless hook mode: stdin → core → stdout, one module per event.

use std::process::ExitCode;

use crate::cli::HookArgs;

/// Entry point for `resume-tui hook`: always exits 0.
pub fn run_from_process(_args: &HookArgs) -> ExitCode {
    ExitCode::SUCCESS
}
