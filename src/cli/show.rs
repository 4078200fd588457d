//! `resume-tui show PROJECT`: everything known about one project, in sections.
//! The text form prints every field of the normalised model (from its JSON form, so
//! a new field shows up without touching this file), the context window and its
//! evidence (`window`), the Nexus precompact state when it names the project
//! (`core::precompact`), then the diagnostics.

pub(crate) mod window;

use std::io::Write;
use std::process::ExitCode;

use serde_json::{Value, json};

use super::ShowArgs;
use crate::app::Context;
use crate::core::model::{Project, ProjectKind, Workspace};
use crate::core::precompact::PrecompactView;
use crate::core::text::one_line;
use crate::core::time::{Timestamp, describe_update_age};
use crate::core::workspace::find_project;
use crate::{Error, Result};

/// Version of the `--json` layout (docs/formats.md).
pub const SHOW_FORMAT: &str = "resume-tui.show.v1";

pub fn run(ctx: &Context, args: &ShowArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let ws = super::prompt::load(ctx);
    let name = project_name_under_root(ctx, &args.project);
    let project = find_project(&ws, &name)?;
    let context_window = window::view(ctx, &ws, project);
    let max_minutes = ctx.config.hooks.nexus_state_max_age_minutes;
    let precompact = crate::core::precompact::of_project(&ws, project, ctx.now, max_minutes);
    let written = if args.json {
        let mut value = to_json(&ws, project, ctx.now, &context_window);
        if let Value::Object(map) = &mut value {
            let window = serde_json::to_value(&context_window).unwrap_or(Value::Null);
            map.insert("context_window".into(), window);
            let state = serde_json::to_value(&precompact).unwrap_or(Value::Null);
            map.insert("precompact_state".into(), state);
        }
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| Error::Usage(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")
    } else {
        let tier = tier_line(&ws, project, &context_window);
        let state = precompact.as_ref();
        write_text(
            out,
            project,
            &context_window,
            ctx.now,
            tier.as_deref(),
            state,
        )
    };
    written.map_err(|e| Error::io("standard output", e))?;
    Ok(ExitCode::SUCCESS)
}

/// A name that is an existing path (relative to the current folder, or absolute) is
/// turned into a root-relative path; anything else is passed on as written.
pub fn project_name_under_root(ctx: &Context, name: &str) -> String {
    let path = std::path::Path::new(name);
    let (Ok(full), Ok(root)) = (
        std::fs::canonicalize(path),
        std::fs::canonicalize(&ctx.root),
    ) else {
        return name.to_string();
    };
    crate::io::discover::relative_to(&root, &full)
        .filter(|rel| !rel.is_empty())
        .unwrap_or_else(|| name.to_string())
}

pub fn to_json(
    ws: &Workspace,
    project: &Project,
    now: Timestamp,
    window: &window::WindowView,
) -> Value {
    json!({
        "format": SHOW_FORMAT,
        "root": ws.root,
        "now": now,
        "aliases": crate::core::workspace::aliases(project),
        "project": project,
        "context": context_json(ws, project, window),
    })
}

/// The fill recorded for the project; where none can be computed, the tier Jerry
/// last recorded (`context-state.json`).
fn context_json(ws: &Workspace, project: &Project, window: &window::WindowView) -> Value {
    let reading = window.reading();
    let tier = reading
        .fill
        .is_none()
        .then(|| crate::core::workspace::last_tier(&ws.context_states, project))
        .flatten();
    json!({
        "fill": reading.fill,
        "fill_source": reading.fill.and(reading.source),
        "last_tier": tier.map(|t| t.tier),
        "last_tier_source": tier.map(|t| t.state.path.as_str()),
        "last_tier_session": tier.and_then(|t| t.state.session_id.as_deref()),
        "last_tier_this_project": tier.map(|t| t.this_project),
    })
}

/// `CRITICAL (the last tier Jerry recorded, …)` when no fill is known.
fn tier_line(ws: &Workspace, project: &Project, window: &window::WindowView) -> Option<String> {
    if window.fill.is_some() {
        return None;
    }
    crate::core::workspace::last_tier(&ws.context_states, project).map(|t| t.describe())
}

fn write_text(
    out: &mut dyn Write,
    project: &Project,
    context_window: &window::WindowView,
    now: Timestamp,
    tier: Option<&str>,
    precompact: Option<&PrecompactView>,
) -> std::io::Result<()> {
    let model = serde_json::to_value(project).unwrap_or(Value::Null);
    let field = |key: &str| model.get(key).cloned().unwrap_or(Value::Null);
    let kind = field("kind");
    writeln!(
        out,
        "{}  ({} · {})",
        project.id,
        kind.as_str().unwrap_or("?"),
        project.shape.label()
    )?;
    for (label, key) in [
        ("name", "name"),
        ("project ref", "project_ref"),
        ("source", "source"),
        ("folder", "dir"),
    ] {
        writeln!(out, "  {label:<12} {}", scalar(&field(key), false))?;
    }
    let aliases = crate::core::workspace::aliases(project);
    let others = aliases.get(1..).unwrap_or_default().join(", ");
    let others = if others.is_empty() {
        "-".to_string()
    } else {
        others
    };
    writeln!(out, "  {:<12} {others}", "also named")?;
    if !project.summary.contradictions.is_empty() {
        writeln!(
            out,
            "\nWARNING: the file contradicts itself; check before trusting it:"
        )?;
        for sentence in &project.summary.contradictions {
            writeln!(out, "  - {sentence}")?;
        }
    }
    if !project.summary.behind.is_empty() {
        writeln!(
            out,
            "\nNOTE: part of the state file is behind newer evidence; the newer side is current:"
        )?;
        for line in &project.summary.behind {
            writeln!(out, "  - {line}")?;
        }
    }

    section(out, "Summary")?;
    write_value(out, &field("summary"), 1)?;
    if let Some(at) = project.summary.updated_at {
        let raw = project.summary.updated_at_raw.as_deref();
        writeln!(out, "  (updated {})", describe_update_age(raw, at, now))?;
    }
    if let Some(tier) = tier {
        writeln!(out, "  context: {tier}")?;
    }

    section(out, "Staleness")?;
    write_value(out, &field("staleness"), 1)?;

    section(out, "Context window")?;
    let window = serde_json::to_value(context_window).unwrap_or(Value::Null);
    write_value(out, &window, 1)?;

    let (title, key, absent) = match project.kind {
        ProjectKind::Jerry => (
            "Resumption",
            "resumption",
            "  none: the file has no resumption: section (the summary comes from its top-level fields)",
        ),
        ProjectKind::Nexus => ("Nexus manifest", "manifest", "  none"),
    };
    section(out, title)?;
    match field(key) {
        Value::Null => writeln!(out, "{absent}")?,
        value => write_value(out, &value, 1)?,
    }
    for (title, key) in [
        ("Score trajectory", "trajectory"),
        ("Checkpoints", "checkpoints"),
    ] {
        section(out, title)?;
        write_value(out, &field(key), 1)?;
    }
    write_precompact(out, precompact)?;

    section(out, "Other top-level keys of the file")?;
    write_value(out, &field("top_level_keys"), 1)?;

    section(out, &format!("Diagnostics ({})", project.diagnostics.len()))?;
    if project.diagnostics.is_empty() {
        writeln!(out, "  none")?;
    }
    for diagnostic in &project.diagnostics {
        writeln!(out, "  {diagnostic}")?;
    }
    Ok(())
}

/// The Nexus precompact state naming the project, when there is one: where it
/// is, its age, session, confidence, and whether SessionStart would inject it.
fn write_precompact(out: &mut dyn Write, state: Option<&PrecompactView>) -> std::io::Result<()> {
    let Some(state) = state else {
        return Ok(());
    };
    section(out, "Precompact state")?;
    let value = serde_json::to_value(state).unwrap_or(Value::Null);
    write_value(out, &value, 1)
}

fn section(out: &mut dyn Write, title: &str) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{title}")
}

