//! Quality: every gate's score per iteration on one chart with the pass line, the
//! trend, the lowest dimension, and iterations used against the budget.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, Gauge, GraphType, LegendPosition};

use super::ascii_chart;
use super::badges::{score_style, trend_words};
use super::wrap::{Piece, hanging};
use super::wrapped::Wrapped;
use super::{Scrolling, clean, styled};
use crate::core::model::Project;
use crate::core::trajectory::{GateTrajectory, trend};
use crate::tui::model::Model;

/// The gate column of the summary lines.
const GATE_W: usize = 8;

pub fn draw(model: &Model, project: &Project, frame: &mut Frame, area: Rect) {
    let gates = scored_gates(project);
    let Some(panes) = panes(model, project, &gates, area) else {
        without_scores(model, project, area).draw(frame, model.scroll, model.theme.accent);
        return;
    };
    draw_chart(model, &gates, frame, panes.chart);
    if let Some((used, total)) = budget(project) {
        let ratio = if total > 0 {
            (used as f64 / total as f64).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let label = format!("iterations {used} / {total}");
        // ASCII has no partial blocks: the label would sit on the bar.
        let ascii = model.glyphs == crate::tui::glyphs::Glyphs::Ascii;
        if has_colour(model.theme.gauge) && !ascii {
            let gauge = Gauge::default()
                .ratio(ratio)
                .gauge_style(model.theme.gauge)
                .label(label);
            frame.render_widget(gauge, panes.gauge);
        } else {
            let bar = budget_bar(model, label, ratio, usize::from(panes.gauge.width));
            frame.render_widget(ratatui::widgets::Paragraph::new(bar), panes.gauge);
        }
    }
    panes.text.draw(frame, model.scroll, model.theme.accent);
}

fn has_colour(style: Style) -> bool {
    let coloured =
        |c: Option<ratatui::style::Color>| c.is_some_and(|c| c != ratatui::style::Color::Reset);
    coloured(style.fg) || coloured(style.bg)
}

/// The budget without colours or in ASCII: `iterations 5 / 9 █████····`, the label beside
/// the bar (a gauge's label over its filled part would hide where it ends).
fn budget_bar(model: &Model, label: String, ratio: f64, width: usize) -> Line<'static> {
    let bar_w = width.saturating_sub(crate::core::text::width(&label) + 1);
    let filled = ((ratio * bar_w as f64).round() as usize).min(bar_w);
    Line::from(vec![
        Span::raw(format!("{label} ")),
        Span::styled("█".repeat(filled), model.theme.gauge),
        Span::styled("·".repeat(bar_w - filled), model.theme.dim),
    ])
}

/// The text under the chart (the whole tab when no gate has a score).
pub fn scrolling(model: &Model, project: &Project, area: Rect) -> Scrolling {
    let gates = scored_gates(project);
    match panes(model, project, &gates, area) {
        Some(panes) => panes.text,
        None => without_scores(model, project, area),
    }
}

struct Panes {
    chart: Rect,
    gauge: Rect,
    text: Scrolling,
}

/// The chart, the budget gauge and the text under them; `None` without scores.
fn panes(model: &Model, project: &Project, gates: &[&GateTrajectory], area: Rect) -> Option<Panes> {
    if gates.is_empty() {
        return None;
    }
    let lines = summary_lines(model, project, gates, usize::from(area.width));
    let text_h = u16::try_from(lines.len())
        .unwrap_or(u16::MAX)
        .min(area.height / 3)
        .max(1.min(area.height / 2));
    let gauge_h = u16::from(budget(project).is_some()).min(area.height.saturating_sub(text_h + 3));
    let [chart, gauge, text] = Layout::vertical([
        Constraint::Min(3),
        Constraint::Length(gauge_h),
        Constraint::Length(text_h),
    ])
    .areas(area);
    Some(Panes {
        chart,
        gauge,
        text: Scrolling { lines, area: text },
    })
}

fn without_scores(model: &Model, project: &Project, area: Rect) -> Scrolling {
    let width = usize::from(area.width);
    let note = Piece::words("No gate scores recorded for this project.", model.theme.dim);
    let mut lines = hanging(Vec::new(), 0, &[note], width);
    lines.extend(summary_lines(model, project, &[], usize::from(area.width)));
    Scrolling { lines, area }
}

fn scored_gates(project: &Project) -> Vec<&GateTrajectory> {
    project
        .trajectory
        .gates
        .iter()
        .filter(|g| !g.scores.is_empty())
        .collect()
}

