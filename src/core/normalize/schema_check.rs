//! Checks a parsed document against the JSON Schema generated from a wire type,
//! reporting every problem rather than the first: a required field that is
//! missing (or `null`) is a warning, a value of the wrong type an error, a value
//! outside an enumeration a warning, and a key the type does not know an info.
//!
//! Only the keywords schemars emits for the wire types are understood: `type`,
//! `properties`, `required`, `additionalProperties`, `items`, `enum`, `$ref`
//! into `$defs`, and `anyOf`/`oneOf`.

use schemars::JsonSchema;
use serde_json::Value;

use super::json_locate::{Seg, locate};
use crate::core::model::{Diagnostic, Severity};

/// One problem, at a path into the document.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub severity: Severity,
    /// The value the problem is about (for a missing field: the object holding it).
    pub path: Vec<Seg>,
    pub message: String,
}

/// Checks `value` against `T`'s schema.
pub fn check<T: JsonSchema>(value: &Value) -> Vec<Finding> {
    let schema = schemars::schema_for!(T);
    let root = schema.as_value();
    let mut checker = Checker {
        root,
        findings: Vec::new(),
    };
    checker.value(value, root, &mut Vec::new(), 0);
    checker.findings
}

/// Dotted display of a path: `context_state.fill_percentage`, `files_to_load[2]`.
pub fn display_path(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// Findings about a JSON file as diagnostics located in its text.
pub fn json_diagnostics(file: &str, text: &str, findings: &[Finding]) -> Vec<Diagnostic> {
    findings
        .iter()
        .map(|finding| {
            let message = match display_path(&finding.path) {
                p if p.is_empty() => finding.message.clone(),
                p => format!("{p}: {}", finding.message),
            };
            let diagnostic = match finding.severity {
                Severity::Error => Diagnostic::error(file, message),
                Severity::Warning => Diagnostic::warning(file, message),
                Severity::Info => Diagnostic::info(file, message),
            };
            match locate(text, &finding.path) {
                Some((line, column)) => diagnostic.at(line, column),
                None => diagnostic,
            }
        })
        .collect()
}

const MAX_DEPTH: usize = 64;

struct Checker<'a> {
    root: &'a Value,
    findings: Vec<Finding>,
}

impl<'a> Checker<'a> {
    fn push(&mut self, severity: Severity, path: &[Seg], message: String) {
        self.findings.push(Finding {
            severity,
            path: path.to_vec(),
            message,
        });
    }

    fn resolve(&self, schema: &'a Value) -> &'a Value {
        let mut schema = schema;
        for _ in 0..MAX_DEPTH {
            let Some(target) = schema.get("$ref").and_then(Value::as_str) else {
                break;
            };
            let Some(name) = target.strip_prefix("#/$defs/") else {
                break;
            };
            match self.root.get("$defs").and_then(|defs| defs.get(name)) {
                Some(found) => schema = found,
                None => break,
            }
        }
        schema
    }

    fn value(&mut self, value: &Value, schema: &'a Value, path: &mut Vec<Seg>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let schema = self.resolve(schema);
        if let Some(branches) = schema
            .get("anyOf")
            .or_else(|| schema.get("oneOf"))
            .and_then(Value::as_array)
        {
            self.any_of(value, branches, path, depth);
            return;
        }
        if let Some(types) = types_of(schema)
            && !types.iter().any(|t| matches_type(value, t))
        {
            let message = format!("expected {}, found {}", types.join(" or "), kind(value));
            self.push(Severity::Error, path, message);
            return;
        }
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
            && !allowed.contains(value)
        {
            let names: Vec<String> = allowed.iter().map(Value::to_string).collect();
            let message = format!(
                "unexpected value {value}; expected one of {}",
                names.join(", ")
            );
            self.push(Severity::Warning, path, message);
        }
        match value {
            Value::Object(map) => self.object(map, schema, path, depth),
            Value::Array(items) => {
                if let Some(item_schema) = schema.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        path.push(Seg::Index(i));
                        self.value(item, item_schema, path, depth + 1);
                        path.pop();
                    }
                }
            }
            _ => {}
        }
    }

    fn any_of(&mut self, value: &Value, branches: &'a [Value], path: &mut Vec<Seg>, depth: usize) {
        let mut best: Option<Vec<Finding>> = None;
        for branch in branches {
            let mut trial = Checker {
                root: self.root,
                findings: Vec::new(),
            };
            trial.value(value, branch, path, depth + 1);
            let errors = trial.findings.iter().any(|f| f.severity == Severity::Error);
            if !errors && best.as_ref().is_none_or(|b| trial.findings.len() < b.len()) {
                best = Some(trial.findings);
            }
        }
        if let Some(findings) = best {
            self.findings.extend(findings);
            return;
        }
        // No branch fits: report against the branch whose top-level type matches
        // (so nested problems surface), else name the accepted types.
        let matching = branches.iter().find(|b| {
            types_of(self.resolve(b))
                .is_some_and(|types| types.iter().any(|t| matches_type(value, t)))
        });
        match matching {
            Some(branch) => self.value(value, branch, path, depth + 1),
            None => {
                let mut accepted: Vec<&str> = branches
                    .iter()
                    .filter_map(|b| types_of(self.resolve(b)))
                    .flatten()
                    .collect();
                accepted.dedup();
                let message = format!("expected {}, found {}", accepted.join(" or "), kind(value));
                self.push(Severity::Error, path, message);
            }
        }
    }

    fn object(
        &mut self,
        map: &serde_json::Map<String, Value>,
        schema: &'a Value,
        path: &mut Vec<Seg>,
        depth: usize,
    ) {
        let properties = schema.get("properties").and_then(Value::as_object);
        let required = schema.get("required").and_then(Value::as_array);
        for name in required.into_iter().flatten().filter_map(Value::as_str) {
            let nullable = properties
                .and_then(|p| p.get(name))
                .is_some_and(|s| self.allows_null(s));
            match map.get(name) {
                None => {
                    let message = format!("missing required field `{name}`");
                    self.push(Severity::Warning, path, message);
                }
                Some(Value::Null) if !nullable => {
                    path.push(Seg::key(name));
                    let message = format!("required field `{name}` is null");
                    self.push(Severity::Warning, path, message);
                    path.pop();
                }
                _ => {}
            }
        }
        let additional = schema.get("additionalProperties");
        for (key, item) in map {
            path.push(Seg::key(key));
            match (properties.and_then(|p| p.get(key)), additional) {
                (Some(_), _) if item.is_null() => {}
                (Some(property), _) => self.value(item, property, path, depth + 1),
                (None, Some(Value::Bool(false))) | (None, None) if properties.is_some() => {
                    let message = format!("unknown field `{key}` (kept as an other field)");
                    self.push(Severity::Info, path, message);
                }
                (None, Some(extra)) => self.value(item, extra, path, depth + 1),
                (None, None) => {}
            }
            path.pop();
        }
    }

    fn allows_null(&self, schema: &'a Value) -> bool {
        let schema = self.resolve(schema);
        if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
            return branches.iter().any(|b| self.allows_null(b));
        }
        types_of(schema).is_none_or(|types| types.contains(&"null"))
    }
}

