//! Compaction: the timeline of compaction events and checkpoints, then the selected
//! one's details, including what PostCompact recorded.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::badges::{self, percent};
use super::{clean, dim, field, heading, styled, table_offset, timeline_height};
use crate::core::model::{Checkpoint, CompactionEvent, Project};
use crate::core::time::describe_age;
use crate::tui::model::Model;
use crate::tui::text::{fit, fit_right};
use crate::tui::timeline::{self, Row};

const LABEL_W: usize = 16;

pub fn draw(model: &Model, project: &Project, frame: &mut Frame, area: Rect) {
    let rows = timeline::rows(project, &model.workspace.unassigned_checkpoints);
    if rows.is_empty() {
        let text = vec![
            Line::from(dim(
                model,
                "No compaction events or checkpoints recorded for this project.",
            )),
            Line::from(dim(
                model,
                "The PreCompact hook writes one before each compaction.",
            )),
        ];
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), area);
        return;
    }
    let table_h = timeline_height(area).min(rows.len() as u16 + 1);
    let [table_area, detail_area] =
        Layout::vertical([Constraint::Length(table_h), Constraint::Min(0)]).areas(area);
    let w = usize::from(area.width);
    let mut lines = vec![Line::from(Span::styled(
        fit(
            &format!(
                "  {} {} {} {} {}",
                fit("id", 10),
                fit("when", 12),
                fit("trigger", 8),
                fit_right("fill", 4),
                "phase / gate"
            ),
            w,
        ),
        model.theme.header,
    ))];
    let offset = table_offset(model.timeline_row, table_h);
    for (i, row) in rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(usize::from(table_h.saturating_sub(1)))
    {
        lines.push(row_line(model, row, w, i == model.timeline_row));
    }
    frame.render_widget(Paragraph::new(lines), table_area);
    if let Some(row) = rows.get(model.timeline_row) {
        let details = details(model, row);
        frame.render_widget(
            Paragraph::new(details)
                .wrap(Wrap { trim: false })
                .scroll((model.scroll, 0)),
            detail_area,
        );
    }
}

fn when(model: &Model, row: &Row<'_>) -> String {
    match (row.time, row.time_raw) {
        (Some(t), _) => describe_age(model.now.seconds_since(t)),
        (None, Some(raw)) => clean(raw).into_owned(),
        (None, None) => "—".into(),
    }
}

fn row_line(model: &Model, row: &Row<'_>, w: usize, selected: bool) -> Line<'static> {
    let t = &model.theme;
    let ack = badges::acknowledged(row.acknowledged, t);
    let phase_gate = match (row.phase, row.gate.as_deref()) {
        (Some(p), Some(g)) => format!("{} · {}", clean(p), clean(g)),
        (Some(p), None) => clean(p).into_owned(),
        (None, Some(g)) => clean(g).into_owned(),
        (None, None) => String::new(),
    };
    let rest = format!(
        "{} {} {} {} {}",
        fit(&clean(&row.id), 10),
        fit(&when(model, row), 12),
        fit(&clean(row.trigger.unwrap_or("—")), 8),
        fit_right(&percent(row.fill), 4),
        phase_gate
    );
    let line = Line::from(vec![
        ack.glyph_span(),
        Span::raw(" "),
        Span::raw(fit(&rest, w.saturating_sub(2))),
    ]);
    if selected {
        line.style(t.selected)
    } else {
        line
    }
}

fn details<'a>(model: &Model, row: &Row<'a>) -> Vec<Line<'a>> {
    let mut out = vec![Line::default()];
    match (row.checkpoint, row.event) {
        (Some(cp), event) => checkpoint(model, cp, event, &mut out),
        (None, Some(event)) => event_lines(model, event, &mut out),
        (None, None) => {}
    }
    out
}

fn text(value: Option<&str>) -> Option<String> {
    value.map(|v| clean(v).into_owned())
}

fn push<'a>(model: &Model, out: &mut Vec<Line<'a>>, label: &str, value: Option<String>) {
    if let Some(v) = value {
        out.push(field(model, label, LABEL_W, Span::raw(v)));
    }
}