/// Writes `value` as an indented outline: maps as `key: value` lines, lists as `-`
/// items, long or multi-line text on its own indented lines. Nothing is left out:
/// unknown values print as `-`, empty lists as `(none)`. Inside `other` (fields the
/// model does not know) keys and values are printed as written.
fn write_value(out: &mut dyn Write, value: &Value, depth: usize) -> std::io::Result<()> {
    write_nested(out, value, depth, false)
}

fn write_nested(
    out: &mut dyn Write,
    value: &Value,
    depth: usize,
    verbatim: bool,
) -> std::io::Result<()> {
    let indent = "  ".repeat(depth);
    match value {
        Value::Object(map) if map.is_empty() => writeln!(out, "{indent}(none)"),
        Value::Object(map) => {
            for (key, item) in map {
                let (head, verbatim) = if verbatim {
                    (format!("{indent}{key}:"), true)
                } else if key == "other" {
                    (format!("{indent}other fields, kept as written:"), true)
                } else {
                    (format!("{indent}{}:", label(key)), false)
                };
                write_entry(out, &head, item, depth, verbatim)?;
            }
            Ok(())
        }
        Value::Array(items) if items.is_empty() => writeln!(out, "{indent}(none)"),
        Value::Array(items) => {
            for item in items {
                write_item(out, item, depth, verbatim)?;
            }
            Ok(())
        }
        other => writeln!(out, "{indent}{}", scalar(other, verbatim)),
    }
}

