//! Lenient readers over parsed YAML values, shared by the normalisers. Real files
//! write numbers as strings and strings as numbers; these accept both.

use yaml_serde::Value;

use crate::core::model::OtherFields;

/// What a value is, for messages: "a string", "a list", … (a tagged value as what it tags).
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a map",
        Value::Tagged(tagged) => kind(&tagged.value),
    }
}

/// The value under `key` in a mapping, if `value` is one.
pub fn get<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    value.as_mapping()?.get(key)
}

/// A scalar as text: strings as they are, numbers and booleans printed. Null and
/// collections give `None`.
pub fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Tagged(tagged) => text(&tagged.value),
        _ => None,
    }
}

pub fn get_text(value: &Value, key: &str) -> Option<String> {
    get(value, key).and_then(text)
}

/// A number, also from a numeric string (`"0.95"`) or a percentage (`"88.6%"` → 0.886).
pub fn float(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let s = s.trim();
            match s.strip_suffix('%') {
                Some(pct) => pct.trim().parse::<f64>().ok().map(|p| p / 100.0),
                None => s.parse::<f64>().ok(),
            }
        }
        Value::Tagged(tagged) => float(&tagged.value),
        _ => None,
    }
    .filter(|f| f.is_finite())
}

pub fn get_float(value: &Value, key: &str) -> Option<f64> {
    get(value, key).and_then(float)
}

/// A whole number, also from a string (`"3"`); floats with no fraction are accepted.
pub fn int(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        Value::Tagged(tagged) => int(&tagged.value),
        _ => None,
    }
}

pub fn get_int(value: &Value, key: &str) -> Option<i64> {
    get(value, key).and_then(int)
}

/// A boolean, also from `"true"`/`"yes"`/`"false"`/`"no"` strings.
pub fn boolean(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" | "on" => Some(true),
            "false" | "no" | "n" | "off" => Some(false),
            _ => None,
        },
        Value::Tagged(tagged) => boolean(&tagged.value),
        _ => None,
    }
}

pub fn get_bool(value: &Value, key: &str) -> Option<bool> {
    get(value, key).and_then(boolean)
}

/// A list of scalars as text; a single scalar becomes a one-item list; null is empty.
pub fn text_list(value: &Value) -> Vec<String> {
    match value {
        Value::Sequence(items) => items.iter().filter_map(text).collect(),
        Value::Null => Vec::new(),
        other => text(other).into_iter().collect(),
    }
}

pub fn get_text_list(value: &Value, key: &str) -> Vec<String> {
    get(value, key).map(text_list).unwrap_or_default()
}

/// The mapping's key as text (YAML keys may be numbers or booleans).
pub fn key_text(key: &Value) -> String {
    text(key).unwrap_or_else(|| to_json(key).to_string())
}

/// Converts YAML to JSON for display and `--json` output. Non-string keys are
/// printed; non-finite floats become strings; tags are dropped.
pub fn to_json(value: &Value) -> serde_json::Value {
    match value {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                serde_json::Value::from(i)
            } else if let Some(u) = n.as_u64() {
                serde_json::Value::from(u)
            } else {
                n.as_f64()
                    .and_then(serde_json::Number::from_f64)
                    .map_or_else(
                        || serde_json::Value::String(n.to_string()),
                        serde_json::Value::Number,
                    )
            }
        }
        Value::String(s) => serde_json::Value::String(s.clone()),
        Value::Sequence(items) => serde_json::Value::Array(items.iter().map(to_json).collect()),
        Value::Mapping(map) => {
            serde_json::Value::Object(map.iter().map(|(k, v)| (key_text(k), to_json(v))).collect())
        }
        Value::Tagged(tagged) => to_json(&tagged.value),
    }
}

/// Every entry of `mapping` whose key is not in `known`, in file order.
pub fn other_fields(mapping: &Value, known: &[&str]) -> OtherFields {
    let mut other = OtherFields::new();
    if let Some(map) = mapping.as_mapping() {
        for (k, v) in map {
            let key = key_text(k);
            if !known.contains(&key.as_str()) {
                other.insert(key, to_json(v));
            }
        }
    }
    other
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Value {
        yaml_serde::from_str(text).unwrap()
    }

    #[test]
    fn scalars_are_read_leniently() {
        let v = yaml("a: '0.95'\nb: 88.6%\nc: 3\nd: '7'\ne: 'yes'\nf: ~\ng: [x, 2, true]\n");
        assert_eq!(get_float(&v, "a"), Some(0.95));
        assert!((get_float(&v, "b").unwrap() - 0.886).abs() < 1e-9);
        assert_eq!(get_int(&v, "c"), Some(3));
        assert_eq!(get_int(&v, "d"), Some(7));
        assert_eq!(get_bool(&v, "e"), Some(true));
        assert_eq!(get_text(&v, "f"), None);
        assert_eq!(get_text(&v, "c").as_deref(), Some("3"));
        assert_eq!(get_text_list(&v, "g"), vec!["x", "2", "true"]);
        assert_eq!(get_text_list(&v, "missing"), Vec::<String>::new());
    }

    #[test]
    fn other_fields_keep_file_order_and_skip_known_keys() {
        let v = yaml("z: 1\nknown: 2\na: {b: [1, 2]}\n3: numeric key\n");
        let other = other_fields(&v, &["known"]);
        let keys: Vec<_> = other.keys().cloned().collect();
        assert_eq!(keys, vec!["z", "a", "3"]);
        assert_eq!(other["a"], serde_json::json!({"b": [1, 2]}));
    }
}
