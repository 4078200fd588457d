//! Edits to JSON files (design checkpoints) made as splices of the file's own text:
//! key order, indentation and number formatting outside the edited members stay as
//! they are. The result is re-parsed and must equal the old value plus the ops.

use serde_json::Value;

use super::plan::PlanError;
use super::{NewValue, Op, Path, Seg};
use crate::core::time::Timestamp;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonEditError {
    /// The file does not parse: message, line, column.
    #[error("{message}")]
    Invalid {
        message: String,
        line: usize,
        column: usize,
    },
    #[error("{0}")]
    Refused(String),
}

/// `metadata.acknowledged: true` and `acknowledged_at`; empty when already acknowledged.
pub fn plan_acknowledge(doc: &Value, now: Timestamp) -> Result<Vec<Op>, PlanError> {
    let stamp = NewValue::Str(now.to_iso());
    match doc.get("metadata") {
        Some(Value::Object(meta)) => {
            if meta.get("acknowledged") == Some(&Value::Bool(true)) {
                return Ok(Vec::new());
            }
            let path = vec![Seg::Key("metadata".to_string())];
            Ok(vec![
                set_or_insert(meta, &path, "acknowledged", NewValue::Bool(true)),
                set_or_insert(meta, &path, "acknowledged_at", stamp),
            ])
        }
        None if doc.is_object() => Ok(vec![Op::Insert {
            path: Path::new(),
            key: "metadata".to_string(),
            value: NewValue::map(vec![
                ("acknowledged", NewValue::Bool(true)),
                ("acknowledged_at", stamp),
            ]),
        }]),
        _ => Err(PlanError::Unsupported(
            "`metadata` is not an object; resume-tui will not rewrite it".to_string(),
        )),
    }
}

fn set_or_insert(
    map: &serde_json::Map<String, Value>,
    path: &Path,
    key: &str,
    value: NewValue,
) -> Op {
    if map.contains_key(key) {
        let mut path = path.clone();
        path.push(Seg::Key(key.to_string()));
        Op::Set { path, value }
    } else {
        Op::Insert {
            path: path.clone(),
            key: key.to_string(),
            value,
        }
    }
}

pub fn to_json(value: &NewValue) -> Value {
    match value {
        NewValue::Null => Value::Null,
        NewValue::Bool(b) => Value::Bool(*b),
        NewValue::Int(n) => Value::from(*n),
        NewValue::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        NewValue::Str(s) => Value::String(s.clone()),
        NewValue::List(items) => Value::Array(items.iter().map(to_json).collect()),
        NewValue::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), to_json(v)))
                .collect(),
        ),
    }
}

pub fn parse(text: &str) -> Result<Value, JsonEditError> {
    serde_json::from_str(text).map_err(|e| JsonEditError::Invalid {
        message: e.to_string(),
        line: e.line(),
        column: e.column(),
    })
}

/// Applies `ops` (Set and Insert on objects) to `text` and checks the result.
pub fn edit(text: &str, ops: &[Op]) -> Result<String, JsonEditError> {
    let old = parse(text)?;
    let mut splices = Vec::new();
    for op in ops {
        splices.push(
            splice_for(text, op).ok_or_else(|| {
                JsonEditError::Refused(format!("cannot place {op:?} in the file"))
            })?,
        );
    }
    splices.sort_by_key(|s| s.0);
    let mut out = String::with_capacity(text.len() + 64);
    let mut pos = 0;
    for (start, end, insert) in splices {
        let kept = text
            .get(pos..start)
            .ok_or_else(|| JsonEditError::Refused("overlapping edits".to_string()))?;
        out.push_str(kept);
        out.push_str(&insert);
        pos = end;
    }
    out.push_str(text.get(pos..).unwrap_or_default());
    let mut expected = old;
    for op in ops {
        apply_to_value(&mut expected, op).map_err(JsonEditError::Refused)?;
    }
    let new = parse(&out)
        .map_err(|e| JsonEditError::Refused(format!("the edited file would not parse: {e}")))?;
    if new != expected {
        return Err(JsonEditError::Refused(
            "the edited file would differ from the intended change".to_string(),
        ));
    }
    Ok(out)
}

fn apply_to_value(doc: &mut Value, op: &Op) -> Result<(), String> {
    let target = op.target().iter().try_fold(doc, |v, seg| match seg {
        Seg::Key(k) => v.get_mut(k.as_str()),
        Seg::Index(i) => v.get_mut(*i),
    });
    let target = target.ok_or_else(|| format!("{op:?}: no such path"))?;
    match op {
        Op::Set { value, .. } => *target = to_json(value),
        Op::Insert { key, value, .. } => {
            let map = target
                .as_object_mut()
                .ok_or_else(|| format!("{op:?}: not an object"))?;
            map.insert(key.clone(), to_json(value));
        }
        Op::Append { item, .. } => target
            .as_array_mut()
            .ok_or_else(|| format!("{op:?}: not an array"))?
            .push(to_json(item)),
        Op::Remove { .. } => return Err(format!("{op:?}: JSON edits remove nothing")),
    }
    Ok(())
}

