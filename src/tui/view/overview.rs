//! Overview: recovery state, next step, activity, files to read (missing ones
//! marked), agent summaries, defect patterns and the "other fields" kept by the
//! normaliser; Nexus manifests show their frontmatter instead.
//!
//! Laid out to the pane's width here rather than wrapped by the widget: wrapped
//! values hang under their own column, and paths lose folders from the middle
//! instead of breaking across lines.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::badges::{self, percent};
use super::wrap::Piece;
use super::wrapped::{Wrapped, lead, words};
use super::{Scrolling, clean};
use crate::core::model::{FileToRead, NexusManifest, OtherFields, Project, Resumption, Severity};
use crate::core::time::{describe_age, describe_update_age};
use crate::tui::model::Model;

const LABEL_W: usize = 16;
/// Where the text of a list entry starts (`  ✓ `, `  • `).
const ENTRY_W: usize = 4;

pub fn draw(model: &Model, project: &Project, frame: &mut Frame, area: Rect) {
    scrolling(model, project, area).draw(frame, model.scroll, model.theme.accent);
}

pub fn scrolling(model: &Model, project: &Project, area: Rect) -> Scrolling {
    Scrolling::of(area, |width| lines(model, project, width))
}

/// The Overview of `p`, laid out in lines of at most `width` cells.
pub fn lines(model: &Model, p: &Project, width: usize) -> Vec<Line<'static>> {
    let mut out = Wrapped::new(model, width, LABEL_W);
    summary(&mut out, p);
    findings(&mut out, p);
    if let Some(r) = &p.resumption {
        resumption(&mut out, r);
    }
    if let Some(m) = &p.manifest {
        manifest(&mut out, m);
    }
    if !p.top_level_keys.is_empty() {
        out.section("Other top-level keys");
        let keys: Vec<String> = p
            .top_level_keys
            .iter()
            .map(|k| clean(k).into_owned())
            .collect();
        let dim = model.theme.dim;
        out.hang(lead("  ", dim), 2, vec![Piece::words(keys.join(", "), dim)]);
    }
    if !p.diagnostics.is_empty() {
        out.section("Problems reading the files");
        for d in &p.diagnostics {
            let t = &model.theme;
            let style = match d.severity {
                Severity::Error => t.error,
                Severity::Warning => t.warn,
                Severity::Info => t.dim,
            };
            let text = clean(&d.to_string()).into_owned();
            out.hang(
                lead("  ! ", style),
                ENTRY_W,
                vec![Piece::words(text, style)],
            );
        }
    }
    out.lines
}

/// The live context fill the hooks recorded for the project's session (with its
/// trend and age, coloured by the alert thresholds), else the fill its state file
/// recorded at the last update, said to be of then (after a compaction the live
/// figure is unknown, and this one is older still).
fn context_gauge(model: &Model, p: &Project) -> Option<Piece> {
    let t = &model.theme;
    let Some(gauge) = crate::tui::live::gauge(&model.workspace, &model.fills, p) else {
        let fill = p.summary.fill_at_update?;
        return Some(Piece::whole(
            format!(" · fill {} then", percent(Some(fill))),
            t.dim,
        ));
    };
    let (fill, state) = (gauge.fill, gauge.reading);
    let c = &model.config.context;
    let style = if fill >= c.critical {
        t.critical
    } else if fill >= c.warning {
        t.warn
    } else {
        t.ok
    };
    let age = state
        .updated_at
        .map(|at| format!(", {}", describe_age(model.now.seconds_since(at))))
        .unwrap_or_default();
    // Neither record keeps a history: with no earlier figure, say so.
    let text = match gauge.previous {
        Some(previous) => format!(
            " · context {}{} (was {}; {}{age})",
            percent(Some(fill)),
            gauge.trend().trim(),
            percent(Some(previous)),
            gauge.source()
        ),
        None => format!(
            " · context {} ({}{age}; no trend yet)",
            percent(Some(fill)),
            gauge.source()
        ),
    };
    Some(Piece::whole(text, style))
}

