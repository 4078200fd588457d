//! `resume-tui hooks install [--user|--project|--local] [--dry-run] [--statusline [--force]]`.

use std::io::Write;
use std::process::ExitCode;

use crate::app::Context;
use crate::cli::HooksInstallArgs;
use crate::core::model::Diagnostic;
use crate::hook::args::SettingsLevel;
use crate::hook::install::form::EXEC_FORM_SINCE;
use crate::hook::install::{self, Extras, Form, Merge, OwnExe, Version, plugin, probe};
use crate::io::write::{self, WriteError};
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &HooksInstallArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let level = args.level();
    let path = install::settings_path(level, &ctx.root, &ctx.env).ok_or_else(|| {
        Error::Usage(
            "HOME is not set: cannot find the user settings; use --project or --local".into(),
        )
    })?;
    let running = current_exe()?;
    // Entries of this very file are ours whatever it is called.
    let own = OwnExe::at(std::path::Path::new(&running));
    let exe = command_for(level, &running);
    refuse_to_double_the_plugin(ctx, args.force)?;
    let (form, why, claude) = install_form(ctx);
    let snapshot = match crate::io::project_edit::read_to_edit(&path) {
        Ok(snapshot) => Some(snapshot),
        Err(WriteError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::Usage(e.to_string())),
    };
    let shown = path.display().to_string();
    let existing = match &snapshot {
        Some(s) => Some(s.text().map_err(|e| Error::Usage(e.to_string()))?),
        None => None,
    };
    // A status line here would hide another tool's from a lower level.
    let shadows = args
        .statusline
        .then(|| install::statusline::shadowed_below(level, &ctx.root, &ctx.env, &own))
        .flatten();
    let extras = Extras {
        form,
        statusline: args.statusline,
        force: args.force,
        claude,
        own: &own,
        shadows: shadows.as_ref(),
    };
    let merge = install::merge_with(existing, &exe, extras).map_err(|e| {
        let mut diagnostic = Diagnostic::error(
            shown.clone(),
            format!("{}; the file was left untouched", e.message),
        );
        if let (Some(line), Some(column)) = (e.line, e.column) {
            diagnostic = diagnostic.at(line, column);
        }
        Error::Invalid(diagnostic)
    })?;
    let io = |e: std::io::Error| Error::io("stdout", e);
    writeln!(out, "{why}").map_err(io)?;
    for note in notes(ctx, level, &running) {
        writeln!(out, "note: {note}").map_err(io)?;
    }
    let Merge { text, changes } = merge;
    let Some(text) = text else {
        writeln!(
            out,
            "{shown}: resume-tui hooks already installed; nothing changed"
        )
        .map_err(io)?;
        for change in &changes {
            writeln!(out, "  {change}").map_err(io)?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    if args.dry_run {
        writeln!(out, "would write {shown} ({} level):", level_name(level)).map_err(io)?;
        for change in &changes {
            writeln!(out, "  {change}").map_err(io)?;
        }
        writeln!(out, "\n{text}").map_err(io)?;
        return Ok(ExitCode::SUCCESS);
    }
    let result = match &snapshot {
        Some(snapshot) => write::replace(snapshot, text.as_bytes()),
        None => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| Error::io(dir.display(), e))?;
            }
            write::create_new(&path, text.as_bytes(), None)
        }
    };
    result.map_err(|e| Error::Usage(e.to_string()))?;
    writeln!(out, "wrote {shown}:").map_err(io)?;
    for change in &changes {
        writeln!(out, "  {change}").map_err(io)?;
    }
    writeln!(out, "check the wiring with `resume-tui doctor`").map_err(io)?;
    Ok(ExitCode::SUCCESS)
}

/// The handler form for the Claude Code on PATH, and a line saying why.
fn install_form(ctx: &Context) -> (Form, String, Option<Version>) {
    match probe::claude_version(&ctx.env) {
        Ok(version) => {
            let form = Form::for_version(Some(version));
            let why = match form {
                Form::Exec => format!("Claude Code {version}: exec form (command + args)"),
                Form::Shell => format!(
                    "Claude Code {version} is older than {EXEC_FORM_SINCE}, which ignores `args`: shell form (quoted absolute path)"
                ),
            };
            (form, why, Some(version))
        }
        Err(reason) => (
            Form::Exec,
            format!(
                "note: Claude Code's version is unknown ({reason}), so the entries are written for Claude Code {EXEC_FORM_SINCE} or later (the command and its arguments apart); an older one runs the command without them, which works too (docs/hooks.md, \"Claude Code versions\")"
            ),
            None,
        ),
    }
}

fn level_name(level: SettingsLevel) -> &'static str {
    match level {
        SettingsLevel::User => "user",
        SettingsLevel::Project => "project",
        SettingsLevel::Local => "local",
    }
}

/// The program the entries name. The project's settings.json is committed and
/// shared, so it names the binary as every clone finds it, on PATH; the personal
/// files (user, local) name this very binary by its absolute path.
fn command_for(level: SettingsLevel, running: &str) -> String {
    match level {
        SettingsLevel::Project => plugin::NAME.to_string(),
        SettingsLevel::User | SettingsLevel::Local => running.to_string(),
    }
}

/// The plugin already runs every hook here: entries in a settings file would run
/// each event twice, so not without `--force`.
fn refuse_to_double_the_plugin(ctx: &Context, force: bool) -> Result<()> {
    let Some(enabled) = plugin::enabled(&ctx.root, &ctx.env) else {
        return Ok(());
    };
    if force {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "the resume-tui plugin ({}, enabled in {}) already runs these hooks; entries in a settings file would run every event twice. Keep the plugin (nothing to do), or remove it first (`claude plugin uninstall {}`), or add --force to write the entries anyway",
        enabled.id,
        enabled.settings.display(),
        enabled.id
    )))
}

/// What the user should know before the entries work: the folder is not a
/// workspace, or the project's `resume-tui` is not on PATH.
fn notes(ctx: &Context, level: SettingsLevel, running: &str) -> Vec<String> {
    let mut notes = Vec::new();
    if !install::acts_in(&ctx.root) {
        notes.push(format!(
            "{} is not a workspace (no .jerry/, 00-system/, projects/ or ORCHESTRATION.yaml): the hooks will run here but do nothing; run `resume-tui init` to start one, or install from the workspace root (--root)",
            ctx.root.display()
        ));
    }
    if level == SettingsLevel::Project {
        match plugin::find_on_path(&ctx.env, plugin::NAME) {
            None => notes.push(format!(
                "the project's entries run `{}` from PATH (so they work in every clone), and PATH has none here: install it (`cargo install --locked resume-tui`, or a release archive), or use --local for this binary ({running})",
                plugin::NAME
            )),
            Some(found) if !OwnExe::at(std::path::Path::new(running)).is(&found.display().to_string()) => {
                notes.push(format!(
                    "the project's entries run `{}` from PATH, which is {} here, not this binary ({running})",
                    plugin::NAME,
                    found.display()
                ));
            }
            Some(_) => {}
        }
    }
    notes
}

/// This binary's absolute path, as Claude Code will run it.
fn current_exe() -> Result<String> {
    let exe = std::env::current_exe().map_err(|e| Error::io("current executable", e))?;
    let exe = std::fs::canonicalize(&exe).unwrap_or(exe);
    Ok(exe.display().to_string())
}
