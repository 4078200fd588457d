//! Finds a top-level block map (`resumption:`) in YAML text and splits it into its
//! entries, each with the blank and comment lines in front of it, so that entries
//! can be moved around without touching a byte of their text.
//!
//! - The section starts at the column-0 `resumption:` line and ends with its last
//!   indented line (content or comment). Blank lines and column-0 comments after
//!   that belong to whatever follows in the file.
//! - An entry is a key line at the section's child indentation plus every deeper
//!   line (and deeper comment) after it; `- ` items at the child indentation
//!   (an indentless list) belong to the entry above them.
//! - Blank lines and comments at or left of the child indentation are "leading"
//!   lines of the next entry, or the section's trailing lines after the last one.

use crate::core::yaml::lines::{self as yaml, is_dash};

/// One entry of the section, as byte ranges into the whole text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    /// Blank and comment lines before the key line.
    pub leading: (usize, usize),
    /// The key line and every line that belongs to its value.
    pub body: (usize, usize),
    /// Where the key's name sits on the key line, when it is a plain (unquoted) key.
    pub plain_key: Option<(usize, usize)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Start of the `resumption:` line.
    pub start: usize,
    /// Just after the `resumption:` line (its newline included).
    pub body_start: usize,
    /// Just after the section's last line.
    pub end: usize,
    pub child_indent: usize,
    pub entries: Vec<Entry>,
    /// Blank and comment lines after the last entry, inside the section.
    pub trailing: (usize, usize),
}

/// A line as the section reader sees it: the shared line, without its `\r`.
#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    start: usize,
    end: usize,
    content: &'a str,
}

impl Line<'_> {
    fn indent(&self) -> usize {
        self.content.len() - self.content.trim_start_matches(' ').len()
    }

    fn rest(&self) -> &str {
        self.content.trim_start_matches(' ')
    }

    fn is_blank(&self) -> bool {
        self.content.trim().is_empty()
    }

    fn is_comment(&self) -> bool {
        self.rest().starts_with('#')
    }
}

fn lines(text: &str) -> Vec<Line<'_>> {
    yaml::lines(text)
        .map(|line| Line {
            start: line.start,
            end: line.end,
            content: line.without_cr(),
        })
        .collect()
}

/// Finds the block-style `key:` section at column 0 and splits it. `Err` says why
/// the section cannot be handled as text.
pub fn find(text: &str, key: &str) -> Result<Section, String> {
    let all = lines(text);
    let header_at = all
        .iter()
        .position(|l| header_value(l.content, key).is_some())
        .ok_or_else(|| format!("no `{key}:` line at the start of a line"))?;
    let header = all.get(header_at).ok_or("no header line")?;
    let after = header_value(header.content, key).unwrap_or_default().trim();
    if !after.is_empty() && !after.starts_with('#') {
        return Err(format!(
            "`{key}:` holds its value on the same line ({}); only block layouts are migrated",
            shorten(after)
        ));
    }
    let rest = all.get(header_at + 1..).unwrap_or_default();
    let mut last = header_at;
    for (i, line) in rest.iter().enumerate() {
        if line.is_blank() || (line.indent() == 0 && line.is_comment()) {
            continue;
        }
        if line.indent() == 0 {
            break;
        }
        last = header_at + 1 + i;
    }
    let inside = all.get(header_at + 1..=last).unwrap_or_default();
    let child_indent = inside
        .iter()
        .find(|l| !l.is_blank() && !l.is_comment())
        .map(Line::indent)
        .ok_or_else(|| format!("the `{key}:` section is empty"))?;
    let (entries, trailing) = split_entries(inside, child_indent, header.end)?;
    let end = all.get(last).map_or(header.end, |l| l.end);
    Ok(Section {
        start: header.start,
        body_start: header.end,
        end,
        child_indent,
        entries,
        trailing,
    })
}

