//! The hook's command-line types: `resume-tui hook [EVENT] [--dry-run [--explain]]`,
//! and which Claude Code settings file `hooks install` writes and `doctor` reads.
//! The one command line (`cli::Cli`) composes them; main.rs builds `HookArgs` itself
//! on the hot path.

use clap::{Args, ValueEnum};

#[derive(Debug, Args)]
pub struct HookArgs {
    /// Event name, e.g. PreCompact [default: `hook_event_name` from the JSON on stdin].
    pub event: Option<String>,
    /// Print what would be written and injected; write nothing [default: off].
    #[arg(long)]
    pub dry_run: bool,
    /// With --dry-run: say why (project, confidence, fill basis) [default: off].
    #[arg(long)]
    pub explain: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum SettingsLevel {
    /// ~/.claude/settings.json
    User,
    /// .claude/settings.json in the project
    #[default]
    Project,
    /// .claude/settings.local.json in the project
    Local,
}
