//! Random valid YAML in the styles real files use (block and flow collections,
//! plain / quoted / block scalars, comments, blank lines, CRLF), with the lines each
//! node occupies, so an edit can be checked to keep every other line; random new
//! values for edits; and alias bombs.

use resume_tui::core::edit::{NewValue, Seg};

use super::source::Source;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Scalar,
    Seq,
    Map,
}

/// A node of the generated document: its path, its kind, and its lines (0-based,
/// inclusive; for a map entry the key's line is the first).
#[derive(Debug, Clone)]
pub struct Node {
    pub path: Vec<Seg>,
    pub kind: Kind,
    pub first_line: usize,
    pub last_line: usize,
    /// Keys of a map, as they read back.
    pub keys: Vec<String>,
    /// Inside a flow collection (shares its line with its siblings).
    pub in_flow: bool,
}

pub struct Doc {
    pub text: String,
    pub line_count: usize,
    pub nodes: Vec<Node>,
}

const KEYS: [&str; 16] = [
    "resumption",
    "workflow",
    "recovery_state",
    "decision_log",
    "compaction_events",
    "files_to_read",
    "next_step",
    "updated_at",
    "id",
    "note",
    "k",
    "x-y",
    "\"quoted key\"",
    "'single key'",
    "_under",
    "dotted.key",
];

const PLAIN: [&str; 18] = [
    "alpha",
    "ACTIVE",
    "qg-2-iteration-1",
    "RD-001",
    "2026-03-02T10:00:00Z",
    "projects/PROJ-001/plan.md",
    "éte",
    "日本語",
    "a b c",
    "x:y",
    "yes",
    "1.0",
    "0x1F",
    "1e3",
    ".inf",
    "null",
    "~",
    "-12",
];

/// Strings with the characters YAML treats specially.
pub const TRICKY: [&str; 24] = [
    "",
    " lead",
    "trail ",
    "a: b",
    "a #b",
    "# c",
    "- item",
    "[x]",
    "{y: 1}",
    "&anchor",
    "*alias",
    "!tag",
    "%dir",
    "@at",
    "`tick`",
    "|",
    "> f",
    "? q",
    "it's \"quoted\"",
    "line\nbreak",
    "tab\there",
    "back\\slash",
    "esc\u{1b}[31m bidi\u{202e} ls\u{2028}",
    "emoji 🚀 é",
];

fn key_text(raw: &str) -> String {
    raw.trim_matches(|c| c == '"' || c == '\'').to_string()
}

fn scalar(src: &mut Source) -> String {
    match src.below(8) {
        0 => src.below(100_000).to_string(),
        1 => format!("{}.{}", src.below(100), src.below(1000)),
        2 => src.pick(&["true", "false", "~", "null", ""]).to_string(),
        3 | 4 => src.pick(&PLAIN).to_string(),
        5 => single_quoted(src.pick::<&str>(&TRICKY)),
        _ => serde_json::to_string(src.pick(&TRICKY)).unwrap(),
    }
}

/// Single quotes hold no line break or control character; those become spaces.
fn single_quoted(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
        .collect();
    format!("'{}'", clean.replace('\'', "''"))
}

fn flow_scalar(src: &mut Source) -> String {
    match src.below(4) {
        0 => src.below(1000).to_string(),
        1 => src.pick(&["alpha", "RD-002", "true", "null"]).to_string(),
        2 => single_quoted(src.pick::<&str>(&TRICKY)),
        _ => serde_json::to_string(src.pick(&TRICKY)).unwrap(),
    }
}

fn comment(src: &mut Source) -> &'static str {
    if src.chance(40) {
        src.pick::<&str>(&[" # note", " # a: b", " #"])
    } else {
        ""
    }
}

struct Gen<'s, 'a> {
    src: &'s mut Source<'a>,
    lines: Vec<String>,
    nodes: Vec<Node>,
    budget: usize,
}

impl Gen<'_, '_> {
    fn filler(&mut self, indent: usize) {
        if self.src.chance(30) {
            self.lines.push(String::new());
        }
        if self.src.chance(30) {
            self.lines
                .push(format!("{}# comment: here", " ".repeat(indent)));
        }
    }

