//! Compaction: the timeline of compaction events and checkpoints, then the selected
//! one's details, including what PostCompact recorded.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::badges::{self, percent};
use super::wrap::Piece;
use super::wrapped::{Wrapped, lead, words};
use super::{Scrolling, clean, dim, styled, table_above_details, table_offset, timeline_height};
use crate::core::model::{Checkpoint, CompactionEvent, Project};
use crate::core::text::{fit, fit_right};
use crate::core::time::describe_age;
use crate::core::timeline::{self, Row};
use crate::tui::model::Model;

const LABEL_W: usize = 16;
/// Where the text of a list entry starts (`  • `, `  ✓ `).
const ENTRY_W: usize = 4;

pub fn draw(model: &Model, project: &Project, frame: &mut Frame, area: Rect) {
    let rows = timeline::rows(project, &model.workspace.unassigned_checkpoints);
    if rows.is_empty() {
        let mut out = Wrapped::new(model, usize::from(area.width), LABEL_W);
        super::precompact::section(&mut out, project);
        if !out.lines.is_empty() {
            out.blank();
        }
        let mut text = out.lines;
        text.extend([
            Line::from(dim(
                model,
                "No compaction events or checkpoints recorded for this project.",
            )),
            Line::from(dim(
                model,
                "The PreCompact hook writes one before each compaction.",
            )),
        ]);
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), area);
        return;
    }
    let [table_area, detail_area] = table_above_details(area, timeline_height(area), rows.len());
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
    let offset = table_offset(model.timeline_row, table_area.height);
    for (i, row) in rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(usize::from(table_area.height.saturating_sub(1)))
    {
        lines.push(row_line(model, row, w, i == model.timeline_row));
    }
    frame.render_widget(Paragraph::new(lines), table_area);
    if let Some(row) = rows.get(model.timeline_row) {
        Scrolling::of(detail_area, |width| details(model, project, row, width)).draw(
            frame,
            model.scroll,
            model.theme.accent,
        );
    }
}