/// The text of the last top-level `key:` entry (its line and every indented line
/// after it), in any layout. Lets one entry be parsed on its own when the rest of
/// the file does not parse strictly (e.g. a duplicate key elsewhere).
pub fn top_entry<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let all = lines(text);
    let at = all
        .iter()
        .rposition(|l| header_value(l.content, key).is_some())?;
    let header = all.get(at)?;
    let mut end = header.end;
    for line in all.get(at + 1..).unwrap_or_default() {
        if line.is_blank() || (line.indent() == 0 && line.is_comment()) {
            continue;
        }
        if line.indent() == 0 {
            break;
        }
        end = line.end;
    }
    text.get(header.start..end)
}

/// What follows `key:` on a column-0 line naming `key`, if it is one.
fn header_value<'a>(content: &'a str, key: &str) -> Option<&'a str> {
    let rest = content.strip_prefix(key)?.strip_prefix(':')?;
    (rest.is_empty() || rest.starts_with([' ', '\t'])).then_some(rest)
}

fn split_entries(
    inside: &[Line],
    child: usize,
    from: usize,
) -> Result<(Vec<Entry>, (usize, usize)), String> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut pending = (from, from);
    for line in inside {
        let deeper = line.indent() > child;
        let dash = line.indent() == child && is_dash(line.rest());
        let inside_entry = deeper && !entries.is_empty();
        if line.is_blank() || (line.is_comment() && !inside_entry) {
            pending.1 = line.end;
            continue;
        }
        if deeper || dash {
            let Some(entry) = entries.last_mut() else {
                return Err(format!(
                    "line {}: indented deeper than the first key of the section",
                    line_number(inside, line)
                ));
            };
            entry.body.1 = line.end;
            pending = (line.end, line.end);
            continue;
        }
        if line.indent() < child {
            return Err(format!(
                "line {}: indented less than the section's other keys",
                line_number(inside, line)
            ));
        }
        let (key, plain) = key_of(line.rest()).ok_or_else(|| {
            format!(
                "line {}: not a simple `key:` entry ({})",
                line_number(inside, line),
                shorten(line.rest())
            )
        })?;
        let key_start = line.start + line.indent();
        entries.push(Entry {
            key,
            leading: pending,
            body: (line.start, line.end),
            plain_key: plain.map(|len| (key_start, key_start + len)),
        });
        pending = (line.end, line.end);
    }
    Ok((entries, pending))
}

/// Position of `line` counted from the section's first line; only for messages.
fn line_number(inside: &[Line], line: &Line) -> String {
    let n = inside.iter().take_while(|l| l.start < line.start).count();
    format!("{} of the section", n + 1)
}

/// The key of a `key: value` line and, for a plain key, its length in bytes.
fn key_of(rest: &str) -> Option<(String, Option<usize>)> {
    let first = rest.chars().next()?;
    if first == '"' || first == '\'' {
        let close = rest.get(1..)?.find(first)? + 1;
        let quoted = rest.get(..=close)?;
        let after = rest.get(close + 1..)?;
        if !after.starts_with(':') {
            return None;
        }
        let key: String = yaml_serde::from_str(quoted).ok()?;
        return Some((key, None));
    }
    if "-?:,[]{}#&*!|>%@`".contains(first) {
        return None;
    }
    let bytes = rest.as_bytes();
    let colon = (0..bytes.len()).find(|&i| {
        bytes.get(i) == Some(&b':') && matches!(bytes.get(i + 1), None | Some(b' ' | b'\t'))
    })?;
    let key = rest.get(..colon)?.trim_end();
    (!key.is_empty() && !key.contains(" #")).then(|| (key.to_string(), Some(key.len())))
}

fn shorten(text: &str) -> String {
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}

/// `text` with `by` more spaces in front of every non-empty line.
pub fn indent_more(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.split_inclusive('\n')
        .map(|line| {
            if line == "\n" || line == "\r\n" {
                line.to_string()
            } else {
                format!("{pad}{line}")
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "section_tests.rs"]
mod tests;
