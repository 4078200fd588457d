//! Plain-text layout helpers for the commands: display width, truncation with an
//! ellipsis, padding. Widths are terminal columns, not bytes or chars.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// `s` on one line, cut to at most `max` columns with `…` when it is longer.
pub fn truncate(s: &str, max: usize) -> String {
    let one_line = one_line(s);
    if width(&one_line) <= max {
        return one_line;
    }
    let mut out = String::new();
    let mut used = 0;
    for c in one_line.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > max {
            break;
        }
        out.push(c);
        used += w;
    }
    if max > 0 {
        out.push('…');
    }
    out
}

/// Line breaks and runs of whitespace folded into single spaces; control and
/// bidirectional characters dropped.
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.trim().chars() {
        if c.is_whitespace() {
            space = true;
        } else if !crate::core::render::budget::is_unsafe_char(c) {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
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
        assert_eq!(truncate("short", 10), "short");
        assert_eq!(truncate("exactly10!", 10), "exactly10!");
        assert_eq!(truncate("eleven chars", 10), "eleven ch…");
        assert_eq!(truncate("日本語のテキスト", 7), "日本語…");
        assert_eq!(width(&truncate("日本語のテキスト", 7)), 7);
        assert_eq!(truncate("a\n  b\tc", 10), "a b c");
        assert_eq!(truncate("abc", 0), "");
        assert_eq!(truncate("x\u{1b}[31my", 10), "x[31my");
        assert_eq!(truncate("a\u{202e}b\u{9b}c", 10), "abc");
    }

    #[test]
    fn pads_by_display_width() {
        assert_eq!(pad("日本", 6), "日本  ");
        assert_eq!(pad("toolong", 3), "toolong");
    }
}
