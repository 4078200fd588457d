//! Terminal safety for everything the commands print: text taken from files may hold
//! escape sequences, bidirectional controls and other control characters, and none
//! may reach the terminal as is. Every unsafe character is written as a visible
//! `\uXXXX` escape (valid inside the JSON of `--json`, where serde_json already
//! escapes C0 controls but not C1 or bidirectional ones); a carriage return before a
//! line feed (a CRLF file's line end, in a diff) is dropped.
//!
//! The commands that print what files hold (`show`, `list`, `validate`,
//! `timeline`, `doctor`) redact secrets too unless `--show-secrets`: their
//! output is held until the command ends and redacted whole (a secret printed
//! in pieces, or a key block over many lines, is still one secret), found as if
//! the control characters were not there (`core::redact::redact_beneath_controls`).

use std::io::{self, Write};

use crate::core::redact::redact_beneath_controls;
use crate::core::text::escape_controls;

/// Wraps the commands' output. Bytes are passed on as UTF-8 text; a character or
/// a CR split across two writes waits for the next write (or `finish`).
pub struct SafeOut<'a> {
    inner: &'a mut dyn Write,
    pending: Vec<u8>,
    /// Hold everything until `finish`, then redact it.
    redact: bool,
}

impl<'a> SafeOut<'a> {
    pub fn new(inner: &'a mut dyn Write) -> SafeOut<'a> {
        SafeOut {
            inner,
            pending: Vec::new(),
            redact: false,
        }
    }

    /// Output with its secrets redacted (held until `finish`).
    pub fn redacting(inner: &'a mut dyn Write) -> SafeOut<'a> {
        SafeOut {
            redact: true,
            ..SafeOut::new(inner)
        }
    }

    /// Writes what is still held back (an incomplete character as U+FFFD).
    pub fn finish(&mut self) -> io::Result<()> {
        let rest = std::mem::take(&mut self.pending);
        if !rest.is_empty() {
            let text = String::from_utf8_lossy(&rest);
            let text = if self.redact {
                text.replace("\r\n", "\n").into()
            } else {
                text
            };
            let shown = if self.redact {
                redact_beneath_controls(&text)
            } else {
                text.as_ref().into()
            };
            self.inner.write_all(escape_controls(&shown).as_bytes())?;
        }
        self.inner.flush()
    }

    fn pass_on(&mut self, text: &str) -> io::Result<()> {
        let joined = text.replace("\r\n", "\n");
        self.inner.write_all(escape_controls(&joined).as_bytes())
    }
}

impl Write for SafeOut<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if self.redact {
            return Ok(buf.len());
        }
        let bytes = std::mem::take(&mut self.pending);
        let (text, rest) = complete_text(&bytes);
        // A CR at the end may be the first half of a CRLF.
        let (text, held_cr) = match text.strip_suffix('\r') {
            Some(head) => (head, true),
            None => (text.as_ref(), false),
        };
        self.pass_on(text)?;
        if held_cr {
            self.pending.push(b'\r');
        }
        self.pending.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The text of `bytes` up to an incomplete character at the end (returned as the
/// rest); invalid bytes inside become U+FFFD.
fn complete_text(bytes: &[u8]) -> (std::borrow::Cow<'_, str>, &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.into(), &[]),
        Err(e) if e.error_len().is_none() => {
            let (head, rest) = bytes.split_at(e.valid_up_to());
            (String::from_utf8_lossy(head), rest)
        }
        Err(_) => {
            let cut = incomplete_tail(bytes);
            let (head, rest) = bytes.split_at(bytes.len() - cut);
            (String::from_utf8_lossy(head), rest)
        }
    }
}

/// Length of an incomplete UTF-8 sequence at the end of `bytes` (0 to 3).
fn incomplete_tail(bytes: &[u8]) -> usize {
    for back in 1..=3.min(bytes.len()) {
        let Some(&b) = bytes.get(bytes.len() - back) else {
            break;
        };
        if b & 0xC0 != 0x80 {
            let needed = match b {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF7 => 4,
                _ => 1,
            };
            return if needed > back { back } else { 0 };
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(pieces: &[&[u8]]) -> String {
        let mut out = Vec::new();
        let mut safe = SafeOut::new(&mut out);
        for piece in pieces {
            safe.write_all(piece).unwrap();
        }
        safe.finish().unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn controls_and_bidi_become_visible_escapes() {
        assert_eq!(
            through(&["id \u{1b}[31mred\u{7} \u{202e}txt\u{9b}2J\n".as_bytes()]),
            "id \\u001b[31mred\\u0007 \\u202etxt\\u009b2J\n"
        );
        assert_eq!(through(&[b"tabs\tand\nlines\n"]), "tabs\tand\nlines\n");
    }

    #[test]
    fn crlf_line_ends_lose_the_cr_and_a_lone_cr_is_escaped() {
        assert_eq!(through(&[b"a\r\nb\rc\r"]), "a\nb\\u000dc\\u000d");
        assert_eq!(through(&[b"a\r", b"\nb"]), "a\nb", "split between writes");
    }

    /// Issue 33 item 7: what `show` and `list` print is redacted, even a
    /// secret written in pieces or split by a control character.
    #[test]
    fn redacting_output_hides_secrets_written_in_pieces() {
        let mut out = Vec::new();
        let mut safe = SafeOut::redacting(&mut out);
        for piece in [
            &b"password"[..],
            b"=hunter2\r\n",
            b"gh\x07p_16C7e42F292c6912E",
            b"7710c838347Ae178B4a \x1b[31m\n",
        ] {
            safe.write_all(piece).unwrap();
        }
        safe.finish().unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "password=[REDACTED]\n[REDACTED] \\u001b[31m\n"
        );
    }

    #[test]
    fn characters_split_between_writes_survive() {
        let text = "é日🚀\u{202e}";
        let bytes = text.as_bytes();
        for cut in 0..=bytes.len() {
            let (a, b) = bytes.split_at(cut);
            assert_eq!(through(&[a, b]), "é日🚀\\u202e", "cut at {cut}");
        }
        assert_eq!(through(&[b"ok\xff!", b"\xe6"]), "ok\u{fffd}!\u{fffd}");
    }
}
