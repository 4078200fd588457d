//! The Quality tab's trajectory chart in ASCII (`--ascii`, `[ui] glyphs`, or a
//! terminal without Unicode): ratatui's Braille lines would each become `*`, so
//! every gate gets a mark of its own (`*`, `o`, `+`, …) at its scores and a dot of
//! its own between them (`.`, `:`, `,`, …), so crossing lines are told apart, the
//! pass line as `-`, with the score axis labelled on the left, the
//! iterations under it, and a legend naming each mark. Where several gates' scores
//! fall in one cell, the cell shows how many (`2`…`9`, `#` past nine) and the
//! legend names them, so no gate's point is hidden under another's.

use std::collections::BTreeMap;

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// One mark per series, in order; series beyond these reuse them. No digit and
/// no `#`: those say that several gates share a cell.
pub const MARKS: [char; 8] = ['*', 'o', '+', 'x', '@', '%', '&', '$'];

/// One gate's scores, first iteration first.
pub struct Series<'a> {
    pub name: String,
    pub scores: &'a [f64],
    pub style: Style,
}

/// The axes' ranges: scores from `y_min` to 1, iterations 1 to `x_max`.
pub struct Frame {
    pub pass: f64,
    pub y_min: f64,
    pub x_max: usize,
    pub axis: Style,
    pub pass_style: Style,
}

const LABEL_W: usize = 4;
/// One line character per series, as [`MARKS`]: none is `-` (the pass line).
const SEGMENTS: [char; 8] = ['.', ':', ',', '\'', ';', '`', '"', '^'];
const PASS: char = '-';
/// The mark of a cell shared by ten gates or more.
const MANY: char = '#';

#[derive(Clone, Copy)]
struct Cell {
    ch: char,
    /// Index into the styles: 0 the pass line, then each series; `None` blank
    /// or shared by several series.
    style: Option<usize>,
}

/// A cell several gates' scores fall in: its mark, the gates (indices into the
/// series) and the iterations (from 1) of those scores.
#[derive(Debug, PartialEq)]
struct Shared {
    mark: char,
    gates: Vec<usize>,
    iterations: Vec<usize>,
}

/// The chart as lines of `width` cells, `height` lines at most.
pub fn lines(series: &[Series], frame: &Frame, width: usize, height: usize) -> Vec<Line<'static>> {
    let plot_w = width.saturating_sub(LABEL_W + 1);
    // The legend names the shared cells, which depend on the plot's height,
    // which depends on the legend's: the legend's room only grows, so this ends.
    let mut legend_h = legend(series, frame, &[], width).len();
    loop {
        let plot_h = height.saturating_sub(2 + legend_h);
        if plot_h < 3 || plot_w < 8 {
            return legend(series, frame, &[], width)
                .into_iter()
                .take(height)
                .collect();
        }
        let (grid, pass_row, shared) = plot(series, frame, plot_w, plot_h);
        let legend = legend(series, frame, &shared, width);
        if legend.len() > legend_h {
            legend_h = legend.len();
            continue;
        }
        let mut out = drawn(series, frame, &grid, pass_row);
        out.extend(axis_lines(frame, plot_w));
        out.extend(legend);
        return out;
    }
}

