//! Command-line definitions and dispatch. Each command lives in its own module;
//! they share `Context` (root, clock, environment, config, output).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::env::Env;

pub mod ack;
pub mod alert;
pub mod context;
pub mod decision;
pub mod doctor;
pub mod edit_output;
pub mod hooks;
pub mod list;
pub mod merge;
pub mod migrate;
pub mod monitor;
pub mod prompt;
pub mod safe_out;
pub mod show;
pub mod text;
pub mod validate;

pub use context::Context;

#[derive(Debug, Parser)]
#[command(name = "resume-tui", version, about, long_about = None)]
pub struct Cli {
    /// Workspace root (default: $CLAUDE_PROJECT_DIR, then the current directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// Use the built-in demo workspace (unpacked to a temporary folder).
    #[arg(long, global = true, conflicts_with = "root")]
    pub demo: bool,

    /// Config file (default: the platform config folder's config.toml).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Theme: default, light, high-contrast, no-color, or a theme file.
    #[arg(long, global = true)]
    pub theme: Option<String>,

    /// Draw the dashboard's first frame (WIDTHxHEIGHT) as text and exit; for
    /// measuring first-frame time and memory (docs/performance.md).
    #[arg(long, hide = true, value_name = "WxH")]
    pub render_once: Option<String>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Every project found, one line each.
    List(ListArgs),
    /// Everything known about one project.
    Show(ShowArgs),
    /// Check files; exit 1 on errors (2 with --strict when there are warnings).
    Validate(ValidateArgs),
    /// The resumption prompt (Template 1) for a new session.
    Prompt(PromptArgs),
    /// The compaction alert (Template 2) for a checkpoint.
    Alert(AlertArgs),
    /// The <context-monitor> block.
    Monitor(MonitorArgs),
    /// Run as a Claude Code hook (reads the hook event JSON on stdin).
    Hook(HookArgs),
    /// Run as a Claude Code status line (reads the status JSON on stdin).
    Statusline,
    /// Manage the Claude Code hook wiring.
    Hooks {
        #[command(subcommand)]
        command: HooksCommand,
    },
    /// Check the hook wiring, the log folder and recent hook errors.
    Doctor(DoctorArgs),
    /// Acknowledge a checkpoint (or all of a project's).
    Ack(AckArgs),
    /// Merge a checkpoint into the project's resumption section.
    Merge(MergeArgs),
    /// Edit the decision log.
    Decision {
        #[command(subcommand)]
        command: DecisionCommand,
    },
    /// Migrate old layouts: Nexus `_resume.md` manifests, v1 resumption sections.
    Migrate {
        #[command(subcommand)]
        command: MigrateCommand,
    },
    /// Print shell completions.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Project id, path, or unique prefix.
    pub project: String,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Files or folders to check (default: the whole workspace).
    pub paths: Vec<PathBuf>,
    /// Treat warnings as failures (exit 2).
    #[arg(long)]
    pub strict: bool,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Style {
    #[default]
    Emoji,
    Plain,
}

#[derive(Debug, Args)]
pub struct CopyArgs {
    /// Copy the text to the clipboard.
    #[arg(long)]
    pub copy: bool,
    /// Clipboard backend: auto, native, osc52, tmux, off, file:PATH.
    #[arg(long, value_name = "BACKEND")]
    pub clipboard: Option<String>,
}

#[derive(Debug, Args)]
pub struct PromptArgs {
    pub project: String,
    #[command(flatten)]
    pub copy: CopyArgs,
    /// Prefix `cd <project dir> && claude`.
    #[arg(long)]
    pub cd: bool,
    /// Nexus loading sequence style.
    #[arg(long, value_enum, default_value_t)]
    pub style: Style,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AlertArgs {
    pub project: String,
    /// Checkpoint id (default: the newest unacknowledged, else the newest).
    pub checkpoint: Option<String>,
    #[command(flatten)]
    pub copy: CopyArgs,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct MonitorArgs {
    pub project: String,
    /// Measure fill from this transcript instead of the recorded context state.
    #[arg(long, value_name = "PATH")]
    pub transcript: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    /// Event name (default: `hook_event_name` from stdin).
    pub event: Option<String>,
    /// Print what would be written and injected; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// With --dry-run: say why (project, confidence, fill basis).
    #[arg(long)]
    pub explain: bool,
}

#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// Add resume-tui's entries to a Claude Code settings.json.
    Install(HooksInstallArgs),
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

#[derive(Debug, Args)]
pub struct HooksInstallArgs {
    #[arg(long, conflicts_with_all = ["project", "local"])]
    pub user: bool,
    #[arg(long, conflicts_with_all = ["user", "local"])]
    pub project: bool,
    #[arg(long, conflicts_with_all = ["user", "project"])]
    pub local: bool,
    #[arg(long)]
    pub dry_run: bool,
    /// Also install `resume-tui statusline` as Claude Code's status line.
    #[arg(long)]
    pub statusline: bool,
    /// With --statusline: replace another tool's status line.
    #[arg(long, requires = "statusline")]
    pub force: bool,
}

impl HooksInstallArgs {
    pub fn level(&self) -> SettingsLevel {
        if self.user {
            SettingsLevel::User
        } else if self.local {
            SettingsLevel::Local
        } else {
            SettingsLevel::Project
        }
    }
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AckArgs {
    pub project: String,
    pub checkpoint: Option<String>,
    #[arg(long, conflicts_with = "checkpoint")]
    pub all: bool,
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    pub project: String,
    pub checkpoint: String,
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Subcommand)]
pub enum DecisionCommand {
    /// Add a decision with the next free RD-NNN id.
    Add(DecisionAddArgs),
    /// Change fields of a decision.
    Edit(DecisionEditArgs),
    /// Mark a decision applied (or not, with --undo).
    Apply(DecisionApplyArgs),
}

#[derive(Debug, Args)]
pub struct DecisionAddArgs {
    pub project: String,
    #[arg(long)]
    pub decision: String,
    #[arg(long)]
    pub rationale: Option<String>,
    /// Phase numbers, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub affects: Vec<i64>,
    #[arg(long)]
    pub gate: Option<String>,
    #[arg(long)]
    pub iteration: Option<i64>,
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct DecisionEditArgs {
    pub project: String,
    pub id: String,
    #[arg(long)]
    pub decision: Option<String>,
    #[arg(long)]
    pub rationale: Option<String>,
    #[arg(long, value_delimiter = ',')]
    pub affects: Option<Vec<i64>>,
    #[arg(long)]
    pub gate: Option<String>,
    #[arg(long)]
    pub iteration: Option<i64>,
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct DecisionApplyArgs {
    pub project: String,
    pub id: String,
    #[arg(long)]
    pub undo: bool,
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Subcommand)]
pub enum MigrateCommand {
    /// Rename `_resume.md` to `01-planning/resume-context.md`; bring every
    /// manifest's frontmatter to the documented schema.
    Nexus(MigrateNexusArgs),
    /// Rewrite v1 (and v2-flat) `resumption:` sections into the v2 nested layout.
    Resumption(MigrateResumptionArgs),
}

#[derive(Debug, Args)]
pub struct MigrateNexusArgs {
    /// Print the unified diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Keep the original beside each changed file as `<file>.bak` (`.bak.1`, …).
    #[arg(long)]
    pub backup: bool,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct MigrateResumptionArgs {
    /// Project id, path, or unique prefix.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub project: Option<String>,
    /// Every ORCHESTRATION.yaml in the workspace.
    #[arg(long)]
    pub all: bool,
    /// Print the unified diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Keep the original beside each changed file as `<file>.bak` (`.bak.1`, …).
    #[arg(long)]
    pub backup: bool,
    #[arg(long)]
    pub json: bool,
}

/// Runs a parsed command line. `out` receives the command's output.
pub fn run(cli: Cli, env: Env, now: Timestamp, out: &mut dyn Write) -> crate::Result<ExitCode> {
    let Some(command) = cli.command else {
        let ctx = Context::new(cli.root, cli.demo, cli.config, env, now)?;
        if let Some(size) = cli.render_once.as_deref() {
            return crate::tui::app::render_once(&ctx, cli.theme.as_deref(), size, out);
        }
        return crate::tui::run(&ctx, cli.theme.as_deref());
    };
    if let Command::Completions { shell } = command {
        let mut cmd = <Cli as clap::CommandFactory>::command();
        clap_complete::generate(shell, &mut cmd, "resume-tui", out);
        return Ok(ExitCode::SUCCESS);
    }
    let ctx = Context::new(cli.root, cli.demo, cli.config, env, now)?;
    // Text from files never reaches the terminal with its control characters.
    let mut safe = safe_out::SafeOut::new(out);
    let out: &mut dyn Write = &mut safe;
    let code = match command {
        Command::List(args) => crate::cli::list::run(&ctx, &args, out),
        Command::Show(args) => crate::cli::show::run(&ctx, &args, out),
        Command::Validate(args) => crate::cli::validate::run(&ctx, &args, out),
        Command::Prompt(args) => crate::cli::prompt::run(&ctx, &args, out),
        Command::Alert(args) => crate::cli::alert::run(&ctx, &args, out),
        Command::Monitor(args) => crate::cli::monitor::run(&ctx, &args, out),
        Command::Hooks {
            command: HooksCommand::Install(args),
        } => crate::cli::hooks::run(&ctx, &args, out),
        Command::Doctor(args) => crate::cli::doctor::run(&ctx, &args, out),
        Command::Ack(args) => crate::cli::ack::run(&ctx, &args, out),
        Command::Merge(args) => crate::cli::merge::run(&ctx, &args, out),
        Command::Decision { command } => crate::cli::decision::run(&ctx, &command, out),
        Command::Migrate { command } => crate::cli::migrate::run(&ctx, &command, out),
        Command::Hook(args) => Ok(crate::hook::run_from_process(
            &args,
            ctx.config_file.as_deref(),
        )),
        Command::Statusline => Ok(crate::hook::run_statusline(ctx.config_file.as_deref())),
        Command::Completions { .. } => Ok(ExitCode::SUCCESS),
    };
    safe.finish()
        .map_err(|e| crate::Error::io("standard output", e))?;
    code
}

/// Default settings, for commands that run without a workspace.
pub fn default_config() -> Config {
    Config::default()
}
