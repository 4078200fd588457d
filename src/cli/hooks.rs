//! `resume-tui hooks install [--user|--project|--local] [--dry-run] [--statusline [--force]]`.

use std::io::Write;
use std::process::ExitCode;

use crate::app::Context;
use crate::cli::HooksInstallArgs;
use crate::core::model::Diagnostic;
use crate::hook::args::SettingsLevel;
use crate::hook::install::form::EXEC_FORM_SINCE;
use crate::hook::install::{self, Extras, Form, Merge, OwnExe, Version, probe};
use crate::io::write::{self, WriteError};
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &HooksInstallArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let level = args.level();
    let path = install::settings_path(level, &ctx.root, &ctx.env).ok_or_else(|| {
        Error::Usage(
            "HOME is not set: cannot find the user settings; use --project or --local".into(),
        )
    })?;
    let exe = current_exe()?;
    // Entries of this very file are ours whatever it is called.
    let own = OwnExe::at(std::path::Path::new(&exe));
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
                "{reason}: exec form (needs Claude Code {EXEC_FORM_SINCE} or later; an older one runs the bare binary, which still acts as `hook`)"
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

/// This binary's absolute path, as Claude Code will run it.
fn current_exe() -> Result<String> {
    let exe = std::env::current_exe().map_err(|e| Error::io("current executable", e))?;
    let exe = std::fs::canonicalize(&exe).unwrap_or(exe);
    Ok(exe.display().to_string())
}
