//! Redaction for output that shows unsafe characters as escapes rather than
//! dropping them (the hook log, the commands' terminal output): secrets are
//! found in the text as `scrub` sees it, with the control, bidirectional and
//! invisible characters removed (so `gh<BEL>p_…` is one token), and replaced
//! in the text itself; what lies outside a secret is left for the caller to
//! escape. A control written as a JSON escape (`\u0007`, as `--json` output
//! and serde_json spell one) counts as the control itself.

use std::borrow::Cow;
use std::ops::Range;

use crate::core::invisible::is_hidden;
use crate::core::text::{is_line_separator, is_unsafe_char};

/// `text` with every secret that `scrub` would find replaced by `MARK`, the
/// characters `scrub` removes kept where no secret covers them.
pub fn redact_beneath_controls(text: &str) -> Cow<'_, str> {
    let Some(joined) = Joined::of(text) else {
        return super::redact(text);
    };
    let ranges: Vec<Range<usize>> = super::secret_ranges(joined.text.as_bytes())
        .into_iter()
        .filter(|r| r.start < r.end)
        .filter_map(|r| Some(*joined.starts.get(r.start)?..*joined.ends.get(r.end - 1)?))
        .collect();
    if ranges.is_empty() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(super::replace(text, ranges))
}

/// `\u00XX` naming a C0 or C1 control or DEL.
fn is_escaped_control(six: Option<&[u8]>) -> bool {
    let Some([b'\\', b'u', b'0', b'0', high, low]) = six else {
        return false;
    };
    let hex = |b: u8| char::from(b).to_digit(16);
    match (hex(*high), hex(*low)) {
        (Some(high), Some(low)) => {
            let code = high * 16 + low;
            code < 0x20 || (0x7f..0xa0).contains(&code)
        }
        _ => false,
    }
}

/// The text without the characters `scrub` removes (line separators as
/// newlines), and for each of its bytes where the character holding it starts
/// and ends in the original.
struct Joined {
    text: String,
    starts: Vec<usize>,
    ends: Vec<usize>,
}

impl Joined {
    /// `None` when nothing is removed.
    fn of(text: &str) -> Option<Joined> {
        let removed = |before, c, after| {
            is_unsafe_char(c) && !is_line_separator(c) || is_hidden(before, c, after)
        };
        let mut chars = text.char_indices().peekable();
        let mut before = None;
        let mut joined: Option<Joined> = None;
        let mut escape_end = 0;
        while let Some((at, c)) = chars.next() {
            let after = chars.peek().map(|&(_, c)| c);
            if at < escape_end {
                continue;
            }
            if c == '\\' && is_escaped_control(text.as_bytes().get(at..at + 6)) {
                escape_end = at + 6;
                joined.get_or_insert_with(|| Joined::copy_of(text.get(..at).unwrap_or_default()));
            } else if removed(before, c, after) {
                joined.get_or_insert_with(|| Joined::copy_of(text.get(..at).unwrap_or_default()));
            } else if let Some(j) = joined.as_mut() {
                j.push(at, c);
            }
            before = Some(c);
        }
        joined
    }

    /// The first `head` bytes of the text, all kept (every byte is its own
    /// position: ranges start and end on character boundaries).
    fn copy_of(head: &str) -> Joined {
        let mut joined = Joined {
            text: String::with_capacity(head.len() * 2),
            starts: Vec::with_capacity(head.len() * 2),
            ends: Vec::with_capacity(head.len() * 2),
        };
        for (at, c) in head.char_indices() {
            joined.push(at, c);
        }
        joined
    }

    /// `c`, found at byte `at` of the original, kept.
    fn push(&mut self, at: usize, c: char) {
        let kept = if is_line_separator(c) { '\n' } else { c };
        self.text.push(kept);
        for _ in 0..kept.len_utf8() {
            self.starts.push(at);
            self.ends.push(at + c.len_utf8());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_split_by_controls_is_redacted_and_the_rest_kept() {
        let text = "ring\u{7} gh\u{7}p_16C7e42F292c6\u{200B}912E7710c838347Ae178B4a end\u{1b}[0m";
        assert_eq!(
            redact_beneath_controls(text),
            "ring\u{7} [REDACTED] end\u{1b}[0m"
        );
        assert_eq!(
            redact_beneath_controls("é\u{2028}password=hun\u{85}ter2 ok"),
            "é\u{2028}password=[REDACTED] ok"
        );
        assert!(matches!(
            redact_beneath_controls("bell\u{7} only"),
            Cow::Borrowed(_)
        ));
        assert_eq!(
            redact_beneath_controls("password=plain"),
            "password=[REDACTED]"
        );
        assert_eq!(
            redact_beneath_controls(
                r#""gh\u0007p_16C7e42F292c6912E7710c838347Ae178B4a", "\u00e9""#
            ),
            r#""[REDACTED]", "\u00e9""#
        );
    }
}
