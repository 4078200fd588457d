//! Block structure: the document, maps, lists, and the value after a key or a
//! dash. A node's indentation is the column of its first line; what belongs to
//! it is indented more than its parent's.

use yaml_serde::{Mapping, Value};

use super::cursor::{Cursor, Line};
use super::scalar::{block_plain, comment_start, is_rest_blank, push_break, resolve, starts_plain};
use super::{alias, flow, literal, quoted};

/// Implicit keys longer than this are an error in YAML.
const MAX_KEY_BYTES: usize = 1024;

/// The document: an optional `---` line, then a map at column 0, then nothing
/// but comments.
pub(super) fn document(c: &mut Cursor) -> Option<Value> {
    let first = c.next_content()?;
    if first.content().starts_with('%') {
        return None;
    }
    if first.is_document_marker() {
        if !is_rest_blank(first.text.strip_prefix("---")?) {
            return None;
        }
        c.at += 1;
    }
    let line = c.next_content()?;
    if line.indent != 0 || line.is_document_marker() {
        return None;
    }
    if !matches!(key_line(line.content()), KeyLine::Key(..)) {
        return None;
    }
    let doc = mapping(c, 0, None)?;
    c.next_content().is_none().then_some(doc)
}

enum KeyLine<'a> {
    /// The key, and the text after its `:`.
    Key(Value, &'a str),
    NotKey,
    Unsupported,
}

fn key_line(content: &str) -> KeyLine<'_> {
    let bytes = content.as_bytes();
    if quoted::Quote::of(bytes.first().copied().unwrap_or_default()).is_some() {
        return match quoted::in_line(content) {
            Some((key, after)) => match content.get(after..) {
                Some(rest) if rest == ":" || rest.starts_with(": ") => {
                    KeyLine::Key(Value::String(key), rest.get(1..).unwrap_or_default())
                }
                _ => KeyLine::NotKey,
            },
            None => KeyLine::NotKey,
        };
    }
    if !starts_plain(content) {
        return KeyLine::NotKey;
    }
    let comment = comment_start(content).unwrap_or(content.len());
    let colon = memchr::memchr_iter(b':', bytes)
        .take_while(|&i| i < comment)
        .find(|&i| matches!(bytes.get(i + 1), None | Some(b' ')));
    let Some(colon) = colon else {
        return KeyLine::NotKey;
    };
    let key = content
        .get(..colon)
        .unwrap_or_default()
        .trim_end_matches(' ');
    if key.len() > MAX_KEY_BYTES || key.contains('\t') {
        return KeyLine::Unsupported;
    }
    match resolve(key) {
        Some(key) => KeyLine::Key(key, content.get(colon + 1..).unwrap_or_default()),
        None => KeyLine::Unsupported,
    }
}

