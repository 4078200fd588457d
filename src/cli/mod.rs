//! Command-line definitions and the plain commands' dispatch. Each command lives in
//! its own module; they share `app::Context` (root, clock, environment, config). The
//! dashboard (no command), `hook` and `statusline` are started by main.rs: this
//! module uses nothing of `tui`, and of `hook` only its argument types and the wiring
//! `hooks install` writes and `doctor` checks (tests/architecture.rs).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::app::Context;
use crate::config::Config;
use crate::core::time::Timestamp;
use crate::hook::args::{HookArgs, SettingsLevel};
use crate::io::env::Env;

pub mod ack;
pub mod alert;
pub mod completions;
pub mod decision;
pub mod doctor;
pub mod dropped;
pub mod edit_output;
pub mod hooks;
pub mod init;
pub mod list;
pub mod man;
pub mod merge;
pub mod migrate;
pub mod monitor;
pub mod prompt;
pub mod safe_out;
pub mod show;
pub mod timeline;
pub mod validate;

/// The heading global options are listed under in every command's help, after
/// the command's own.
const GLOBAL: &str = "Global options";

#[derive(Debug, Parser)]
#[command(name = "resume-tui", version = env!("RESUME_TUI_VERSION"), about, long_about = None)]
pub struct Cli {
    /// Workspace root [default: $CLAUDE_PROJECT_DIR, then the current directory]
    /// (not read by `hook`, which takes the event's folder; refused by `completions`, `man`).
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub root: Option<PathBuf>,

    /// Use the built-in demo workspace, unpacked to a temporary folder and removed
    /// on exit [default: off; not read by `hook`; refused by `init`, `hooks install`,
    /// `completions`, `man`].
    #[arg(long, global = true, conflicts_with = "root", help_heading = GLOBAL)]
    pub demo: bool,

    /// Config file [default: $RESUME_TUI_CONFIG, then config.toml in the platform
    /// config folder; a named file must exist; refused by `completions`, `man`].
    #[arg(long, global = true, value_name = "FILE", help_heading = GLOBAL)]
    pub config: Option<PathBuf>,

    /// Dashboard theme: default, light, high-contrast, no-color, or a theme file
    /// [default: the config's, else default; no-color when NO_COLOR is set].
    #[arg(long, value_name = "NAME|FILE")]
    pub theme: Option<String>,

    /// Draw the dashboard in ASCII only: borders `+ - |`, one ASCII character per
    /// glyph, the trajectory chart's lines as distinct marks (`*`, `o`, `+`, …)
    /// [default: ASCII when the locale is not UTF-8 or TERM is linux or vt*;
    /// the config's `[ui] glyphs`].
    #[arg(long)]
    pub ascii: bool,

    /// Dashboard colour depth [default: the config's `[ui] colors`, else from
    /// COLORTERM and TERM (docs/screens.md)].
    #[arg(long, value_name = "DEPTH", value_parser = ["auto", "truecolor", "256", "16", "none"])]
    pub colors: Option<String>,

    /// Draw the dashboard's frame (WIDTHxHEIGHT) once every file is read (the
    /// preview pass) as text and exit; for measuring time and memory
    /// (docs/performance.md).
    #[arg(long, hide = true, value_name = "WxH")]
    pub render_once: Option<String>,

