//! Text from files on its way to the screen: sanitised (no escape sequences, control
//! or bidirectional-override characters ever reach the terminal), measured by display
//! width, and truncated with an ellipsis.

use std::borrow::Cow;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Removes terminal escape sequences (CSI, OSC, DCS, …), C0/C1 control characters
/// and bidi controls. Tabs become a space; newlines are kept only when `keep_newlines`.
pub fn sanitize(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    if text
        .chars()
        .all(|c| !needs_cleaning(c) || (keep_newlines && c == '\n'))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' if keep_newlines => out.push('\n'),
            '\n' | '\t' => out.push(' '),
            '\u{1b}' => skip_escape(&mut chars),
            // C1 string introducers (DCS, SOS, OSC, PM, APC) swallow until ST like their ESC forms.
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            '\u{9b}' => skip_csi(&mut chars),
            c if needs_cleaning(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// One line of file text, safe to draw: newlines become spaces.
pub fn clean(text: &str) -> Cow<'_, str> {
    sanitize(text, false)
}

fn needs_cleaning(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

fn skip_escape(chars: &mut Chars<'_>) {
    match chars.next() {
        Some('[') => skip_csi(chars),
        Some(']' | 'P' | 'X' | '^' | '_') => skip_string(chars),
        // Two-byte sequences (ESC c, ESC 7, …) and charset selection (ESC ( B).
        Some('(' | ')' | '*' | '+' | '#' | '%') => {
            chars.next();
        }
        _ => {}
    }
}

/// CSI: parameter and intermediate bytes, then one final byte in `@`..=`~`.
fn skip_csi(chars: &mut Chars<'_>) {
    for c in chars.by_ref() {
        if ('@'..='~').contains(&c) || !(' '..='?').contains(&c) {
            return;
        }
    }
}

/// OSC/DCS/…: until BEL, ST (`ESC \`) or the C1 ST.
fn skip_string(chars: &mut Chars<'_>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => return,
            '\u{1b}' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                return;
            }
            _ => {}
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_escape_sequences_and_controls() {
        assert_eq!(clean("plain"), "plain");
        assert_eq!(clean("red \u{1b}[31mtext\u{1b}[0m"), "red text");
        assert_eq!(clean("title\u{1b}]0;pwned\u{7}end"), "titleend");
        assert_eq!(clean("osc\u{1b}]52;c;aGk=\u{1b}\\done"), "oscdone");
        assert_eq!(clean("dcs\u{1b}Ptmux;x\u{1b}\\ok"), "dcsok");
        assert_eq!(clean("c1\u{9b}2Jcsi"), "c1csi");
        assert_eq!(clean("bell\u{7}nul\u{0}del\u{7f}"), "bellnuldel");
        assert_eq!(clean("a\tb\nc\rd"), "a b cd");
        assert_eq!(clean("trailing esc\u{1b}"), "trailing esc");
    }

    #[test]
    fn strips_bidi_overrides() {
        assert_eq!(clean("safe\u{202e}txt.exe"), "safetxt.exe");
        assert_eq!(clean("\u{2066}iso\u{2069}"), "iso");
    }

    #[test]
    fn keeps_newlines_when_asked() {
        assert_eq!(sanitize("a\nb\u{1b}[1m", true), "a\nb");
    }

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
}
