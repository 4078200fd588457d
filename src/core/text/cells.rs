//! Display width in terminal cells (not bytes or chars), and cutting or padding
//! text to a number of cells, with `…` where something was cut.

use std::borrow::Cow;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Display width in terminal cells.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// Cuts `text` to at most `max` cells, ending in `…` when something was cut.
pub fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    if width(text) <= max {
        return Cow::Borrowed(text);
    }
    if max == 0 {
        return Cow::Borrowed("");
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    Cow::Owned(out)
}

/// `text` on one line (`one_line`), cut to at most `max` cells with `…` when it is
/// longer.
pub fn truncate_line(text: &str, max: usize) -> String {
    truncate(&one_line(text), max).into_owned()
}

/// Line breaks and runs of whitespace folded into single spaces; control and
/// bidirectional characters dropped.
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.trim().chars() {
        if c.is_whitespace() {
            space = true;
        } else if !super::is_unsafe_char(c) {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

/// Pads (or truncates) to exactly `cells` display cells.
pub fn fit(text: &str, cells: usize) -> String {
    let cut = truncate(text, cells);
    let pad = cells.saturating_sub(width(&cut));
    let mut out = cut.into_owned();
    out.extend(std::iter::repeat_n(' ', pad));
    out
}

/// Right-aligns in exactly `cells` display cells.
pub fn fit_right(text: &str, cells: usize) -> String {
    let cut = truncate(text, cells);
    let pad = cells.saturating_sub(width(&cut));
    let mut out: String = std::iter::repeat_n(' ', pad).collect();
    out.push_str(&cut);
    out
}

/// `s` padded with spaces to `columns` (no cut).
pub fn pad(s: &str, columns: usize) -> String {
    let mut out = s.to_string();
    out.extend(std::iter::repeat_n(' ', columns.saturating_sub(width(s))));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncates_by_display_width() {
        assert_eq!(truncate("abcdef", 6), "abcdef");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("日本語テキスト", 7), "日本語…");
        assert_eq!(width(&truncate("日本語テキスト", 6)), 5);
        assert_eq!(truncate("abc", 0), "");
        assert_eq!(truncate("abc", 1), "…");
        assert_eq!(fit("日本", 6), "日本  ");
        assert_eq!(fit_right("7%", 4), "  7%");
    }

    #[test]
    fn lines_are_folded_then_truncated_by_display_width() {
        assert_eq!(truncate_line("short", 10), "short");
        assert_eq!(truncate_line("exactly10!", 10), "exactly10!");
        assert_eq!(truncate_line("eleven chars", 10), "eleven ch…");
        assert_eq!(truncate_line("日本語のテキスト", 7), "日本語…");
        assert_eq!(width(&truncate_line("日本語のテキスト", 7)), 7);
        assert_eq!(truncate_line("a\n  b\tc", 10), "a b c");
        assert_eq!(truncate_line("abc", 0), "");
        assert_eq!(truncate_line("x\u{1b}[31my", 10), "x[31my");
        assert_eq!(truncate_line("a\u{202e}b\u{9b}c", 10), "abc");
    }

    #[test]
    fn pads_by_display_width() {
        assert_eq!(pad("日本", 6), "日本  ");
        assert_eq!(pad("toolong", 3), "toolong");
    }
}
