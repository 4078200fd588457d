//! Lenient readers over parsed JSON, the JSON twin of `value.rs`, and parsing with
//! a located diagnostic. Real files write numbers as strings; these accept both.

use serde_json::Value;

use crate::core::model::{Diagnostic, OtherFields};

/// Parses `text` (a leading BOM is ignored). A syntax error names `file`, line and column.
pub fn parse(file: &str, text: &str) -> Result<Value, Diagnostic> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str(text).map_err(|err| syntax_error(file, &err))
}

/// `serde_json`'s message without its own " at line L column C" suffix, located.
pub fn syntax_error(file: &str, err: &serde_json::Error) -> Diagnostic {
    let message = err.to_string();
    let message = message
        .rfind(" at line ")
        .and_then(|i| message.get(..i))
        .unwrap_or(&message);
    Diagnostic::error(file, format!("invalid JSON: {message}"))
        .at(err.line().max(1), err.column().max(1))
}

pub fn get<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    value.as_object()?.get(key)
}

/// A scalar as text: strings as they are, numbers and booleans printed.
pub fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
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
        _ => None,
    }
    .filter(|f| f.is_finite())
}

pub fn get_float(value: &Value, key: &str) -> Option<f64> {
    get(value, key).and_then(float)
}

/// A whole number, also from a string; floats with no fraction are accepted.
pub fn int(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse().ok(),
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
            "true" | "yes" => Some(true),
            "false" | "no" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

pub fn get_bool(value: &Value, key: &str) -> Option<bool> {
    get(value, key).and_then(boolean)
}

/// Scalars as text; collections inside a list are printed as JSON; a single scalar
/// is a one-item list; null is empty.
pub fn text_list(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items
            .iter()
            .filter(|v| !v.is_null())
            .map(|v| text(v).unwrap_or_else(|| v.to_string()))
            .collect(),
        Value::Null => Vec::new(),
        other => text(other).into_iter().collect(),
    }
}

pub fn get_text_list(value: &Value, key: &str) -> Vec<String> {
    get(value, key).map(text_list).unwrap_or_default()
}

/// Entries of the object `value` whose keys are not in `known`, in file order,
/// each stored under `prefix` + key (`"trigger."` → `"trigger.source"`).
pub fn other_fields_into(value: &Value, known: &[&str], prefix: &str, other: &mut OtherFields) {
    if let Some(map) = value.as_object() {
        for (key, v) in map {
            if !known.contains(&key.as_str()) {
                other.insert(format!("{prefix}{key}"), v.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_scalars_leniently() {
        let v = json!({"a": "0.5", "b": "88.6%", "c": 3.0, "d": "7", "e": "yes", "f": null,
                       "g": ["x", 2, {"k": 1}, null]});
        assert_eq!(get_float(&v, "a"), Some(0.5));
        assert!((get_float(&v, "b").unwrap() - 0.886).abs() < 1e-9);
        assert_eq!(get_int(&v, "c"), Some(3));
        assert_eq!(get_int(&v, "d"), Some(7));
        assert_eq!(get_bool(&v, "e"), Some(true));
        assert_eq!(get_text(&v, "f"), None);
        assert_eq!(get_text_list(&v, "g"), vec!["x", "2", "{\"k\":1}"]);
        assert_eq!(get_text(&json!([1]), "a"), None);
    }

    #[test]
    fn syntax_errors_carry_line_and_column_once() {
        let err = parse("cx-001.json", "{\n  \"a\": 1\n  \"b\": 2\n}").unwrap_err();
        assert_eq!((err.line, err.column), (Some(3), Some(3)));
        assert!(!err.message.contains("at line"), "{}", err.message);
        assert!(err.message.starts_with("invalid JSON: "), "{}", err.message);
        let empty = parse("e.json", "").unwrap_err();
        assert_eq!((empty.line, empty.column), (Some(1), Some(1)));
        assert!(parse("bom.json", "\u{feff}{}").is_ok());
    }

    #[test]
    fn other_fields_are_prefixed_and_ordered() {
        let mut other = OtherFields::new();
        other_fields_into(&json!({"z": 1, "k": 2, "a": 3}), &["k"], "t.", &mut other);
        assert_eq!(other.keys().collect::<Vec<_>>(), vec!["t.z", "t.a"]);
    }
}
