//! Finds where a key sits in YAML text by scanning indentation, so that warnings
//! about parsed values can point at a line and column. Best effort: it never fails
//! or panics, it only answers `None` when it cannot tell.

use std::collections::{HashMap, HashSet, VecDeque};

/// The 1-based line and column of the last key of `path` (for example
/// `["resumption", "files_to_read"]`). Keys inside list items count as children
/// of the list's key. A path whose tail lies in a one-line flow map
/// (`resumption: {next_step: x}`) is found too.
pub fn locate_key(text: &str, path: &[&str]) -> Option<(usize, usize)> {
    if path.is_empty() {
        return None;
    }
    let mut stack: Vec<(usize, String)> = Vec::new();
    for event in Scanner::new(text) {
        let line = match event {
            Event::NewDocument => {
                stack.clear();
                continue;
            }
            Event::Key(line) => line,
            Event::FlowItem(item) => {
                while stack.last().is_some_and(|(i, _)| *i >= item.column) {
                    stack.pop();
                }
                if is_prefix(&stack, path) {
                    let tail = path.get(stack.len()..).unwrap_or_default();
                    if let Some(col) = find_in_flow(&item.chars, item.value_start, tail) {
                        return Some((item.number, col + 1));
                    }
                }
                continue;
            }
        };
        while stack.last().is_some_and(|(i, _)| *i >= line.column) {
            stack.pop();
        }
        stack.push((line.column, line.key));
        if stack_matches(&stack, path) {
            return Some((line.number, line.column + 1));
        }
        if line.chars.get(line.value_start) == Some(&'{') && is_prefix(&stack, path) {
            let tail = path.get(stack.len()..).unwrap_or_default();
            if let Some(col) = find_in_flow(&line.chars, line.value_start, tail) {
                return Some((line.number, col + 1));
            }
        }
    }
    None
}

/// Where every key of one text sits, found in one scan, for locating many
/// warnings: [`locate_key`] scans the text from the top at each call, so a file
/// with a warning per entry cost (entries × size): 25,000 warnings after half a
/// megabyte took seconds. Answers exactly what [`locate_key`] answers.
#[derive(Default)]
pub struct KeyIndex {
    /// Each key path's first line and column (1-based).
    keys: HashMap<Vec<String>, (usize, usize)>,
    /// The paths one-line flow maps sit under, numbered.
    parents: HashMap<Vec<String>, usize>,
    /// (parent, hash of a key that `find_in_flow` could match first, flow map),
    /// sorted once built: one list rather than a list per key (20,000 flow maps
    /// each with its own key made 60,000 small allocations and hashes).
    flows: Vec<(usize, u64, usize)>,
    /// Every one-line flow map by parent, in document order.
    flows_under: HashMap<usize, Vec<usize>>,
    flow_lines: Vec<FlowLine>,
    answers: HashMap<Vec<String>, Option<(usize, usize)>>,
    /// The last flow map's parent path and number: the lines of a list of flow
    /// maps share one, and comparing it costs less than hashing it again.
    last_parent: Option<(Vec<String>, usize)>,
}

struct FlowLine {
    number: usize,
    chars: Vec<char>,
    value_start: usize,
}

/// Flow-map keys longer than this (in characters) are not indexed; a path whose
/// key is that long, holds a `:` or ends in a space is looked for in every flow
/// map under its parent.
const INDEXED_FLOW_KEY: usize = 64;

impl KeyIndex {
    pub fn new(text: &str) -> Self {
        let mut index = KeyIndex::default();
        // The open keys' columns, and their names (a slice of which is a path).
        let mut columns: Vec<usize> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        let close = |columns: &mut Vec<usize>, names: &mut Vec<String>, column: usize| {
            while columns.last().is_some_and(|i| *i >= column) {
                columns.pop();
                names.pop();
            }
        };
        for event in Scanner::new(text) {
            let mut line = match event {
                Event::NewDocument => {
                    columns.clear();
                    names.clear();
                    continue;
                }
                Event::Key(line) => line,
                Event::FlowItem(item) => {
                    close(&mut columns, &mut names, item.column);
                    index.add_flow(&names, item);
                    continue;
                }
            };
            close(&mut columns, &mut names, line.column);
            columns.push(line.column);
            names.push(std::mem::take(&mut line.key));
            if !index.keys.contains_key(names.as_slice()) {
                index
                    .keys
                    .insert(names.clone(), (line.number, line.column + 1));
            }
            if line.chars.get(line.value_start) == Some(&'{') {
                index.add_flow(&names, line);
            }
        }
        // By parent and key, then in document order.
        index.flows.sort_unstable();
        index.flows.dedup();
        index
    }