fn summary(out: &mut Wrapped, p: &Project) {
    let model = out.model;
    let t = &model.theme;
    let stale = badges::staleness(p.staleness.level, t);
    let status = badges::status(p.summary.status.as_deref(), t);
    let raw = p.summary.updated_at_raw.as_deref();
    let updated = match (p.summary.updated_at, raw) {
        (Some(at), _) => format!("updated {}", describe_update_age(raw, at, model.now)),
        (None, Some(raw)) => format!("updated {:?} (not a time)", clean(raw)),
        (None, None) => "no update time".to_string(),
    };
    let gap = || Piece::words("  ", Style::new());
    let mut top = vec![
        Piece::whole(stale.span().content, stale.style),
        gap(),
        Piece::whole(status.span().content, status.style),
        gap(),
        Piece::whole(updated, t.dim),
    ];
    if let Some(piece) = context_gauge(model, p) {
        top.push(piece);
    }
    let unacked = crate::tui::list::waiting(p, &model.workspace.unassigned_checkpoints);
    if unacked > 0 {
        top.push(gap());
        top.push(Piece::whole(
            format!("⚑ {unacked} unacknowledged"),
            t.unacked,
        ));
    }
    out.hang(Vec::new(), 0, top);
    for reason in &p.staleness.reasons {
        out.hang(
            lead("  · ", t.dim),
            ENTRY_W,
            vec![Piece::words(clean(reason), t.dim)],
        );
    }
    super::precompact::overview_line(out, p);
    out.lines.push(Line::default());

    let s = &p.summary;
    let phase = match (s.phase.as_deref(), s.phase_name.as_deref()) {
        (Some(n), Some(name)) => Some(format!("{} — {}", clean(n), clean(name))),
        (Some(n), None) => Some(clean(n).into_owned()),
        (None, Some(name)) => Some(clean(name).into_owned()),
        (None, None) => None,
    };
    let owned = |v: Option<&str>| v.map(|v| clean(v).into_owned());
    out.field_text("Phase", phase);
    out.field_text("Activity", owned(s.activity.as_deref()));
    if let Some(next) = s.next_step.as_deref() {
        out.field("Next step", vec![Piece::words(clean(next), t.accent)]);
    }
    out.field_text("Last checkpoint", owned(s.last_checkpoint.as_deref()));
    out.field_text("Current gate", owned(s.current_gate.as_deref()));
    if s.pipelines.len() > 1 {
        let each: Vec<String> = s
            .pipelines
            .iter()
            .map(|pl| match (pl.phase.as_deref(), pl.status.as_deref()) {
                (Some(ph), Some(st)) => {
                    format!("{} phase {} ({})", clean(&pl.name), clean(ph), clean(st))
                }
                (Some(ph), None) => format!("{} phase {}", clean(&pl.name), clean(ph)),
                (None, Some(st)) => format!("{} ({})", clean(&pl.name), clean(st)),
                (None, None) => clean(&pl.name).into_owned(),
            })
            .collect();
        out.field_text("Pipelines", Some(each.join("; ")));
    }
    let kind = format!("({:?} · {})", p.kind, p.shape.label()).to_lowercase();
    // The path has the line; the kind follows it, or goes under it.
    let path = out.path(&p.source, LABEL_W);
    out.field(
        "File",
        vec![
            Piece::whole(path, Style::new()),
            Piece::words(" ", Style::new()),
            Piece::whole(kind, t.dim),
        ],
    );
}

