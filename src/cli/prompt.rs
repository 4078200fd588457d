//! `resume-tui prompt PROJECT`: Template 1 for a Jerry workflow, the mandatory
//! loading sequence for a Nexus project. Also the output path shared by `alert`
//! and `monitor`: text or `--json`, and `--copy`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::json;

use super::show::project_name_under_root;
use super::{CopyArgs, PromptArgs, Style};
use crate::app::Context;
use crate::core::launch;
use crate::core::model::{Project, ProjectKind, Severity, Shape, Workspace};
use crate::core::render::budget::estimate_tokens;
use crate::core::render::nexus::{self, NexusInput};
use crate::core::render::{Rendered, render_nexus, render_prompt};
use crate::core::workspace::find_project;
use crate::io::clipboard::{self, Backend, CopyOutcome};
use crate::io::load::load_workspace;
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &PromptArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let ws = load(ctx);
    let project = lookup(ctx, &ws, &args.project)?;
    let mut rendered = match project.kind {
        ProjectKind::Jerry => render_prompt(project),
        ProjectKind::Nexus => {
            let manifest = project.manifest.as_ref().ok_or_else(|| {
                Error::Usage(crate::core::normalize::nexus::nothing_to_resume(project))
            })?;
            let abs_dir = absolute(&ctx.root.join(&project.dir));
            render_nexus(&NexusInput {
                project,
                manifest,
                abs_dir: &abs_dir.display().to_string(),
                confidence: None,
                style: match args.style {
                    Style::Emoji => nexus::Style::Emoji,
                    Style::Plain => nexus::Style::Plain,
                },
            })
        }
    };
    if args.cd {
        rendered = with_cd(rendered, &launch_dir(&ctx.root, project));
    }
    emit(ctx, rendered, &args.copy, args.json, out)
}

/// Loads the workspace, reporting a bad config file first.
pub(crate) fn load(ctx: &Context) -> Workspace {
    if let Some(problem) = &ctx.config_problem {
        // A closed stderr is no reason to stop.
        let _ = writeln!(
            std::io::stderr(),
            "resume-tui: config: {problem} (using the defaults)"
        );
    }
    load_workspace(&ctx.root, &ctx.env, ctx.now, &ctx.config)
}

/// The project `name` names; an unreadable state file is an error naming it.
pub(crate) fn lookup<'a>(ctx: &Context, ws: &'a Workspace, name: &str) -> Result<&'a Project> {
    let name = project_name_under_root(ctx, name);
    let project = find_project(ws, &name)?;
    if project.shape == Shape::Unreadable {
        let why = project
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
            .map_or_else(
                || format!("{}: cannot be read", project.source),
                ToString::to_string,
            );
        return Err(Error::Usage(format!(
            "{why}\nnothing to render for {}",
            project.id
        )));
    }
    Ok(project)
}

/// Prints the text (or the JSON form) and copies it when asked. Exit 1 when a
/// copy was asked for and the text could not be sent anywhere; with no terminal
/// for OSC 52 (a pipe, a job), the printed text is the copy: said, and exit 0.
pub(crate) fn emit(
    ctx: &Context,
    rendered: Rendered,
    copy: &CopyArgs,
    json: bool,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let copied = if copy.copy {
        Some(copy_text(ctx, copy, &rendered.text)?)
    } else {
        None
    };
    let copied = copied.map(|(outcome, had_terminal)| {
        if had_terminal {
            outcome
        } else {
            without_terminal(outcome)
        }
    });
    let written = if json {
        let mut value = json!({
            "text": rendered.text,
            "tokens_estimate": rendered.tokens_estimate,
            "truncated": rendered.truncated,
            "sources": rendered.sources,
        });
        if let (Some(map), Some(outcome)) = (value.as_object_mut(), &copied) {
            map.insert("copied".into(), json!(outcome));
        }
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| Error::Usage(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")
    } else {
        out.write_all(rendered.text.as_bytes())
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("standard output", e))?;
    match copied {
        Some(outcome) => {
            if !json {
                let (message, backend) = (&outcome.message, &outcome.backend_used);
                let _ = writeln!(std::io::stderr(), "resume-tui: {message} [{backend}]");
            }
            let failed = !outcome.sent && outcome.backend_used != "off";
            Ok(if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        None => Ok(ExitCode::SUCCESS),
    }
}

/// A copy that failed only for want of a terminal (OSC 52 goes to one) falls back
/// to the text already printed on standard output.
fn without_terminal(outcome: CopyOutcome) -> CopyOutcome {
    if outcome.sent || !outcome.backend_used.starts_with("osc52") {
        return outcome;
    }
    CopyOutcome {
        sent: true,
        message: "Not copied: there is no terminal to send OSC 52 to; the text is on \
                  standard output only (pick a clipboard with --clipboard native, tmux \
                  or file:PATH)."
            .to_string(),
        backend_used: "stdout".to_string(),
        ..outcome
    }
}

/// Copies `text`; also says whether there was a terminal for OSC 52.
fn copy_text(ctx: &Context, copy: &CopyArgs, text: &str) -> Result<(CopyOutcome, bool)> {
    let requested = copy
        .clipboard
        .as_deref()
        .unwrap_or(&ctx.config.clipboard.backend);
    let backend = Backend::parse(requested).map_err(Error::Usage)?;
    let (mut terminal, found) = match terminal() {
        Some(terminal) => (terminal, true),
        None => (Box::new(NoTerminal) as Box<dyn Write>, false),
    };
    let outcome = clipboard::copy(
        text,
        &backend,
        &ctx.env,
        &ctx.config.clipboard,
        &mut *terminal,
    );
    Ok((outcome, found))
}

/// Where OSC 52 goes: the controlling terminal, else standard output when it is
/// one; never into a pipe or file that standard output was redirected to.
fn terminal() -> Option<Box<dyn Write>> {
    use std::io::IsTerminal;
    if let Ok(tty) = std::fs::OpenOptions::new().write(true).open("/dev/tty") {
        return Some(Box::new(tty));
    }
    if std::io::stdout().is_terminal() {
        return Some(Box::new(std::io::stdout()));
    }
    None
}

struct NoTerminal;

impl Write for NoTerminal {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("no terminal to send it to"))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `cd '<dir>' && claude '<text>'`: one line to paste into a shell, which starts
/// Claude Code in the right folder with the prompt as its first message.
fn with_cd(rendered: Rendered, dir: &Path) -> Rendered {
    let text = launch::command(&dir.display().to_string(), &rendered.text);
    Rendered {
        tokens_estimate: estimate_tokens(&text),
        text,
        ..rendered
    }
}

/// The folder Claude Code should start in (`core::launch::launch_base`), absolute.
pub(crate) fn launch_dir(root: &Path, project: &Project) -> PathBuf {
    absolute(&root.join(launch::launch_base(project)))
}

fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
