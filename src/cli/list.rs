//! `resume-tui list`: every project found, one line each, most urgent first.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;

use serde_json::{Value, json};

use super::ListArgs;
use crate::app::Context;
use crate::core::model::{Diagnostic, Project, Severity, Shape, Workspace};
use crate::core::text::{pad, truncate_line, width};
use crate::core::time::{Timestamp, describe_update_age};
use crate::core::trajectory::Trend;
use crate::core::workspace::aliases;
use crate::{Error, Result};

/// Version of the `--json` layout (docs/formats.md); bumped on incompatible change.
pub const LIST_FORMAT: &str = "resume-tui.list.v1";

pub fn run(ctx: &Context, args: &ListArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let mut ws = super::prompt::load(ctx);
    // The status line's fill readings: the dashboard's order weighs them too.
    let statusline = crate::io::live_records::statusline_states(&ctx.root, &ws);
    ws.context_states.extend(statusline);
    let rows = sorted(&ws, &ctx.config.context);
    let written = if args.json {
        let max_minutes = ctx.config.hooks.nexus_state_max_age_minutes;
        let mut value = to_json(&ws, &rows, ctx.now);
        if let Value::Object(map) = &mut value {
            map.insert(
                "precompact_state".into(),
                precompact_json(&ws, ctx.now, max_minutes),
            );
        }
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| Error::Usage(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")
    } else {
        write_table(out, &ws, &rows, ctx.now).and_then(|()| {
            if args.all {
                write_excluded(out, &ws)
            } else {
                Ok(())
            }
        })
    };
    written.map_err(|e| Error::io("standard output", e))?;
    Ok(ExitCode::SUCCESS)
}

/// Most urgent first: the dashboard's order (`core::urgency`), the sessions'
/// fill against the configured thresholds included.
pub fn sorted<'a>(ws: &'a Workspace, context: &crate::config::ContextConfig) -> Vec<&'a Project> {
    let waiting = crate::core::urgency::Waiting::new(&ws.unassigned_checkpoints).with_fills(
        ws,
        context.warning,
        context.critical,
    );
    let mut rows: Vec<&Project> = ws.projects.iter().collect();
    rows.sort_by(|a, b| crate::core::urgency::compare(a, b, &waiting));
    rows
}

/// Warnings and errors (not infos) on a project.
pub fn problem_count(project: &Project) -> usize {
    project
        .diagnostics
        .iter()
        .filter(|d| d.severity >= Severity::Warning)
        .count()
}

pub fn trend_arrow(trend: Option<Trend>) -> &'static str {
    match trend {
        Some(Trend::Rising) => "↑",
        Some(Trend::Falling) => "↓",
        Some(Trend::Flat) => "→",
        Some(Trend::Single) | None => "",
    }
}

fn score_cell(project: &Project) -> String {
    match project.trajectory.last_score() {
        Some((_, score)) => format!("{score:.2}{}", trend_arrow(project.trajectory.last_trend())),
        None => "-".to_string(),
    }
}

fn age_cell(project: &Project, now: Timestamp) -> String {
    match project.summary.updated_at {
        Some(at) => describe_update_age(project.summary.updated_at_raw.as_deref(), at, now),
        None => "-".to_string(),
    }
}

fn phase_cell(project: &Project) -> String {
    let summary = &project.summary;
    match (&summary.phase, &summary.phase_name) {
        (Some(phase), Some(name)) if !name.contains(phase.as_str()) => format!("{phase} {name}"),
        (_, Some(name)) => name.clone(),
        (Some(phase), None) => phase.clone(),
        (None, None) => "-".to_string(),
    }
}

/// The status, marked `✗` when the file does not read, `≠` when it contradicts
/// itself and `*` when its resumption section is behind newer evidence (the
/// footer says so).
fn status_cell(project: &Project) -> String {
    let status = text_or_dash(project.summary.status.as_deref());
    if project.shape == Shape::Unreadable {
        // Its file does not read: the footer says why, with the file, line and column.
        format!("✗ {status}")
    } else if !project.summary.contradictions.is_empty() {
        format!("≠ {status}")
    } else if !project.summary.behind.is_empty() {
        format!("* {status}")
    } else {
        status
    }
}

fn text_or_dash(value: Option<&str>) -> String {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .unwrap_or("-")
        .to_string()
}

const HEADERS: [&str; 12] = [
    "KIND",
    "ID",
    "NAME",
    "STATUS",
    "PHASE",
    "ACTIVITY",
    "STALENESS",
    "UNACK",
    "SCORE",
    "UPDATED",
    "SHAPE",
    "WARN",
];
/// Widest a column may grow; longer text is cut with `…`. Ids are never cut: they
/// are what `show` and the other commands take.
const MAX_WIDTHS: [usize; 12] = [5, 200, 28, 10, 18, 36, 9, 5, 6, 11, 20, 4];
/// Right-aligned (numeric) columns.
const RIGHT: [bool; 12] = [
    false, false, false, false, false, false, false, true, true, false, false, true,
];

