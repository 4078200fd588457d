//! Text laid out to a width with a hanging indent: the first line starts with a
//! lead (a label, a glyph), the lines after it with spaces as wide as `indent`, so
//! a wrapped value stays under its own column instead of running back to the edge.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::core::text::width;

/// A run of text in one style.
#[derive(Debug, Clone)]
pub struct Piece {
    pub text: String,
    pub style: Style,
    /// False when the piece must stay on one line (a badge, a path).
    pub breakable: bool,
}

impl Piece {
    /// Words that wrap at their spaces.
    pub fn words(text: impl Into<String>, style: Style) -> Piece {
        Piece {
            text: text.into(),
            style,
            breakable: true,
        }
    }

    /// Kept whole: moved to the next line rather than split (split only when it
    /// is wider than a whole line).
    pub fn whole(text: impl Into<String>, style: Style) -> Piece {
        Piece {
            text: text.into(),
            style,
            breakable: false,
        }
    }
}

/// A unit of layout: a word (or an unbreakable piece), or the space before one.
struct Token<'p> {
    text: &'p str,
    style: Style,
    space: bool,
}

/// Lays `pieces` out after `lead` in lines of at most `width` cells; lines after the
/// first start with `indent` spaces. Spaces where a line breaks are dropped.
pub fn hanging(
    lead: Vec<Span<'static>>,
    indent: usize,
    pieces: &[Piece],
    width: usize,
) -> Vec<Line<'static>> {
    let width = width.max(1);
    let lead = clip(lead, width);
    let mut layout = Layout {
        lines: Vec::new(),
        used: lead
            .iter()
            .map(|s| crate::core::text::width(&s.content))
            .sum(),
        spans: lead,
        pending: Vec::new(),
        width,
        indent: indent.min(width.saturating_sub(1)),
        at_start: true,
    };
    if layout.used >= width && !pieces.is_empty() {
        // No room after the lead: the value starts on the next line.
        layout.break_line();
    }
    for token in tokens(pieces) {
        layout.push(token);
    }
    layout.finish()
}

/// The lead cut to `width` cells (ending in `…`) when it is wider.
fn clip(lead: Vec<Span<'static>>, width: usize) -> Vec<Span<'static>> {
    let total: usize = lead
        .iter()
        .map(|s| crate::core::text::width(&s.content))
        .sum();
    if total <= width {
        return lead;
    }
    let mut left = width;
    let mut out = Vec::new();
    for span in lead {
        if left == 0 {
            break;
        }
        let text = crate::core::text::truncate(&span.content, left).into_owned();
        left = left.saturating_sub(crate::core::text::width(&text));
        out.push(Span::styled(text, span.style));
    }
    out
}

/// At most this much of one piece is laid out: a 10 MB value took about a second
/// per frame, and nobody reads that much in a panel.
pub(super) const MAX_DRAWN_BYTES: usize = 64 * 1024;
pub(super) const CUT_NOTE: &str = "… (cut here: too long to draw; the file holds the rest)";

/// The part of `text` that is drawn: all of it, or its first [`MAX_DRAWN_BYTES`]
/// cut at a character boundary.
fn drawn(text: &str) -> (&str, bool) {
    if text.len() <= MAX_DRAWN_BYTES {
        return (text, false);
    }
    let mut end = MAX_DRAWN_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text.get(..end).unwrap_or_default(), true)
}

fn tokens<'p>(pieces: &'p [Piece]) -> Vec<Token<'p>> {
    let mut out = Vec::new();
    for piece in pieces {
        let (text, cut) = drawn(&piece.text);
        let style = piece.style;
        let mut push = |text: &'p str, space: bool| {
            // An unbreakable piece is one token even when empty, as before the cap.
            if !text.is_empty() || !piece.breakable {
                out.push(Token { text, style, space });
            }
        };
        if !piece.breakable {
            push(text, false);
        } else {
            let mut rest = text;
            while !rest.is_empty() {
                let (word, after) = rest.split_at(rest.find(' ').unwrap_or(rest.len()));
                push(word, false);
                let spaces = after.len() - after.trim_start_matches(' ').len();
                let (gap, after) = after.split_at(spaces);
                push(gap, true);
                rest = after;
            }
        }
        if cut {
            push(" ", true);
            push(CUT_NOTE, false);
        }
    }
    out
}

struct Layout {
    lines: Vec<Line<'static>>,
    spans: Vec<Span<'static>>,
    used: usize,
    /// Spaces seen since the last word: drawn only if a word follows on this line.
    pending: Vec<(String, Style)>,
    width: usize,
    indent: usize,
    /// Nothing but the lead (or the indent) on this line yet.
    at_start: bool,
}

impl Layout {
    fn push(&mut self, token: Token<'_>) {
        if token.space {
            if !self.at_start {
                self.pending.push((token.text.to_string(), token.style));
            }
            return;
        }
        let gap: usize = self.pending.iter().map(|(t, _)| width(t)).sum();
        let need = width(token.text);
        if !self.at_start && self.used + gap + need > self.width {
            self.break_line();
        }
        for (text, style) in std::mem::take(&mut self.pending) {
            self.add(text, style);
        }
        if self.used + need <= self.width {
            self.add(token.text.to_string(), token.style);
            return;
        }
        // Wider than what is left of a fresh line: split it by cells.
        let mut chunk = String::new();
        for c in token.text.chars() {
            let w = width(c.encode_utf8(&mut [0; 4]));
            if self.used + width(&chunk) + w > self.width && !chunk.is_empty() {
                self.add(std::mem::take(&mut chunk), token.style);
                self.break_line();
            }
            if chunk.is_empty() {
                self.make_room(w);
            }
            chunk.push(c);
        }
        if !chunk.is_empty() {
            self.add(chunk, token.style);
        }
    }

