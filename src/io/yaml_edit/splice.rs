//! Ops turned into splices of the original text. `yaml-edit`'s lossless syntax tree
//! finds the nodes (byte ranges of keys, values and items, flow or block style); the
//! change is then written as text at those ranges, so every byte outside them stays
//! as it was, and the new text follows the file's indentation and quote style.

use yaml_edit::{Document, Mapping, MappingEntry, YamlNode};

use crate::core::edit::render::{self, QuoteStyle};
use crate::core::edit::{NewValue, Op, Seg};
use crate::core::yaml::lines::{block_end, column, line_end, line_start};

/// Replace `start..end` of the original text with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

impl Splice {
    fn insert(at: usize, text: String) -> Splice {
        Splice {
            start: at,
            end: at,
            text,
        }
    }
}

fn range(node: &YamlNode) -> (usize, usize) {
    let r = node.byte_range();
    (r.start as usize, r.end as usize)
}

/// Where a node's text ends, without the blank lines the tree counts into it.
fn trimmed_end(text: &str, node: &YamlNode) -> usize {
    let (start, end) = range(node);
    start + text.get(start..end).unwrap_or_default().trim_end().len()
}

fn describe(path: &[Seg]) -> String {
    let parts: Vec<String> = path
        .iter()
        .map(|s| match s {
            Seg::Key(k) => k.clone(),
            Seg::Index(i) => format!("[{i}]"),
        })
        .collect();
    if parts.is_empty() {
        "the document".to_string()
    } else {
        parts.join(".")
    }
}

fn node_at(doc: &Document, path: &[Seg]) -> Result<YamlNode, String> {
    let root = doc
        .as_mapping()
        .ok_or_else(|| "the document is not a mapping".to_string())?;
    let mut node = YamlNode::Mapping(root);
    for (depth, seg) in path.iter().enumerate() {
        let found = match (seg, &node) {
            (Seg::Key(key), YamlNode::Mapping(map)) => map
                .find_entry_by_key(key.as_str())
                .and_then(|e| e.value_node()),
            (Seg::Index(i), YamlNode::Sequence(seq)) => seq.get(*i),
            _ => None,
        };
        node = found.ok_or_else(|| {
            let at = path.get(..=depth).unwrap_or_default();
            format!("{} not found in the syntax tree", describe(at))
        })?;
    }
    Ok(node)
}

/// The entry holding the last key of `path`, in the mapping at the rest of it.
fn entry_at(doc: &Document, path: &[Seg]) -> Result<MappingEntry, String> {
    let Some((Seg::Key(key), parent)) = path.split_last() else {
        return Err(format!("{} does not end in a key", describe(path)));
    };
    match node_at(doc, parent)? {
        YamlNode::Mapping(map) => map
            .find_entry_by_key(key.as_str())
            .ok_or_else(|| format!("{} not found", describe(path))),
        _ => Err(format!("{} is not a mapping", describe(parent))),
    }
}

/// Key start, and the position just after its `:`.
fn key_span(text: &str, entry: &MappingEntry) -> Result<(usize, usize), String> {
    let key = entry.key_node().ok_or("an entry without a key")?;
    let (start, end) = range(&key);
    let colon = text
        .get(end..)
        .and_then(|t| t.find(':'))
        .ok_or("no `:` after a key")?;
    Ok((start, end + colon + 1))
}

fn style_of(old: &str) -> QuoteStyle {
    match old.chars().next() {
        Some('"') => QuoteStyle::Double,
        Some('\'') => QuoteStyle::Single,
        Some('|' | '>') => QuoteStyle::Double,
        _ if render::plain_safe(old) => QuoteStyle::Plain,
        _ => QuoteStyle::Double,
    }
}

/// `value` as a one-line scalar in the old scalar's style. Inside a flow
/// collection a plain string may not hold a flow indicator.
fn scalar_text(value: &NewValue, old: &str, in_flow: bool) -> String {
    match value {
        NewValue::Str(s) if in_flow && s.contains([',', '[', ']', '{', '}']) => {
            render::string_in_style(s, QuoteStyle::Double)
        }
        NewValue::Str(s) => render::string_in_style(s, style_of(old)),
        other => render::flow(other),
    }
}