/// The plot's cells, the pass line's row, and the cells several gates share.
fn plot(
    series: &[Series],
    frame: &Frame,
    plot_w: usize,
    plot_h: usize,
) -> (Vec<Vec<Cell>>, usize, Vec<Shared>) {
    let span = (1.0 - frame.y_min).max(1e-9);
    let row_of = |v: f64| {
        let at = ((1.0 - v.clamp(frame.y_min, 1.0)) / span * (plot_h - 1) as f64).round();
        (at as usize).min(plot_h - 1)
    };
    let col_of = |i: usize| column(i, frame.x_max, plot_w);
    let blank = Cell {
        ch: ' ',
        style: None,
    };
    let mut grid = vec![vec![blank; plot_w]; plot_h];
    let pass_row = row_of(frame.pass);
    // A score under the pass mark is drawn under the pass line, never on it
    // (it would read as passing); one at or over it rounds onto it or above.
    let score_row = |v: f64| match row_of(v) {
        r if v < frame.pass && r <= pass_row => (pass_row + 1).min(plot_h - 1),
        r => r,
    };
    for cell in grid.get_mut(pass_row).into_iter().flatten() {
        *cell = Cell {
            ch: PASS,
            style: Some(0),
        };
    }
    // Each cell's points, by column then row: (series, iteration from 1).
    let mut points_at: BTreeMap<(usize, usize), Vec<(usize, usize)>> = BTreeMap::new();
    for (n, s) in series.iter().enumerate() {
        let points: Vec<(usize, usize, usize)> = s
            .scores
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(|(i, v)| (col_of(i), score_row(*v), i + 1))
            .collect();
        // The segments go under the pass line and every mark.
        for (&(c0, r0, _), &(c1, r1, _)) in points.iter().zip(points.iter().skip(1)) {
            for c in c0 + 1..c1 {
                let t = (c - c0) as f64 / (c1 - c0) as f64;
                let r = (r0 as f64 + t * (r1 as f64 - r0 as f64)).round() as usize;
                if let Some(cell) = grid.get_mut(r).and_then(|row| row.get_mut(c))
                    && cell.ch == ' '
                {
                    *cell = Cell {
                        ch: segment(n),
                        style: Some(n + 1),
                    };
                }
            }
        }
        for (c, r, iteration) in points {
            points_at.entry((c, r)).or_default().push((n, iteration));
        }
    }
    let mut shared = Vec::new();
    for ((c, r), points) in points_at {
        let mut gates: Vec<usize> = points.iter().map(|&(n, _)| n).collect();
        gates.dedup();
        let cell = match gates.as_slice() {
            [n] => Cell {
                ch: MARKS.get(n % MARKS.len()).copied().unwrap_or('*'),
                style: Some(n + 1),
            },
            _ => {
                let mark = u32::try_from(gates.len())
                    .ok()
                    .and_then(|count| char::from_digit(count, 10))
                    .unwrap_or(MANY);
                let mut iterations: Vec<usize> = points.iter().map(|&(_, i)| i).collect();
                iterations.sort_unstable();
                iterations.dedup();
                shared.push(Shared {
                    mark,
                    gates,
                    iterations,
                });
                Cell {
                    ch: mark,
                    style: None,
                }
            }
        };
        if let Some(at) = grid.get_mut(r).and_then(|row| row.get_mut(c)) {
            *at = cell;
        }
    }
    (grid, pass_row, shared)
}

/// The plot's rows, the score axis labelled on their left.
fn drawn(
    series: &[Series],
    frame: &Frame,
    grid: &[Vec<Cell>],
    pass_row: usize,
) -> Vec<Line<'static>> {
    let style_of = |i: Option<usize>| match i {
        None => Style::new(),
        Some(0) => frame.pass_style,
        Some(n) => series.get(n - 1).map_or(Style::new(), |s| s.style),
    };
    let last_row = grid.len().saturating_sub(1);
    let mut out = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        let label = if r == 0 {
            "1.00".to_string()
        } else if r == last_row {
            format!("{:.2}", frame.y_min)
        } else if r == pass_row {
            format!("{:.2}", frame.pass)
        } else {
            String::new()
        };
        let mut spans = vec![Span::styled(format!("{label:>LABEL_W$}|"), frame.axis)];
        for cell in row {
            spans.push(Span::styled(cell.ch.to_string(), style_of(cell.style)));
        }
        out.push(Line::from(spans));
    }
    out
}

/// The plot's column of iteration `i` (from 0) of `x_max`.
fn column(i: usize, x_max: usize, plot_w: usize) -> usize {
    let last_x = x_max.max(2) - 1;
    (i * plot_w.saturating_sub(1) + last_x / 2) / last_x
}