    fn add_flow(&mut self, names: &[String], line: KeyLine) {
        let at = self.flow_lines.len();
        let parent = match &self.last_parent {
            Some((path, parent)) if path.as_slice() == names => *parent,
            _ => {
                let parent = match self.parents.get(names) {
                    Some(&parent) => parent,
                    None => {
                        let next = self.parents.len();
                        self.parents.insert(names.to_vec(), next);
                        next
                    }
                };
                self.last_parent = Some((names.to_vec(), parent));
                parent
            }
        };
        self.flows_under.entry(parent).or_default().push(at);
        for key in flow_key_hashes(&line.chars, line.value_start) {
            self.flows.push((parent, key, at));
        }
        self.flow_lines.push(FlowLine {
            number: line.number,
            chars: line.chars,
            value_start: line.value_start,
        });
    }

    /// What `locate_key(text, path)` answers, without scanning the text again.
    pub fn locate(&mut self, path: &[&str]) -> Option<(usize, usize)> {
        if path.is_empty() {
            return None;
        }
        let owned: Vec<String> = path.iter().map(|k| (*k).to_string()).collect();
        if let Some(answer) = self.answers.get(&owned) {
            return *answer;
        }
        let mut best = self.keys.get(&owned).copied();
        for split in 0..path.len() {
            let (parent, tail) = path.split_at(split);
            let Some(first) = tail.first() else { continue };
            let parent: Vec<String> = parent.iter().map(|k| (*k).to_string()).collect();
            let Some(&parent) = self.parents.get(&parent) else {
                continue;
            };
            let indexed = first.chars().count() <= INDEXED_FLOW_KEY
                && !first.contains(':')
                && !first.ends_with(char::is_whitespace);
            let candidates: Vec<usize> = if indexed {
                let wanted = (parent, key_hash(first.chars()));
                let start = self.flows.partition_point(|(p, k, _)| (*p, *k) < wanted);
                self.flows
                    .get(start..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|(p, k, _)| (*p, *k) == wanted)
                    .map(|(_, _, at)| *at)
                    .collect()
            } else {
                self.flows_under.get(&parent).cloned().unwrap_or_default()
            };
            let found = candidates.iter().find_map(|&at| {
                let line = self.flow_lines.get(at)?;
                let column = find_in_flow(&line.chars, line.value_start, tail)?;
                Some((line.number, column + 1))
            });
            best = match (best, found) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        self.answers.insert(owned, best);
        best
    }
}

/// FNV-1a over the characters: cheap, and a collision costs only a check by
/// `find_in_flow`, which every candidate gets anyway.
fn key_hash(key: impl Iterator<Item = char>) -> u64 {
    key.fold(0xcbf2_9ce4_8422_2325, |hash, c| {
        (hash ^ u64::from(u32::from(c))).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The hashes of the keys `find_in_flow` could match first in a one-line flow
/// map: at each boundary, the text up to the next `:` without its trailing
/// spaces, when that is at most [`INDEXED_FLOW_KEY`] long. Every key without a
/// `:` and trailing spaces that `find_in_flow` matches is among them.
fn flow_key_hashes(chars: &[char], from: usize) -> Vec<u64> {
    // For each character, the end of the trimmed text before the next `:` (and
    // that `:`), found walking back from the line's end.
    let mut ends: Vec<Option<usize>> = Vec::with_capacity(chars.len());
    let mut next: Option<usize> = None;
    let mut trimmed_end: Option<usize> = None;
    for (i, c) in chars.iter().enumerate().rev() {
        if *c == ':' {
            next = Some(i);
            trimmed_end = None;
        } else if trimmed_end.is_none() && next.is_some() && !c.is_whitespace() {
            trimmed_end = Some(i + 1);
        }
        ends.push(trimmed_end.filter(|_| *c != ':'));
    }
    ends.reverse();
    let mut keys = Vec::new();
    for (i, end) in ends.iter().enumerate().skip(from) {
        let boundary = i == 0
            || chars
                .get(i - 1)
                .is_some_and(|c| matches!(c, '{' | ',' | ' ' | '\t'));
        match end {
            Some(end) if boundary && *end > i && end - i <= INDEXED_FLOW_KEY => {
                let key = chars.get(i..*end).unwrap_or_default();
                keys.push(key_hash(key.iter().copied()));
            }
            _ => {}
        }
    }
    keys
}

/// Keys written more than once in the same block map, in document order: the
/// key path (list items are not counted) and the 1-based line and column of the
/// repeated key.
/// Linear in the text: each map's keys are kept in a hash set (a list searched
/// per key made 50,000 entries with one duplicate cost seconds).
pub fn locate_duplicate_keys(text: &str) -> Vec<(Vec<String>, usize, usize)> {
    struct Frame {
        column: usize,
        key: String,
        children: HashSet<String>,
    }
    let mut found = Vec::new();
    let mut root: HashSet<String> = HashSet::new();
    let mut stack: Vec<Frame> = Vec::new();
    for event in Scanner::new(text) {
        let line = match event {
            Event::NewDocument => {
                stack.clear();
                root.clear();
                continue;
            }
            Event::Key(line) => line,
            Event::FlowItem(_) => continue,
        };
        while stack.last().is_some_and(|f| f.column >= line.column) {
            stack.pop();
        }
        let siblings = match stack.last_mut() {
            Some(parent) => &mut parent.children,
            None => &mut root,
        };
        if line.dashed {
            // A new list item is a new map.
            siblings.clear();
        }
        if !siblings.insert(line.key.clone()) {
            let mut path: Vec<String> = stack.iter().map(|f| f.key.clone()).collect();
            path.push(line.key.clone());
            found.push((path, line.number, line.column + 1));
        }
        stack.push(Frame {
            column: line.column,
            key: line.key,
            children: HashSet::new(),
        });
    }
    found
}

/// The located duplicates by key path, each path's in document order: taking
/// one is a hash lookup, so naming every duplicate of a file stays linear.
#[derive(Default)]
pub struct DuplicateKeys(HashMap<Vec<String>, VecDeque<(usize, usize)>>);

impl DuplicateKeys {
    pub fn locate(text: &str) -> Self {
        let mut by_path: HashMap<Vec<String>, VecDeque<(usize, usize)>> = HashMap::new();
        for (path, line, column) in locate_duplicate_keys(text) {
            by_path.entry(path).or_default().push_back((line, column));
        }
        Self(by_path)
    }

    /// The first not yet taken position of a duplicate at `keys`.
    pub fn take(&mut self, keys: &[&str]) -> Option<(usize, usize)> {
        let path: Vec<String> = keys.iter().map(|k| (*k).to_string()).collect();
        self.0.get_mut(&path)?.pop_front()
    }
}

enum Event {
    /// `---` or `...`: what follows is a new document.
    NewDocument,
    Key(KeyLine),
    /// A list item that is a one-line flow map: `- {id: x, score: 1}`.
    FlowItem(KeyLine),
}

/// A line that starts with a key (after any list dashes).
struct KeyLine {
    /// 1-based.
    number: usize,
    /// 0-based, in characters.
    column: usize,
    key: String,
    /// The key follows a `- ` list marker.
    dashed: bool,
    chars: Vec<char>,
    /// Where the value after `key:` starts (past spaces).
    value_start: usize,
}

/// The key lines of a YAML text, skipping comments, block scalars and quoted
/// scalars that span lines.
struct Scanner<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    skip: Skip,
}

#[cfg(test)]
thread_local! {
    /// How many times this thread scanned a text (each call of `locate_key` and
    /// each index is one): tests count them to check that warnings do not rescan.
    pub static SCANS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        #[cfg(test)]
        SCANS.with(|n| n.set(n.get() + 1));
        Self {
            lines: text.lines().enumerate(),
            skip: Skip::None,
        }
    }
}

impl Iterator for Scanner<'_> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        for (number, raw) in self.lines.by_ref() {
            let chars: Vec<char> = raw.trim_end_matches('\r').chars().collect();
            let indent = chars
                .iter()
                .take_while(|c| **c == ' ' || **c == '\t')
                .count();
            let content_empty = chars.get(indent).is_none_or(|c| *c == '#');
            match self.skip {
                Skip::BlockDeeperThan(min) if content_empty || indent > min => continue,
                Skip::Quote(quote) => {
                    if closes_quote(chars.iter().copied(), quote) {
                        self.skip = Skip::None;
                    }
                    continue;
                }
                _ => self.skip = Skip::None,
            }
            if content_empty {
                continue;
            }
            if starts_with(&chars, indent, "---") || starts_with(&chars, indent, "...") {
                return Some(Event::NewDocument);
            }
            let column = skip_dashes(&chars, indent);
            if column > indent && chars.get(column) == Some(&'{') {
                return Some(Event::FlowItem(KeyLine {
                    number: number + 1,
                    column,
                    key: String::new(),
                    dashed: true,
                    chars,
                    value_start: column,
                }));
            }
            let Some(entry) = parse_key(&chars, column) else {
                continue;
            };
            let value_start = first_non_space(&chars, entry.value_start);
            match chars.get(value_start) {
                Some('|' | '>') => self.skip = Skip::BlockDeeperThan(column),
                Some(quote @ ('"' | '\'')) => {
                    let rest = chars.iter().skip(value_start + 1).copied();
                    if !closes_quote(rest, *quote) {
                        self.skip = Skip::Quote(*quote);
                    }
                }
                _ => {}
            }
            return Some(Event::Key(KeyLine {
                number: number + 1,
                column,
                key: entry.key,
                dashed: column > indent,
                chars,
                value_start,
            }));
        }
        None
    }
}

