//! The lines of the document, where reading has got to, and the path of keys and
//! list positions to the node being read (for naming duplicate keys).

use yaml_serde::Value;

use super::alias::Aliases;
use super::{MAX_DEPTH, YAML_SERDE_DEPTH};
use crate::core::normalize::value::key_text;
use crate::core::yaml::lines as yaml;

#[derive(Debug, Clone, Copy)]
pub(super) struct Line<'a> {
    /// The line without its `\n`.
    pub text: &'a str,
    /// Leading spaces.
    pub indent: usize,
}

impl<'a> Line<'a> {
    /// The text after the indentation.
    pub fn content(&self) -> &'a str {
        self.text.get(self.indent..).unwrap_or_default()
    }

    /// Empty, spaces only, or a comment.
    pub fn is_blank(&self) -> bool {
        let content = self.content();
        content.is_empty() || content.starts_with('#')
    }

    /// Empty or spaces only.
    pub fn is_empty(&self) -> bool {
        self.content().is_empty()
    }

    /// `---` or `...` at the start of a line: a document boundary, anywhere.
    pub fn is_document_marker(&self) -> bool {
        let marker = self.text.get(..3);
        matches!(marker, Some("---") | Some("..."))
            && self.text.as_bytes().get(3).is_none_or(|b| *b == b' ')
    }
}

enum Seg {
    Key(Value),
    Index(usize),
}

pub(super) struct Cursor<'a> {
    lines: Vec<Line<'a>>,
    /// The line being read.
    pub at: usize,
    pub duplicates: Vec<String>,
    path: Vec<Seg>,
    /// Whether the last line ends with a line break.
    pub ends_with_newline: bool,
    /// The line (0-based) and column (1-based) of a block node nested past what
    /// `yaml_serde` reads at all.
    pub too_deep: Option<(usize, usize)>,
    /// Anchors, and the values and events counted for aliases.
    pub aliases: Aliases<'a>,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Cursor<'a> {
        let body = text.strip_suffix('\n').unwrap_or(text);
        let mut lines = Vec::with_capacity(body.len() / 32 + 1);
        lines.extend(yaml::lines(body).map(|line| Line {
            text: line.text,
            indent: line.indent,
        }));
        // The reader gives no line after a last `\n`; the parser reads one, empty.
        if body.is_empty() || body.ends_with('\n') {
            lines.push(Line {
                text: "",
                indent: 0,
            });
        }
        Cursor {
            lines,
            at: 0,
            duplicates: Vec::new(),
            path: Vec::new(),
            ends_with_newline: text.ends_with('\n'),
            too_deep: None,
            aliases: Aliases::new(crate::core::yaml::guard::budget(text)),
        }
    }

    pub fn line(&self, index: usize) -> Option<Line<'a>> {
        self.lines.get(index).copied()
    }

    pub fn current(&self) -> Option<Line<'a>> {
        self.line(self.at)
    }

    /// Moves past empty and comment lines; the next line with content, if any.
    pub fn next_content(&mut self) -> Option<Line<'a>> {
        while let Some(line) = self.current() {
            if !line.is_blank() {
                return Some(line);
            }
            self.at += 1;
        }
        None
    }

    /// Enters a nested node; `None` past the depth `yaml_serde` allows.
    pub fn enter_key(&mut self, key: Value) -> Option<()> {
        self.path.push(Seg::Key(key));
        (self.path.len() <= MAX_DEPTH).then_some(())
    }

    pub fn leave_key(&mut self) -> Option<Value> {
        match self.path.pop()? {
            Seg::Key(key) => Some(key),
            Seg::Index(_) => None,
        }
    }

    pub fn enter_index(&mut self, index: usize) -> Option<()> {
        self.path.push(Seg::Index(index));
        (self.path.len() <= MAX_DEPTH).then_some(())
    }

    /// Starts a collection, `None` past the nesting `yaml_serde` reads; a block
    /// collection (`column` given) notes where, at its first line with content.
    pub fn open_collection(&mut self, column: Option<usize>) -> Option<()> {
        if self.path.len() < YAML_SERDE_DEPTH {
            return Some(());
        }
        if let Some(column) = column {
            self.next_content();
            self.too_deep.get_or_insert((self.at, column));
        }
        None
    }

    /// Keys and list positions from the top to the node being read.
    pub fn nesting(&self) -> usize {
        self.path.len()
    }

    pub fn leave_index(&mut self) {
        self.path.pop();
    }

    /// Records that `key` appeared twice in the map at the current path.
    pub fn duplicate(&mut self, key: &Value) {
        let mut out = String::new();
        for seg in &self.path {
            match seg {
                Seg::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(&key_text(k));
                }
                Seg::Index(i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
            }
        }
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(&key_text(key));
        self.duplicates.push(out);
    }

    /// Inserts into `map`, the last value winning in the first position.
    pub fn insert(&mut self, map: &mut yaml_serde::Mapping, key: Value, value: Value) {
        match map.entry(key) {
            yaml_serde::mapping::Entry::Occupied(mut entry) => {
                self.duplicate(entry.key());
                entry.insert(value);
            }
            yaml_serde::mapping::Entry::Vacant(entry) => {
                entry.insert(value);
            }
        }
    }
}
