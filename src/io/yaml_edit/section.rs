//! The fast path for large files: when every op is under one top-level key (in
//! practice `resumption:`), only that key's block is given to the syntax tree and
//! re-parsed. It is taken only when the old block alone parses to exactly the
//! document's value under that key; the text outside the block is untouched by
//! construction. Anything unusual returns `None` and the whole document is used.

use std::str::FromStr;

use yaml_serde::{Mapping, Value};

use super::splice;
use crate::core::edit::{Op, Seg, value_ops};
use crate::core::yaml::lines::{block_end, lines};

/// The one top-level key all ops are under.
fn common_key(ops: &[Op]) -> Option<&str> {
    let mut key = None;
    for op in ops {
        match (op.target().first(), key) {
            (Some(Seg::Key(k)), None) => key = Some(k.as_str()),
            (Some(Seg::Key(k)), Some(seen)) if k == seen => {}
            _ => return None,
        }
    }
    key
}

/// The byte range of the top-level `key:` block, when exactly one line opens it.
fn block_of(text: &str, key: &str) -> Option<(usize, usize)> {
    let opener = format!("{key}:");
    let mut starts = Vec::new();
    for line in lines(text) {
        if let Some(rest) = line.text.strip_prefix(&opener)
            && (rest.is_empty() || rest.starts_with([' ', '\t', '\r']))
        {
            starts.push(line.start);
        }
    }
    match starts.as_slice() {
        [start] => Some((*start, block_end(text, *start, 0, true))),
        _ => None,
    }
}

/// Whether `text` may define an anchor (`&name` where a node can start); errs on
/// the side of yes.
fn defines_anchor(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(i, b)| {
        let before = i.checked_sub(1).and_then(|j| bytes.get(j));
        let after = bytes.get(i + 1);
        *b == b'&'
            && before.is_none_or(|c| matches!(c, b' ' | b'\t' | b'\n' | b'[' | b'{' | b','))
            && after.is_some_and(|c| !c.is_ascii_whitespace())
    })
}

fn wrap(key: &str, value: Value) -> Value {
    let mut map = Mapping::new();
    map.insert(Value::String(key.to_string()), value);
    Value::Mapping(map)
}

pub fn apply_in_section(text: &str, old: &Value, ops: &[Op]) -> Option<String> {
    let key = common_key(ops)?;
    let old_value = old.as_mapping()?.get(key)?.clone();
    let (start, end) = block_of(text, key)?;
    let block = text.get(start..end)?;
    if defines_anchor(block) {
        return None; // an alias elsewhere would change with it, unseen by this check
    }
    let old_block = wrap(key, old_value);
    if yaml_serde::from_str::<Value>(block).ok()? != old_block {
        return None;
    }
    let doc = yaml_edit::Document::from_str(block).ok()?;
    let mut splices = Vec::new();
    for op in ops {
        splices.extend(splice::splices(block, &doc, op).ok()?);
    }
    let new_block = splice::apply(block, splices).ok()?;
    let mut expected = old_block;
    value_ops::apply(&mut expected, ops).ok()?;
    if yaml_serde::from_str::<Value>(&new_block).ok()? != expected {
        return None;
    }
    Some(format!(
        "{}{new_block}{}",
        text.get(..start)?,
        text.get(end..)?
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::edit::{NewValue, keys};

    #[test]
    fn only_a_unique_top_level_block_is_used() {
        let text = "a: 1\nresumption:\n  x: 1\n  # note\n\n# next\nb:\n- 1\n";
        assert_eq!(block_of(text, "resumption"), Some((5, 32)));
        assert_eq!(text.get(5..32), Some("resumption:\n  x: 1\n  # note"));
        assert_eq!(block_of(text, "b"), Some((41, 47)));
        assert_eq!(
            block_of("resumption: 1\nresumption: 2\n", "resumption"),
            None
        );
        assert_eq!(block_of("resumptions: 1\n", "resumption"), None);
    }

    #[test]
    fn edits_outside_one_key_or_with_aliases_take_the_whole_document() {
        let ops = [
            Op::Set {
                path: keys(&["a"]),
                value: NewValue::Int(2),
            },
            Op::Set {
                path: keys(&["b"]),
                value: NewValue::Int(2),
            },
        ];
        assert_eq!(common_key(&ops), None);
        let text = "base: &b {x: 1}\nresumption:\n  x: *b\n";
        let old: Value = yaml_serde::from_str(text).unwrap();
        let set = [Op::Set {
            path: keys(&["resumption", "x"]),
            value: NewValue::Int(3),
        }];
        assert_eq!(
            apply_in_section(text, &old, &set),
            None,
            "the alias needs the anchor"
        );
        let text = "resumption:\n  x: &a 1\nother: *a\n";
        let old: Value = yaml_serde::from_str(text).unwrap();
        assert_eq!(
            apply_in_section(text, &old, &set),
            None,
            "the anchor has an alias"
        );
        assert!(!defines_anchor("x: \"R & D\"\n"));
        let text = "resumption:\n  x: 1\nother: 2\n";
        let old: Value = yaml_serde::from_str(text).unwrap();
        assert_eq!(
            apply_in_section(text, &old, &set).as_deref(),
            Some("resumption:\n  x: 3\nother: 2\n")
        );
    }
}