/// What the prompt says above its recovery lines, said here too: where the
/// resumption section is behind newer evidence, and the active blockers.
fn findings(out: &mut Wrapped, p: &Project) {
    let t = &out.model.theme;
    let (warn, dim) = (t.warn, t.dim);
    if !p.summary.behind.is_empty() {
        out.section("Behind newer evidence (the newer side is current)");
        for line in &p.summary.behind {
            out.hang(lead("  * ", warn), ENTRY_W, vec![words(line)]);
        }
    }
    if !p.summary.blockers.is_empty() {
        out.section("Active blockers (most severe first)");
        for b in &p.summary.blockers {
            let mut pieces = Vec::new();
            if let Some(severity) = &b.severity {
                pieces.push(Piece::whole(format!("[{}] ", clean(severity)), warn));
            }
            if let Some(id) = &b.id {
                pieces.push(Piece::whole(format!("{}: ", clean(id)), Style::new()));
            }
            pieces.push(words(&b.description));
            if let Some(impact) = &b.impact {
                pieces.push(Piece::words(format!(" (impact: {})", clean(impact)), dim));
            }
            out.hang(lead("  ‖ ", warn), ENTRY_W, pieces);
        }
    }
}

fn resumption(out: &mut Wrapped, r: &Resumption) {
    let t = &out.model.theme;
    if let Some(prose) = r.recovery.current_state.as_deref() {
        out.section("Current state");
        for line in super::drawn_lines(prose).lines() {
            out.hang(lead("  ", Style::new()), 2, vec![words(line)]);
        }
    }
    if !r.files_to_read.is_empty() {
        out.section("Files to read");
        for f in &r.files_to_read {
            file_to_read(out, f);
        }
    }
    if !r.agent_summaries.is_empty() {
        out.section("Agent summaries");
        for a in &r.agent_summaries {
            out.labelled(&clean(&a.agent), ENTRY_W, vec![words(&a.summary)]);
        }
    }
    if let Some(d) = &r.defects {
        out.section("Defects");
        if d.total_defects_found.is_some() || d.total_defects_resolved.is_some() {
            let n = |v: Option<i64>| v.map_or("?".to_string(), |v| v.to_string());
            let counts = format!(
                "found {} · resolved {}",
                n(d.total_defects_found),
                n(d.total_defects_resolved)
            );
            out.hang(
                lead("  ", Style::new()),
                2,
                vec![Piece::words(counts, Style::new())],
            );
        }
        for u in &d.unresolved_defects {
            out.hang(lead("  ✗ unresolved: ", t.warn), ENTRY_W, vec![words(u)]);
        }
        for pat in &d.recurring_patterns {
            let mut pieces = vec![words(&pat.pattern)];
            if !pat.gates_affected.is_empty() {
                let gates = format!(" ({})", clean(&pat.gates_affected.join(", ")));
                pieces.push(Piece::words(gates, Style::new()));
            }
            if let Some(res) = pat.resolution.as_deref() {
                pieces.push(Piece::words(format!(" → {}", clean(res)), t.dim));
            }
            out.hang(lead("  • ", Style::new()), ENTRY_W, pieces);
        }
        if let Some(last) = d.last_gate_primary_defect.as_deref() {
            out.hang(
                lead("  last gate's primary defect: ", Style::new()),
                ENTRY_W,
                vec![words(last)],
            );
        }
        other(out, &d.other);
    }
    if let Some(c) = &r.compaction {
        let count = c
            .count
            .map_or_else(|| c.events.len().to_string(), |n| n.to_string());
        out.lines.push(Line::default());
        out.field_text(
            "Compactions",
            Some(format!("{count} (see the Compaction tab)")),
        );
        for note in &c.notes {
            out.hang(lead("  ", t.dim), 2, vec![Piece::words(clean(note), t.dim)]);
        }
    }
    if !r.other.is_empty() {
        out.section("Other fields");
        other(out, &r.other);
    }
}