fn cells(project: &Project, now: Timestamp) -> [String; 12] {
    let summary = &project.summary;
    let kind = match project.kind {
        crate::core::model::ProjectKind::Jerry => "jerry",
        crate::core::model::ProjectKind::Nexus => "nexus",
    };
    [
        kind.to_string(),
        project.id.clone(),
        text_or_dash(project.name.as_deref()),
        status_cell(project),
        phase_cell(project),
        text_or_dash(summary.activity.as_deref()),
        project.staleness.level.label().to_string(),
        project.staleness.unacknowledged_checkpoints.to_string(),
        score_cell(project),
        age_cell(project, now),
        project.shape.label().to_string(),
        problem_count(project).to_string(),
    ]
}

fn write_table(
    out: &mut dyn Write,
    ws: &Workspace,
    rows: &[&Project],
    now: Timestamp,
) -> std::io::Result<()> {
    let table: Vec<[String; 12]> = rows
        .iter()
        .map(|p| {
            let mut row = cells(p, now);
            for (cell, max) in row.iter_mut().zip(MAX_WIDTHS) {
                *cell = truncate_line(cell, max);
            }
            row
        })
        .collect();
    let mut widths = HEADERS.map(width);
    for row in &table {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(width(cell));
        }
    }
    if !table.is_empty() {
        write_row(out, &HEADERS.map(str::to_string), &widths)?;
    }
    for row in &table {
        write_row(out, row, &widths)?;
    }
    writeln!(out, "{}", footer(ws))
}

fn write_row(out: &mut dyn Write, row: &[String; 12], widths: &[usize; 12]) -> std::io::Result<()> {
    let mut line = String::new();
    for (i, ((cell, w), right)) in row.iter().zip(widths).zip(RIGHT).enumerate() {
        if i > 0 {
            line.push_str("  ");
        }
        if right {
            line.push_str(&" ".repeat(w.saturating_sub(width(cell))));
            line.push_str(cell);
        } else {
            line.push_str(&pad(cell, *w));
        }
    }
    writeln!(out, "{}", line.trim_end())
}

fn counts<'a>(items: impl Iterator<Item = &'a str>) -> BTreeMap<&'a str, usize> {
    let mut map = BTreeMap::new();
    for item in items {
        *map.entry(item).or_insert(0) += 1;
    }
    map
}

