//! Single- and double-quoted scalars, on one line or folded over several.

use super::cursor::Cursor;
use super::scalar::push_break;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Quote {
    Single,
    Double,
}

impl Quote {
    pub fn of(byte: u8) -> Option<Quote> {
        match byte {
            b'\'' => Some(Quote::Single),
            b'"' => Some(Quote::Double),
            _ => None,
        }
    }
}

/// The scalar whose opening quote is at byte `start` of the cursor's line, and
/// the rest of the line where it closes (the cursor is left on that line).
/// Continuation lines may have any indentation, as for `yaml_serde`; `None` when
/// the scalar does not close or holds a bad escape.
pub(super) fn read<'a>(cursor: &mut Cursor<'a>, start: usize) -> Option<(String, &'a str)> {
    let line = cursor.current()?;
    let quote = Quote::of(*line.text.as_bytes().get(start)?)?;
    let mut out = String::new();
    let mut text = line.text;
    let mut pos = start + 1;
    loop {
        match on_line(quote, text, pos, &mut out)? {
            LineEnd::Closed(after) => return Some((out, text.get(after..)?)),
            LineEnd::Open { escaped_break } => {
                let (next, empty_lines) = continuation(cursor)?;
                if escaped_break && empty_lines > 0 {
                    return None;
                }
                if !escaped_break {
                    push_break(&mut out, empty_lines);
                }
                text = next.text;
                pos = next.indent;
            }
        }
    }
}

/// A quoted scalar that opens at the start of `text` and closes on it: its value
/// and the byte after the closing quote.
pub(super) fn in_line(text: &str) -> Option<(String, usize)> {
    let quote = Quote::of(*text.as_bytes().first()?)?;
    let mut out = String::new();
    match on_line(quote, text, 1, &mut out)? {
        LineEnd::Closed(after) => Some((out, after)),
        LineEnd::Open { .. } => None,
    }
}

enum LineEnd {
    /// The closing quote ends before this byte.
    Closed(usize),
    /// The line ended inside the scalar (after a `\` for an escaped break).
    Open { escaped_break: bool },
}

/// Reads the scalar's characters on one line from byte `pos`: runs of ordinary
/// characters are copied whole; spaces at the end of the line are dropped.
fn on_line(quote: Quote, text: &str, mut pos: usize, out: &mut String) -> Option<LineEnd> {
    let bytes = text.as_bytes();
    loop {
        let rest = bytes.get(pos..)?;
        let special = match quote {
            Quote::Single => memchr::memchr(b'\'', rest),
            Quote::Double => memchr::memchr2(b'"', b'\\', rest),
        };
        let Some(at) = special.map(|i| pos + i) else {
            out.push_str(text.get(pos..)?.trim_end_matches([' ', '\t']));
            return Some(LineEnd::Open {
                escaped_break: false,
            });
        };
        out.push_str(text.get(pos..at)?);
        match (quote, bytes.get(at + 1)) {
            (Quote::Single, Some(b'\'')) => {
                out.push('\'');
                pos = at + 2;
            }
            (Quote::Double, None) if bytes.get(at) == Some(&b'\\') => {
                return Some(LineEnd::Open {
                    escaped_break: true,
                });
            }
            (Quote::Double, _) if bytes.get(at) == Some(&b'\\') => {
                pos = escape(text, at + 1, out)?;
            }
            _ => return Some(LineEnd::Closed(at + 1)),
        }
    }
}

/// Moves to the next line with content, counting the empty lines passed. A line
/// starting with a tab is left to `yaml_serde` (which skips it as space).
fn continuation<'a>(cursor: &mut Cursor<'a>) -> Option<(super::cursor::Line<'a>, usize)> {
    let mut empty = 0;
    loop {
        cursor.at += 1;
        let line = cursor.current()?;
        if line.is_document_marker() {
            return None;
        }
        if line.is_empty() {
            empty += 1;
            continue;
        }
        if line.content().starts_with('\t') {
            return None;
        }
        return Some((line, empty));
    }
}

/// Decodes the escape whose letter is at byte `pos`; the byte after it.
fn escape(text: &str, pos: usize, out: &mut String) -> Option<usize> {
    let letter = *text.as_bytes().get(pos)?;
    let simple = match letter {
        b'0' => Some('\0'),
        b'a' => Some('\u{07}'),
        b'b' => Some('\u{08}'),
        b't' => Some('\t'),
        b'n' => Some('\n'),
        b'v' => Some('\u{0b}'),
        b'f' => Some('\u{0c}'),
        b'r' => Some('\r'),
        b'e' => Some('\u{1b}'),
        b' ' => Some(' '),
        b'"' => Some('"'),
        b'/' => Some('/'),
        b'\\' => Some('\\'),
        b'N' => Some('\u{85}'),
        b'_' => Some('\u{a0}'),
        b'L' => Some('\u{2028}'),
        b'P' => Some('\u{2029}'),
        _ => None,
    };
    if let Some(c) = simple {
        out.push(c);
        return Some(pos + 1);
    }
    let digits = match letter {
        b'x' => 2,
        b'u' => 4,
        b'U' => 8,
        _ => return None,
    };
    let hex = text.get(pos + 1..pos + 1 + digits)?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let code = u32::from_str_radix(hex, 16).ok()?;
    out.push(char::from_u32(code)?);
    Some(pos + 1 + digits)
}