/// Iterations used and budgeted, when both are recorded.
fn budget(project: &Project) -> Option<(i64, i64)> {
    let quality = project.resumption.as_ref()?.quality.as_ref()?;
    Some((
        quality.total_iterations_used?,
        quality.total_iterations_budget?,
    ))
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
    // Braille lines told apart by colour alone: without Unicode, or without
    // colours (NO_COLOR, `--colors none`, a theme with no series colours), each
    // gate gets a mark of its own instead, named in a legend that always shows.
    if model.glyphs == crate::tui::glyphs::Glyphs::Ascii || t.series.is_empty() {
        draw_ascii_chart(model, gates, pass, (y_min, longest), frame, area);
        return;
    }
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
        datasets.push(
            Dataset::default()
                .name(clean(&gate.gate).into_owned())
                .marker(Marker::Braille)
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

/// The chart in ASCII: a mark per gate instead of Braille lines (`ascii_chart`),
/// for terminals without Unicode or without colours.
fn draw_ascii_chart(
    model: &Model,
    gates: &[&GateTrajectory],
    pass: f64,
    (y_min, longest): (f64, usize),
    frame: &mut Frame,
    area: Rect,
) {
    let t = &model.theme;
    let series: Vec<ascii_chart::Series> = gates
        .iter()
        .enumerate()
        .map(|(i, g)| ascii_chart::Series {
            name: clean(&g.gate).into_owned(),
            scores: &g.scores,
            style: t
                .series_color(i)
                .map_or(Style::new(), |c| Style::new().fg(c)),
        })
        .collect();
    let axes = ascii_chart::Frame {
        pass,
        y_min,
        x_max: longest,
        axis: t.dim,
        pass_style: t.threshold,
    };
    let lines = ascii_chart::lines(
        &series,
        &axes,
        usize::from(area.width),
        usize::from(area.height),
    );
    frame.render_widget(ratatui::widgets::Paragraph::new(lines), area);
}

/// One line per gate (score, trend, history, budget, lowest dimension), then
/// the lowest dimension, the current gate and the gates remaining.
fn summary_lines(
    model: &Model,
    project: &Project,
    gates: &[&GateTrajectory],
    width: usize,
) -> Vec<Line<'static>> {
    let t = &model.theme;
    let pass = threshold(model, gates);
    let mut out = Wrapped::new(model, width, GATE_W);
    let arrow = match model.glyphs {
        crate::tui::glyphs::Glyphs::Ascii => "->",
        crate::tui::glyphs::Glyphs::Unicode => "→",
    };
    for g in gates {
        let Some(last) = g.scores.last().copied() else {
            continue;
        };
        let history: Vec<String> = g.scores.iter().map(|s| format!("{s:.3}")).collect();
        let gate_pass = g.threshold.unwrap_or(pass);
        let mut pieces = vec![verdict(model, g.status.as_deref(), last, gate_pass)];
        pieces.extend([
            Piece::words(format!(" {} ", trend_words(trend(&g.scores))), Style::new()),
            // `→` would become `>` in ASCII, as if the scores were compared.
            Piece::words(history.join(arrow), t.dim),
        ]);
        if let Some(max) = g.max_iterations {
            pieces.push(Piece::words(
                format!(" ({}/{max} it.)", g.scores.len()),
                t.dim,
            ));
        }
        if let Some((dim_name, score)) = &g.lowest_dimension {
            let text = format!(" lowest {} {score:.2}", clean(dim_name));
            pieces.push(Piece::words(text, t.dim));
        }
        out.field(&clean(&g.gate), pieces);
    }
    if let Some(q) = project.resumption.as_ref().and_then(|r| r.quality.as_ref()) {
        if let Some(low) = q.lowest_dimension.as_deref() {
            labelled(
                &mut out,
                "Lowest dimension: ",
                Piece::words(clean(low), t.warn),
            );
        }
        if let Some(gate) = q.current_gate.as_deref() {
            let iteration = q
                .current_gate_iteration
                .map(|i| format!(" iteration {i}"))
                .unwrap_or_default();
            let text = format!("{}{iteration}", clean(gate));
            labelled(&mut out, "Current gate: ", Piece::words(text, Style::new()));
        }
        if !q.gates_remaining.is_empty() {
            let remaining: Vec<_> = q
                .gates_remaining
                .iter()
                .map(|g| clean(g).into_owned())
                .collect();
            let text = remaining.join(", ");
            labelled(&mut out, "Remaining: ", Piece::words(text, Style::new()));
        }
    }
    out.lines
}

/// What the gate's last score says against its threshold (`✓ pass 0.941`,
/// `✗ below 0.910`) and, when the status the file records says otherwise, both:
/// `PASS (recorded) · 0.890 < 0.92 threshold`.
fn verdict(model: &Model, status: Option<&str>, last: f64, threshold: f64) -> Piece {
    let t = &model.theme;
    let scored_pass = last >= threshold;
    let recorded = status.map(|s| s.trim().to_ascii_uppercase());
    let recorded_pass = match recorded.as_deref() {
        Some("PASS" | "PASSED") => Some(true),
        Some("FAIL" | "FAILED") => Some(false),
        _ => None,
    };
    match (recorded_pass, recorded) {
        (Some(said), Some(word)) if said != scored_pass => {
            let sign = if scored_pass { "≥" } else { "<" };
            Piece::whole(
                format!("{word} (recorded) · {last:.3} {sign} {threshold:.2} threshold"),
                t.warn,
            )
        }
        _ if scored_pass => {
            Piece::whole(format!("✓ pass {last:.3}"), score_style(last, threshold, t))
        }
        _ => Piece::whole(
            format!("✗ below {last:.3}"),
            score_style(last, threshold, t),
        ),
    }
}

/// `Label: value`, the value wrapping under itself.
fn labelled(out: &mut Wrapped, label: &str, value: Piece) {
    let indent = crate::core::text::width(label);
    let lead = vec![styled(out.model.theme.label, label.to_string())];
    out.hang(lead, indent, vec![value]);
}