#[derive(Clone, Copy)]
enum Skip {
    None,
    /// Inside a block scalar (`|`, `>`): lines indented deeper than this belong to it.
    BlockDeeperThan(usize),
    /// Inside a quoted scalar that spans lines.
    Quote(char),
}

struct KeyEntry {
    key: String,
    /// Index just past the `:`.
    value_start: usize,
}

fn starts_with(chars: &[char], at: usize, prefix: &str) -> bool {
    prefix
        .chars()
        .enumerate()
        .all(|(i, p)| chars.get(at + i) == Some(&p))
}

fn first_non_space(chars: &[char], from: usize) -> usize {
    let mut i = from;
    while chars.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    i
}

/// Skips list-item markers (`- `, `- - `) and returns where the item's content starts.
fn skip_dashes(chars: &[char], from: usize) -> usize {
    let mut i = from;
    while chars.get(i) == Some(&'-') && chars.get(i + 1).is_none_or(|c| c.is_whitespace()) {
        i = first_non_space(chars, i + 1);
    }
    i
}

/// A `key:` starting at `at` (plain, single- or double-quoted).
fn parse_key(chars: &[char], at: usize) -> Option<KeyEntry> {
    let first = *chars.get(at)?;
    let (key, after) = match first {
        '"' | '\'' => {
            let mut key = String::new();
            let mut i = at + 1;
            loop {
                let c = *chars.get(i)?;
                if c == '\\' && first == '"' {
                    key.push(*chars.get(i + 1)?);
                    i += 2;
                } else if c == first && first == '\'' && chars.get(i + 1) == Some(&'\'') {
                    key.push('\'');
                    i += 2;
                } else if c == first {
                    break;
                } else {
                    key.push(c);
                    i += 1;
                }
            }
            let colon = first_non_space(chars, i + 1);
            (chars.get(colon) == Some(&':')).then_some(())?;
            (key, colon + 1)
        }
        '{' | '[' | '#' | '&' | '*' | '!' | '|' | '>' | '%' | '@' | '`' | '?' => return None,
        _ => {
            let mut i = at;
            loop {
                let c = *chars.get(i)?;
                if c == ':' && chars.get(i + 1).is_none_or(|n| n.is_whitespace()) {
                    break;
                }
                if c == '#' && i > at && chars.get(i - 1).is_some_and(|p| p.is_whitespace()) {
                    return None;
                }
                i += 1;
            }
            let key: String = chars.iter().skip(at).take(i - at).collect();
            (key.trim_end().to_string(), i + 1)
        }
    };
    if after < chars.len() && chars.get(after).is_some_and(|c| !c.is_whitespace()) {
        return None;
    }
    Some(KeyEntry {
        key,
        value_start: after,
    })
}

