//! The Quality tab's trajectory chart in ASCII (`--ascii`, `[ui] glyphs`, or a
//! terminal without Unicode): ratatui's Braille lines would each become `*`, so
//! every gate gets a mark of its own (`*`, `o`, `+`, …) at its scores, `.` between
//! them, the pass line as `-`, with the score axis labelled on the left, the
//! iterations under it, and a legend naming each mark.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// One mark per series, in order; series beyond these reuse them.
pub const MARKS: [char; 8] = ['*', 'o', '+', 'x', '#', '@', '%', '&'];

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
const SEGMENT: char = '.';
const PASS: char = '-';

#[derive(Clone, Copy)]
struct Cell {
    ch: char,
    /// Index into the styles: 0 the pass line, then each series; `None` blank.
    style: Option<usize>,
}

/// The chart as lines of `width` cells, `height` lines at most.
pub fn lines(series: &[Series], frame: &Frame, width: usize, height: usize) -> Vec<Line<'static>> {
    let legend = legend(series, frame, width);
    let plot_h = height.saturating_sub(2 + legend.len());
    let plot_w = width.saturating_sub(LABEL_W + 1);
    if plot_h < 3 || plot_w < 8 {
        return legend.into_iter().take(height).collect();
    }
    let span = (1.0 - frame.y_min).max(1e-9);
    let row_of = |v: f64| {
        let at = ((1.0 - v.clamp(frame.y_min, 1.0)) / span * (plot_h - 1) as f64).round();
        (at as usize).min(plot_h - 1)
    };
    let last_x = frame.x_max.max(2) - 1;
    let col_of = |i: usize| (i * (plot_w - 1) + last_x / 2) / last_x;
    let blank = Cell {
        ch: ' ',
        style: None,
    };
    let mut grid = vec![vec![blank; plot_w]; plot_h];
    let pass_row = row_of(frame.pass);
    for cell in grid.get_mut(pass_row).into_iter().flatten() {
        *cell = Cell {
            ch: PASS,
            style: Some(0),
        };
    }
    for (n, s) in series.iter().enumerate() {
        let points: Vec<(usize, usize)> = s
            .scores
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(|(i, v)| (col_of(i), row_of(*v)))
            .collect();
        for (&(c0, r0), &(c1, r1)) in points.iter().zip(points.iter().skip(1)) {
            for c in c0 + 1..c1 {
                let t = (c - c0) as f64 / (c1 - c0) as f64;
                let r = (r0 as f64 + t * (r1 as f64 - r0 as f64)).round() as usize;
                if let Some(cell) = grid.get_mut(r).and_then(|row| row.get_mut(c))
                    && (cell.ch == ' ' || cell.ch == PASS)
                {
                    *cell = Cell {
                        ch: SEGMENT,
                        style: Some(n + 1),
                    };
                }
            }
        }
        let mark = MARKS.get(n % MARKS.len()).copied().unwrap_or('*');
        for (c, r) in points {
            if let Some(cell) = grid.get_mut(r).and_then(|row| row.get_mut(c)) {
                *cell = Cell {
                    ch: mark,
                    style: Some(n + 1),
                };
            }
        }
    }
    let style_of = |i: Option<usize>| match i {
        None => Style::new(),
        Some(0) => frame.pass_style,
        Some(n) => series.get(n - 1).map_or(Style::new(), |s| s.style),
    };
    let mut out = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        let label = if r == 0 {
            "1.00".to_string()
        } else if r == plot_h - 1 {
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
    out.push(Line::from(Span::styled(
        format!("{}+{}", " ".repeat(LABEL_W), "-".repeat(plot_w)),
        frame.axis,
    )));
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
    out.push(Line::from(Span::styled(
        format!("{} {first}{middle}{last}", " ".repeat(LABEL_W)),
        frame.axis,
    )));
    out.extend(legend);
    out
}

/// `* qg-1  o qg-2  - pass 0.90`, wrapped to the width.
fn legend(series: &[Series], frame: &Frame, width: usize) -> Vec<Line<'static>> {
    let mut entries: Vec<(String, Style)> = series
        .iter()
        .enumerate()
        .map(|(n, s)| {
            let mark = MARKS.get(n % MARKS.len()).copied().unwrap_or('*');
            (format!("{mark} {}", s.name), s.style)
        })
        .collect();
    entries.push((format!("{PASS} pass {:.2}", frame.pass), frame.pass_style));
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
        assert_eq!(rows[9], format!("    +{}", "-".repeat(35)));
        assert!(rows[10].trim_start().starts_with('1') && rows[10].ends_with('3'));
        assert!(rows[10].contains("iteration"));
        assert_eq!(rows[11], "* qg-1  o qg-2  - pass 0.90");
        // Three `*` (qg-1's scores) and two `o` (qg-2's) in the plot.
        let plot = rows[..9].join("\n");
        assert_eq!(plot.matches('*').count(), 3, "{chart}");
        assert_eq!(plot.matches('o').count(), 2, "{chart}");
        // qg-2's last score, 0.95, is above the pass line, qg-1's first below it.
        let pass_row = rows.iter().position(|r| r.starts_with("0.90|")).unwrap();
        let top_o = rows.iter().position(|r| r.contains('o')).unwrap();
        let first_star = rows.iter().position(|r| r.get(5..6) == Some("*")).unwrap();
        assert!(top_o < pass_row && pass_row < first_star, "{chart}");
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