    fn node(&mut self, path: Vec<Seg>, kind: Kind, first: usize, keys: Vec<String>, in_flow: bool) {
        let last = self.lines.len().saturating_sub(1).max(first);
        self.nodes.push(Node {
            path,
            kind,
            first_line: first,
            last_line: last,
            keys,
            in_flow,
        });
    }

    /// A scalar of a flow collection written on the one line `line`: `path`'s `seg`.
    fn flow_item(&mut self, path: &[Seg], seg: Seg, line: usize) {
        let mut item = path.to_vec();
        item.push(seg);
        self.nodes.push(Node {
            path: item,
            kind: Kind::Scalar,
            first_line: line,
            last_line: line,
            keys: Vec::new(),
            in_flow: true,
        });
    }

    fn fresh_keys(&mut self, count: usize) -> Vec<String> {
        let mut keys: Vec<String> = Vec::new();
        for i in 0..count {
            let raw = if self.src.chance(100) {
                format!("k{i}")
            } else {
                self.src.pick(&KEYS).to_string()
            };
            if !keys.iter().any(|k| key_text(k) == key_text(&raw)) {
                keys.push(raw);
            }
        }
        keys
    }

    /// The value after `head` (`key:` or `-`), on the head's line or below it.
    fn value(&mut self, head: String, path: Vec<Seg>, indent: usize, depth: usize, dash: bool) {
        let first = self.lines.len();
        self.budget = self.budget.saturating_sub(1);
        let choice = if depth > 4 || self.budget == 0 {
            self.src.below(3)
        } else {
            self.src.below(9)
        };
        match choice {
            0 | 1 => {
                let value = scalar(self.src);
                let sep = if value.is_empty() { "" } else { " " };
                self.lines
                    .push(format!("{head}{sep}{value}{}", comment(self.src)));
                self.node(path, Kind::Scalar, first, Vec::new(), false);
            }
            2 => {
                let chomp = *self.src.pick(&["|", "|-", ">"]);
                self.lines.push(format!("{head} {chomp}"));
                for _ in 0..=self.src.below(3) {
                    let text = *self
                        .src
                        .pick(&["text line", "more: text", "é # not a comment"]);
                    self.lines.push(format!("{}{text}", " ".repeat(indent + 2)));
                }
                self.node(path, Kind::Scalar, first, Vec::new(), false);
            }
            3 => self.flow_seq(head, path),
            4 => self.flow_map(head, path),
            5 | 6 => {
                self.lines.push(head);
                let inner = if !dash && self.src.chance(128) {
                    indent
                } else {
                    indent + 2
                };
                self.block_seq(path.clone(), inner, depth + 1);
                self.node(path, Kind::Seq, first, Vec::new(), false);
            }
            _ => {
                self.lines.push(head);
                let keys = self.block_map(path.clone(), indent + 2, depth + 1, true);
                self.node(path, Kind::Map, first, keys, false);
            }
        }
    }

    fn flow_seq(&mut self, head: String, path: Vec<Seg>) {
        let first = self.lines.len();
        let count = self.src.below(4);
        let items: Vec<String> = (0..count).map(|_| flow_scalar(self.src)).collect();
        for i in 0..count {
            self.flow_item(&path, Seg::Index(i), first);
        }
        self.lines.push(format!(
            "{head} [{}]{}",
            items.join(", "),
            comment(self.src)
        ));
        self.node(path, Kind::Seq, first, Vec::new(), false);
    }

    fn flow_map(&mut self, head: String, path: Vec<Seg>) {
        let first = self.lines.len();
        let count = self.src.below(4);
        let keys: Vec<String> = self
            .fresh_keys(count)
            .into_iter()
            .filter(|k| !k.starts_with('"') && !k.starts_with('\''))
            .collect();
        let mut entries = Vec::new();
        for key in &keys {
            self.flow_item(&path, Seg::Key(key_text(key)), first);
            entries.push(format!("{key}: {}", flow_scalar(self.src)));
        }
        self.lines.push(format!(
            "{head} {{{}}}{}",
            entries.join(", "),
            comment(self.src)
        ));
        let keys = keys.iter().map(|k| key_text(k)).collect();
        self.node(path, Kind::Map, first, keys, false);
    }

