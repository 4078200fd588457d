//! `resume-tui validate [PATH...] [--strict] [--json]`: every problem in the state
//! files as `file:line:col: level: message`. Exit 0 when clean, 1 on errors, 2 with
//! `--strict` on warnings (which `--strict` prints as errors).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::json;

use super::ValidateArgs;
use crate::app::Context;
use crate::core::model::{Diagnostic, Severity};
use crate::core::normalize::unknowns::unknowns;
use crate::core::workspace::{LookupError, find_project};
use crate::io::discover::{Discovery, FileKind, discover};
use crate::io::load::{LoadOptions, discover_paths, load_discovered, load_workspace, read_text};
use crate::{Error, Result};

/// Version of the `--json` layout (docs/formats.md).
pub const VALIDATE_FORMAT: &str = "resume-tui.validate.v1";

pub fn run(ctx: &Context, args: &ValidateArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let root = std::fs::canonicalize(&ctx.root).unwrap_or_else(|_| ctx.root.clone());
    let discovery = if args.paths.is_empty() {
        discover(&root, &ctx.env)
    } else {
        discover_paths(&root, &resolve_paths(ctx, &root, &args.paths)?)
    };
    let mut diagnostics = check(&root, &discovery, ctx, !args.paths.is_empty());
    let diagnostics_before_strict = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    if args.strict {
        for d in &mut diagnostics {
            if d.severity == Severity::Warning {
                d.severity = Severity::Error;
            }
        }
    }
    let files = discovery
        .files
        .iter()
        .filter(|f| f.kind != FileKind::CheckpointMarker)
        .count();
    let count = |level: Severity| diagnostics.iter().filter(|d| d.severity == level).count();
    let warnings_before = diagnostics_before_strict;
    let (errors, warnings, infos) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    // Under --strict every warning is shown as an error; the exit code still tells
    // the two apart: 1 for errors of their own, 2 for warnings made errors.
    let strict_only = args.strict && errors > 0 && errors == warnings_before;
    let code: u8 = if strict_only {
        2
    } else if errors > 0 {
        1
    } else {
        0
    };
    let written = if args.json {
        let value = json!({
            "format": VALIDATE_FORMAT,
            "root": root.display().to_string(),
            "files_checked": files,
            "counts": { "error": errors, "warning": warnings, "info": infos },
            "strict": args.strict,
            "exit_code": code,
            "diagnostics": diagnostics,
        });
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| Error::Usage(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")
    } else {
        write_text(out, &diagnostics, files, (errors, warnings, infos))
    };
    written.map_err(|e| Error::io("standard output", e))?;
    Ok(ExitCode::from(code))
}

/// Each PATH as `show` takes it: a path from the current folder, else from the
/// root, else a project name (id, alias or unique prefix) standing for its
/// state file. A name that matches several projects is refused (exit 2).
fn resolve_paths(ctx: &Context, root: &Path, given: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut ws = None;
    let mut out = Vec::new();
    for path in given {
        let from_root = root.join(path);
        if path.exists() || path.is_absolute() {
            out.push(path.clone());
        } else if from_root.exists() {
            out.push(from_root);
        } else {
            let ws = ws.get_or_insert_with(|| load_workspace(root, &ctx.env, ctx.now, &ctx.config));
            match find_project(ws, &path.to_string_lossy()) {
                Ok(project) => out.push(root.join(&project.source)),
                Err(e @ LookupError::Ambiguous { .. }) => return Err(e.into()),
                Err(LookupError::NotFound { .. }) => out.push(path.clone()),
            }
        }
    }
    Ok(out)
}

/// Everything wrong with the discovered files: what loading them reports, plus the
/// wire-format checks. Sorted by file, line and column; duplicates dropped.
/// For files named on the command line (`some_paths`), a project's diagnostics
/// are those of the whole workspace's load, as `show` reports them: what the
/// workspace's checkpoints contradict is found only there.
fn check(
    root: &std::path::Path,
    discovery: &Discovery,
    ctx: &Context,
    some_paths: bool,
) -> Vec<Diagnostic> {
    let ws = load_discovered(
        root,
        discovery,
        ctx.now,
        &ctx.config,
        &LoadOptions::default(),
    );
    let whole = some_paths.then(|| load_workspace(root, &ctx.env, ctx.now, &ctx.config));
    let mut all = ws.diagnostics;
    let mut read = Vec::new();
    for project in ws.projects {
        let project = whole
            .as_ref()
            .and_then(|w| w.projects.iter().find(|p| p.source == project.source))
            .cloned()
            .unwrap_or(project);
        all.extend(unknowns(&project));
        read.push(read_fields(&project));
        all.extend(project.diagnostics);
    }
    for found in &discovery.files {
        if let Ok(text) = read_text(&found.path, &found.rel) {
            all.extend(wire_check(found.kind, &found.rel, &text));
        }
    }
    for d in &mut all {
        say_what_was_read(d, &read);
    }
    all.sort_by(|a, b| {
        (&a.file, a.line, a.column, b.severity, &a.message)
            .cmp(&(&b.file, b.line, b.column, a.severity, &b.message))
    });
    all.dedup_by(|a, b| a == b);
    all
}

/// The keys a project's summary was read from (`show`'s "sources"), by file.
struct ReadFields {
    file: String,
    /// (path, what it was read as), e.g. ("updated", "last update").
    read: Vec<(String, &'static str)>,
}

fn read_fields(project: &crate::core::model::Project) -> ReadFields {
    let s = &project.summary.sources;
    let named = [
        (&s.status, "workflow status"),
        (&s.phase, "current phase"),
        (&s.phase_name, "phase name"),
        (&s.activity, "current activity"),
        (&s.current_gate, "current gate"),
        (&s.next_step, "next step"),
        (&s.updated_at, "last update"),
    ];
    let mut read: Vec<(String, &'static str)> = named
        .iter()
        .filter_map(|(path, what)| path.as_deref().map(|p| (p, *what)))
        .flat_map(|(paths, what)| paths.split(", ").map(move |p| (p.to_string(), what)))
        .collect();
    // A Nexus manifest's older names, read when the documented key is absent (the
    // sources name the documented key): `phase`, `updated`.
    if let Some(m) = &project.manifest {
        let aliases = [
            ("phase", &m.current_phase, "current phase"),
            ("updated", &m.last_updated_raw, "last update"),
        ];
        for (alias, value, what) in aliases {
            let written = m.other.get(alias).map(|v| match v {
                serde_json::Value::String(text) => text.clone(),
                other => other.to_string(),
            });
            if written.is_some() && written.as_ref() == value.as_ref() {
                read.push((alias.to_string(), what));
            }
        }
    }
    ReadFields {
        file: project.source.clone(),
        read,
    }
}

/// The schema check knows only a format's documented keys and calls any other
/// one unknown, even one the summary was read from (a Nexus `status`, `updated`):
/// such a note says what the key was read as instead.
fn say_what_was_read(d: &mut Diagnostic, read: &[ReadFields]) {
    let Some((path, rest)) = d.message.split_once(": unknown field `") else {
        return;
    };
    if d.severity != Severity::Info || !rest.ends_with("` (kept as an other field)") {
        return;
    }
    let what = read
        .iter()
        .filter(|r| r.file == d.file)
        .flat_map(|r| &r.read)
        .find(|(p, _)| p == path)
        .map(|(_, what)| *what);
    if let Some(what) = what {
        d.message =
            format!("{path}: read as the {what} (a key this format's schema does not document)");
    }
}

/// The wire-format (schema) checks of one file, by kind.
fn wire_check(kind: FileKind, rel: &str, text: &str) -> Vec<Diagnostic> {
    use crate::core::normalize::{checkpoint, context_state, jerry, nexus, precompact};
    match kind {
        FileKind::NexusManifest => nexus::validate_manifest(rel, text),
        FileKind::Checkpoint => checkpoint::validate_checkpoint(rel, text),
        FileKind::ContextMonitorState | FileKind::LifecycleContextState => {
            context_state::validate_context_state(rel, text)
        }
        FileKind::Precompact => precompact::validate_precompact(rel, text),
        FileKind::Orchestration => jerry::validate_orchestration(rel, text),
        FileKind::CheckpointMarker | FileKind::NexusOverview | FileKind::NexusSteps => Vec::new(),
    }
}

fn write_text(
    out: &mut dyn Write,
    diagnostics: &[Diagnostic],
    files: usize,
    (errors, warnings, infos): (usize, usize, usize),
) -> std::io::Result<()> {
    for diagnostic in diagnostics {
        writeln!(out, "{diagnostic}")?;
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    writeln!(
        out,
        "{}: {}, {}, {}",
        plural(files, "file"),
        plural(errors, "error"),
        plural(warnings, "warning"),
        plural(infos, "note")
    )?;
    if files == 0 {
        writeln!(
            out,
            "no workflow or manifest here to check: `resume-tui init` starts one \
             (README, \"What it needs\"), `--root DIR` names another folder"
        )?;
    }
    Ok(())
}