/// (start, end, replacement) in `text` for one op.
fn splice_for(text: &str, op: &Op) -> Option<(usize, usize, String)> {
    let scan = Scan(text.as_bytes());
    match op {
        Op::Set { path, value } => {
            let (start, end) = scan.value_at(path)?;
            let indent = line_indent(text, start);
            Some((start, end, render(value, &indent)))
        }
        Op::Insert { path, key, value } => {
            let (open, _) = scan.value_at(path)?;
            let (members, close) = scan.members(open)?;
            let key_text = serde_json::to_string(key).ok()?;
            match members.last() {
                None => {
                    let outer = line_indent(text, open);
                    let inner = format!("{outer}  ");
                    let body = format!("\n{inner}{key_text}: {}\n{outer}", render(value, &inner));
                    Some((open + 1, close, body))
                }
                Some(last) if same_line(text, open, last.key_start) => Some((
                    last.value_end,
                    last.value_end,
                    format!(", {key_text}: {}", compact(value)),
                )),
                Some(last) => {
                    let indent = line_indent(text, last.key_start);
                    let member = format!(",\n{indent}{key_text}: {}", render(value, &indent));
                    Some((last.value_end, last.value_end, member))
                }
            }
        }
        Op::Append { .. } | Op::Remove { .. } => None,
    }
}

fn compact(value: &NewValue) -> String {
    serde_json::to_string(&to_json(value)).unwrap_or_default()
}

/// Pretty JSON whose inner lines continue from `indent`.
fn render(value: &NewValue, indent: &str) -> String {
    let pretty = serde_json::to_string_pretty(&to_json(value)).unwrap_or_default();
    pretty.replace('\n', &format!("\n{indent}"))
}

fn line_start(text: &str, pos: usize) -> usize {
    text.get(..pos)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1)
}

fn line_indent(text: &str, pos: usize) -> String {
    let start = line_start(text, pos);
    text.get(start..pos)
        .unwrap_or_default()
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

fn same_line(text: &str, a: usize, b: usize) -> bool {
    text.get(a.min(b)..a.max(b))
        .is_some_and(|t| !t.contains('\n'))
}

struct Member {
    key: String,
    key_start: usize,
    value_start: usize,
    value_end: usize,
}

/// A scanner over text already known to be valid JSON.
struct Scan<'a>(&'a [u8]);

impl Scan<'_> {
    fn byte(&self, pos: usize) -> Option<u8> {
        self.0.get(pos).copied()
    }

    fn skip_ws(&self, mut pos: usize) -> usize {
        while matches!(self.byte(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            pos += 1;
        }
        pos
    }

    fn string_end(&self, mut pos: usize) -> Option<usize> {
        pos += 1;
        loop {
            match self.byte(pos)? {
                b'\\' => pos += 2,
                b'"' => return Some(pos + 1),
                _ => pos += 1,
            }
        }
    }

    fn value_end(&self, pos: usize) -> Option<usize> {
        match self.byte(pos)? {
            b'"' => self.string_end(pos),
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                let mut at = self.skip_ws(pos + 1);
                if self.byte(at)? == close {
                    return Some(at + 1);
                }
                loop {
                    if open == b'{' {
                        at = self.skip_ws(self.string_end(at)?);
                        at = self.skip_ws(at + 1);
                    }
                    at = self.skip_ws(self.value_end(at)?);
                    match self.byte(at)? {
                        b',' => at = self.skip_ws(at + 1),
                        c if c == close => return Some(at + 1),
                        _ => return None,
                    }
                }
            }
            _ => {
                let mut at = pos;
                while self.byte(at).is_some_and(|c| {
                    !matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                }) {
                    at += 1;
                }
                (at > pos).then_some(at)
            }
        }
    }

    /// The members of the object opening at `open`, and the position of its `}`.
    fn members(&self, open: usize) -> Option<(Vec<Member>, usize)> {
        if self.byte(open)? != b'{' {
            return None;
        }
        let mut members = Vec::new();
        let mut at = self.skip_ws(open + 1);
        if self.byte(at)? == b'}' {
            return Some((members, at));
        }
        loop {
            let key_end = self.string_end(at)?;
            let key: String = serde_json::from_slice(self.0.get(at..key_end)?).ok()?;
            let colon = self.skip_ws(key_end);
            let value_start = self.skip_ws(colon + 1);
            let value_end = self.value_end(value_start)?;
            members.push(Member {
                key,
                key_start: at,
                value_start,
                value_end,
            });
            at = self.skip_ws(value_end);
            match self.byte(at)? {
                b',' => at = self.skip_ws(at + 1),
                b'}' => return Some((members, at)),
                _ => return None,
            }
        }
    }

    /// The span of the value at `path` (object keys only).
    fn value_at(&self, path: &[Seg]) -> Option<(usize, usize)> {
        let mut start = self.skip_ws(0);
        for seg in path {
            let Seg::Key(key) = seg else { return None };
            let (members, _) = self.members(start)?;
            start = members.iter().rev().find(|m| &m.key == key)?.value_start;
        }
        Some((start, self.value_end(start)?))
    }
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
