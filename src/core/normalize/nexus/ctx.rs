//! Diagnostics about one manifest's frontmatter, located in the file (the YAML's
//! own line numbers shifted past the opening fence).

use yaml_serde::Value;

use crate::core::locate::{KeyIndex, locate_duplicate_keys};
use crate::core::model::Diagnostic;
use crate::core::normalize::frontmatter::Frontmatter;

pub(super) struct Ctx<'a> {
    pub source: &'a str,
    pub frontmatter: Frontmatter<'a>,
    pub diagnostics: Vec<Diagnostic>,
    /// Built at the first warning: one scan of the frontmatter locates them all.
    keys: Option<KeyIndex>,
}

impl<'a> Ctx<'a> {
    pub fn new(source: &'a str, frontmatter: Frontmatter<'a>) -> Self {
        Self {
            source,
            frontmatter,
            diagnostics: Vec::new(),
            keys: None,
        }
    }

    /// The file line and column of the top-level key `key` (the opening fence if absent).
    pub fn key_position(&mut self, path: &[&str]) -> (usize, usize) {
        let text = self.frontmatter.text;
        let keys = self.keys.get_or_insert_with(|| KeyIndex::new(text));
        match keys.locate(path) {
            Some((line, column)) => (self.frontmatter.file_line(line), column),
            None => (self.frontmatter.open_line, 1),
        }
    }

    pub fn warn(&mut self, path: &[&str], message: impl AsRef<str>) {
        let (line, column) = self.key_position(path);
        let text = format!("{}: {}", path.join("."), message.as_ref());
        self.diagnostics
            .push(Diagnostic::warning(self.source, text).at(line, column));
    }

    pub fn wrong_type(&mut self, key: &str, expected: &str, found: &Value) {
        let message = format!(
            "expected {expected}, found {}; kept under other fields",
            kind(found)
        );
        self.warn(&[key], message);
    }
}

pub(super) fn kind(value: &Value) -> &'static str {
    // A manifest's own words for two kinds; the rest as every normaliser says them.
    match value {
        Value::String(_) => "text",
        Value::Tagged(_) => "a tagged value",
        other => crate::core::normalize::value::kind(other),
    }
}

/// A YAML syntax error inside the frontmatter, located in the file. libyaml's
/// message names lines relative to the frontmatter: those are shifted too.
pub(super) fn yaml_error(
    source: &str,
    frontmatter: &Frontmatter,
    err: &yaml_serde::Error,
) -> Diagnostic {
    let message = shift_line_numbers(&err.to_string(), frontmatter.open_line);
    let diagnostic = Diagnostic::error(source, format!("invalid YAML frontmatter: {message}"));
    // libyaml places a duplicate key at its map's start; point at the repeat instead.
    let duplicate = message
        .starts_with("duplicate entry")
        .then(|| locate_duplicate_keys(frontmatter.text).into_iter().next())
        .flatten();
    if let Some((_, line, column)) = duplicate {
        return diagnostic.at(frontmatter.file_line(line), column);
    }
    match err.location() {
        Some(at) => diagnostic.at(frontmatter.file_line(at.line()), at.column()),
        None => diagnostic.at(frontmatter.open_line, 1),
    }
}

fn shift_line_numbers(message: &str, offset: usize) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find("line ") {
        let (before, after) = rest.split_at(i + "line ".len());
        out.push_str(before);
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        match digits.parse::<usize>() {
            Ok(n) => out.push_str(&(n + offset).to_string()),
            Err(_) => out.push_str(&digits),
        }
        rest = after.get(digits.len()..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_numbers_in_messages_are_shifted() {
        assert_eq!(
            shift_line_numbers(
                "did not find key at line 3 column 1, while parsing at line 1 column 1",
                2
            ),
            "did not find key at line 5 column 1, while parsing at line 3 column 1"
        );
        assert_eq!(shift_line_numbers("no lines here", 4), "no lines here");
        assert_eq!(shift_line_numbers("line x", 4), "line x");
    }
}