    /// Entries at `indent`; returns the keys as they read back.
    /// `filler_first: false` keeps the first key on the first line (a list item's).
    fn block_map(
        &mut self,
        path: Vec<Seg>,
        indent: usize,
        depth: usize,
        filler_first: bool,
    ) -> Vec<String> {
        let count = 1 + self.src.below(4);
        let keys = self.fresh_keys(count);
        let pad = " ".repeat(indent);
        for (i, key) in keys.iter().enumerate() {
            if i > 0 || filler_first {
                self.filler(indent);
            }
            let mut child = path.clone();
            child.push(Seg::Key(key_text(key)));
            self.value(format!("{pad}{key}:"), child, indent, depth, false);
        }
        keys.iter().map(|k| key_text(k)).collect()
    }

    fn block_seq(&mut self, path: Vec<Seg>, indent: usize, depth: usize) {
        let pad = " ".repeat(indent);
        for i in 0..1 + self.src.below(4) {
            self.filler(indent);
            let mut child = path.clone();
            child.push(Seg::Index(i));
            if self.src.chance(90) && depth <= 4 {
                // A map item: its first key on the dash line.
                let first = self.lines.len();
                let keys = self.block_map(child.clone(), indent + 2, depth + 1, false);
                if let Some(line) = self.lines.get_mut(first) {
                    *line = format!("{pad}- {}", &line[indent + 2..]);
                }
                self.node(child, Kind::Map, first, keys, false);
            } else {
                self.value(format!("{pad}-"), child, indent, depth, true);
            }
        }
    }
}

/// A random document whose top level is a map, or `None` when the bytes run out
/// before it is built.
pub fn document(src: &mut Source) -> Option<Doc> {
    let crlf = src.chance(30);
    let final_newline = !src.chance(20);
    let mut g = Gen {
        src,
        lines: Vec::new(),
        nodes: Vec::new(),
        budget: 40,
    };
    if g.src.chance(40) {
        g.lines.push("# generated".to_string());
    }
    let keys = g.block_map(Vec::new(), 0, 0, true);
    let last = g.lines.len().saturating_sub(1);
    g.nodes.push(Node {
        path: Vec::new(),
        kind: Kind::Map,
        first_line: 0,
        last_line: last,
        keys,
        in_flow: false,
    });
    let line_count = g.lines.len();
    let mut text = g.lines.join(if crlf { "\r\n" } else { "\n" });
    if final_newline {
        text.push_str(if crlf { "\r\n" } else { "\n" });
    }
    Some(Doc {
        text,
        line_count,
        nodes: g.nodes,
    })
}

/// A new value for an edit.
pub fn new_value(src: &mut Source, depth: usize) -> NewValue {
    match src.below(if depth > 1 { 6 } else { 8 }) {
        0 => NewValue::Null,
        1 => NewValue::Bool(src.chance(128)),
        2 => NewValue::Int(*src.pick(&[0, 7, -3, i64::MAX, i64::MIN, 1_772_445_600])),
        3 => NewValue::Float(*src.pick(&[0.5, -1e300, 0.1 + 0.2, 1.0, f64::INFINITY, 1e-7])),
        4 | 5 => NewValue::Str(src.pick(&TRICKY).to_string()),
        6 => NewValue::List(
            (0..src.below(3))
                .map(|_| new_value(src, depth + 1))
                .collect(),
        ),
        _ => {
            let mut entries: Vec<(String, NewValue)> = Vec::new();
            for _ in 0..src.below(3) {
                let key = if src.chance(128) {
                    src.pick(&TRICKY).to_string()
                } else {
                    src.pick(&["id", "decision", "applied", "a key"])
                        .to_string()
                };
                if !entries.iter().any(|(k, _)| *k == key) {
                    entries.push((key, new_value(src, depth + 1)));
                }
            }
            NewValue::Map(entries)
        }
    }
}