fn types_of(schema: &Value) -> Option<Vec<&str>> {
    match schema.get("type")? {
        Value::String(t) => Some(vec![t.as_str()]),
        Value::Array(ts) => Some(ts.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

fn matches_type(value: &Value, ty: &str) -> bool {
    match ty {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => true,
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a map",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[allow(dead_code)]
    #[derive(schemars::JsonSchema)]
    struct Outer {
        name: String,
        count: i64,
        inner: Inner,
        maybe: Option<Inner>,
        list: Vec<Inner>,
        level: Level,
    }

    #[allow(dead_code)]
    #[derive(schemars::JsonSchema)]
    struct Inner {
        score: f64,
        #[schemars(with = "crate::core::wire::nullable::Nullable<String>")]
        note: Option<String>,
    }

    #[allow(dead_code)]
    #[derive(schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    enum Level {
        Low,
        High,
    }

    fn messages(findings: &[Finding]) -> Vec<String> {
        findings
            .iter()
            .map(|f| format!("{:?} {}: {}", f.severity, display_path(&f.path), f.message))
            .collect()
    }

    #[test]
    fn a_valid_document_has_no_findings() {
        let doc = json!({"name": "n", "count": 2.0, "inner": {"score": 1, "note": null},
                         "list": [], "level": "low"});
        assert_eq!(messages(&check::<Outer>(&doc)), Vec::<String>::new());
    }

    #[test]
    fn reports_every_problem_with_its_path() {
        let doc = json!({"count": "2", "inner": {"score": "x"}, "maybe": {"score": true, "note": 3},
                         "list": [{"score": 1, "note": "ok"}, {"note": "n"}], "level": "medium",
                         "extra": 1, "name": null});
        let got = messages(&check::<Outer>(&doc));
        assert_eq!(
            got,
            vec![
                "Warning name: required field `name` is null",
                "Error count: expected integer, found a string",
                "Warning inner: missing required field `note`",
                "Error inner.score: expected number, found a string",
                "Error maybe.score: expected number, found a boolean",
                "Error maybe.note: expected string or null, found an integer",
                "Warning list[1]: missing required field `score`",
                "Warning level: unexpected value \"medium\"; expected one of \"low\", \"high\"",
                "Info extra: unknown field `extra` (kept as an other field)",
            ]
        );
    }

    #[test]
    fn a_document_of_the_wrong_kind_is_one_error() {
        let got = messages(&check::<Outer>(&json!([1, 2])));
        assert_eq!(got, vec!["Error : expected object, found a list"]);
    }
}