/// `  ✓ path/…/FILE.md`, then `p1 · what it is for` under the path.
fn file_to_read(out: &mut Wrapped, f: &FileToRead) {
    let t = &out.model.theme;
    entry_path(out, &f.path, f.exists);
    let mut tags = Vec::new();
    if f.exists == Some(false) {
        tags.push(("missing".to_string(), t.missing));
    }
    if let Some(p) = f.priority {
        tags.push((format!("p{p}"), t.dim));
    }
    let purpose = f.purpose.as_deref().map(|p| Piece::words(clean(p), t.dim));
    details(out, tags, purpose);
    if !f.sections.is_empty() {
        let sections: Vec<String> = f.sections.iter().map(|s| clean(s).into_owned()).collect();
        let text = format!("sections: {}", sections.join(", "));
        out.hang(entry_indent(), ENTRY_W, vec![Piece::words(text, t.dim)]);
    }
}

/// `  ✓ path`: the status glyph in its column, the path shortened to the line.
fn entry_path(out: &mut Wrapped, path: &str, exists: Option<bool>) {
    let t = &out.model.theme;
    let (glyph, style) = match exists {
        Some(true) => ("✓", t.ok),
        Some(false) => ("✗", t.missing),
        None => ("?", t.dim),
    };
    let path = out.path(path, ENTRY_W);
    out.lines.push(Line::from(vec![
        Span::styled(format!("  {glyph} "), style),
        Span::raw(path),
    ]));
}

/// The line under an entry's path: `missing · p3 · text…`, the tags kept whole.
fn details(out: &mut Wrapped, tags: Vec<(String, Style)>, text: Option<Piece>) {
    let count = tags.len();
    let mut pieces = Vec::new();
    for (i, (tag, style)) in tags.into_iter().enumerate() {
        let more = i + 1 < count || text.is_some();
        let tag = if more { format!("{tag} ·") } else { tag };
        pieces.push(Piece::whole(tag, style));
        pieces.push(Piece::words(" ", Style::new()));
    }
    pieces.extend(text);
    if !pieces.is_empty() {
        out.hang(entry_indent(), ENTRY_W, pieces);
    }
}

fn entry_indent() -> Vec<Span<'static>> {
    vec![Span::raw(" ".repeat(ENTRY_W))]
}

fn manifest(out: &mut Wrapped, m: &NexusManifest) {
    let t = &out.model.theme;
    out.section("Nexus manifest");
    let c = |v: &Option<String>| v.as_deref().map(|s| clean(s).into_owned());
    out.field_text("Build", c(&m.build_name).or(c(&m.build_id)));
    out.field_text("Type", c(&m.build_type));
    out.field_text("Section", c(&m.current_section));
    out.field_text("Task", c(&m.current_task));
    if let (Some(done), Some(total)) = (m.tasks_completed, m.total_tasks) {
        out.field_text("Tasks", Some(format!("{done} / {total} done")));
    }
    out.field_text("Continue at", c(&m.continue_at));
    out.field_text("Schema", c(&m.schema_version));
    for b in &m.blockers {
        out.hang(lead("  ‖ blocker: ", t.warn), ENTRY_W, vec![words(b)]);
    }
    if !m.files_to_load.is_empty() {
        out.section("Files to load");
        for f in &m.files_to_load {
            entry_path(out, &f.path, f.exists);
            let missing = (f.exists == Some(false)).then(|| ("missing".to_string(), t.missing));
            let comment = f.comment.as_deref();
            let comment = comment.map(|c| Piece::words(format!("# {}", clean(c)), t.dim));
            details(out, missing.into_iter().collect(), comment);
        }
    }
    if !m.other.is_empty() {
        out.section("Other fields");
        other(out, &m.other);
    }
}