/// The selected row's details, in the pane under the timeline.
pub fn scrolling(model: &Model, project: &Project, area: Rect) -> Option<Scrolling> {
    let rows = timeline::rows(project, &model.workspace.unassigned_checkpoints);
    let row = rows.get(model.timeline_row)?;
    let [_, detail_area] = table_above_details(area, timeline_height(area), rows.len());
    Some(Scrolling::of(detail_area, |width| {
        details(model, project, row, width)
    }))
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

/// The Nexus precompact state naming the project, if any, then the row's details.
fn details(model: &Model, project: &Project, row: &Row<'_>, width: usize) -> Vec<Line<'static>> {
    let mut out = Wrapped::new(model, width, LABEL_W);
    out.blank();
    super::precompact::section(&mut out, project);
    if out.lines.len() > 1 {
        out.blank();
    }
    match (row.checkpoint, row.event) {
        (Some(cp), event) => checkpoint(&mut out, cp, event),
        (None, Some(event)) => event_lines(&mut out, event),
        (None, None) => {}
    }
    out.lines
}

fn text(value: Option<&str>) -> Option<String> {
    value.map(|v| clean(v).into_owned())
}

/// `id  what it is`, the description wrapping under itself.
fn title(out: &mut Wrapped, id: &str, what: Vec<Piece>) {
    let id = clean(id).into_owned();
    let indent = crate::core::text::width(&id) + 2;
    let lead = vec![styled(out.model.theme.title, id), Span::raw("  ")];
    out.hang(lead, indent, what);
}

/// `  • text`, wrapping under the text.
fn bullet(out: &mut Wrapped, pieces: Vec<Piece>) {
    out.hang(lead("  • ", Style::new()), ENTRY_W, pieces);
}

fn checkpoint(out: &mut Wrapped, cp: &Checkpoint, event: Option<&CompactionEvent>) {
    let model = out.model;
    let t = &model.theme;
    let format = format!("{:?}", cp.format).to_lowercase();
    let path = out.path(&cp.path, crate::core::text::width(&cp.id) + 2);
    title(
        out,
        &cp.id,
        vec![
            Piece::whole(path, t.dim),
            Piece::words(" ", t.dim),
            Piece::whole(format!("({format} format)"), t.dim),
        ],
    );
    let ack = badges::acknowledged(Some(cp.acknowledged), t);
    let mut value = vec![Piece::whole(ack.span().content, ack.style)];
    if cp.acknowledged {
        let via = cp.acknowledged_via.map(|v| format!("{v:?}").to_lowercase());
        let detail = [via, text(cp.acknowledged_at.as_deref())]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", ");
        if !detail.is_empty() {
            value.push(Piece::words(format!(" ({detail})"), t.dim));
        }
    } else {
        let key = model
            .keymap
            .key_label(crate::tui::action::Action::Acknowledge)
            .unwrap_or_default();
        value.push(Piece::words(
            format!(" — press {key} to acknowledge"),
            t.dim,
        ));
    }
    out.field("Acknowledged", value);
    let created = cp.created_at.map(|at| {
        format!(
            "{} ({})",
            at.to_iso(),
            describe_age(model.now.seconds_since(at))
        )
    });
    out.field_text("Created", created.or(text(cp.created_at_raw.as_deref())));
    out.field_text("Trigger", text(cp.trigger.as_deref()));
    let mut fill = percent(cp.fill);
    if let (Some(used), Some(window)) = (cp.tokens_used, cp.window) {
        fill.push_str(&format!(" ({used} / {window} tokens)"));
    }
    if let Some(tier) = cp.tier.as_deref() {
        fill.push_str(&format!(" · tier {}", clean(tier)));
    }
    out.field_text("Fill before", Some(fill));
    let phase = [
        cp.current_phase.as_deref(),
        cp.current_phase_name.as_deref(),
    ]
    .into_iter()
    .flatten()
    .map(|s| clean(s).into_owned())
    .collect::<Vec<_>>()
    .join(" — ");
    out.field_text("Phase", (!phase.is_empty()).then_some(phase));
    if let Some(gate) = cp.current_gate.as_deref() {
        let mut g = clean(gate).into_owned();
        if let Some(i) = cp.current_gate_iteration {
            g.push_str(&format!(" iteration {i}"));
        }
        if let Some(s) = cp.current_gate_score {
            g.push_str(&format!(" · score {s:.3}"));
        }
        out.field_text("Gate", Some(g));
    }
    out.field_text("Status", text(cp.workflow_status.as_deref()));
    out.field_text("Activity", text(cp.current_activity.as_deref()));
    if let Some(next) = cp.next_action.as_deref() {
        out.field("Next action", vec![Piece::words(clean(next), t.accent)]);
    }
    out.field_text("Critical", text(cp.critical_context.as_deref()));
    out.field_text("Session", text(cp.session_id.as_deref()));
    out.field_text("Written by", text(cp.written_by.as_deref()));
    out.section("PostCompact");
    match &cp.post_compact {
        None => out.hang(
            lead("  ", t.dim),
            2,
            vec![Piece::words(
                "nothing recorded after compaction (yet)",
                t.dim,
            )],
        ),
        Some(pc) => {
            out.field_text("  Trigger", text(pc.trigger.as_deref()));
            out.field_text("  Recorded", text(pc.recorded_at.as_deref()));
            if let Some(summary) = pc.compact_summary.as_deref() {
                let label = crate::core::text::truncate("  Compact summary:", out.width);
                out.lines
                    .push(Line::from(styled(t.label, label.into_owned())));
                for line in super::drawn_lines(summary).lines() {
                    out.hang(lead("    ", Style::new()), ENTRY_W, vec![words(line)]);
                }
            }
        }
    }
    if let Some(found) = &cp.transcript_summary {
        out.section("Compaction summary in the transcript");
        out.field_text("  File", Some(clean(&found.path).into_owned()));
        for line in super::drawn_lines(&found.text).lines() {
            out.hang(lead("    ", Style::new()), ENTRY_W, vec![words(line)]);
        }
    }
    super::compaction_dropped::section(out, cp);
    if !cp.decisions.is_empty() {
        out.section("Decisions since the last checkpoint");
        for d in &cp.decisions {
            let id =
                d.id.as_deref()
                    .map(|i| format!("{} ", clean(i)))
                    .unwrap_or_default();
            bullet(out, vec![words(&format!("{id}{}", d.summary))]);
        }
    }
    if !cp.defect_patterns.is_empty() {
        out.section("Defect patterns");
        for d in &cp.defect_patterns {
            bullet(out, vec![words(d)]);
        }
    }
    if !cp.files_to_read.is_empty() {
        out.section("Files to read");
        for f in &cp.files_to_read {
            let glyph = match f.exists {
                Some(true) => "✓",
                Some(false) => "✗",
                None => "·",
            };
            let mut entry = vec![Piece::whole(out.path(&f.path, ENTRY_W), Style::new())];
            if f.exists == Some(false) {
                entry.push(Piece::words(" (missing)", t.missing));
            }
            out.hang(lead(&format!("  {glyph} "), Style::new()), ENTRY_W, entry);
        }
    }
    if let Some(e) = event {
        out.section("Compaction event in the resumption section");
        event_fields(out, e);
    }
}

fn event_lines(out: &mut Wrapped, e: &CompactionEvent) {
    let id = e.id.as_deref().or(e.session.as_deref()).unwrap_or("event");
    let dim = out.model.theme.dim;
    title(
        out,
        id,
        vec![Piece::words("compaction event (no checkpoint file)", dim)],
    );
    event_fields(out, e);
}

fn event_fields(out: &mut Wrapped, e: &CompactionEvent) {
    out.field_text("When", text(e.timestamp_raw.as_deref()));
    out.field_text("Trigger", text(e.trigger.as_deref()));
    out.field_text("Fill before", e.fill_before.map(|f| percent(Some(f))));
    out.field_text("Tier", text(e.tier.as_deref()));
    out.field_text("Phase", text(e.active_phase.as_deref()));
    out.field_text("Gate", text(e.active_gate.as_deref()));
    out.field_text("Checkpoint", text(e.checkpoint_file.as_deref()));
    out.field_text("Compactions", e.compactions.map(|n| n.to_string()));
    out.field_text("Note", text(e.note.as_deref()));
    let ack = badges::acknowledged(e.acknowledged, &out.model.theme);
    out.field(
        "Acknowledged",
        vec![Piece::whole(ack.span().content, ack.style)],
    );
}
