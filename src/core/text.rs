//! Text from files on its way to a terminal, a clipboard or an injection: which
//! characters are unsafe (controls, escape sequences, bidirectional controls) and
//! what becomes of them (stripped, drawn clean, or shown as escapes); its display
//! width and truncation are in `cells`. Pure: every front end shares these rules.

use std::borrow::Cow;

mod cells;
pub mod cut;

pub use cells::{fit, fit_right, one_line, pad, truncate, truncate_line, width};

/// `text` with its first character in upper case ("resumption prompt" →
/// "Resumption prompt").
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Strips control characters (keeping newline and tab), bidirectional controls
/// and invisible format characters (`core::invisible`), which could hide text
/// from the operator reading a copy; the Unicode line and paragraph separators
/// (U+2028, U+2029: line ends to a JSON reader or a terminal, not to the eye)
/// become newlines.
pub fn strip_controls(text: &str) -> String {
    strip_controls_cow(text).into_owned()
}

/// [`strip_controls`], borrowed when there is nothing to strip.
pub fn strip_controls_cow(text: &str) -> Cow<'_, str> {
    let visible = if text.chars().any(is_unsafe_char) {
        Cow::Owned(
            text.chars()
                .filter_map(|c| match c {
                    c if is_line_separator(c) => Some('\n'),
                    c if is_unsafe_char(c) => None,
                    c => Some(c),
                })
                .collect(),
        )
    } else {
        Cow::Borrowed(text)
    };
    match visible {
        Cow::Borrowed(text) => crate::core::invisible::strip(text),
        Cow::Owned(text) => Cow::Owned(crate::core::invisible::strip_owned(text)),
    }
}

/// Whether `c` must never reach a terminal, a clipboard or an injection as is:
/// control characters (C0, DEL, C1: escape sequences, carriage returns, bells)
/// other than newline and tab, bidirectional controls (embeddings, overrides,
/// isolates and marks), which reorder what the reader sees, and the Unicode line
/// and paragraph separators.
pub fn is_unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c) || is_line_separator(c)
}

/// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: a line end to
/// JavaScript, JSON readers and some terminals, invisible in most views.
pub fn is_line_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// Bidirectional controls: embeddings, overrides, isolates and marks.
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
    )
}

/// `text` with every unsafe character written as a visible `\uXXXX` escape (the
/// JSON spelling, so JSON text stays valid), for output that must show what a file
/// holds rather than drop it.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    let invisible = !text.is_ascii() && crate::core::invisible::find(text).is_some();
    if !invisible && !text.chars().any(is_unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut before = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let shown_escaped = is_unsafe_char(c)
            || (invisible && crate::core::invisible::is_hidden(before, c, chars.peek().copied()));
        if shown_escaped {
            // Past U+FFFF as a surrogate pair, as JSON spells it.
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
        before = Some(c);
    }
    Cow::Owned(out)
}

/// Removes terminal escape sequences (CSI, OSC, DCS, …), C0/C1 control characters,
/// bidi controls and invisible format characters (`core::invisible`: TAG
/// characters, zero-width spaces, soft hyphens, BOMs, fillers). Tabs become a
/// space; newlines, and the Unicode line and paragraph separators, are newlines
/// when `keep_newlines` and spaces otherwise.
pub fn sanitize(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    match crate::core::invisible::strip(text) {
        Cow::Borrowed(visible) => sanitize_visible(visible, keep_newlines),
        Cow::Owned(visible) => Cow::Owned(sanitize_visible(&visible, keep_newlines).into_owned()),
    }
}

/// [`sanitize`] for a text without invisible format characters.
fn sanitize_visible(text: &str, keep_newlines: bool) -> Cow<'_, str> {
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
            '\n' | '\u{2028}' | '\u{2029}' if keep_newlines => out.push('\n'),
            '\n' | '\t' | '\u{2028}' | '\u{2029}' => out.push(' '),
            '\u{1b}' => skip_escape(&mut chars),
            // C1 string introducers (DCS, SOS, OSC, PM, APC) swallow until ST like their ESC forms.
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            '\u{9b}' => skip_csi(&mut chars),
            c if is_regional_indicator(c) => out.push(regional_letter(c)),
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
    c.is_control()
        || is_bidi_control(c)
        || is_line_separator(c)
        || joins_widths(c)
        || is_regional_indicator(c)
}

/// Characters that change the width of the characters around them: the emoji and
/// text presentation selectors (`⚠️` is one cell in some terminals, two in others),
/// the zero-width joiner (`👩‍💻` is one glyph or two) and skin-tone modifiers.
/// Without them the width of a text is the sum of its characters' widths, which is
/// how terminals measure it, so the screen and the terminal agree on every cell.
fn joins_widths(c: char) -> bool {
    matches!(
        c,
        '\u{fe0e}' | '\u{fe0f}' | '\u{200d}' | '\u{1f3fb}'..='\u{1f3ff}'
    )
}