/// Does the rest of the line close a quoted scalar opened with `quote`?
fn closes_quote(rest: impl Iterator<Item = char>, quote: char) -> bool {
    let mut escaped = false;
    let mut pending_single = false;
    for c in rest {
        if pending_single {
            // `''` inside a single-quoted scalar is an escaped quote.
            pending_single = false;
            if c == '\'' {
                continue;
            }
            return true;
        }
        if escaped {
            escaped = false;
        } else if c == '\\' && quote == '"' {
            escaped = true;
        } else if c == quote {
            if quote == '"' {
                return true;
            }
            pending_single = true;
        }
    }
    pending_single
}

fn stack_matches(stack: &[(usize, String)], path: &[&str]) -> bool {
    stack.len() == path.len() && is_prefix(stack, path)
}

fn is_prefix(stack: &[(usize, String)], path: &[&str]) -> bool {
    stack.len() <= path.len() && stack.iter().zip(path).all(|((_, k), p)| k == p)
}

/// Finds the keys of `tail` in turn inside a one-line flow map starting at `from`.
fn find_in_flow(chars: &[char], from: usize, tail: &[&str]) -> Option<usize> {
    let mut pos = from;
    let mut found = None;
    for key in tail {
        let at = (pos..chars.len()).find(|&i| {
            let boundary = i == 0
                || chars
                    .get(i - 1)
                    .is_some_and(|c| matches!(c, '{' | ',' | ' ' | '\t'));
            boundary && starts_with(chars, i, key) && {
                let after = first_non_space(chars, i + key.chars().count());
                chars.get(after) == Some(&':')
            }
        })?;
        found = Some(at);
        pos = at + key.chars().count();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\
# comment: not a key
workflow:
  id: \"wf-1\"   # trailing: comment
resumption:
  recovery_state:
    next_step: |
      files_to_read: inside a block scalar
    updated_at: '2026-01-01'
  \"files_to_read\":
    - path: a.md
      priority: 1
    - b.md
  note: \"multi
    files_to_read: inside a quote\"
  compaction_events: {count: 2, events: []}
";

    #[test]
    fn finds_nested_keys_and_keys_in_list_items() {
        assert_eq!(locate_key(DOC, &["workflow", "id"]), Some((3, 3)));
        assert_eq!(locate_key(DOC, &["resumption"]), Some((4, 1)));
        assert_eq!(
            locate_key(DOC, &["resumption", "recovery_state", "updated_at"]),
            Some((8, 5))
        );
        assert_eq!(
            locate_key(DOC, &["resumption", "files_to_read"]),
            Some((9, 3))
        );
        assert_eq!(
            locate_key(DOC, &["resumption", "files_to_read", "priority"]),
            Some((11, 7))
        );
    }

    #[test]
    fn skips_block_scalars_quotes_and_comments() {
        assert_eq!(
            locate_key(DOC, &["resumption", "recovery_state", "files_to_read"]),
            None
        );
        assert_eq!(locate_key(DOC, &["resumption", "note"]), Some((13, 3)));
        assert_eq!(
            locate_key(DOC, &["resumption", "compaction_events"]),
            Some((15, 3))
        );
        assert_eq!(locate_key(DOC, &["comment"]), None);
    }

    #[test]
    fn finds_keys_in_one_line_flow_maps() {
        assert_eq!(
            locate_key(DOC, &["resumption", "compaction_events", "events"]),
            Some((15, 33))
        );
        assert_eq!(
            locate_key("r: {a: 1, b: {c: 2}}\n", &["r", "b", "c"]),
            Some((1, 15))
        );
        let items = "r:\n  list:\n    - {id: a, score: 1}\n    - {id: b}\n";
        assert_eq!(locate_key(items, &["r", "list", "score"]), Some((3, 15)));
        assert_eq!(locate_key(items, &["r", "list", "missing"]), None);
    }

    #[test]
    fn tolerates_tabs_crlf_unicode_and_garbage() {
        assert_eq!(locate_key("a:\r\n\tb: 1\r\n", &["a", "b"]), Some((2, 2)));
        assert_eq!(locate_key("é: 1\nü:\n  k: 2\n", &["ü", "k"]), Some((3, 3)));
        for garbage in [
            "",
            ":",
            "- - -",
            "\"unterminated: ",
            "'a'':b': 1",
            "{[",
            "\u{0}\u{1}",
        ] {
            let _ = locate_key(garbage, &["a", "b"]);
        }
        assert_eq!(locate_key("a: 1\n", &[]), None);
        assert_eq!(locate_key("'a''b': 1\n", &["a'b"]), Some((1, 1)));
    }

    #[test]
    fn a_new_document_resets_the_path() {
        let text = "a:\n  b: 1\n---\nb: 2\n";
        assert_eq!(locate_key(text, &["b"]), Some((4, 1)));
    }

    #[test]
    fn duplicate_keys_are_found_per_map_and_per_list_item() {
        let text = "a: 1\nb:\n  - x: 1\n    y: |\n      x: in a block\n    x: 2\n  - x: 3\nc:\n  x: 1\na: 4\n";
        let found = locate_duplicate_keys(text);
        let simple: Vec<_> = found
            .iter()
            .map(|(p, l, c)| (p.join("."), *l, *c))
            .collect();
        assert_eq!(
            simple,
            vec![("b.x".to_string(), 6, 5), ("a".to_string(), 10, 1)]
        );
    }

    proptest::proptest! {
        #[test]
        fn never_panics(text in r#"[ \t\-:#'"{}\[\],|>a-c\n\r]{0,80}"#) {
            let _ = locate_key(&text, &["a", "b"]);
            let _ = locate_key(&text, &["a"]);
            let _ = locate_duplicate_keys(&text);
        }

        /// The index answers what a scan per key answers, on any text.
        #[test]
        fn the_index_answers_as_locate_key(
            text in r#"[ \t\-:#'"{}\[\],|>a-c\n]{0,120}"#,
            paths in proptest::collection::vec(proptest::collection::vec("[a-c]|a b|a:b", 1..4), 1..6),
        ) {
            let mut index = KeyIndex::new(&text);
            for path in &paths {
                let path: Vec<&str> = path.iter().map(String::as_str).collect();
                proptest::prop_assert_eq!(index.locate(&path), locate_key(&text, &path), "{:?}", path);
            }
        }
    }

    #[test]
    fn the_index_finds_keys_in_flow_maps_and_blocks_in_document_order() {
        let text = "r:\n  list:\n    - {id: a, score: 1}\n    - {id: b, a:b: 2, long key  : 3}\n  \
                    list2: {x: {y: 1}}\n  score: 4\n";
        let mut index = KeyIndex::new(text);
        for path in [
            vec!["r", "list", "score"],
            vec!["r", "list", "a:b"],
            vec!["r", "list", "long key"],
            vec!["r", "list2", "x", "y"],
            vec!["r", "score"],
            vec!["r", "missing"],
            vec!["r", "list", "id"],
        ] {
            assert_eq!(index.locate(&path), locate_key(text, &path), "{path:?}");
        }
        assert_eq!(index.locate(&["r", "list", "a:b"]), Some((4, 15)));
        assert_eq!(index.locate(&["r", "list2", "x", "y"]), Some((5, 15)));
    }
}

#[cfg(test)]
mod linear_tests {
    use super::*;

    /// 100,000 keys in one map, each written twice: a list of siblings searched
    /// per key (the old way) is 10¹⁰ comparisons here, minutes even optimised;
    /// a hash set finishes at once. Every duplicate is found and located.
    #[test]
    fn duplicates_among_many_keys_are_found_in_linear_time() {
        const KEYS: usize = 100_000;
        let mut text = String::from("resumption:\n  agent_summaries:\n");
        for round in 0..2 {
            for i in 0..KEYS {
                text.push_str(&format!("    agent-{i}: round {round}\n"));
            }
        }
        let found = locate_duplicate_keys(&text);
        assert_eq!(found.len(), KEYS);
        let mut located = DuplicateKeys::locate(&text);
        for i in 0..KEYS {
            let key = format!("agent-{i}");
            let at = located.take(&["resumption", "agent_summaries", &key]);
            assert_eq!(at, Some((3 + KEYS + i, 5)), "{key}");
        }
        assert_eq!(
            located.take(&["resumption", "agent_summaries", "agent-0"]),
            None
        );
    }
}