fn checkpoint<'a>(
    model: &Model,
    cp: &'a Checkpoint,
    event: Option<&CompactionEvent>,
    out: &mut Vec<Line<'a>>,
) {
    let t = &model.theme;
    let format = format!("{:?}", cp.format).to_lowercase();
    out.push(Line::from(vec![
        styled(t.title, clean(&cp.id).into_owned()),
        dim(model, format!("  {} ({format} format)", clean(&cp.path))),
    ]));
    let ack = badges::acknowledged(Some(cp.acknowledged), t);
    let mut ack_spans = vec![ack.span()];
    if cp.acknowledged {
        let via = cp.acknowledged_via.map(|v| format!("{v:?}").to_lowercase());
        let detail = [via, text(cp.acknowledged_at.as_deref())]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", ");
        if !detail.is_empty() {
            ack_spans.push(dim(model, format!(" ({detail})")));
        }
    } else {
        let key = model
            .keymap
            .key_label(crate::tui::action::Action::Acknowledge)
            .unwrap_or_default();
        ack_spans.push(dim(model, format!(" — press {key} to acknowledge")));
    }
    let mut line = vec![styled(t.label, fit("Acknowledged", LABEL_W))];
    line.extend(ack_spans);
    out.push(Line::from(line));
    let created = cp.created_at.map(|at| {
        format!(
            "{} ({})",
            at.to_iso(),
            describe_age(model.now.seconds_since(at))
        )
    });
    push(
        model,
        out,
        "Created",
        created.or(text(cp.created_at_raw.as_deref())),
    );
    push(model, out, "Trigger", text(cp.trigger.as_deref()));
    let mut fill = percent(cp.fill);
    if let (Some(used), Some(window)) = (cp.tokens_used, cp.window) {
        fill.push_str(&format!(" ({used} / {window} tokens)"));
    }
    if let Some(tier) = cp.tier.as_deref() {
        fill.push_str(&format!(" · tier {}", clean(tier)));
    }
    push(model, out, "Fill before", Some(fill));
    let phase = [
        cp.current_phase.as_deref(),
        cp.current_phase_name.as_deref(),
    ]
    .into_iter()
    .flatten()
    .map(|s| clean(s).into_owned())
    .collect::<Vec<_>>()
    .join(" — ");
    push(model, out, "Phase", (!phase.is_empty()).then_some(phase));
    if let Some(gate) = cp.current_gate.as_deref() {
        let mut g = clean(gate).into_owned();
        if let Some(i) = cp.current_gate_iteration {
            g.push_str(&format!(" iteration {i}"));
        }
        if let Some(s) = cp.current_gate_score {
            g.push_str(&format!(" · score {s:.3}"));
        }
        push(model, out, "Gate", Some(g));
    }
    push(model, out, "Status", text(cp.workflow_status.as_deref()));
    push(model, out, "Activity", text(cp.current_activity.as_deref()));
    if let Some(next) = cp.next_action.as_deref() {
        out.push(field(
            model,
            "Next action",
            LABEL_W,
            styled(t.accent, clean(next).into_owned()),
        ));
    }
    push(model, out, "Critical", text(cp.critical_context.as_deref()));
    push(model, out, "Session", text(cp.session_id.as_deref()));
    push(model, out, "Written by", text(cp.written_by.as_deref()));
    out.push(Line::default());
    out.push(heading(model, "PostCompact"));
    match &cp.post_compact {
        None => out.push(Line::from(dim(
            model,
            "  nothing recorded after compaction (yet)",
        ))),
        Some(pc) => {
            push(model, out, "  Trigger", text(pc.trigger.as_deref()));
            push(model, out, "  Recorded", text(pc.recorded_at.as_deref()));
            if let Some(summary) = pc.compact_summary.as_deref() {
                out.push(Line::from(styled(t.label, "  Compact summary:")));
                for line in crate::tui::text::sanitize(summary, true).lines() {
                    out.push(Line::from(format!("    {line}")));
                }
            }
        }
    }
    if !cp.decisions.is_empty() {
        out.push(Line::default());
        out.push(heading(model, "Decisions since the last checkpoint"));
        for d in &cp.decisions {
            let id =
                d.id.as_deref()
                    .map(|i| format!("{} ", clean(i)))
                    .unwrap_or_default();
            out.push(Line::from(format!("  • {id}{}", clean(&d.summary))));
        }
    }
    if !cp.defect_patterns.is_empty() {
        out.push(Line::default());
        out.push(heading(model, "Defect patterns"));
        for d in &cp.defect_patterns {
            out.push(Line::from(format!("  • {}", clean(d))));
        }
    }
    if !cp.files_to_read.is_empty() {
        out.push(Line::default());
        out.push(heading(model, "Files to read"));
        for f in &cp.files_to_read {
            let glyph = match f.exists {
                Some(true) => "✓",
                Some(false) => "✗",
                None => "·",
            };
            let missing = if f.exists == Some(false) {
                " (missing)"
            } else {
                ""
            };
            out.push(Line::from(format!("  {glyph} {}{missing}", clean(&f.path))));
        }
    }
    if let Some(e) = event {
        out.push(Line::default());
        out.push(heading(model, "Compaction event in the resumption section"));
        event_fields(model, e, out);
    }
}

fn event_lines<'a>(model: &Model, e: &CompactionEvent, out: &mut Vec<Line<'a>>) {
    let id = e.id.as_deref().or(e.session.as_deref()).unwrap_or("event");
    out.push(Line::from(vec![
        styled(model.theme.title, clean(id).into_owned()),
        dim(model, "  compaction event (no checkpoint file)"),
    ]));
    event_fields(model, e, out);
}

fn event_fields<'a>(model: &Model, e: &CompactionEvent, out: &mut Vec<Line<'a>>) {
    push(model, out, "When", text(e.timestamp_raw.as_deref()));
    push(model, out, "Trigger", text(e.trigger.as_deref()));
    push(
        model,
        out,
        "Fill before",
        e.fill_before.map(|f| percent(Some(f))),
    );
    push(model, out, "Tier", text(e.tier.as_deref()));
    push(model, out, "Phase", text(e.active_phase.as_deref()));
    push(model, out, "Gate", text(e.active_gate.as_deref()));
    push(model, out, "Checkpoint", text(e.checkpoint_file.as_deref()));
    push(
        model,
        out,
        "Compactions",
        e.compactions.map(|n| n.to_string()),
    );
    push(model, out, "Note", text(e.note.as_deref()));
    let ack = badges::acknowledged(e.acknowledged, &model.theme);
    out.push(field(model, "Acknowledged", LABEL_W, ack.span()));
}