/// One list item. A map item starts on the dash line; a `[name, value]` pair (how
/// the model's ordered pairs serialise) prints as `- name: value`.
fn write_item(
    out: &mut dyn Write,
    item: &Value,
    depth: usize,
    verbatim: bool,
) -> std::io::Result<()> {
    let indent = "  ".repeat(depth);
    match item {
        Value::Array(pair) if pair.len() == 2 && pair.first().is_some_and(Value::is_string) => {
            let name = pair.first().and_then(Value::as_str).unwrap_or_default();
            let value = pair.get(1).unwrap_or(&Value::Null);
            write_entry(
                out,
                &format!("{indent}- {name}:"),
                value,
                depth + 1,
                verbatim,
            )
        }
        Value::Object(map) if !map.is_empty() => {
            let mut first = true;
            for (key, value) in map {
                let dash = if first { "- " } else { "  " };
                first = false;
                let key = if verbatim { key.clone() } else { label(key) };
                write_entry(
                    out,
                    &format!("{indent}{dash}{key}:"),
                    value,
                    depth + 1,
                    verbatim,
                )?;
            }
            Ok(())
        }
        other => write_entry(out, &format!("{indent}-"), other, depth, verbatim),
    }
}

fn write_entry(
    out: &mut dyn Write,
    head: &str,
    item: &Value,
    depth: usize,
    verbatim: bool,
) -> std::io::Result<()> {
    match item {
        Value::Object(map) if !map.is_empty() => {
            writeln!(out, "{head}")?;
            write_nested(out, item, depth + 1, verbatim)
        }
        Value::Array(items) if !items.is_empty() && !all_short_scalars(items) => {
            writeln!(out, "{head}")?;
            write_nested(out, item, depth + 1, verbatim)
        }
        Value::Array(items) if !items.is_empty() => {
            let inline: Vec<String> = items.iter().map(|v| scalar(v, verbatim)).collect();
            writeln!(out, "{head} [{}]", inline.join(", "))
        }
        Value::Array(_) | Value::Object(_) => writeln!(out, "{head} (none)"),
        Value::String(text) if text.contains('\n') || text.chars().count() > 100 => {
            writeln!(out, "{head}")?;
            let indent = "  ".repeat(depth + 1);
            for line in text.trim_start_matches(['\n', '\r']).trim_end().lines() {
                match line.trim_end() {
                    "" => writeln!(out)?,
                    line => writeln!(out, "{indent}{line}")?,
                }
            }
            Ok(())
        }
        other => writeln!(out, "{head} {}", scalar(other, verbatim)),
    }
}

fn all_short_scalars(items: &[Value]) -> bool {
    items.len() <= 12
        && items.iter().all(|v| match v {
            Value::String(s) => s.chars().count() <= 40 && !s.contains('\n'),
            Value::Number(_) | Value::Bool(_) | Value::Null => true,
            _ => false,
        })
}

fn scalar(value: &Value, verbatim: bool) -> String {
    match value {
        Value::Null if verbatim => "null".to_string(),
        Value::Null => "-".to_string(),
        Value::String(s) if s.trim().is_empty() => "\"\"".to_string(),
        Value::String(s) => one_line(s),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) if verbatim => b.to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        other => other.to_string(),
    }
}

/// `files_to_read` → `files to read`.
fn label(key: &str) -> String {
    key.replace('_', " ")
}
