//! Quality: every gate's score per iteration on one chart with the pass line, the
//! trend, the lowest dimension, and iterations used against the budget.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, Gauge, GraphType, LegendPosition, Paragraph, Wrap};

use super::badges::{score_style, trend_words};
use super::{clean, dim, styled};
use crate::core::model::Project;
use crate::core::trajectory::{GateTrajectory, trend};
use crate::tui::model::Model;
use crate::tui::text::fit;

pub fn draw(model: &Model, project: &Project, frame: &mut Frame, area: Rect) {
    let gates: Vec<&GateTrajectory> = project
        .trajectory
        .gates
        .iter()
        .filter(|g| !g.scores.is_empty())
        .collect();
    let quality = project.resumption.as_ref().and_then(|r| r.quality.as_ref());
    let budget = quality.and_then(|q| Some((q.total_iterations_used?, q.total_iterations_budget?)));
    let text = summary_lines(model, project, &gates);
    if gates.is_empty() {
        let mut lines = vec![Line::from(dim(
            model,
            "No gate scores recorded for this project.",
        ))];
        lines.extend(text);
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
        return;
    }
    let text_h = (text.len() as u16)
        .min(area.height / 3)
        .max(1.min(area.height / 2));
    let gauge_h = u16::from(budget.is_some()).min(area.height.saturating_sub(text_h + 3));
    let [chart_area, gauge_area, text_area] = Layout::vertical([
        Constraint::Min(3),
        Constraint::Length(gauge_h),
        Constraint::Length(text_h),
    ])
    .areas(area);
    draw_chart(model, &gates, frame, chart_area);
    if let Some((used, total)) = budget {
        let ratio = if total > 0 {
            (used as f64 / total as f64).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let gauge = Gauge::default()
            .ratio(ratio)
            .gauge_style(model.theme.gauge)
            .label(format!("iterations {used} / {total}"));
        frame.render_widget(gauge, gauge_area);
    }
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .scroll((model.scroll, 0)),
        text_area,
    );
}

/// The pass line: the gates' own threshold when they agree, else the configured one.
fn threshold(model: &Model, gates: &[&GateTrajectory]) -> f64 {
    let mut own = gates.iter().filter_map(|g| g.threshold);
    match own.next() {
        Some(first) if own.all(|t| (t - first).abs() < 1e-9) => first,
        _ => model.pass_threshold(),
    }
}

fn draw_chart(model: &Model, gates: &[&GateTrajectory], frame: &mut Frame, area: Rect) {
    let t = &model.theme;
    let pass = threshold(model, gates);
    let longest = gates
        .iter()
        .map(|g| g.scores.len())
        .max()
        .unwrap_or(1)
        .max(2);
    let x_max = longest as f64;
    let low = gates
        .iter()
        .flat_map(|g| g.scores.iter().copied())
        .filter(|s| s.is_finite())
        .fold(pass, f64::min);
    let y_min = ((low - 0.05) * 20.0).floor() / 20.0;
    let y_min = y_min.clamp(0.0, 0.95);
    let points: Vec<Vec<(f64, f64)>> = gates
        .iter()
        .map(|g| {
            g.scores
                .iter()
                .enumerate()
                .filter(|(_, s)| s.is_finite())
                .map(|(i, s)| ((i + 1) as f64, *s))
                .collect()
        })
        .collect();
    let pass_line = [(1.0, pass), (x_max, pass)];
    let mut datasets = vec![
        Dataset::default()
            .name(format!("pass {pass:.2}"))
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(t.threshold)
            .data(&pass_line),
    ];
    for (i, (gate, data)) in gates.iter().zip(&points).enumerate() {
        let style = t
            .series_color(i)
            .map_or(Style::new(), |c| Style::new().fg(c));
        // Without colours, markers tell the lines apart.
        let marker = if t.series.is_empty() {
            markers(i)
        } else {
            Marker::Braille
        };
        datasets.push(
            Dataset::default()
                .name(clean(&gate.gate).into_owned())
                .marker(marker)
                .graph_type(GraphType::Line)
                .style(style)
                .data(data),
        );
    }
    let x_labels: Vec<Span> = ["1".to_string(), format!("{longest}")]
        .into_iter()
        .map(|s| Span::styled(s, t.dim))
        .collect();
    let y_labels: Vec<Span> = [y_min, (y_min + 1.0) / 2.0, 1.0]
        .iter()
        .map(|v| Span::styled(format!("{v:.2}"), t.dim))
        .collect();
    let chart = Chart::new(datasets)
        .x_axis(
            Axis::default()
                .title(Span::styled("iteration", t.dim))
                .bounds([1.0, x_max])
                .labels(x_labels)
                .style(t.border),
        )
        .y_axis(
            Axis::default()
                .bounds([y_min, 1.0])
                .labels(y_labels)
                .style(t.border),
        )
        .legend_position(Some(LegendPosition::BottomRight))
        .hidden_legend_constraints((Constraint::Percentage(60), Constraint::Percentage(60)));
    frame.render_widget(chart, area);
}

fn markers(i: usize) -> Marker {
    match i % 3 {
        0 => Marker::Dot,
        1 => Marker::Block,
        _ => Marker::Bar,
    }
}

fn summary_lines<'a>(
    model: &Model,
    project: &'a Project,
    gates: &[&GateTrajectory],
) -> Vec<Line<'a>> {
    let t = &model.theme;
    let pass = threshold(model, gates);
    let mut out = Vec::new();
    for g in gates {
        let Some(last) = g.scores.last().copied() else {
            continue;
        };
        let history: Vec<String> = g.scores.iter().map(|s| format!("{s:.3}")).collect();
        let gate_pass = g.threshold.unwrap_or(pass);
        let verdict = if last >= gate_pass {
            "✓ pass"
        } else {
            "✗ below"
        };
        let mut spans = vec![
            styled(t.label, fit(&clean(&g.gate), 8)),
            styled(
                score_style(last, gate_pass, t),
                format!("{verdict} {last:.3}"),
            ),
            Span::raw(format!(" {} ", trend_words(trend(&g.scores)))),
            dim(model, history.join("→")),
        ];
        if let Some(max) = g.max_iterations {
            spans.push(dim(model, format!(" ({}/{max} it.)", g.scores.len())));
        }
        if let Some((dim_name, score)) = &g.lowest_dimension {
            spans.push(dim(
                model,
                format!(" lowest {} {score:.2}", clean(dim_name)),
            ));
        }
        out.push(Line::from(spans));
    }
    if let Some(q) = project.resumption.as_ref().and_then(|r| r.quality.as_ref()) {
        if let Some(low) = q.lowest_dimension.as_deref() {
            out.push(Line::from(vec![
                styled(t.label, "Lowest dimension: "),
                styled(t.warn, clean(low).into_owned()),
            ]));
        }
        if let Some(gate) = q.current_gate.as_deref() {
            let iteration = q
                .current_gate_iteration
                .map(|i| format!(" iteration {i}"))
                .unwrap_or_default();
            out.push(Line::from(vec![
                styled(t.label, "Current gate: "),
                Span::raw(format!("{}{iteration}", clean(gate))),
            ]));
        }
        if !q.gates_remaining.is_empty() {
            let remaining: Vec<_> = q
                .gates_remaining
                .iter()
                .map(|g| clean(g).into_owned())
                .collect();
            out.push(Line::from(vec![
                styled(t.label, "Remaining: "),
                Span::raw(remaining.join(", ")),
            ]));
        }
    }
    out
}