fn is_dash(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// The map at `indent`; its first entry may be `first`, the rest of the cursor's
/// line after a list dash.
fn mapping(c: &mut Cursor, indent: usize, mut first: Option<&str>) -> Option<Value> {
    c.open_collection(Some(indent + 1))?;
    c.aliases.collection();
    let mut map = Mapping::with_capacity(1);
    loop {
        let content = match first.take() {
            Some(content) => content,
            None => match c.next_content() {
                None => break,
                Some(line) if line.is_document_marker() => return None,
                Some(line) if line.indent < indent => break,
                Some(line) if line.indent > indent || is_dash(line.content()) => return None,
                Some(line) => line.content(),
            },
        };
        let KeyLine::Key(key, rest) = key_line(content) else {
            return None;
        };
        c.aliases.scalar();
        c.enter_key(key)?;
        let value = if is_rest_blank(rest) {
            c.at += 1;
            nested(c, indent, true)?
        } else {
            let line = c.current()?;
            let offset = line.text.len() - rest.trim_start_matches(' ').len();
            inline(c, offset, indent)?
        };
        let key = c.leave_key()?;
        c.insert(&mut map, key, value);
    }
    Some(super::fitted_map(map))
}

/// The list whose dashes are at `indent`.
fn sequence(c: &mut Cursor, indent: usize) -> Option<Value> {
    c.open_collection(Some(indent + 1))?;
    c.aliases.collection();
    let mut items = Vec::new();
    loop {
        let line = match c.next_content() {
            None => break,
            Some(line) if line.is_document_marker() => return None,
            Some(line) if line.indent < indent => break,
            Some(line) if line.indent > indent => return None,
            // A key at the dashes' column: the list was the value of the key above.
            Some(line) if !is_dash(line.content()) => break,
            Some(line) => line,
        };
        c.enter_index(items.len())?;
        let item = item(c, line, indent)?;
        c.leave_index();
        items.push(item);
    }
    Some(super::fitted_list(items))
}

/// The value after the dash of `line`.
fn item(c: &mut Cursor, line: Line, indent: usize) -> Option<Value> {
    let after = line.content().get(1..).unwrap_or_default();
    if is_rest_blank(after) {
        c.at += 1;
        return nested(c, indent, false);
    }
    let content = after.trim_start_matches(' ');
    let col = line.text.len() - content.len();
    if is_dash(content) {
        return None;
    }
    match key_line(content) {
        KeyLine::Key(..) => mapping(c, col, Some(content)),
        KeyLine::NotKey => inline(c, col, indent),
        KeyLine::Unsupported => None,
    }
}

/// A value that starts on a later line: a node indented more than
/// `parent_indent`, a list at the same column after a key (`indentless`), or
/// nothing (null).
fn nested(c: &mut Cursor, parent_indent: usize, indentless: bool) -> Option<Value> {
    let Some(line) = c.next_content() else {
        c.aliases.scalar();
        return Some(Value::Null);
    };
    if line.is_document_marker() {
        return None;
    }
    let content = line.content();
    if line.indent > parent_indent {
        if is_dash(content) {
            return sequence(c, line.indent);
        }
        return match key_line(content) {
            KeyLine::Key(..) => mapping(c, line.indent, None),
            KeyLine::NotKey => inline(c, line.indent, parent_indent),
            KeyLine::Unsupported => None,
        };
    }
    if indentless && line.indent == parent_indent && is_dash(content) {
        return sequence(c, parent_indent);
    }
    c.aliases.scalar();
    Some(Value::Null)
}

/// The scalar or flow collection starting at byte `offset` of the cursor's line,
/// inside a node at `parent_indent`; the cursor ends on the line after it.
fn inline(c: &mut Cursor, offset: usize, parent_indent: usize) -> Option<Value> {
    let text = c.current()?.text.get(offset..)?;
    match text.as_bytes().first()? {
        b'"' | b'\'' => {
            let (value, rest) = quoted::read(c, offset)?;
            if !is_rest_blank(rest) {
                return None;
            }
            c.at += 1;
            c.aliases.scalar();
            Some(Value::String(value))
        }
        b'*' => {
            let (name, rest) = alias::name(text.get(1..)?)?;
            if !is_rest_blank(rest) {
                return None;
            }
            c.at += 1;
            let nesting = c.nesting();
            c.aliases.alias(name, nesting)
        }
        b'&' => anchored(c, text, offset, parent_indent),
        b'[' | b'{' => {
            let (value, rest) = flow::read(c, offset)?;
            if !is_rest_blank(rest) {
                return None;
            }
            c.at += 1;
            Some(value)
        }
        b'|' | b'>' => {
            let value = literal::read(c, text, parent_indent)?;
            c.aliases.scalar();
            Some(Value::String(value))
        }
        _ => {
            let value = plain(c, text, parent_indent)?;
            c.aliases.scalar();
            Some(value)
        }
    }
}

/// The node after the anchor that starts `text` (at byte `offset` of the
/// cursor's line): on the same line, or on the lines after it, indented more.
fn anchored<'a>(
    c: &mut Cursor<'a>,
    text: &'a str,
    offset: usize,
    parent_indent: usize,
) -> Option<Value> {
    let (name, rest) = alias::name(text.get(1..)?)?;
    let started = c.aliases.start(name, c.duplicates.len())?;
    let value = if is_rest_blank(rest) {
        c.at += 1;
        match c.next_content() {
            // After a key, a list at the key's column (YAML's indentless list).
            Some(line) if line.indent <= parent_indent && is_dash(line.content()) => return None,
            _ => nested(c, parent_indent, false)?,
        }
    } else {
        let node = rest.strip_prefix(' ')?.trim_start_matches(' ');
        if matches!(node.as_bytes().first(), Some(b'&' | b'*' | b'!')) {
            return None;
        }
        inline(c, offset + text.len() - node.len(), parent_indent)?
    };
    c.aliases.close(started, &value, c.duplicates.len());
    Some(value)
}

/// A plain scalar, folded over the lines after it that are indented more than
/// `parent_indent`.
fn plain(c: &mut Cursor, text: &str, parent_indent: usize) -> Option<Value> {
    if !starts_plain(text) {
        return None;
    }
    let mut value = block_plain(text)?.to_string();
    let mut ended = comment_start(text).is_some();
    c.at += 1;
    while !ended {
        let mut next = c.at;
        let mut empty = 0;
        while c.line(next).is_some_and(|l| l.is_empty()) {
            next += 1;
            empty += 1;
        }
        let Some(line) = c.line(next) else { break };
        if line.indent <= parent_indent || line.is_document_marker() {
            break;
        }
        let content = line.content();
        if content.starts_with('#') {
            break;
        }
        if !starts_plain(content) {
            return None;
        }
        let part = block_plain(content)?;
        ended = comment_start(content).is_some();
        push_break(&mut value, empty);
        value.push_str(part);
        c.at = next + 1;
    }
    resolve(&value)
}
