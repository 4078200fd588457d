//! Targets over the edit path. `edit_yaml`: random edits on random valid YAML either
//! are refused, or give a text that parses to the old value plus exactly the edits
//! and keeps every line outside the edited nodes. `edit_json`: acknowledging any
//! JSON checkpoint changes only its `metadata` member (or appends one).

use resume_tui::core::edit::json::{self as json_edit, plan_acknowledge};
use resume_tui::core::edit::{Op, Seg, value_ops};
use resume_tui::io::yaml_edit::apply_ops;
use yaml_serde::Value;

use super::parse::NOW;
use super::source::Source;
use super::text;
use super::yaml_gen::{self, Doc, Kind, Node, TRICKY};

fn op_for(src: &mut Source, node: &Node) -> Option<Op> {
    let value = yaml_gen::new_value(src, 0);
    match node.kind {
        Kind::Map if src.chance(170) => {
            let key = if src.chance(128) {
                format!("new_{}", src.below(5))
            } else {
                src.pick(&TRICKY).to_string()
            };
            (!node.keys.contains(&key)).then(|| Op::Insert {
                path: node.path.clone(),
                key,
                value,
            })
        }
        Kind::Seq if src.chance(170) => Some(Op::Append {
            path: node.path.clone(),
            item: value,
        }),
        // The edit path sets values under keys only (list items are whole entries).
        _ if !matches!(node.path.last(), Some(Seg::Key(_))) => None,
        _ => Some(Op::Set {
            path: node.path.clone(),
            value,
        }),
    }
}

/// Two ops may not touch one node, nor one the inside of the other.
fn overlapping(a: &[Seg], b: &[Seg]) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// What happened to one generated edit.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The bytes did not make a document and an edit.
    Skipped,
    /// The edit path refused (nothing would be written).
    Refused(String),
    Applied,
}

pub fn edit_yaml(data: &[u8]) {
    let _ = edit_yaml_outcome(data);
}

pub fn edit_yaml_outcome(data: &[u8]) -> Outcome {
    let mut src = Source::new(data);
    let Some(doc) = yaml_gen::document(&mut src) else {
        return Outcome::Skipped;
    };
    let Ok(old) = yaml_serde::from_str::<Value>(&doc.text) else {
        return Outcome::Skipped;
    };
    let mut ops: Vec<(Op, usize)> = Vec::new();
    for _ in 0..1 + src.below(2) {
        let index = src.below(doc.nodes.len());
        let Some(op) = op_for(&mut src, &doc.nodes[index]) else {
            continue;
        };
        if ops
            .iter()
            .all(|(o, _)| !overlapping(o.target(), op.target()))
        {
            ops.push((op, index));
        }
    }
    if ops.is_empty() {
        return Outcome::Skipped;
    }
    let only_ops: Vec<Op> = ops.iter().map(|(op, _)| op.clone()).collect();
    let mut expected = old.clone();
    if value_ops::apply(&mut expected, &only_ops).is_err() {
        return Outcome::Skipped;
    }
    let new_text = match apply_ops("gen.yaml", &doc.text, &old, &only_ops) {
        Ok(text) => text,
        Err(e) => return Outcome::Refused(e.to_string()),
    };
    let new: Value = yaml_serde::from_str(&new_text)
        .unwrap_or_else(|e| panic!("the edit gave YAML that does not parse: {e}\n{new_text}"));
    assert_eq!(new, expected, "old:\n{}\nnew:\n{new_text}", doc.text);
    let spans: Vec<(usize, usize)> = ops
        .iter()
        .map(|(_, i)| (doc.nodes[*i].first_line, doc.nodes[*i].last_line))
        .collect();
    check_lines_kept(&doc, &new_text, &spans);
    Outcome::Applied
}

