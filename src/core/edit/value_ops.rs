//! Ops applied to a parsed value: what the file must parse to after an edit.

use yaml_serde::{Mapping, Number, Value};

use super::{NewValue, Op, Seg};

pub fn to_value(value: &NewValue) -> Value {
    match value {
        NewValue::Null => Value::Null,
        NewValue::Bool(b) => Value::Bool(*b),
        NewValue::Int(n) => Value::Number(Number::from(*n)),
        NewValue::Float(f) => Value::Number(Number::from(*f)),
        NewValue::Str(s) => Value::String(s.clone()),
        NewValue::List(items) => Value::Sequence(items.iter().map(to_value).collect()),
        NewValue::Map(entries) => {
            let mut map = Mapping::new();
            for (k, v) in entries {
                map.insert(Value::String(k.clone()), to_value(v));
            }
            Value::Mapping(map)
        }
    }
}

fn at_mut<'a>(doc: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    path.iter().try_fold(doc, |value, seg| match seg {
        Seg::Key(key) => value.as_mapping_mut()?.get_mut(key.as_str()),
        Seg::Index(i) => value.as_sequence_mut()?.get_mut(*i),
    })
}

/// Applies `ops` in order; an op whose target is missing or of another type is an error.
pub fn apply(doc: &mut Value, ops: &[Op]) -> Result<(), String> {
    for op in ops {
        if let Op::Remove { path } = op {
            let Some((Seg::Index(i), parent)) = path.split_last() else {
                return Err(format!("{op:?}: does not end in an index"));
            };
            let list = at_mut(doc, parent)
                .and_then(Value::as_sequence_mut)
                .filter(|list| *i < list.len())
                .ok_or_else(|| format!("{op:?}: no such item"))?;
            list.remove(*i);
            continue;
        }
        let target = at_mut(doc, op.target()).ok_or_else(|| format!("{op:?}: no such path"))?;
        match op {
            Op::Set { value, .. } => *target = to_value(value),
            Op::Insert { key, value, .. } => {
                let map = target
                    .as_mapping_mut()
                    .ok_or_else(|| format!("{op:?}: not a mapping"))?;
                if map.contains_key(key.as_str()) {
                    return Err(format!("{op:?}: the key exists"));
                }
                map.insert(Value::String(key.clone()), to_value(value));
            }
            Op::Append { item, .. } => target
                .as_sequence_mut()
                .ok_or_else(|| format!("{op:?}: not a sequence"))?
                .push(to_value(item)),
            Op::Remove { .. } => {}
        }
    }
    Ok(())
}