/// The iteration axis under the plot, a tick (`+`) at each iteration where
/// they stand apart, and its labels.
fn axis_lines(frame: &Frame, plot_w: usize) -> [Line<'static>; 2] {
    let mut rule = vec!['-'; plot_w];
    let apart = frame.x_max >= 2 && plot_w.saturating_sub(1) / (frame.x_max - 1) >= 2;
    if apart {
        for i in 0..frame.x_max {
            if let Some(tick) = rule.get_mut(column(i, frame.x_max, plot_w)) {
                *tick = '+';
            }
        }
    }
    let axis = Line::from(Span::styled(
        format!(
            "{}+{}",
            " ".repeat(LABEL_W),
            rule.into_iter().collect::<String>()
        ),
        frame.axis,
    ));
    let (first, last) = ("1".to_string(), frame.x_max.to_string());
    let title = "iteration";
    let gap = plot_w.saturating_sub(first.len() + last.len());
    let middle = if gap >= title.len() + 2 {
        let left = (gap - title.len()) / 2;
        format!(
            "{}{title}{}",
            " ".repeat(left),
            " ".repeat(gap - left - title.len())
        )
    } else {
        " ".repeat(gap)
    };
    let labels = Line::from(Span::styled(
        format!("{} {first}{middle}{last}", " ".repeat(LABEL_W)),
        frame.axis,
    ));
    [axis, labels]
}

/// The line character of series `n`.
fn segment(n: usize) -> char {
    SEGMENTS.get(n % SEGMENTS.len()).copied().unwrap_or('.')
}

/// `*.. qg-1  o:: qg-2  - pass 0.90  2 qg-1 and qg-2 at iteration 2`, wrapped to
/// the width.
fn legend(series: &[Series], frame: &Frame, shared: &[Shared], width: usize) -> Vec<Line<'static>> {
    let mut entries: Vec<(String, Style)> = series
        .iter()
        .enumerate()
        .map(|(n, s)| {
            let mark = MARKS.get(n % MARKS.len()).copied().unwrap_or('*');
            let line = segment(n);
            (format!("{mark}{line}{line} {}", s.name), s.style)
        })
        .collect();
    entries.push((format!("{PASS} pass {:.2}", frame.pass), frame.pass_style));
    entries.extend(
        shared_entries(series, shared)
            .into_iter()
            .map(|e| (e, Style::new())),
    );
    let mut lines = Vec::new();
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for (text, style) in entries {
        let w = crate::core::text::width(&text);
        if used > 0 && used + 2 + w > width {
            lines.push(Line::from(std::mem::take(&mut spans)));
            used = 0;
        }
        if used > 0 {
            spans.push(Span::raw("  "));
            used += 2;
        }
        spans.push(Span::styled(
            crate::core::text::fit(&text, width.min(w)),
            style,
        ));
        used += w;
    }
    if !spans.is_empty() {
        lines.push(Line::from(spans));
    }
    lines
}