    /// With --render-once: draw the dashboard's first frame instead, what
    /// discovery found with every row still loading.
    #[arg(long, hide = true, requires = "render_once")]
    pub render_first: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start a workspace here: a commented ORCHESTRATION.yaml and .jerry/checkpoints/.
    Init(InitArgs),
    /// Every project found, one line each.
    List(ListArgs),
    /// Everything known about one project.
    Show(ShowArgs),
    /// Check files; exit 1 on errors (2 with --strict when there are warnings).
    Validate(ValidateArgs),
    /// The resumption prompt a new session starts from (what the dashboard's `y` copies).
    Prompt(PromptArgs),
    /// The compaction alert for a checkpoint: what the session was doing when its context
    /// was compacted.
    Alert(AlertArgs),
    /// The <context-monitor> block.
    Monitor(MonitorArgs),
    /// What the compaction after a checkpoint kept and dropped.
    Dropped(DroppedArgs),
    /// Every compaction of every project, newest first.
    Timeline(TimelineArgs),
    /// Run as a Claude Code hook: reads the event JSON on stdin, always exits 0. The
    /// workspace is the event's folder ($CLAUDE_PROJECT_DIR); the global options are ignored,
    /// except --config.
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
    /// Print shell completions (README, "Install").
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page, in roff (README, "Install").
    Man,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Workflow id [default: the folder's name, today's date and 001, e.g.
    /// my-project-20260302-001].
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    /// Workflow name [default: the folder's name].
    #[arg(long, value_name = "TEXT")]
    pub name: Option<String>,
    /// Print what would be written; write nothing [default: off].
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
    /// Also list the state files found but not taken as projects (test fixtures,
    /// manifests outside the Nexus layout), each with the reason.
    #[arg(long)]
    pub all: bool,
    /// Print secrets (tokens, passwords, keys) as the files hold them [default: off:
    /// each is shown as [REDACTED]].
    #[arg(long)]
    pub show_secrets: bool,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Project id, path, or unique prefix.
    pub project: String,
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
    /// Print secrets (tokens, passwords, keys) as the files hold them [default: off:
    /// each is shown as [REDACTED]].
    #[arg(long)]
    pub show_secrets: bool,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Files or folders to check [default: the whole workspace].
    pub paths: Vec<PathBuf>,
    /// Treat warnings as failures (exit 2) [default: only errors fail, exit 1].
    #[arg(long)]
    pub strict: bool,
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
    /// Print secrets (tokens, passwords, keys) as the files hold them [default: off:
    /// each is shown as [REDACTED]].
    #[arg(long)]
    pub show_secrets: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Style {
    /// Emoji, box lines and check marks, as the Nexus template writes it.
    #[default]
    Emoji,
    /// Plain ASCII markers.
    Plain,
}

#[derive(Debug, Args)]
pub struct CopyArgs {
    /// Also copy the text to the clipboard (it is printed either way) [default: off].
    #[arg(long)]
    pub copy: bool,
    /// Where --copy goes: auto, native, osc52, tmux, off, file:PATH [default: the
    /// config's clipboard.backend, else auto].
    #[arg(long, value_name = "BACKEND")]
    pub clipboard: Option<String>,
}

#[derive(Debug, Args)]
pub struct PromptArgs {
    /// Project id, path, or unique prefix.
    pub project: String,
    #[command(flatten)]
    pub copy: CopyArgs,
    /// Print it as one shell line, `cd <project dir> && claude '<prompt>'` [default: off].
    #[arg(long)]
    pub cd: bool,
    /// Style of a Nexus project's loading sequence.
    #[arg(long, value_enum, default_value_t)]
    pub style: Style,
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AlertArgs {
    /// Project id, path, or unique prefix.
    pub project: String,
    /// Checkpoint id [default: the newest unacknowledged, else the newest].
    pub checkpoint: Option<String>,
    #[command(flatten)]
    pub copy: CopyArgs,
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct MonitorArgs {
    /// Project id, path, or unique prefix.
    pub project: String,
    /// Measure fill from this transcript [default: the newest recorded context
    /// state, else the newest checkpoint].
    #[arg(long, value_name = "PATH")]
    pub transcript: Option<PathBuf>,
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct DroppedArgs {
    /// Project id, path, or unique prefix.
    pub project: String,
    /// Checkpoint id [default: the project's newest].
    pub checkpoint: Option<String>,
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct TimelineArgs {
    /// Only events this recent: 90m, 12h, 7d [default: every event].
    #[arg(long, value_name = "DURATION")]
    pub since: Option<String>,
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
    /// Print secrets (tokens, passwords, keys) as the files hold them [default: off:
    /// each is shown as [REDACTED]].
    #[arg(long)]
    pub show_secrets: bool,
}

#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// Add resume-tui's entries to a Claude Code settings.json.
    Install(HooksInstallArgs),
}

#[derive(Debug, Args)]
pub struct HooksInstallArgs {
    /// Into ~/.claude/settings.json (every project of this user).
    #[arg(long, conflicts_with_all = ["project", "local"])]
    pub user: bool,
    /// Into .claude/settings.json under --root, shared through git: the entries run
    /// `resume-tui` from PATH, so they work in every clone [the default].
    #[arg(long, conflicts_with_all = ["user", "local"])]
    pub project: bool,
    /// Into .claude/settings.local.json under --root (this machine only).
    #[arg(long, conflicts_with_all = ["user", "project"])]
    pub local: bool,
    /// Print the changes and the merged settings.json; write nothing [default: off].
    #[arg(long)]
    pub dry_run: bool,
    /// Also install `resume-tui statusline` as Claude Code's status line [default: off].
    #[arg(long)]
    pub statusline: bool,
    /// Write the entries even where the resume-tui plugin already runs the hooks
    /// (each event then runs twice); with --statusline: replace another tool's
    /// status line in the file, or hide one set in a file of lower precedence
    /// (user < project < local) [default: off].
    #[arg(long)]
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
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
    /// Print secrets (tokens, passwords, keys) as the files hold them [default: off:
    /// each is shown as [REDACTED]].
    #[arg(long)]
    pub show_secrets: bool,
}

#[derive(Debug, Args)]
pub struct AckArgs {
    /// Project id, path, or unique prefix; or, naming no project, a checkpoint tied to no project (cx-034, 34, or its path: relative to the root or to the current folder, or absolute), acknowledged by its own file.
    pub project: String,
    /// Checkpoint id (cx-004, 4) or path (relative to the root or to the current folder, or absolute) [default: the newest unacknowledged].
    pub checkpoint: Option<String>,
    /// Acknowledge every unacknowledged checkpoint of the project [default: off].
    #[arg(long, conflicts_with = "checkpoint")]
    pub all: bool,
    /// Print the change as a diff; write nothing [default: off].
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Project id, path, or unique prefix.
    pub project: String,
    /// Checkpoint id, e.g. CP-002.
    pub checkpoint: String,
    /// Print the change as a diff; write nothing [default: off].
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
    /// Project id, path, or unique prefix.
    pub project: String,
    /// What was decided.
    #[arg(long, value_name = "TEXT")]
    pub decision: String,
    /// Why [default: none].
    #[arg(long, value_name = "TEXT")]
    pub rationale: Option<String>,
    /// Phase numbers it affects, comma-separated, e.g. 3,4 [default: none].
    #[arg(long, value_delimiter = ',', value_name = "PHASES")]
    pub affects: Vec<i64>,
    /// Quality gate it came from, e.g. qg-2 [default: none].
    #[arg(long)]
    pub gate: Option<String>,
    /// That gate's iteration number [default: none].
    #[arg(long)]
    pub iteration: Option<i64>,
    /// Print the change as a diff; write nothing [default: off].
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct DecisionEditArgs {
    /// Project id, path, or unique prefix.
    pub project: String,
    /// Decision id, e.g. RD-002.
    pub id: String,
    /// New decision text [default: unchanged].
    #[arg(long, value_name = "TEXT")]
    pub decision: Option<String>,
    /// New rationale [default: unchanged].
    #[arg(long, value_name = "TEXT")]
    pub rationale: Option<String>,
    /// New affected phases, comma-separated, e.g. 3,4 [default: unchanged].
    #[arg(long, value_delimiter = ',', value_name = "PHASES")]
    pub affects: Option<Vec<i64>>,
    /// New quality gate, e.g. qg-2 [default: unchanged].
    #[arg(long)]
    pub gate: Option<String>,
    /// New gate iteration number [default: unchanged].
    #[arg(long)]
    pub iteration: Option<i64>,
    /// Print the change as a diff; write nothing [default: off].
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct DecisionApplyArgs {
    /// Project id, path, or unique prefix.
    pub project: String,
    /// Decision id, e.g. RD-002.
    pub id: String,
    /// Mark it not applied instead [default: mark it applied].
    #[arg(long)]
    pub undo: bool,
    /// Print the change as a diff; write nothing [default: off].
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
    /// Print the unified diff; write nothing [default: off].
    #[arg(long)]
    pub dry_run: bool,
    /// Keep the original beside each changed file as `<file>.bak` (`.bak.1`, …) [default: off].
    #[arg(long)]
    pub backup: bool,
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct MigrateResumptionArgs {
    /// Project id, path, or unique prefix [default: none; then --all is needed].
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub project: Option<String>,
    /// Every ORCHESTRATION.yaml in the workspace, instead of one project [default: off].
    #[arg(long)]
    pub all: bool,
    /// Print the unified diff; write nothing [default: off].
    #[arg(long)]
    pub dry_run: bool,
    /// Keep the original beside each changed file as `<file>.bak` (`.bak.1`, …) [default: off].
    #[arg(long)]
    pub backup: bool,
    /// Print JSON instead of text [default: text].
    #[arg(long)]
    pub json: bool,
}

/// Runs a parsed command line's command. `out` receives the command's output. The
/// dashboard (no command), `hook` and `statusline` are not run here: main.rs starts
/// them, and given one of them this is a usage error.
pub fn run(cli: Cli, env: Env, now: Timestamp, out: &mut dyn Write) -> crate::Result<ExitCode> {
    if let Some(refused) = cli.command.as_ref().and_then(|c| refused_global(&cli, c)) {
        return Err(crate::Error::Usage(refused));
    }
    let command = match cli.command {
        None | Some(Command::Hook(_) | Command::Statusline) => {
            return Err(crate::Error::Usage(
                "the dashboard, `hook` and `statusline` are started by main.rs".into(),
            ));
        }
        Some(command) => command,
    };
    let standalone = match command {
        Command::Completions { shell } => Some(completions::write(shell, out)),
        Command::Man => Some(man::write(out)),
        _ => None,
    };
    if let Some(written) = standalone {
        written.map_err(|e| crate::Error::io("standard output", e))?;
        return Ok(ExitCode::SUCCESS);
    }
    let ctx = Context::new(cli.root, cli.demo, cli.config, env, now)?;
    // Text from files never reaches the terminal with its control characters,
    // nor, from the commands that print what files hold, with its secrets.
    let mut safe = if redacts(&command) {
        safe_out::SafeOut::redacting(out)
    } else {
        safe_out::SafeOut::new(out)
    };
    let out: &mut dyn Write = &mut safe;
    let code = match command {
        Command::Init(args) => crate::cli::init::run(&ctx, &args, out),
        Command::List(args) => crate::cli::list::run(&ctx, &args, out),
        Command::Show(args) => crate::cli::show::run(&ctx, &args, out),
        Command::Validate(args) => crate::cli::validate::run(&ctx, &args, out),
        Command::Prompt(args) => crate::cli::prompt::run(&ctx, &args, out),
        Command::Alert(args) => crate::cli::alert::run(&ctx, &args, out),
        Command::Monitor(args) => crate::cli::monitor::run(&ctx, &args, out),
        Command::Dropped(args) => crate::cli::dropped::run(&ctx, &args, out),
        Command::Timeline(args) => crate::cli::timeline::run(&ctx, &args, out),
        Command::Hooks {
            command: HooksCommand::Install(args),
        } => crate::cli::hooks::run(&ctx, &args, out),
        Command::Doctor(args) => crate::cli::doctor::run(&ctx, &args, out),
        Command::Ack(args) => crate::cli::ack::run(&ctx, &args, out),
        Command::Merge(args) => crate::cli::merge::run(&ctx, &args, out),
        Command::Decision { command } => crate::cli::decision::run(&ctx, &command, out),
        Command::Migrate { command } => crate::cli::migrate::run(&ctx, &command, out),
        // Refused, or written out, above.
        Command::Hook(_) | Command::Statusline | Command::Completions { .. } | Command::Man => {
            Ok(ExitCode::SUCCESS)
        }
    };
    safe.finish()
        .map_err(|e| crate::Error::io("standard output", e))?;
    code
}

/// A global option given to a command it makes no sense for: `--demo` with a
/// command that writes into the workspace for good (the demo's copy is deleted on
/// exit), or any global option with one that reads no workspace.
fn refused_global(cli: &Cli, command: &Command) -> Option<String> {
    let name = match command {
        Command::Completions { .. } => "completions",
        Command::Man => "man",
        Command::Init(_) if cli.demo => "init",
        Command::Hooks { .. } if cli.demo => "hooks install",
        _ => return None,
    };
    let given = [
        (cli.demo, "--demo"),
        (cli.root.is_some(), "--root"),
        (cli.config.is_some(), "--config"),
    ];
    let (_, option) = given.iter().find(|(set, _)| *set)?;
    let why = if *option == "--demo" && matches!(name, "init" | "hooks install") {
        "it would write into the demo's temporary copy, deleted on exit; run it in your \
         project's folder, or pass --root DIR"
    } else {
        "it reads no workspace and no config"
    };
    Some(format!("{option} makes no sense with `{name}`: {why}"))
}

/// Whether the command prints what files hold and redacts it (without `--show-secrets`).
fn redacts(command: &Command) -> bool {
    match command {
        Command::List(args) => !args.show_secrets,
        Command::Show(args) => !args.show_secrets,
        Command::Validate(args) => !args.show_secrets,
        Command::Timeline(args) => !args.show_secrets,
        Command::Doctor(args) => !args.show_secrets,
        _ => false,
    }
}

/// Default settings, for commands that run without a workspace.
pub fn default_config() -> Config {
    Config::default()
}
