//! The lines of a YAML text, read once the same way for every user: where each
//! line starts and ends, its text without the line break, and its indentation.
//! Also the arithmetic on positions in the original text (where a line starts and
//! ends, where a block ends), so that edits can keep every byte outside them.

/// One line: its byte range in the whole text (`end` is past its `\n`, when it has
/// one), its text without the `\n` (a `\r` before it is kept), and how many spaces
/// start it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    pub start: usize,
    pub end: usize,
    pub text: &'a str,
    pub indent: usize,
}

impl<'a> Line<'a> {
    fn at(whole: &'a str, start: usize, end: usize) -> Line<'a> {
        let raw = whole.get(start..end).unwrap_or_default();
        let text = raw.strip_suffix('\n').unwrap_or(raw);
        let indent = text.bytes().take_while(|b| *b == b' ').count();
        Line {
            start,
            end,
            text,
            indent,
        }
    }

    /// The text after the indentation.
    pub fn content(&self) -> &'a str {
        self.text.get(self.indent..).unwrap_or_default()
    }

    /// The text without a `\r` at its end.
    pub fn without_cr(&self) -> &'a str {
        self.text.strip_suffix('\r').unwrap_or(self.text)
    }

    /// A `-` item: `-` alone or followed by a space.
    pub fn is_dash(&self) -> bool {
        is_dash(self.content().strip_suffix('\r').unwrap_or(self.content()))
    }
}

/// Every line of `text`, in order; a text ending with `\n` has no empty line after it.
pub fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    let mut start = 0;
    let mut breaks = memchr::memchr_iter(b'\n', text.as_bytes());
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let end = breaks.next().map_or(text.len(), |nl| nl + 1);
        let line = Line::at(text, start, end);
        start = end;
        Some(line)
    })
}

/// `-` alone, or `- ` and more: an item of a block list.
pub fn is_dash(rest: &str) -> bool {
    rest == "-" || rest.starts_with("- ")
}

pub fn line_start(text: &str, pos: usize) -> usize {
    text.get(..pos)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1)
}

/// The position of the `\n` ending the line holding `pos` (or the end of the text).
pub fn line_end(text: &str, pos: usize) -> usize {
    text.get(pos..)
        .and_then(|t| t.find('\n'))
        .map_or(text.len(), |i| pos + i)
}

/// Columns from the start of the line to `pos`.
pub fn column(text: &str, pos: usize) -> usize {
    pos - line_start(text, pos)
}

/// Where the block whose first line holds `first` ends: the end (before its `\n`)
/// of the last line that belongs to it. Lines belong when they are indented deeper
/// than `column`, or (with `dash_at_column`) are `-` items at `column`. Blank lines
/// and shallower comments in between are kept with whatever follows them.
pub fn block_end(text: &str, first: usize, column: usize, dash_at_column: bool) -> usize {
    let first_end = line_end(text, first);
    let mut content_end = first_end;
    let after = (first_end + 1).min(text.len());
    for line in lines(text.get(after..).unwrap_or_default()) {
        let end = after + line.start + line.text.len();
        let rest = line.content();
        let rest = rest.strip_suffix('\r').unwrap_or(rest);
        if rest.is_empty() {
            // blank: belongs to whatever follows
        } else if rest.starts_with('#') {
            if line.indent > column {
                content_end = end;
            }
        } else if line.indent > column || (dash_at_column && line.indent == column && is_dash(rest))
        {
            content_end = end;
        } else {
            break;
        }
    }
    content_end
}

/// The line ending the text uses (`\r\n` when its first line ends so).
pub fn newline(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes().get(i - 1) == Some(&b'\r') => "\r\n",
        _ => "\n",
    }
}

#[cfg(test)]
#[path = "lines_tests.rs"]
mod tests;
