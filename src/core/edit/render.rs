//! New values as YAML text: scalars in a chosen quote style, collections in block
//! style (or flow, where the file's sibling entries use flow for that key).

use super::NewValue;

/// How an existing scalar is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteStyle {
    Plain,
    Single,
    Double,
}

pub fn double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || c == '\u{feff}' => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether a YAML reader could take `text`, unquoted, for something other than this
/// string: YAML 1.1 booleans (Python readers), or anything `yaml_serde` reads so.
fn looks_typed(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let words = [
        "null", "~", "true", "false", "yes", "no", "on", "off", "y", "n",
    ];
    if words.contains(&lower.as_str()) {
        return true;
    }
    let parsed = yaml_serde::from_str::<yaml_serde::Value>(&format!("k: {text}"));
    let read_back = parsed
        .ok()
        .and_then(|v| v.get("k").and_then(|k| k.as_str().map(str::to_string)));
    read_back.as_deref() != Some(text)
}

/// Whether `text` reads back as the same string when written without quotes.
pub fn plain_safe(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    !looks_typed(text)
        && text.trim() == text
        && !"-?:,[]{}#&*!|>'\"%@`".contains(first)
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.ends_with(':')
        && !text.chars().any(|c| c.is_control() || c == '\u{feff}')
}

/// `text` in `style` when that style can hold it, else double-quoted.
pub fn string_in_style(text: &str, style: QuoteStyle) -> String {
    match style {
        QuoteStyle::Plain if plain_safe(text) => text.to_string(),
        QuoteStyle::Single if !text.chars().any(|c| c.is_control()) => {
            format!("'{}'", text.replace('\'', "''"))
        }
        _ => double_quoted(text),
    }
}

pub fn float(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    let text = format!("{f}");
    if text.contains(['.', 'e', 'E']) {
        text
    } else {
        format!("{text}.0")
    }
}

/// A scalar (or a collection in flow style); strings double-quoted.
pub fn flow(value: &NewValue) -> String {
    match value {
        NewValue::Null => "null".to_string(),
        NewValue::Bool(b) => b.to_string(),
        NewValue::Int(n) => n.to_string(),
        NewValue::Float(f) => float(*f),
        NewValue::Str(s) => double_quoted(s),
        NewValue::List(items) => {
            let items: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", items.join(", "))
        }
        NewValue::Map(entries) => {
            let entries: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}: {}", key(k), flow(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

pub fn key(name: &str) -> String {
    let simple = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
        && !looks_typed(name);
    if simple {
        name.to_string()
    } else {
        double_quoted(name)
    }
}

fn is_inline(value: &NewValue) -> bool {
    match value {
        NewValue::List(items) => items.is_empty(),
        NewValue::Map(entries) => entries.is_empty(),
        _ => true,
    }
}

/// Lines (each ending in `\n`) for `key: value` at `indent` spaces. Lists of scalars
/// under a key in `flow_keys` are written in flow style.
pub fn block_entry(name: &str, value: &NewValue, indent: usize, flow_keys: &[String]) -> String {
    let pad = " ".repeat(indent);
    let scalar_list = matches!(value, NewValue::List(items) if items.iter().all(is_inline_scalar));
    if is_inline(value) || (scalar_list && flow_keys.iter().any(|k| k == name)) {
        return format!("{pad}{}: {}\n", key(name), flow(value));
    }
    format!(
        "{pad}{}:\n{}",
        key(name),
        block_body(value, indent + 2, flow_keys)
    )
}

fn is_inline_scalar(value: &NewValue) -> bool {
    !value.is_collection()
}

/// The lines of a collection placed under a key: entries or `- ` items at `indent`.
pub fn block_body(value: &NewValue, indent: usize, flow_keys: &[String]) -> String {
    match value {
        NewValue::List(items) => items
            .iter()
            .map(|item| block_item(item, indent, flow_keys))
            .collect(),
        NewValue::Map(entries) => entries
            .iter()
            .map(|(k, v)| block_entry(k, v, indent, flow_keys))
            .collect(),
        other => format!("{}{}\n", " ".repeat(indent), flow(other)),
    }
}

/// Lines for one `- item` with its dash at `indent`.
pub fn block_item(value: &NewValue, indent: usize, flow_keys: &[String]) -> String {
    let pad = " ".repeat(indent);
    match value {
        NewValue::Map(entries) if !entries.is_empty() => {
            let body = block_body(value, indent + 2, flow_keys);
            let inner = " ".repeat(indent + 2);
            match body.strip_prefix(&inner) {
                Some(rest) => format!("{pad}- {rest}"),
                None => format!("{pad}-\n{body}"),
            }
        }
        other => format!("{pad}- {}\n", flow(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(text: &str) -> yaml_serde::Value {
        yaml_serde::from_str(&format!("k: {text}")).unwrap()
    }

    #[test]
    fn strings_read_back_as_written() {
        for s in [
            "plain words",
            "a: b",
            "tab\there",
            "line\nbreak",
            "quote \" and \\ back",
            "true",
            "0.95",
            "# not a comment",
            "café ✓",
            "",
            "- dash",
            "it's",
        ] {
            for style in [QuoteStyle::Plain, QuoteStyle::Single, QuoteStyle::Double] {
                let written = string_in_style(s, style);
                let back = roundtrip(&written);
                assert_eq!(
                    back.get("k").unwrap().as_str(),
                    Some(s),
                    "{style:?} {written}"
                );
            }
        }
        assert_eq!(
            string_in_style("plain words", QuoteStyle::Plain),
            "plain words"
        );
        assert_eq!(string_in_style("yes", QuoteStyle::Plain), "\"yes\"");
        assert_eq!(string_in_style("it's", QuoteStyle::Single), "'it''s'");
    }

    #[test]
    fn floats_stay_floats() {
        assert_eq!(float(1.0), "1.0");
        assert_eq!(float(0.912), "0.912");
        assert!(roundtrip(&float(0.1)).get("k").unwrap().is_f64());
    }

    #[test]
    fn maps_in_lists_render_as_block_items() {
        let item = NewValue::map(vec![
            ("id", NewValue::str("RD-003")),
            (
                "affects_phases",
                NewValue::List(vec![NewValue::Int(2), NewValue::Int(3)]),
            ),
            ("applied", NewValue::Bool(false)),
        ]);
        assert_eq!(
            block_item(&item, 4, &[]),
            "    - id: \"RD-003\"\n      affects_phases:\n        - 2\n        - 3\n      applied: false\n"
        );
        assert_eq!(
            block_item(&item, 4, &["affects_phases".to_string()]),
            "    - id: \"RD-003\"\n      affects_phases: [2, 3]\n      applied: false\n"
        );
        let parsed: yaml_serde::Value =
            yaml_serde::from_str(&format!("l:\n{}", block_item(&item, 2, &[]))).unwrap();
        assert_eq!(
            parsed.get("l").unwrap()[0],
            super::super::value_ops::to_value(&item)
        );
    }
}
