//! Overview: recovery state, next step, activity, files to read (missing ones
//! marked), agent summaries, defect patterns and the "other fields" kept by the
//! normaliser; Nexus manifests show their frontmatter instead.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::badges::{self, percent};
use super::{clean, dim, field, heading, styled};
use crate::core::model::{FileToRead, NexusManifest, OtherFields, Project, Resumption};
use crate::core::time::describe_age;
use crate::tui::model::Model;

const LABEL_W: usize = 16;

pub fn draw(model: &Model, project: &Project, frame: &mut Frame, area: Rect) {
    let lines = lines(model, project);
    let para = Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .scroll((model.scroll, 0));
    frame.render_widget(para, area);
}

pub fn lines<'a>(model: &Model, p: &'a Project) -> Vec<Line<'a>> {
    let t = &model.theme;
    let mut out = Vec::new();
    let stale = badges::staleness(p.staleness.level, t);
    let status = badges::status(p.summary.status.as_deref(), t);
    let updated = match (p.summary.updated_at, p.summary.updated_at_raw.as_deref()) {
        (Some(at), _) => format!("updated {}", describe_age(model.now.seconds_since(at))),
        (None, Some(raw)) => format!("updated {:?} (not a time)", clean(raw)),
        (None, None) => "no update time".to_string(),
    };
    let mut top = vec![
        stale.span(),
        Span::raw("  "),
        status.span(),
        Span::raw("  "),
    ];
    top.push(dim(model, updated));
    if let Some(fill) = p.summary.fill_at_update {
        top.push(dim(model, format!(" · fill {}", percent(Some(fill)))));
    }
    let unacked = crate::tui::list::waiting(p, &model.workspace.unassigned_checkpoints);
    if unacked > 0 {
        top.push(Span::raw("  "));
        top.push(styled(t.unacked, format!("⚑ {unacked} unacknowledged")));
    }
    out.push(Line::from(top));
    for reason in &p.staleness.reasons {
        out.push(Line::from(vec![
            dim(model, "  · "),
            dim(model, clean(reason)),
        ]));
    }
    out.push(Line::default());

    let s = &p.summary;
    let phase = match (s.phase.as_deref(), s.phase_name.as_deref()) {
        (Some(n), Some(name)) => Some(format!("{} — {}", clean(n), clean(name))),
        (Some(n), None) => Some(clean(n).into_owned()),
        (None, Some(name)) => Some(clean(name).into_owned()),
        (None, None) => None,
    };
    push_opt(model, &mut out, "Phase", phase);
    push_opt(
        model,
        &mut out,
        "Activity",
        s.activity.as_deref().map(|a| clean(a).into_owned()),
    );
    if let Some(next) = s.next_step.as_deref() {
        out.push(field(
            model,
            "Next step",
            LABEL_W,
            styled(t.accent, clean(next).into_owned()),
        ));
    }
    push_opt(
        model,
        &mut out,
        "Last checkpoint",
        s.last_checkpoint.as_deref().map(|c| clean(c).into_owned()),
    );
    let kind = format!("{:?} · {}", p.kind, p.shape.label()).to_lowercase();
    out.push(field(
        model,
        "File",
        LABEL_W,
        Span::raw(format!("{} ({kind})", clean(&p.source))),
    ));

    if let Some(r) = &p.resumption {
        resumption(model, r, &mut out);
    }
    if let Some(m) = &p.manifest {
        manifest(model, m, &mut out);
    }
    if !p.top_level_keys.is_empty() {
        out.push(Line::default());
        out.push(heading(model, "Other top-level keys"));
        let keys: Vec<_> = p
            .top_level_keys
            .iter()
            .map(|k| clean(k).into_owned())
            .collect();
        out.push(Line::from(dim(model, format!("  {}", keys.join(", ")))));
    }
    if !p.diagnostics.is_empty() {
        out.push(Line::default());
        out.push(heading(model, "Problems reading the files"));
        for d in &p.diagnostics {
            let style = match d.severity {
                crate::core::model::Severity::Error => t.error,
                crate::core::model::Severity::Warning => t.warn,
                crate::core::model::Severity::Info => t.dim,
            };
            out.push(Line::from(vec![
                styled(style, "  ! "),
                styled(style, clean(&d.to_string()).into_owned()),
            ]));
        }
    }
    out
}

fn push_opt<'a>(model: &Model, out: &mut Vec<Line<'a>>, label: &str, value: Option<String>) {
    if let Some(value) = value {
        out.push(field(model, label, LABEL_W, Span::raw(value)));
    }
}