/// Anchors whose aliases nest `depth` levels deep, `fanout` wide, after padding that
/// raises the parser's own alias budget (which grows with the document's events).
pub fn alias_bomb(src: &mut Source) -> String {
    let fanout = 2 + src.below(11);
    let depth = 1 + src.below(12);
    // 20,000 values let the parser's own limit allow 2,000,000 alias jumps: enough
    // for 10 million values. (More only slows the instrumented fuzz build down.)
    let padding = *src.pick(&[0usize, 1_000, 5_000, 20_000]);
    let as_maps = src.chance(100);
    let mut doc = String::from("workflow:\n  id: bomb\n  status: ACTIVE\n");
    if padding > 0 {
        doc.push_str("pad: [");
        doc.push_str(&vec!["1"; padding].join(","));
        doc.push_str("]\n");
    }
    doc.push_str("a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n");
    for level in 1..=depth {
        let refs: Vec<String> = (0..fanout)
            .map(|i| {
                if as_maps {
                    format!("k{i}: *a{}", level - 1)
                } else {
                    format!("*a{}", level - 1)
                }
            })
            .collect();
        let (open, close) = if as_maps { ('{', '}') } else { ('[', ']') };
        doc.push_str(&format!(
            "a{level}: &a{level} {open}{}{close}\n",
            refs.join(", ")
        ));
    }
    doc.push_str(&format!("resumption:\n  next_step: *a{depth}\n"));
    doc
}

/// A document of anchors and aliases where files put them (after a key or a
/// dash, block and flow, nested, merge keys), with now and then what YAML or the
/// fast reader treats otherwise: a name anchored twice, an alias before its
/// anchor or inside it, an anchor on a key.
pub fn alias_document(src: &mut Source) -> String {
    let mut defined: Vec<String> = Vec::new();
    let mut out = String::new();
    for entry in 0..1 + src.below(10) {
        let anchor = |src: &mut Source, defined: &mut Vec<String>| {
            let name = if !defined.is_empty() && src.chance(4) {
                src.pick(defined).clone()
            } else {
                format!("a{}-{}", defined.len(), src.pick(&["x", "y_1", "Z"]))
            };
            defined.push(name.clone());
            format!("&{name}")
        };
        let alias = |src: &mut Source, defined: &[String]| {
            if defined.is_empty() || src.chance(8) {
                "*nowhere".to_string()
            } else {
                format!("*{}", src.pick(defined))
            }
        };
        out.push_str(&format!("k{entry}:"));
        let kinds = if src.chance(8) { 9 } else { 8 };
        match src.below(kinds) {
            0 => out.push_str(&format!(" {} {}\n", anchor(src, &mut defined), scalar(src))),
            1 => out.push_str(&format!(" {}{}\n", alias(src, &defined), comment(src))),
            2 => {
                let a = anchor(src, &mut defined);
                let inner = alias(src, &defined);
                let note = comment(src);
                out.push_str(&format!(
                    " {a}{note}\n  sub: {}\n  list:\n    - {inner}\n    - {}\n",
                    flow_scalar(src),
                    scalar(src)
                ));
            }
            3 => {
                let a = anchor(src, &mut defined);
                let (x, y) = (alias(src, &defined), alias(src, &defined));
                out.push_str(&format!(" [{a} {}, {x}, {{m: {y}}}]\n", flow_scalar(src)));
            }
            4 => {
                let a = anchor(src, &mut defined);
                let x = alias(src, &defined);
                out.push_str(&format!("\n  - {a} {{x: {}}}\n  - {x}\n", flow_scalar(src)));
            }
            5 => out.push_str(&format!("\n  <<: {}\n  own: 1\n", alias(src, &defined))),
            6 => {
                // Aliases inside an anchored node (and, now and then, to itself).
                let (x, y) = (alias(src, &defined), alias(src, &defined));
                let a = anchor(src, &mut defined);
                let z = if src.chance(16) {
                    alias(src, &defined)
                } else {
                    x.clone()
                };
                out.push_str(&format!(" {a} [{x}, {y}, {z}]\n"));
            }
            7 => {
                let a = anchor(src, &mut defined);
                out.push_str(&format!(" {a} |\n  literal {}\n", src.below(100)));
            }
            _ => {
                // An anchor or an alias as a key, which the fast reader leaves.
                let a = anchor(src, &mut defined);
                out.push_str(&format!("\n  {a} key: {}\n", scalar(src)));
            }
        }
        if src.exhausted() {
            break;
        }
    }
    out
}