/// One entry per set of gates sharing cells: `2 qg-1 and qg-2 at iterations 1-3, 5`.
fn shared_entries(series: &[Series], shared: &[Shared]) -> Vec<String> {
    let mut by_gates: Vec<(char, &[usize], Vec<usize>)> = Vec::new();
    for s in shared {
        match by_gates
            .iter_mut()
            .find(|(_, gates, _)| *gates == s.gates.as_slice())
        {
            Some((_, _, iterations)) => iterations.extend(&s.iterations),
            None => by_gates.push((s.mark, &s.gates, s.iterations.clone())),
        }
    }
    by_gates
        .into_iter()
        .map(|(mark, gates, mut iterations)| {
            iterations.sort_unstable();
            iterations.dedup();
            let names: Vec<&str> = gates
                .iter()
                .filter_map(|&n| series.get(n).map(|s| s.name.as_str()))
                .collect();
            let noun = if iterations.len() == 1 {
                "iteration"
            } else {
                "iterations"
            };
            format!(
                "{mark} {} at {noun} {}",
                and_list(&names),
                ranges(&iterations)
            )
        })
        .collect()
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Sorted numbers as runs: `1-3, 5`.
fn ranges(numbers: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &n in numbers {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == n => *end = n,
            _ => runs.push((n, n)),
        }
    }
    runs.iter()
        .map(|&(start, end)| match end - start {
            0 => start.to_string(),
            1 => format!("{start}, {end}"),
            _ => format!("{start}-{end}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line]) -> String {
        lines
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn each_gate_has_its_own_mark_and_the_axes_keep_their_labels() {
        let (a, b) = ([0.80, 0.86, 0.93], [0.70, 0.95]);
        let series = [
            Series {
                name: "qg-1".into(),
                scores: &a,
                style: Style::new(),
            },
            Series {
                name: "qg-2".into(),
                scores: &b,
                style: Style::new(),
            },
        ];
        let frame = Frame {
            pass: 0.9,
            y_min: 0.65,
            x_max: 3,
            axis: Style::new(),
            pass_style: Style::new(),
        };
        let chart = text(&lines(&series, &frame, 40, 12));
        assert!(chart.is_ascii(), "{chart}");
        let rows: Vec<&str> = chart.lines().collect();
        assert_eq!(rows.len(), 12, "{chart}");
        assert!(rows[0].starts_with("1.00|"), "{chart}");
        assert!(rows.iter().any(|r| r.starts_with("0.90|-")), "{chart}");
        assert!(rows[8].starts_with("0.65|"), "{chart}");
        // A tick under each of the three iterations.
        assert_eq!(rows[9], format!("    ++{0}+{0}+", "-".repeat(16)));
        assert!(rows[10].trim_start().starts_with('1') && rows[10].ends_with('3'));
        assert!(rows[10].contains("iteration"));
        assert_eq!(rows[11], "*.. qg-1  o:: qg-2  - pass 0.90");
        // Three `*` (qg-1's scores) and two `o` (qg-2's) in the plot, each
        // gate's line in its own dots.
        let plot = rows[..9].join("\n");
        assert_eq!(plot.matches('*').count(), 3, "{chart}");
        assert_eq!(plot.matches('o').count(), 2, "{chart}");
        assert!(plot.contains('.') && plot.contains(':'), "{chart}");
        // qg-2's last score, 0.95, is above the pass line, qg-1's first below it.
        let pass_row = rows.iter().position(|r| r.starts_with("0.90|")).unwrap();
        let top_o = rows.iter().position(|r| r.contains('o')).unwrap();
        let first_star = rows.iter().position(|r| r.get(5..6) == Some("*")).unwrap();
        assert!(top_o < pass_row && pass_row < first_star, "{chart}");
    }

    fn two(a: &[f64], b: &[f64]) -> [Series<'static>; 2] {
        let leak = |v: &[f64]| -> &'static [f64] { Vec::leak(v.to_vec()) };
        [
            Series {
                name: "qg-1".into(),
                scores: leak(a),
                style: Style::new(),
            },
            Series {
                name: "qg-2".into(),
                scores: leak(b),
                style: Style::new(),
            },
        ]
    }

    fn frame(pass: f64, y_min: f64, x_max: usize) -> Frame {
        Frame {
            pass,
            y_min,
            x_max,
            axis: Style::new(),
            pass_style: Style::new(),
        }
    }

    /// The plot's cells, without the score labels and the axis.
    fn plot_of(chart: &str) -> String {
        chart
            .lines()
            .filter_map(|l| l.split_once('|').map(|(_, plot)| plot))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn a_cell_two_gates_share_says_two_and_the_legend_names_them() {
        // Both gates scored 0.91 at iteration 2.
        let series = two(&[0.80, 0.91, 0.95], &[0.85, 0.91]);
        let chart = text(&lines(&series, &frame(0.9, 0.75, 3), 70, 14));
        let plot = plot_of(&chart);
        assert_eq!(plot.matches('2').count(), 1, "{chart}");
        // qg-1's two other scores and qg-2's first: none hidden.
        assert_eq!(plot.matches('*').count(), 2, "{chart}");
        assert_eq!(plot.matches('o').count(), 1, "{chart}");
        let legend = chart.lines().last().unwrap();
        assert_eq!(
            legend,
            "*.. qg-1  o:: qg-2  - pass 0.90  2 qg-1 and qg-2 at iteration 2"
        );
        // Apart, no shared mark and no entry for it.
        let apart = two(&[0.80, 0.91, 0.95], &[0.85, 0.78]);
        let chart = text(&lines(&apart, &frame(0.9, 0.75, 3), 70, 14));
        assert!(!plot_of(&chart).contains('2'), "{chart}");
        assert!(
            chart.lines().last().unwrap().ends_with("pass 0.90"),
            "{chart}"
        );
    }

    #[test]
    fn three_gates_in_one_cell_say_three_and_each_set_is_named_once() {
        let a = [0.80, 0.90, 0.95];
        let series = [
            Series {
                name: "a".into(),
                scores: &a,
                style: Style::new(),
            },
            Series {
                name: "b".into(),
                scores: &a,
                style: Style::new(),
            },
            Series {
                name: "c".into(),
                scores: &a[..1],
                style: Style::new(),
            },
        ];
        let chart = text(&lines(&series, &frame(0.92, 0.75, 3), 90, 14));
        let plot = plot_of(&chart);
        assert_eq!(plot.matches('3').count(), 1, "{chart}");
        assert_eq!(plot.matches('2').count(), 2, "{chart}");
        // The legend wraps at the width: read it as one line.
        assert!(
            chart
                .replace('\n', "  ")
                .ends_with("3 a, b and c at iteration 1  2 a and b at iterations 2, 3"),
            "{chart}"
        );
    }

    #[test]
    fn a_narrow_pane_wraps_the_shared_entry_and_keeps_the_height() {
        let series = two(&[0.80, 0.91, 0.95], &[0.85, 0.91]);
        for (w, h) in [(30, 12), (30, 9), (20, 10)] {
            let chart = lines(&series, &frame(0.9, 0.75, 3), w, h);
            assert!(chart.len() <= h, "{w}x{h}");
            let all = text(&chart);
            if all.contains('|') {
                assert!(all.contains("2 qg-1 and qg-2"), "{all}");
            }
        }
    }

    #[test]
    fn the_pass_line_shows_where_a_gate_runs_along_it() {
        // qg-1 stays on the pass line from its first score to its last.
        let series = two(&[0.9, 0.9, 0.9], &[0.7, 0.8]);
        let chart = text(&lines(&series, &frame(0.9, 0.65, 3), 40, 12));
        let pass = chart.lines().find(|l| l.starts_with("0.90|")).unwrap();
        assert_eq!(pass.matches('*').count(), 3, "{chart}");
        assert!(pass.contains("*----"), "{chart}");
        assert!(!pass["0.90|".len()..].contains('.'), "{chart}");
    }

    #[test]
    fn a_score_under_the_pass_mark_is_drawn_under_the_pass_line() {
        // Three rows: 0.91 and 0.89 round onto the 0.92 line's row; 0.93 is on it.
        let series = two(&[0.91, 0.93], &[0.89, 0.80]);
        let chart = text(&lines(&series, &frame(0.92, 0.75, 2), 40, 7));
        let rows: Vec<&str> = chart.lines().collect();
        let pass = rows.iter().position(|r| r.starts_with("0.92|")).unwrap();
        assert_eq!(rows[pass].trim_end().chars().last(), Some('*'), "{chart}");
        assert_eq!(rows[pass + 1].get(5..6), Some("2"), "{chart}");
        assert!(chart.ends_with("2 qg-1 and qg-2 at iteration 1"), "{chart}");
    }

    #[test]
    fn iterations_are_written_as_runs() {
        assert_eq!(ranges(&[1, 2, 3, 5]), "1-3, 5");
        assert_eq!(ranges(&[2, 3]), "2, 3");
        assert_eq!(ranges(&[4]), "4");
        assert_eq!(and_list(&["a", "b"]), "a and b");
    }

    #[test]
    fn a_pane_too_small_for_a_plot_keeps_the_legend() {
        let a = [0.9];
        let series = [Series {
            name: "qg-1".into(),
            scores: &a,
            style: Style::new(),
        }];
        let frame = Frame {
            pass: 0.9,
            y_min: 0.85,
            x_max: 2,
            axis: Style::new(),
            pass_style: Style::new(),
        };
        for (w, h) in [(0, 0), (1, 1), (12, 3), (40, 4)] {
            let got = lines(&series, &frame, w, h);
            assert!(got.len() <= h, "{w}x{h}");
        }
    }
}
