//! The token estimate (characters / 4, as the seeds measure) and Claude Code's
//! 10,000-character injection limit. Every renderer ends in `finish`.

use serde::Serialize;

/// Claude Code drops injected context beyond this many characters.
pub const INJECTION_LIMIT_CHARS: usize = 10_000;

/// A rendered text and what it cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rendered {
    pub text: String,
    pub tokens_estimate: usize,
    /// True when any part was shortened or cut (always said in the text too).
    pub truncated: bool,
    /// Files the text was built from, relative to the workspace root.
    pub sources: Vec<String>,
}

/// Characters / 4, rounded up.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// Strips control characters (keeping newline and tab), bidirectional controls
/// and invisible format characters (`core::invisible`), which could hide text
/// from the operator reading a copy.
pub fn strip_controls(text: &str) -> String {
    let visible: String = text.chars().filter(|c| !is_unsafe_char(*c)).collect();
    crate::core::invisible::strip_owned(visible)
}

/// Whether `c` must never reach a terminal, a clipboard or an injection as is:
/// control characters (C0, DEL, C1: escape sequences, carriage returns, bells)
/// other than newline and tab, and bidirectional controls (embeddings, overrides,
/// isolates and marks), which reorder what the reader sees.
pub fn is_unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c)
}

fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
    )
}

/// `text` with every unsafe character written as a visible `\uXXXX` escape (the
/// JSON spelling, so JSON text stays valid), for output that must show what a file
/// holds rather than drop it.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let invisible = !text.is_ascii() && crate::core::invisible::find(text).is_some();
    if !invisible && !text.chars().any(is_unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
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
    std::borrow::Cow::Owned(out)
}

/// Cleans the text (control and invisible characters stripped, secrets redacted: every rendered
/// text is injected into Claude's context or copied for a new session), applies
/// the injection limit and measures the result. `shortened` says a renderer
/// already abbreviated some part (and said so).
pub fn finish(text: &str, sources: Vec<String>, shortened: bool) -> Rendered {
    let clean = crate::core::redact::redact_owned(strip_controls(text));
    let (text, cut) = limit(&clean, INJECTION_LIMIT_CHARS);
    Rendered {
        tokens_estimate: estimate_tokens(&text),
        text,
        truncated: shortened || cut,
        sources,
    }
}

/// Cuts `text` to at most `max` characters, at a line end when one is near,
/// ending with a visible marker that says how much was left out.
pub fn limit(text: &str, max: usize) -> (String, bool) {
    let total = text.chars().count();
    if total <= max {
        return (text.to_string(), false);
    }
    // The marker's length depends on the number in it; reserve for the widest.
    let reserve = marker(total).chars().count() + 1;
    let keep_chars = max.saturating_sub(reserve);
    let byte_end = text
        .char_indices()
        .nth(keep_chars)
        .map_or(text.len(), |(i, _)| i);
    let head = text.get(..byte_end).unwrap_or("");
    let head = match head.rfind('\n') {
        Some(nl) if nl * 5 >= byte_end * 4 => head.get(..nl).unwrap_or(head),
        _ => head,
    };
    let omitted = total - head.chars().count();
    (format!("{head}\n{}", marker(omitted)), true)
}

fn marker(omitted: usize) -> String {
    format!("[… truncated by resume-tui: {omitted} characters omitted …]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_is_characters_over_four_rounded_up() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        assert_eq!(estimate_tokens("ééé"), 1, "characters, not bytes");
    }

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
    fn secrets_are_redacted_from_every_rendered_text() {
        let r = finish(
            "Next: deploy with GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a\n",
            vec![],
            false,
        );
        assert_eq!(r.text, "Next: deploy with GITHUB_TOKEN=[REDACTED]\n");
    }

    #[test]
    fn short_text_is_untouched() {
        let r = finish("hello\n", vec!["a".into()], false);
        assert_eq!(r.text, "hello\n");
        assert!(!r.truncated);
        assert_eq!(r.tokens_estimate, 2);
    }

    #[test]
    fn long_text_is_cut_visibly_within_the_limit() {
        let line = "x".repeat(99);
        let text = format!("{line}\n").repeat(300);
        let r = finish(&text, vec![], false);
        assert!(r.truncated);
        assert!(r.text.chars().count() <= INJECTION_LIMIT_CHARS);
        let last = r.text.lines().last().unwrap();
        let kept = r.text.chars().count() - last.chars().count() - 1;
        assert_eq!(
            last,
            format!(
                "[… truncated by resume-tui: {} characters omitted …]",
                30_000 - kept
            )
        );
        assert!(
            r.text.lines().rev().nth(1).unwrap() == line,
            "cut at a line end"
        );
    }

    #[test]
    fn a_single_huge_line_is_cut_mid_line() {
        let text = "é".repeat(20_000);
        let (cut, was_cut) = limit(&text, 100);
        assert!(was_cut);
        assert!(cut.chars().count() <= 100);
        assert!(cut.ends_with("characters omitted …]"));
    }
}