fn resumption<'a>(model: &Model, r: &'a Resumption, out: &mut Vec<Line<'a>>) {
    let t = &model.theme;
    if let Some(prose) = r.recovery.current_state.as_deref() {
        out.push(Line::default());
        out.push(heading(model, "Current state"));
        for line in crate::tui::text::sanitize(prose, true).lines() {
            out.push(Line::from(format!("  {line}")));
        }
    }
    if !r.files_to_read.is_empty() {
        out.push(Line::default());
        out.push(heading(model, "Files to read"));
        for f in &r.files_to_read {
            out.push(file_line(model, f));
        }
    }
    if !r.agent_summaries.is_empty() {
        out.push(Line::default());
        out.push(heading(model, "Agent summaries"));
        for a in &r.agent_summaries {
            out.push(Line::from(vec![
                styled(t.label, format!("  {}: ", clean(&a.agent))),
                Span::raw(clean(&a.summary).into_owned()),
            ]));
        }
    }
    if let Some(d) = &r.defects {
        out.push(Line::default());
        out.push(heading(model, "Defects"));
        if d.total_defects_found.is_some() || d.total_defects_resolved.is_some() {
            let n = |v: Option<i64>| v.map_or("?".to_string(), |v| v.to_string());
            out.push(Line::from(format!(
                "  found {} · resolved {}",
                n(d.total_defects_found),
                n(d.total_defects_resolved)
            )));
        }
        for u in &d.unresolved_defects {
            out.push(Line::from(vec![
                styled(t.warn, "  ✗ unresolved: "),
                Span::raw(clean(u).into_owned()),
            ]));
        }
        for pat in &d.recurring_patterns {
            let gates = if pat.gates_affected.is_empty() {
                String::new()
            } else {
                format!(" ({})", pat.gates_affected.join(", "))
            };
            let mut spans = vec![Span::raw(format!(
                "  • {}{}",
                clean(&pat.pattern),
                clean(&gates)
            ))];
            if let Some(res) = pat.resolution.as_deref() {
                spans.push(dim(model, format!(" → {}", clean(res))));
            }
            out.push(Line::from(spans));
        }
        if let Some(last) = d.last_gate_primary_defect.as_deref() {
            out.push(Line::from(format!(
                "  last gate's primary defect: {}",
                clean(last)
            )));
        }
        other(model, "  ", &d.other, out);
    }
    if let Some(c) = &r.compaction {
        let count = c
            .count
            .map_or_else(|| c.events.len().to_string(), |n| n.to_string());
        out.push(Line::default());
        out.push(field(
            model,
            "Compactions",
            LABEL_W,
            Span::raw(format!("{count} (see the Compaction tab)")),
        ));
        for note in &c.notes {
            out.push(Line::from(dim(model, format!("  {}", clean(note)))));
        }
    }
    if !r.other.is_empty() {
        out.push(Line::default());
        out.push(heading(model, "Other fields"));
        other(model, "  ", &r.other, out);
    }
}

fn file_line<'a>(model: &Model, f: &'a FileToRead) -> Line<'a> {
    let t = &model.theme;
    let (glyph, style, note) = match f.exists {
        Some(true) => ("✓", t.ok, ""),
        Some(false) => ("✗", t.missing, " (missing)"),
        None => ("?", t.dim, ""),
    };
    let mut spans = vec![
        styled(style, format!("  {glyph} ")),
        Span::raw(clean(&f.path).into_owned()),
    ];
    if !note.is_empty() {
        spans.push(styled(style, note));
    }
    if let Some(p) = f.priority {
        spans.push(dim(model, format!(" [p{p}]")));
    }
    if let Some(purpose) = f.purpose.as_deref() {
        spans.push(dim(model, format!(" — {}", clean(purpose))));
    }
    Line::from(spans)
}

fn manifest<'a>(model: &Model, m: &'a NexusManifest, out: &mut Vec<Line<'a>>) {
    let t = &model.theme;
    out.push(Line::default());
    out.push(heading(model, "Nexus manifest"));
    let c = |v: &Option<String>| v.as_deref().map(|s| clean(s).into_owned());
    push_opt(model, out, "Build", c(&m.build_name).or(c(&m.build_id)));
    push_opt(model, out, "Type", c(&m.build_type));
    push_opt(model, out, "Section", c(&m.current_section));
    push_opt(model, out, "Task", c(&m.current_task));
    if let (Some(done), Some(total)) = (m.tasks_completed, m.total_tasks) {
        push_opt(model, out, "Tasks", Some(format!("{done} / {total} done")));
    }
    push_opt(model, out, "Continue at", c(&m.continue_at));
    push_opt(model, out, "Schema", c(&m.schema_version));
    for b in &m.blockers {
        out.push(Line::from(vec![
            styled(t.warn, "  ‖ blocker: "),
            Span::raw(clean(b).into_owned()),
        ]));
    }
    if !m.files_to_load.is_empty() {
        out.push(Line::default());
        out.push(heading(model, "Files to load"));
        for f in &m.files_to_load {
            let (glyph, style, note) = match f.exists {
                Some(true) => ("✓", t.ok, ""),
                Some(false) => ("✗", t.missing, " (missing)"),
                None => ("?", t.dim, ""),
            };
            let mut spans = vec![
                styled(style, format!("  {glyph} ")),
                Span::raw(clean(&f.path).into_owned()),
            ];
            if !note.is_empty() {
                spans.push(styled(style, note));
            }
            if let Some(comment) = f.comment.as_deref() {
                spans.push(dim(model, format!(" # {}", clean(comment))));
            }
            out.push(Line::from(spans));
        }
    }
    if !m.other.is_empty() {
        out.push(Line::default());
        out.push(heading(model, "Other fields"));
        other(model, "  ", &m.other, out);
    }
}

fn other<'a>(model: &Model, indent: &str, fields: &OtherFields, out: &mut Vec<Line<'a>>) {
    for (key, value) in fields {
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out.push(Line::from(vec![
            styled(model.theme.label, format!("{indent}{}: ", clean(key))),
            Span::raw(clean(&text).into_owned()),
        ]));
    }
}