/// Every old line outside `spans` is kept, and nothing is added before the first span
/// or after the content that follows the last one.
fn check_lines_kept(doc: &Doc, new_text: &str, spans: &[(usize, usize)]) {
    let old: Vec<&str> = doc.text.split_inclusive('\n').collect();
    let new: Vec<&str> = new_text.split_inclusive('\n').collect();
    let context = || format!("spans {spans:?}\nold:\n{}\nnew:\n{new_text}", doc.text);
    let in_span = |line: usize| spans.iter().any(|(a, b)| (*a..=*b).contains(&line));
    let removed = removed_lines(&old, &new);
    for &line in &removed {
        // Two equal lines (blank ones, say) make the diff ambiguous: it may have
        // kept an equal line inside an edited span instead of this one.
        let kept_twin =
            (0..old.len()).any(|k| in_span(k) && !removed.contains(&k) && old[k] == old[line]);
        assert!(
            in_span(line) || kept_twin,
            "old line {line} ({:?}) was changed outside the edit; {}",
            old[line],
            context()
        );
    }
    let first = spans.iter().map(|s| s.0).min().unwrap_or(0);
    let last = spans.iter().map(|s| s.1).max().unwrap_or(0);
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    assert!(
        head >= first.min(old.len()),
        "changed before the edit; {}",
        context()
    );
    // Lines after the last span that are blank or comments may see an entry added
    // before or after them; the next content line and all below must stay the tail.
    let next_content = (last + 1..old.len())
        .find(|&i| {
            let t = old[i].trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .unwrap_or(old.len());
    let tail = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let needed = old.len() - next_content;
    // A missing final newline may be added to the last line when an entry follows it.
    let last_line_extended = next_content == old.len();
    assert!(
        tail >= needed || last_line_extended,
        "changed after the edit; {}",
        context()
    );
}

/// Indexes of old lines outside a longest common subsequence with the new lines.
fn removed_lines(a: &[&str], b: &[&str]) -> Vec<usize> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut capture = similar::algorithms::Capture::new();
    let Ok(()) = similar::algorithms::lcs::diff(&mut capture, a, 0..a.len(), b, 0..b.len());
    let changed = capture
        .into_ops()
        .into_iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal);
    changed
        .flat_map(|op| op.old_range())
        .map(|i| head + i)
        .collect()
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

fn common_suffix(a: &str, b: &str) -> usize {
    a.bytes()
        .rev()
        .zip(b.bytes().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

pub fn edit_json(data: &[u8]) {
    let text = text(data);
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else {
        return;
    };
    let Ok(ops) = plan_acknowledge(&doc, NOW) else {
        return;
    };
    if ops.is_empty() {
        return;
    }
    let Ok(new_text) = json_edit::edit(&text, &ops) else {
        return;
    };
    let new: serde_json::Value = serde_json::from_str(&new_text).unwrap();
    let mut expected = doc.clone();
    let meta = expected
        .as_object_mut()
        .unwrap()
        .entry("metadata")
        .or_insert_with(|| serde_json::json!({}));
    meta["acknowledged"] = serde_json::Value::Bool(true);
    meta["acknowledged_at"] = serde_json::Value::String(NOW.to_iso());
    assert_eq!(new, expected, "{text}\n→\n{new_text}");
    let (head, tail) = (
        common_prefix(&text, &new_text),
        common_suffix(&text, &new_text),
    );
    let changed = || {
        let tail = tail
            .min(text.len() - head.min(text.len()))
            .min(new_text.len() - head);
        format!(
            "{:?} became {:?} at byte {head}",
            &text[head.min(text.len())..text.len() - tail],
            &new_text[head..new_text.len() - tail]
        )
    };
    match top_level_member(&text, "metadata") {
        Some((start, end)) => assert!(
            head >= start && tail >= text.len() - end,
            "bytes outside `metadata` changed: {}",
            changed()
        ),
        // An empty object's inside (`{ }`) may be rewritten whole.
        None if doc.as_object().is_some_and(|o| o.is_empty()) => {
            let open = text.find('{').unwrap();
            let close = text.rfind('}').unwrap();
            assert!(
                head > open && tail >= text.len() - close,
                "adding `metadata` changed bytes outside the braces: {}",
                changed()
            );
        }
        None => assert!(
            head + tail >= text.len(),
            "adding `metadata` changed other bytes: {}",
            changed()
        ),
    }
}

/// Byte span of the value of the last top-level member named `name` (the one a
/// JSON reader keeps), found by an independent scan of strings and nesting.
fn top_level_member(text: &str, name: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let (mut depth, mut i, mut found) = (0usize, 0usize, None);
    let mut value_start: Option<usize> = None;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let key = text.get(start + 1..i.min(text.len()));
                let after = text.get(i + 1..).unwrap_or_default().trim_start();
                if depth == 1
                    && value_start.is_none()
                    && after.starts_with(':')
                    && key == Some(name)
                {
                    let colon = text.len() - after.len();
                    let rest = &text[colon + 1..];
                    value_start = Some(colon + 1 + rest.len() - rest.trim_start().len());
                }
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if let Some(start) = value_start {
            let at_end =
                depth == 1 && matches!(bytes.get(i + 1), Some(b',' | b'}') | None) || depth == 0;
            let inside = i + 1 > start;
            if inside
                && at_end
                && !bytes[start..=i.min(bytes.len() - 1)]
                    .iter()
                    .all(u8::is_ascii_whitespace)
            {
                let end = text[..=i].trim_end().len();
                found = Some((start, end));
                value_start = None;
            }
        }
        i += 1;
    }
    found
}