/// Whether the entry at `path` sits in a flow mapping (`{a: 1, b: 2}`), where
/// only flow text may go.
fn in_flow_mapping(doc: &Document, path: &[Seg]) -> bool {
    path.split_last()
        .and_then(|(_, parent)| node_at(doc, parent).ok())
        .is_some_and(|node| matches!(node, YamlNode::Mapping(m) if m.is_flow_style()))
}

fn is_inline(value: &NewValue) -> bool {
    match value {
        NewValue::List(items) => items.is_empty(),
        NewValue::Map(entries) => entries.is_empty(),
        _ => true,
    }
}

/// Rendered lines as an insertion after a line's content: `\n` first, none last.
fn lines_after(rendered: &str) -> String {
    format!("\n{}", rendered.strip_suffix('\n').unwrap_or(rendered))
}

/// Removes an inline value (and the spaces before it) from the key's line and puts
/// `body` on the lines after it (after any comment on that line).
fn inline_to_block(text: &str, colon: usize, token_end: usize, body: &str) -> Vec<Splice> {
    let mut splices = Vec::new();
    if token_end > colon {
        splices.push(Splice {
            start: colon,
            end: token_end,
            text: String::new(),
        });
    }
    let after = content_end(text, line_end(text, token_end));
    splices.push(Splice::insert(after, lines_after(body)));
    splices
}

/// Backs off a `\r` before a `\n`.
fn content_end(text: &str, pos: usize) -> usize {
    if pos > 0 && text.as_bytes().get(pos - 1) == Some(&b'\r') {
        pos - 1
    } else {
        pos
    }
}

fn is_block_sequence(node: Option<&YamlNode>) -> bool {
    matches!(node, Some(YamlNode::Sequence(s)) if !s.is_flow_style())
}

/// Where the content of `entry` ends, with its key at column `key_column`.
fn entry_end(text: &str, entry: &MappingEntry, key_start: usize, key_column: usize) -> usize {
    let dash = is_block_sequence(entry.value_node().as_ref());
    let end = block_end(text, key_start, key_column, dash);
    // A value may run past the lines counted above (a multi-line scalar).
    let value_end = entry.value_node().map_or(0, |v| trimmed_end(text, &v));
    content_end(text, end).max(value_end)
}

fn set(text: &str, doc: &Document, path: &[Seg], value: &NewValue) -> Result<Vec<Splice>, String> {
    let entry = entry_at(doc, path)?;
    let (key_start, colon) = key_span(text, &entry)?;
    let key_column = column(text, key_start);
    let old = entry.value_node();
    let flow = match &old {
        Some(YamlNode::Mapping(m)) => m.is_flow_style(),
        Some(YamlNode::Sequence(s)) => s.is_flow_style(),
        _ => true,
    };
    let old_span = old.as_ref().map(range).filter(|(s, e)| e > s);
    let old_text = old_span
        .and_then(|(s, e)| text.get(s..e))
        .map(str::trim_end)
        .unwrap_or_default();
    let token_end = old_span.map_or(colon, |(s, _)| s + old_text.len());
    let empty_collection = matches!(old_text, "[]" | "{}");
    let in_flow = in_flow_mapping(doc, path);
    let stays_flow = !empty_collection && old_text.starts_with(['[', '{']);
    if in_flow || flow && (is_inline(value) || stays_flow) {
        let new = match (value, old_text.starts_with(['[', '{'])) {
            (NewValue::List(_) | NewValue::Map(_), _) | (_, true) => render::flow(value),
            _ => scalar_text(value, old_text, in_flow),
        };
        return Ok(match old_span {
            Some((start, _)) => vec![keep_comment_column(text, start, token_end, new)],
            None => vec![Splice::insert(colon, format!(" {new}"))],
        });
    }
    let body = render::block_body(value, key_column + 2, &[]);
    if flow {
        return Ok(inline_to_block(text, colon, token_end, &body));
    }
    let end = entry_end(text, &entry, key_start, key_column);
    let first_child = old_span.map_or(end, |(s, _)| s);
    // A list may sit at its key's column (`key:\n- a`); what replaces it may not.
    let child_indent = (first_child - line_start(text, first_child)).max(key_column + 2);
    let rendered = if is_inline(value) {
        format!(" {}", render::flow(value))
    } else {
        let body = render::block_body(value, child_indent, &[]);
        lines_after(&body)
    };
    let start = content_end(text, line_end(text, colon));
    Ok(vec![Splice {
        start: if is_inline(value) { colon } else { start },
        end,
        text: rendered,
    }])
}

