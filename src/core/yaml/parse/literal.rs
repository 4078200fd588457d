//! Block scalars: `|` (literal) and `>` (folded), with `-` (strip) or `+` (keep)
//! chomping. Explicit indentation indicators, more-indented lines in a folded
//! scalar and lines of spaces deeper than the content are left to `yaml_serde`.

use super::cursor::Cursor;
use super::scalar::{is_rest_blank, push_break};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Chomp {
    Clip,
    Strip,
    Keep,
}

/// The block scalar whose header (`|-`, `>`, …) is `header`, with content on the
/// lines after the cursor's, indented more than `parent_indent`. The cursor ends
/// on the first line after the scalar.
pub(super) fn read(cursor: &mut Cursor, header: &str, parent_indent: usize) -> Option<String> {
    let bytes = header.as_bytes();
    let folded = match bytes.first()? {
        b'|' => false,
        b'>' => true,
        _ => return None,
    };
    let (chomp, used) = match bytes.get(1) {
        Some(b'-') => (Chomp::Strip, 2),
        Some(b'+') => (Chomp::Keep, 2),
        _ => (Chomp::Clip, 1),
    };
    if !is_rest_blank(header.get(used..)?) {
        return None;
    }
    cursor.at += 1;
    let lines = content_lines(cursor, parent_indent)?;
    let Some(last) = lines.iter().rposition(|l| !l.is_empty()) else {
        // No content: empty, but for the line breaks `+` keeps.
        return Some(match chomp {
            Chomp::Keep => "\n".repeat(lines.len()),
            _ => String::new(),
        });
    };
    let trailing = lines.len() - 1 - last;
    let body = lines.get(..=last)?;
    if folded && !foldable(body) {
        return None;
    }
    let mut out = if folded { fold(body) } else { body.join("\n") };
    match chomp {
        Chomp::Strip => {}
        Chomp::Clip => out.push('\n'),
        Chomp::Keep => out.extend(std::iter::repeat_n('\n', trailing + 1)),
    }
    Some(out)
}

/// The scalar's lines with the content indentation removed ("" for empty lines);
/// `None` for what is left to `yaml_serde`.
fn content_lines<'a>(cursor: &mut Cursor<'a>, parent_indent: usize) -> Option<Vec<&'a str>> {
    let first = (cursor.at..).find(|&i| cursor.line(i).is_none_or(|l| !l.is_empty()))?;
    let indent = match cursor.line(first) {
        Some(line) if line.indent > parent_indent && !line.is_document_marker() => line.indent,
        // No content line: only empty ones, each as deep as the parent at most.
        _ => {
            let empty: Vec<&str> = (cursor.at..first).map(|_| "").collect();
            let shallow = (cursor.at..first)
                .all(|i| cursor.line(i).is_some_and(|l| l.indent <= parent_indent));
            cursor.at = first;
            return shallow.then_some(empty);
        }
    };
    let mut lines = Vec::new();
    while let Some(line) = cursor.current() {
        if line.text.contains('\t') {
            return None;
        }
        if line.is_empty() {
            if line.indent > indent {
                return None;
            }
            lines.push("");
        } else if line.indent >= indent {
            lines.push(line.text.get(indent..)?);
        } else {
            break;
        }
        cursor.at += 1;
    }
    // Content running to the end of a text without a final line break.
    if cursor.current().is_none() && !cursor.ends_with_newline {
        return None;
    }
    Some(lines)
}

/// Folds lines: one line break between two lines becomes a space, each empty
/// line a line break. A more-indented line keeps its breaks, which is not done
/// here.
fn fold(lines: &[&str]) -> String {
    let mut out = String::new();
    let mut empty_run = 0usize;
    let mut started = false;
    for line in lines {
        if line.is_empty() {
            empty_run += 1;
            continue;
        }
        if started {
            push_break(&mut out, empty_run);
        } else {
            out.extend(std::iter::repeat_n('\n', empty_run));
        }
        out.push_str(line);
        empty_run = 0;
        started = true;
    }
    out
}

/// Whether a folded scalar's lines are all at the content indentation (a line
/// starting with a space is "more indented" and keeps its breaks).
fn foldable(lines: &[&str]) -> bool {
    lines.iter().all(|l| !l.starts_with(' '))
}