fn footer(ws: &Workspace) -> String {
    let n = ws.projects.len();
    if n == 0 {
        return format!(
            "No projects found under {}: looked for ORCHESTRATION.yaml files and Nexus \
             resume-context.md manifests.",
            ws.root
        );
    }
    let join = |map: BTreeMap<&str, usize>| {
        map.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let kinds = counts(ws.projects.iter().map(|p| match p.kind {
        crate::core::model::ProjectKind::Jerry => "jerry",
        crate::core::model::ProjectKind::Nexus => "nexus",
    }));
    let shapes = counts(ws.projects.iter().map(|p| p.shape.label()));
    let mut footer = format!(
        "{n} project{} ({}) · shapes: {}",
        plural(n),
        join(kinds),
        join(shapes)
    );
    let contradicting = ws
        .projects
        .iter()
        .filter(|p| !p.summary.contradictions.is_empty())
        .count();
    if contradicting > 0 {
        footer.push_str(&format!(
            " · ≠ {contradicting} file{} contradict{} {} (`resume-tui show ID` says where)",
            plural(contradicting),
            if contradicting == 1 { "s" } else { "" },
            if contradicting == 1 {
                "itself"
            } else {
                "themselves"
            },
        ));
    }
    let behind = ws
        .projects
        .iter()
        .filter(|p| !p.summary.behind.is_empty())
        .count();
    if behind > 0 {
        footer.push_str(&format!(
            " · * {behind} resumption section{} behind newer evidence (`resume-tui show ID` says which)",
            plural(behind),
        ));
    }
    let unreadable: Vec<&Project> = ws
        .projects
        .iter()
        .filter(|p| p.shape == Shape::Unreadable)
        .collect();
    if let Some(first) = unreadable.first() {
        let why = unreadable_error(first).map_or_else(String::new, |d| format!(": {d}"));
        let more = match unreadable.len() {
            1 => String::new(),
            n => format!(" and {} more (`resume-tui validate` says why)", n - 1),
        };
        footer.push_str(&format!(
            " · ✗ {} does not read, ranked by what is known{why}{more}",
            first.id
        ));
    }
    let unassigned = ws.unassigned_checkpoints.len();
    if unassigned > 0 {
        let unacked = ws
            .unassigned_checkpoints
            .iter()
            .filter(|c| !c.acknowledged)
            .count();
        footer.push_str(&format!(
            " · {unassigned} checkpoint{} not tied to a project ({unacked} unacknowledged)",
            plural(unassigned)
        ));
    }
    let excluded = ws.excluded.len();
    if excluded > 0 {
        footer.push_str(&format!(
            " · {excluded} state file{} excluded (`resume-tui list --all` says why)",
            plural(excluded)
        ));
    }
    let notices = ws
        .diagnostics
        .iter()
        .filter(|d| d.severity >= Severity::Warning)
        .count();
    if notices > 0 {
        footer.push_str(&format!(
            " · {notices} workspace problem{} (see `resume-tui validate`)",
            plural(notices)
        ));
    }
    footer
}

/// Why an unreadable project's file does not read: its first error.
fn unreadable_error(project: &Project) -> Option<&Diagnostic> {
    if project.shape != Shape::Unreadable {
        return None;
    }
    project
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .or_else(|| project.diagnostics.first())
}

/// `list --all`: the state files found but not taken as projects, with the reason.
fn write_excluded(out: &mut dyn Write, ws: &Workspace) -> std::io::Result<()> {
    if ws.excluded.is_empty() {
        return writeln!(out, "No state file was excluded.");
    }
    writeln!(out, "\nExcluded ({}):", ws.excluded.len())?;
    for excluded in &ws.excluded {
        writeln!(out, "  {}: {}", excluded.path, excluded.reason)?;
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn to_json(ws: &Workspace, rows: &[&Project], now: Timestamp) -> Value {
    let projects: Vec<Value> = rows.iter().map(|p| row_json(p)).collect();
    let unassigned: Vec<Value> = ws
        .unassigned_checkpoints
        .iter()
        .map(|c| {
            json!({
                "id": c.id,
                "path": c.path,
                "format": c.format,
                "created_at": c.created_at,
                "acknowledged": c.acknowledged,
            })
        })
        .collect();
    json!({
        "format": LIST_FORMAT,
        "root": ws.root,
        "now": now,
        "projects": projects,
        "unassigned_checkpoints": unassigned,
        "counts": {
            "projects": ws.projects.len(),
            "by_kind": counts(ws.projects.iter().map(|p| match p.kind {
                crate::core::model::ProjectKind::Jerry => "jerry",
                crate::core::model::ProjectKind::Nexus => "nexus",
            })),
            "by_shape": counts(ws.projects.iter().map(|p| p.shape.label())),
        },
        "diagnostics": ws.diagnostics,
        "excluded": ws.excluded,
    })
}

/// The Nexus precompact state as `show` gives it, with the id it names as
/// written and the project that is (`null` when none here is).
fn precompact_json(ws: &Workspace, now: Timestamp, max_minutes: u64) -> Value {
    let Some((view, named)) = crate::core::precompact::of_workspace(ws, now, max_minutes) else {
        return Value::Null;
    };
    let mut value = serde_json::to_value(&view).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        let id = ws
            .precompact
            .as_ref()
            .and_then(|s| s.active_project_id.clone());
        map.insert("active_project_id".into(), json!(id));
        map.insert("project_id".into(), json!(named.map(|p| &p.id)));
    }
    value
}

fn row_json(p: &Project) -> Value {
    let last_score = p.trajectory.last_score().map(
        |(gate, score)| json!({ "gate": gate, "score": score, "trend": p.trajectory.last_trend() }),
    );
    let s = &p.summary;
    json!({
        "kind": p.kind,
        "id": p.id,
        "aliases": aliases(p),
        "name": p.name,
        "source": p.source,
        "dir": p.dir,
        "shape": p.shape,
        "status": s.status,
        "phase": s.phase,
        "phase_name": s.phase_name,
        "activity": s.activity,
        "current_gate": s.current_gate,
        "next_step": s.next_step,
        "updated_at": s.updated_at,
        "updated_at_raw": s.updated_at_raw,
        "staleness": p.staleness.level,
        "staleness_reasons": p.staleness.reasons,
        "age_seconds": p.staleness.age_seconds,
        "checkpoints": p.checkpoints.len(),
        "unacknowledged_checkpoints": p.staleness.unacknowledged_checkpoints,
        "missing_files": p.staleness.missing_files.len(),
        "last_score": last_score,
        "warnings": problem_count(p),
        "unreadable": unreadable_error(p).map(ToString::to_string),
        "contradictions": s.contradictions,
        "behind": s.behind,
        "blockers": s.blockers,
    })
}