/// Replaces a one-line scalar; a comment after it on the line keeps its column
/// (at least one space before it).
fn keep_comment_column(text: &str, start: usize, end: usize, new: String) -> Splice {
    let old = text.get(start..end).unwrap_or_default();
    let rest = text.get(end..line_end(text, end)).unwrap_or_default();
    let spaces = rest.len() - rest.trim_start_matches(' ').len();
    let commented = rest.get(spaces..).is_some_and(|r| r.starts_with('#'));
    if old.contains('\n') || !commented || spaces == 0 {
        return Splice {
            start,
            end,
            text: new,
        };
    }
    let column = old.chars().count() + spaces;
    let padding = column.saturating_sub(new.chars().count()).max(1);
    Splice {
        start,
        end: end + spaces,
        text: format!("{new}{}", " ".repeat(padding)),
    }
}

fn insert(
    text: &str,
    doc: &Document,
    path: &[Seg],
    key: &str,
    value: &NewValue,
) -> Result<Vec<Splice>, String> {
    let map = match node_at(doc, path)? {
        YamlNode::Mapping(map) => map,
        _ => return Err(format!("{} is not a mapping", describe(path))),
    };
    if map.is_flow_style() {
        return into_flow(
            text,
            doc,
            path,
            &YamlNode::Mapping(map),
            |indent| render::block_entry(key, value, indent, &[]),
            &format!("{}: {}", render::key(key), render::flow(value)),
        );
    }
    let last = last_entry(&map).ok_or("an empty block mapping")?;
    let (key_start, _) = key_span(text, &last)?;
    let key_column = column(text, key_start);
    let end = entry_end(text, &last, key_start, key_column);
    let rendered = render::block_entry(key, value, key_column, &[]);
    Ok(vec![Splice::insert(end, lines_after(&rendered))])
}

fn last_entry(map: &Mapping) -> Option<MappingEntry> {
    map.entries().last()
}

/// Adds to a flow collection: an empty one becomes a block under its key; a
/// non-empty one gets `, item` before its closing bracket.
fn into_flow(
    text: &str,
    doc: &Document,
    path: &[Seg],
    node: &YamlNode,
    block: impl Fn(usize) -> String,
    flow_item: &str,
) -> Result<Vec<Splice>, String> {
    let (start, end) = range(node);
    let token = text.get(start..end).unwrap_or_default().trim_end();
    let close = start + token.len();
    if matches!(token, "[]" | "{}") {
        let entry = entry_at(doc, path).map_err(|_| {
            format!(
                "{}: an empty flow collection outside a mapping",
                describe(path)
            )
        })?;
        let (key_start, colon) = key_span(text, &entry)?;
        let body = block(column(text, key_start) + 2);
        return Ok(inline_to_block(text, colon, close, &body));
    }
    let before_close = close
        .checked_sub(1)
        .filter(|&i| matches!(text.as_bytes().get(i), Some(b']' | b'}')));
    let at = before_close.ok_or_else(|| format!("{}: no closing bracket", describe(path)))?;
    let inner = text.get(start + 1..at).unwrap_or_default();
    let at = start + 1 + inner.trim_end().len();
    Ok(vec![Splice::insert(at, format!(", {flow_item}"))])
}