/// A flag is two regional indicators, drawn as one glyph or two letters depending
/// on the terminal: they are shown as their letters (`🇯🇵` as `JP`).
fn is_regional_indicator(c: char) -> bool {
    ('\u{1f1e6}'..='\u{1f1ff}').contains(&c)
}

fn regional_letter(c: char) -> char {
    char::from_u32(u32::from(c) - 0x1f1e6 + u32::from('A')).unwrap_or('?')
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

#[cfg(test)]
mod tests {
    use unicode_width::UnicodeWidthChar;

    use super::*;

    #[test]
    fn controls_are_stripped_but_newline_and_tab_kept() {
        assert_eq!(
            strip_controls("a\u{1b}[31mb\r\n\tc\u{7}\u{202E}d"),
            "a[31mb\n\tcd"
        );
    }

    #[test]
    fn marks_and_c1_controls_are_unsafe_too() {
        for c in [
            '\u{200E}', '\u{200F}', '\u{061C}', '\u{9B}', '\u{85}', '\u{7F}', '\r',
        ] {
            assert!(is_unsafe_char(c), "{c:?}");
        }
        for c in ['\n', '\t', 'é', '日', '\u{200D}', ' '] {
            assert!(!is_unsafe_char(c), "{c:?}");
        }
    }

    #[test]
    fn escapes_are_visible_and_valid_json() {
        assert_eq!(escape_controls("plain\ttext\n"), "plain\ttext\n");
        let escaped = escape_controls("a\u{1b}[31mb\u{202e}c\u{9b}");
        assert_eq!(escaped, "a\\u001b[31mb\\u202ec\\u009b");
        let json: String = serde_json::from_str(&format!("\"{escaped}\"")).unwrap();
        assert_eq!(json, "a\u{1b}[31mb\u{202e}c\u{9b}");
    }

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
    fn emoji_sequences_are_drawn_as_terminals_measure_them() {
        assert_eq!(clean("\u{26a0}\u{fe0f} warn"), "\u{26a0} warn");
        assert_eq!(width(&clean("\u{26a0}\u{fe0f}")), 1);
        assert_eq!(clean("\u{1f1ef}\u{1f1f5} Tokyo"), "JP Tokyo");
        assert_eq!(clean("\u{1f469}\u{200d}\u{1f4bb}"), "\u{1f469}\u{1f4bb}");
        assert_eq!(width(&clean("\u{1f469}\u{200d}\u{1f4bb}")), 4);
        // The rule: after cleaning, a text is as wide as its characters added up,
        // as a terminal's wcwidth counts it.
        for text in [
            "\u{26a0}\u{fe0f}\u{2764}\u{fe0f}\u{fe0e}",
            "1\u{fe0f}\u{20e3} keycap",
            "\u{1f3f3}\u{fe0f}\u{200d}\u{1f308} flag",
            "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467} family",
            "\u{1f44d}\u{1f3fd} skin tone",
            "e\u{301}t\u{e9} \u{65e5}\u{672c}",
            "\u{1f1fa}\u{1f1f8}\u{1f1ef}",
        ] {
            let cleaned = clean(text);
            let by_char: usize = cleaned
                .chars()
                .map(|c| UnicodeWidthChar::width(c).unwrap_or(0))
                .sum();
            assert_eq!(width(&cleaned), by_char, "{text:?} → {cleaned:?}");
        }
    }

    #[test]
    fn strips_bidi_overrides() {
        assert_eq!(clean("safe\u{202e}txt.exe"), "safetxt.exe");
        assert_eq!(clean("\u{2066}iso\u{2069}"), "iso");
    }

    /// Issue 33 item 7: what the dashboard's title and Overview draw.
    #[test]
    fn invisible_characters_and_line_separators_are_not_drawn() {
        let tagged: String = "run rm"
            .chars()
            .filter_map(|c| char::from_u32(0xE0000 + c as u32))
            .collect();
        let title =
            format!("Pro\u{200B}ject\u{00AD} \u{FEFF}A\u{115F}\u{034F}\u{FFF9}b\u{FFFB}{tagged}");
        assert_eq!(clean(&title), "Project Ab");
        assert_eq!(clean("one\u{2028}two\u{2029}three"), "one two three");
        assert_eq!(sanitize("one\u{2028}two", true), "one\ntwo");
        assert_eq!(
            strip_controls("a\u{2028}b\u{2029}c\u{85}d\u{9b}e"),
            "a\nb\ncde"
        );
        assert_eq!(escape_controls("a\u{2028}b"), "a\\u2028b");
        assert!(matches!(strip_controls_cow("plain é"), Cow::Borrowed(_)));
    }

    #[test]
    fn keeps_newlines_when_asked() {
        assert_eq!(sanitize("a\nb\u{1b}[1m", true), "a\nb");
    }
}
