//! Decisions: the decision log as a table, then the selected decision's rationale.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::wrapped::{Wrapped, words};
use super::{Scrolling, clean, decisions_height, dim, styled, table_above_details, table_offset};
use crate::core::model::{Decision, Project, ProjectKind};
use crate::core::text::fit;
use crate::tui::action::Action;
use crate::tui::model::Model;

const ID_W: usize = 7;
const GATE_W: usize = 9;
const AFFECTS_W: usize = 8;
const APPLIED_W: usize = 5;
const LABEL_W: usize = 11;

pub fn draw(model: &Model, project: &Project, frame: &mut Frame, area: Rect) {
    let decisions: &[Decision] = project.decisions();
    if decisions.is_empty() {
        let key = |action| model.keymap.key_label(action).unwrap_or_default();
        let how = match (project.kind, project.nexus_decisions_file()) {
            (ProjectKind::Jerry, _) => format!("Press {} to add one.", key(Action::NewDecision)),
            (ProjectKind::Nexus, Some(file)) => {
                format!("{file} lists none; {} opens it.", key(Action::OpenInEditor))
            }
            (ProjectKind::Nexus, None) => format!(
                "A Nexus build keeps them in {}, which this one has not.",
                crate::core::normalize::nexus::decisions::DECISIONS_FILE
            ),
        };
        let text = vec![
            Line::from(dim(model, "No decisions recorded.")),
            Line::from(dim(model, how)),
        ];
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), area);
        return;
    }
    let [table_area, detail_area] =
        table_above_details(area, decisions_height(area), decisions.len());
    let w = usize::from(area.width);
    let text_w = w.saturating_sub(ID_W + GATE_W + AFFECTS_W + APPLIED_W + 4);
    let header = format!(
        "{} {} {} {} {}",
        fit("id", ID_W),
        fit("gate/it", GATE_W),
        fit("decision", text_w),
        fit("affects", AFFECTS_W),
        fit("appl.", APPLIED_W)
    );
    let mut lines = vec![Line::from(Span::styled(
        fit(&header, w),
        model.theme.header,
    ))];
    let offset = table_offset(model.decision_row, table_area.height);
    for (i, d) in decisions
        .iter()
        .enumerate()
        .skip(offset)
        .take(usize::from(table_area.height.saturating_sub(1)))
    {
        lines.push(row(model, d, text_w, w, i == model.decision_row));
    }
    frame.render_widget(Paragraph::new(lines), table_area);
    if let Some(d) = decisions.get(model.decision_row) {
        Scrolling::of(detail_area, |width| {
            details(model, d, project.nexus_decisions_file(), width)
        })
        .draw(frame, model.scroll, model.theme.accent);
    }
}

/// The selected decision's details, in the pane under the table.
pub fn scrolling(model: &Model, project: &Project, area: Rect) -> Option<Scrolling> {
    let decisions = project.decisions();
    let d = decisions.get(model.decision_row)?;
    let [_, detail_area] = table_above_details(area, decisions_height(area), decisions.len());
    Some(Scrolling::of(detail_area, |width| {
        details(model, d, project.nexus_decisions_file(), width)
    }))
}

fn applied(model: &Model, applied: Option<bool>) -> Span<'static> {
    let t = &model.theme;
    match applied {
        Some(true) => styled(t.ok, fit("✓ yes", APPLIED_W)),
        Some(false) => styled(t.warn, fit("✗ no", APPLIED_W)),
        None => styled(t.dim, fit("· —", APPLIED_W)),
    }
}

fn gate_iteration(d: &Decision) -> String {
    match (d.gate.as_deref(), d.iteration) {
        (Some(g), Some(i)) => format!("{}#{i}", clean(g)),
        (Some(g), None) => clean(g).into_owned(),
        (None, Some(i)) => format!("#{i}"),
        (None, None) => "—".into(),
    }
}

fn affects(d: &Decision) -> String {
    if d.affects_phases.is_empty() {
        "—".into()
    } else {
        d.affects_phases
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn row(model: &Model, d: &Decision, text_w: usize, w: usize, selected: bool) -> Line<'static> {
    let id =
        d.id.as_deref()
            .map_or_else(|| "—".to_string(), |i| clean(i).into_owned());
    let spans = vec![
        Span::styled(fit(&id, ID_W), model.theme.label),
        Span::raw(" "),
        Span::raw(fit(&gate_iteration(d), GATE_W)),
        Span::raw(" "),
        Span::raw(fit(&clean(&d.decision), text_w)),
        Span::raw(" "),
        Span::raw(fit(&affects(d), AFFECTS_W)),
        Span::raw(" "),
        applied(model, d.applied),
        Span::raw(fit(
            "",
            w.saturating_sub(ID_W + GATE_W + text_w + AFFECTS_W + APPLIED_W + 4),
        )),
    ];
    let line = Line::from(spans);
    if selected {
        line.style(model.theme.selected)
    } else {
        line
    }
}

fn details(model: &Model, d: &Decision, file: Option<&str>, width: usize) -> Vec<Line<'static>> {
    let mut out = Wrapped::new(model, width, LABEL_W);
    out.blank();
    out.field("Decision", vec![words(&d.decision)]);
    if let Some(r) = d.rationale.as_deref() {
        out.field("Rationale", vec![words(r)]);
    }
    if let Some(date) = d.date.as_deref() {
        out.field("Date", vec![words(date)]);
    }
    for (key, value) in &d.other {
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out.field(&clean(key), vec![words(&text)]);
    }
    if let Some(file) = file {
        out.field("File", vec![words(&format!("{file} (read-only here)"))]);
    }
    out.lines
}