fn append(
    text: &str,
    doc: &Document,
    path: &[Seg],
    item: &NewValue,
) -> Result<Vec<Splice>, String> {
    let seq = match node_at(doc, path)? {
        YamlNode::Sequence(seq) => seq,
        _ => return Err(format!("{} is not a sequence", describe(path))),
    };
    if seq.is_flow_style() {
        return into_flow(
            text,
            doc,
            path,
            &YamlNode::Sequence(seq),
            |indent| render::block_item(item, indent, &[]),
            &render::flow(item),
        );
    }
    let last = seq.values().last().ok_or("an empty block sequence")?;
    let (item_start, _) = range(&last);
    let dash = text
        .get(..item_start)
        .and_then(|t| t.trim_end_matches(' ').strip_suffix('-').map(str::len))
        .ok_or_else(|| format!("{}: an item without `- `", describe(path)))?;
    let dash_column = column(text, dash);
    let end = content_end(text, block_end(text, item_start, dash_column, false));
    let end = end.max(trimmed_end(text, &last));
    let flow_keys = flow_keys(&last);
    let rendered = render::block_item(item, dash_column, &flow_keys);
    Ok(vec![Splice::insert(end, lines_after(&rendered))])
}

/// Keys whose list values the item writes in flow style (`affects_phases: [2, 3]`).
fn flow_keys(item: &YamlNode) -> Vec<String> {
    let YamlNode::Mapping(map) = item else {
        return Vec::new();
    };
    map.entries()
        .filter(|e| matches!(e.value_node(), Some(YamlNode::Sequence(s)) if s.is_flow_style()))
        .filter_map(|e| e.key_node())
        .filter_map(|k| match k {
            YamlNode::Scalar(s) => Some(s.as_string()),
            _ => None,
        })
        .collect()
}

/// The splices for one op, located in `doc` (parsed from `text`).
pub fn splices(text: &str, doc: &Document, op: &Op) -> Result<Vec<Splice>, String> {
    match op {
        Op::Set { path, value } => set(text, doc, path, value),
        Op::Insert { path, key, value } => insert(text, doc, path, key, value),
        Op::Append { path, item } => append(text, doc, path, item),
        Op::Remove { path } => remove(text, doc, path),
    }
}

/// Takes out the lines of one item of a block sequence: from its `-` line to the
/// last line that belongs to it, comments inside it included. Items of a flow
/// sequence, or sharing a line with something else, are refused.
fn remove(text: &str, doc: &Document, path: &[Seg]) -> Result<Vec<Splice>, String> {
    let Some((Seg::Index(_), parent)) = path.split_last() else {
        return Err(format!("{} is not a list item", describe(path)));
    };
    match node_at(doc, parent)? {
        YamlNode::Sequence(seq) if !seq.is_flow_style() => {}
        _ => {
            return Err(format!(
                "{} is not a block list; resume-tui will not rewrite it",
                describe(parent)
            ));
        }
    }
    let item = node_at(doc, path)?;
    let (item_start, _) = range(&item);
    let dash = text
        .get(..item_start)
        .and_then(|t| t.trim_end_matches(' ').strip_suffix('-').map(str::len))
        .ok_or_else(|| format!("{}: an item without `- `", describe(path)))?;
    let start = line_start(text, dash);
    if !text
        .get(start..dash)
        .is_some_and(|lead| lead.trim().is_empty())
    {
        return Err(format!(
            "{}: the item shares its line with other text",
            describe(path)
        ));
    }
    let end = block_end(text, item_start, column(text, dash), false);
    let end = end.max(trimmed_end(text, &item));
    // With the line break that ends the item's last line.
    let end = (line_end(text, end) + 1).min(text.len());
    Ok(vec![Splice {
        start,
        end,
        text: String::new(),
    }])
}

/// Applies splices (sorted by start, kept in op order at one point); overlaps are refused.
pub fn apply(text: &str, mut splices: Vec<Splice>) -> Result<String, String> {
    splices.sort_by_key(|s| s.start);
    let newline = crate::core::yaml::lines::newline(text);
    let mut out = String::with_capacity(text.len() + 256);
    let mut pos = 0;
    for splice in splices {
        let kept = text
            .get(pos..splice.start)
            .ok_or("two changes overlap; nothing was written")?;
        out.push_str(kept);
        if newline == "\n" {
            out.push_str(&splice.text);
        } else {
            out.push_str(&splice.text.replace('\n', newline));
        }
        pos = splice.end.max(splice.start);
    }
    out.push_str(text.get(pos..).unwrap_or_default());
    Ok(out)
}