fn other(out: &mut Wrapped, fields: &OtherFields) {
    for (key, value) in fields {
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out.labelled(&clean(key), ENTRY_W, vec![words(&text)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::core::time::Timestamp;
    use crate::io::env::Env;
    use crate::tui::keymap::Keymap;
    use crate::tui::msg::Msg;
    use crate::tui::theme::Theme;

    const NOW: Timestamp = Timestamp(1_771_331_696);

    fn demo_model() -> Model {
        let dir = tempfile::tempdir().unwrap();
        crate::io::demo::unpack_into(dir.path(), NOW).unwrap();
        let ws =
            crate::io::load::load_workspace(dir.path(), &Env::default(), NOW, &Config::default());
        let mut model = Model::new(
            Config::default(),
            Theme::no_color(),
            Keymap::defaults(),
            NOW,
        );
        crate::tui::update(&mut model, Msg::loaded(ws), NOW);
        model
    }

    fn text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn the_prompts_findings_show_here_too() {
        use crate::core::model::{Blocker, PipelineState};
        let model = demo_model();
        let mut p = model.workspace.projects[0].clone();
        p.summary.behind =
            vec!["resumption.next_step names phase 2, but phase 2 is COMPLETE".into()];
        p.summary.current_gate = Some("QG-3".into());
        let pipe = |name: &str| PipelineState {
            name: name.into(),
            key: format!("pipelines.{name}"),
            phase: Some("2".into()),
            status: None,
        };
        p.summary.pipelines = vec![pipe("ps"), pipe("nse")];
        p.summary.blockers = vec![Blocker {
            id: Some("B-4".into()),
            severity: Some("CRITICAL".into()),
            description: "no sandbox".into(),
            impact: None,
            key: "blockers.active".into(),
        }];
        let shown = text(&lines(&model, &p, 100)).join("\n");
        for expected in [
            "Behind newer evidence (the newer side is current)",
            "* resumption.next_step names phase 2, but phase 2 is COMPLETE",
            "Active blockers (most severe first)",
            "‖ [CRITICAL] B-4: no sandbox",
            "QG-3",
            "ps phase 2; nse phase 2",
        ] {
            assert!(shown.contains(expected), "{expected:?} not in\n{shown}");
        }
        for width in 8..=60 {
            assert!(lines(&model, &p, width).iter().all(|l| l.width() <= width));
        }
    }

    #[test]
    fn no_line_is_wider_than_the_pane_at_any_width() {
        let model = demo_model();
        for project in &model.workspace.projects {
            for width in 8..=130 {
                for line in lines(&model, project, width) {
                    assert!(
                        line.width() <= width,
                        "{} at {width}: {:?}",
                        project.id,
                        line.to_string()
                    );
                }
            }
        }
    }

    #[test]
    fn each_file_to_read_is_a_path_line_then_its_details_under_the_path() {
        let model = demo_model();
        let payouts = model
            .workspace
            .projects
            .iter()
            .find(|p| p.id == "payouts-v2-20260302-001")
            .unwrap();
        let shown = text(&lines(&model, payouts, 40));
        let start = shown.iter().position(|l| l == "Files to read").unwrap();
        let entries = &shown[start + 1..];
        assert_eq!(entries[0], "  ✓ projects/…/ORCHESTRATION.yaml");
        assert_eq!(entries[1], "    p1 · Machine-readable workflow");
        assert!(entries[2].starts_with("    state."), "{entries:#?}");
        let plan = entries
            .iter()
            .position(|l| l.ends_with("ORCHESTRATION_PLAN.md"))
            .unwrap();
        assert!(entries[plan].starts_with("  ✓ "), "{entries:#?}");
        assert!(entries[plan + 1].starts_with("    p2 · "), "{entries:#?}");
    }

    #[test]
    fn wrapped_values_hang_under_their_label() {
        let model = demo_model();
        let payouts = &model
            .workspace
            .projects
            .iter()
            .find(|p| p.id.starts_with("payouts"))
            .unwrap();
        let shown = text(&lines(&model, payouts, 50));
        let next = shown
            .iter()
            .position(|l| l.starts_with("Next step"))
            .unwrap();
        assert!(
            shown[next + 1].starts_with(&" ".repeat(LABEL_W)),
            "{shown:#?}"
        );
        assert!(!shown[next + 1][LABEL_W..].starts_with(' '), "{shown:#?}");
    }
}