    /// Adds text to the line, in the last span when that has the same style (never
    /// in the lead or the indent).
    fn add(&mut self, text: String, style: Style) {
        self.used += width(&text);
        match self.spans.last_mut() {
            Some(last) if !self.at_start && last.style == style => {
                last.content.to_mut().push_str(&text);
            }
            _ => self.spans.push(Span::styled(text, style)),
        }
        self.at_start = false;
    }

    /// Makes room for a character `w` cells wide at the start of a line (a wide
    /// character after a deep indent in a narrow pane): after a lead it goes to the
    /// next line; after an indent, the indent narrows.
    fn make_room(&mut self, w: usize) {
        if !self.at_start || self.used + w <= self.width {
            return;
        }
        if self.lines.is_empty() && self.used > 0 {
            self.break_line();
        }
        if self.used + w > self.width {
            let indent = self.width.saturating_sub(w);
            self.spans = vec![Span::raw(" ".repeat(indent))];
            self.used = indent;
        }
    }

    fn break_line(&mut self) {
        self.pending.clear();
        let spans = std::mem::take(&mut self.spans);
        self.lines.push(Line::from(spans));
        self.spans = vec![Span::raw(" ".repeat(self.indent))];
        self.used = self.indent;
        self.at_start = true;
    }

    fn finish(mut self) -> Vec<Line<'static>> {
        if !self.spans.is_empty() {
            self.lines.push(Line::from(self.spans));
        }
        self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 10 MB value is laid out only as far as [`MAX_DRAWN_BYTES`], with a note.
    #[test]
    fn a_huge_value_is_cut_before_it_is_laid_out() {
        let huge = "word ".repeat(2 * 1024 * 1024);
        let lines = hanging(Vec::new(), 0, &[Piece::words(huge, Style::default())], 80);
        assert!(lines.len() < MAX_DRAWN_BYTES / 40, "{} lines", lines.len());
        let all: String = lines
            .iter()
            .flat_map(|l| l.spans.iter().map(|s| s.content.to_string()))
            .collect();
        assert!(all.ends_with(CUT_NOTE), "{}", &all[all.len() - 200..]);
        assert_eq!(
            drawn("é".repeat(MAX_DRAWN_BYTES).as_str()).0.len(),
            MAX_DRAWN_BYTES
        );
    }

    /// Only what can be drawn is cleaned (`view::clean`, `view::drawn_lines`):
    /// a 10 MB value with controls in it comes back a little over
    /// [`MAX_DRAWN_BYTES`], ending with the note.
    #[test]
    fn only_the_drawn_part_of_a_huge_value_is_cleaned() {
        let huge = "word\u{7}\n".repeat(2 * 1024 * 1024);
        for cleaned in [super::super::clean(&huge), super::super::drawn_lines(&huge)] {
            assert!(
                cleaned.len() < MAX_DRAWN_BYTES + 1024 + 100,
                "{}",
                cleaned.len()
            );
            assert!(cleaned.ends_with(CUT_NOTE));
            assert!(!cleaned.contains('\u{7}'));
        }
        assert_eq!(super::super::drawn_lines("a\nb"), "a\nb");
        assert_eq!(super::super::clean("a\nb"), "a b");
    }

    fn text(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn wrapped_values_hang_under_their_column() {
        let lines = hanging(
            vec![Span::raw("Next step  ")],
            11,
            &[Piece::words(
                "Finish the pre-mortem, then re-score handlers.md",
                Style::new(),
            )],
            30,
        );
        assert_eq!(
            text(&lines),
            [
                "Next step  Finish the",
                "           pre-mortem, then",
                "           re-score",
                "           handlers.md"
            ]
        );
    }

    #[test]
    fn whole_pieces_move_to_the_next_line_and_spaces_at_breaks_vanish() {
        let lines = hanging(
            vec![],
            2,
            &[
                Piece::whole("● FRESH", Style::new()),
                Piece::words("  ", Style::new()),
                Piece::whole("⚑ 1 unacknowledged", Style::new()),
            ],
            20,
        );
        assert_eq!(text(&lines), ["● FRESH", "  ⚑ 1 unacknowledged"]);
    }

    #[test]
    fn words_longer_than_a_line_are_split_and_nothing_is_wider_than_asked() {
        let long = "a".repeat(25);
        let lines = hanging(
            vec![Span::raw("key: ")],
            4,
            &[Piece::words(
                format!("x {long} 日本語テキスト"),
                Style::new(),
            )],
            12,
        );
        for line in text(&lines) {
            assert!(width(&line) <= 12, "{line:?}");
        }
        assert_eq!(text(&lines).concat().matches('a').count(), 25);
        assert!(hanging(vec![], 0, &[Piece::words("x", Style::new())], 0).len() == 1);
    }

    #[test]
    fn a_wide_character_never_pushes_a_line_past_the_width() {
        for cells in 2..8 {
            for indent in 0..cells {
                let lines = hanging(
                    vec![Span::raw("•".repeat(indent))],
                    indent,
                    &[Piece::words("冪等キー", Style::new())],
                    cells,
                );
                for line in text(&lines) {
                    assert!(width(&line) <= cells, "{cells}/{indent}: {line:?}");
                }
                assert_eq!(text(&lines).concat().replace(['•', ' '], ""), "冪等キー");
            }
        }
    }
}
