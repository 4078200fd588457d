//! The hook's fast path: an ORCHESTRATION.yaml cut down, by indentation, to the
//! entries the normaliser reads (the `resumption:` block, identity and status
//! keys, quality-gate scores, phase starts), so that only a fifth of a typical
//! file goes through the YAML parser. Whole entries are removed, never parts of a
//! line, so what is kept parses exactly as it did in the full file.
//!
//! Anchors and aliases are kept with their entries. An entry anchored is kept
//! whole, never in part (an alias to it copies all of it); an alias kept
//! whose anchor is not makes the kept text fail to parse, and the caller then
//! parses the whole file. Aliases in entries not kept still count against the
//! YAML limits of the whole file, so the caller checks those
//! ([`Pruned::aliases`]).
//!
//! Anything this line reader cannot vouch for returns `None` and the caller parses
//! the whole file: a top level that is not a block map of plain keys, anchors and
//! aliases as keys, tags, directives and document markers, tabs in indentation,
//! quotes or brackets that never close.

use std::collections::HashSet;

use crate::core::yaml::guard::closing_quote;
use crate::core::yaml::lines as yaml;

/// The kept text and every top-level key in file order (first position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pruned {
    pub text: String,
    pub top_level_keys: Vec<String>,
    /// An anchor or an alias may be in the file, kept or not (a `&` or `*`
    /// starting a block value, or anywhere in a flow collection).
    pub aliases: bool,
}

/// Which entries are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cut {
    /// What the normaliser reads in any reading, `resumption:` whole (its
    /// unknown keys become other fields).
    #[default]
    Full,
    /// What the hooks read: `resumption:` without the keys the normaliser does
    /// not know, which only become other fields, and hooks keep none
    /// (`Reading::ForHooks`).
    Hooks,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// Keep the entry and everything under it.
    Whole,
    /// Keep the entry; decide for each child.
    Descend,
    Drop,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Body {
    /// Nothing yet on the key's line: children (or a scalar) follow, deeper.
    Pending,
    /// A scalar (plain, quoted, flow or block): deeper lines are its text.
    Scalar,
}

struct Frame {
    col: usize,
    want: Want,
    body: Body,
    /// The value runs at least to this byte offset (a quote or bracket closes there).
    until: usize,
    /// Output line of a mapping key and the length of its `key:` part, for `{}`.
    key_line: Option<(usize, usize)>,
    had_children: bool,
    kept_children: bool,
}

pub fn prune(text: &str) -> Option<Pruned> {
    prune_for(text, Cut::Full)
}

pub fn prune_for(text: &str, cut: Cut) -> Option<Pruned> {
    let mut pruner = Pruner {
        text,
        cut,
        aliases: false,
        frames: Vec::new(),
        path: Vec::new(),
        out: Vec::new(),
        top_level_keys: Vec::new(),
        top_level_seen: HashSet::new(),
        seen_content: false,
    };
    for line in yaml::lines(text) {
        pruner.line(line)?;
    }
    while pruner.pop().is_some() {}
    if !pruner.seen_content {
        return None;
    }
    let mut kept = String::with_capacity(text.len() / 4);
    for piece in &pruner.out {
        match piece {
            Piece::Line(start, end) => kept.push_str(text.get(*start..*end)?),
            Piece::Patched(line) => kept.push_str(line),
        }
    }
    Some(Pruned {
        text: kept,
        top_level_keys: pruner.top_level_keys,
        aliases: pruner.aliases,
    })
}

/// A kept line: a byte range of the text, or a rewritten line.
enum Piece {
    Line(usize, usize),
    Patched(String),
}

struct Pruner<'a> {
    text: &'a str,
    cut: Cut,
    aliases: bool,
    frames: Vec<Frame>,
    /// The path of the innermost frame: a key, or `None` for a list item.
    path: Vec<Option<&'a str>>,
    out: Vec<Piece>,
    top_level_keys: Vec<String>,
    /// The same keys, to find one in constant time (a list searched per key made
    /// 30,000 top-level keys cost seconds).
    top_level_seen: HashSet<&'a str>,
    seen_content: bool,
}

impl<'a> Pruner<'a> {
    fn line(&mut self, line: yaml::Line<'a>) -> Option<()> {
        let offset = line.start;
        let len = line.end - line.start;
        // The line reader's indentation (spaces only, so never past the `\r`s).
        let col = line.indent;
        let content = line.text.trim_end_matches('\r').get(col..)?;
        if let Some(top) = self.frames.last()
            && (offset < top.until
                || (top.body == Body::Scalar && (content.is_empty() || col > top.col)))
        {
            // Text of the scalar above (a block scalar keeps even `#` lines).
            self.emit(offset, len);
            return Some(());
        }
        if content.starts_with('\t') {
            return None;
        }
        if content.is_empty() || content.starts_with('#') {
            while self
                .frames
                .last()
                .is_some_and(|f| f.body == Body::Scalar && f.col >= col && !content.is_empty())
            {
                self.pop();
            }
            // Comments and blank lines between entries mean nothing to the parser.
            return Some(());
        }
        if col == 0 && (content.starts_with("---") || content.starts_with("...")) {
            if self.seen_content || self.text.get(..offset).is_some_and(|t| t.contains("---")) {
                return None;
            }
            self.emit(offset, len);
            return Some(());
        }
        if content.starts_with('%') {
            return None;
        }
        let is_dash = content == "-" || content.starts_with("- ");
        while let Some(top) = self.frames.last() {
            let indentless =
                top.col == col && is_dash && top.body == Body::Pending && top.key_line.is_some();
            if top.col < col || indentless {
                break;
            }
            self.pop();
        }
        if self.frames.is_empty() && col != 0 {
            return None;
        }
        self.seen_content = true;
        let index = self.out.len();
        self.emit(offset, len);
        self.content(content, col, offset + col, index, false)?;
        if self.dropped() {
            self.out.truncate(index);
        }
        Some(())
    }

    /// Interprets `content` starting at column `col` (byte `at` of the text) of the
    /// line written as output line `index`.
    fn content(
        &mut self,
        content: &'a str,
        col: usize,
        at: usize,
        index: usize,
        on_dash: bool,
    ) -> Option<()> {
        if content == "-" || content.starts_with("- ") {
            if self.frames.is_empty() {
                return None; // a list at the top level
            }
            let rest = content.get(1..).unwrap_or_default();
            let spaces = rest.bytes().take_while(|b| *b == b' ').count();
            let inner = rest.get(spaces..).unwrap_or_default();
            let skipped = 1 + spaces;
            self.push(None, col, None);
            if inner.is_empty() || inner.starts_with('#') {
                return Some(());
            }
            return self.content(inner, col + skipped, at + skipped, index, true);
        }
        let key = plain_key(content).or_else(|| {
            // Below the top level: a quoted key without escapes (`'2':`, as
            // Python writes a key that looks like a number).
            quoted_key(content).filter(|_| !self.frames.is_empty())
        });
        if let Some((key, after_colon)) = key {
            if self.frames.is_empty() && !top_level_key(key) {
                return None;
            }
            if self.frames.is_empty() && self.top_level_seen.insert(key) {
                self.top_level_keys.push(key.to_string());
            }
            let line_start = at - col;
            let prefix = col + after_colon;
            self.push(Some(key), col, Some((index, prefix)));
            let inherits_drop = self.ancestors_drop();
            if on_dash
                && !inherits_drop
                && let Some(frame) = self.frames.last_mut()
                && frame.want == Want::Drop
            {
                // The first key of a list item shares the item's line: keep it.
                frame.want = Want::Whole;
            }
            let value = content.get(after_colon..).unwrap_or_default();
            let spaces = value.bytes().take_while(|b| *b == b' ').count();
            let value_at = line_start + prefix + spaces;
            return self.value(value.get(spaces..).unwrap_or_default(), value_at);
        }
        if self.frames.is_empty() {
            return None; // the top level is not a map of plain keys
        }
        if self.unread_key(content, at) {
            // A key this reader does not parse (`"q": 1`, `a : 1`): what follows
            // it would go unseen as the text of a scalar.
            return None;
        }
        // A scalar on the line after its key: the value of the entry above.
        self.value(content, at)
    }

    /// The value part of an entry: sets the frame's body and how far it runs.
    fn value(&mut self, value: &str, at: usize) -> Option<()> {
        let (value, at) = match value.as_bytes().first() {
            Some(b'&') => self.anchor(value, at)?,
            Some(b'*') => return self.alias(value),
            _ => (value, at),
        };
        let text = self.text;
        let frame = self.frames.last_mut()?;
        match value.as_bytes().first() {
            None | Some(b'#') => {}
            Some(b'&' | b'!' | b'*' | b'?' | b'@' | b'`') => return None,
            Some(b'|' | b'>') => frame.body = Body::Scalar,
            Some(b'"' | b'\'' | b'[' | b'{') => {
                frame.body = Body::Scalar;
                let (end, aliases) = closing(text, at)?;
                frame.until = end + 1;
                self.aliases |= aliases;
            }
            Some(_) => frame.body = Body::Scalar,
        }
        Some(())
    }

    /// Whether `content` (at byte `at`) holds a key: a `:` that ends a key,
    /// after a quoted or flow scalar or in plain text.
    fn unread_key(&self, content: &str, at: usize) -> bool {
        let after = match content.as_bytes().first() {
            Some(b'"' | b'\'' | b'[' | b'{') => match closing(self.text, at) {
                Some((end, _)) => self.text.get(end + 1..).unwrap_or_default(),
                None => return true,
            },
            // Anchors and aliases are read by `value`; block scalars hold text.
            Some(b'&' | b'*' | b'|' | b'>') => return false,
            _ => content,
        };
        let line = after.split('\n').next().unwrap_or_default();
        let line = line.split(" #").next().unwrap_or_default();
        line.trim_end_matches('\r')
            .split(':')
            .skip(1)
            .any(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
            || line.trim_start().starts_with(':')
    }

    /// `&name` and what follows it: the value anchored, and where it starts.
    /// An entry that would be kept in part is kept whole (an alias to it copies
    /// all of it). Refused before a key (an anchored map whose first key shares
    /// the line).
    fn anchor<'v>(&mut self, value: &'v str, at: usize) -> Option<(&'v str, usize)> {
        let frame = self.frames.last_mut()?;
        if frame.want == Want::Descend {
            frame.want = Want::Whole;
        }
        let rest = after_name(value)?;
        let spaces = rest.bytes().take_while(|b| *b == b' ').count();
        let anchored = rest.get(spaces..)?;
        let anchored_at = at + (value.len() - anchored.len());
        if plain_key(anchored).is_some() || self.unread_key(anchored, anchored_at) {
            return None;
        }
        self.aliases = true;
        Some((anchored, anchored_at))
    }

    /// `*name`: a whole value.
    fn alias(&mut self, value: &str) -> Option<()> {
        let rest = after_name(value)?.trim_start_matches(' ');
        if !(rest.is_empty() || rest.starts_with('#')) {
            return None;
        }
        self.aliases = true;
        self.frames.last_mut()?.body = Body::Scalar;
        Some(())
    }

    /// Opens an entry: a key (`Some`) or a list item (`None`).
    fn push(&mut self, seg: Option<&'a str>, col: usize, key_line: Option<(usize, usize)>) {
        // Whole and Drop pass to every entry below, so the innermost frame has them.
        let inherited = self
            .frames
            .last()
            .map(|f| f.want)
            .filter(|w| *w != Want::Descend);
        self.path.push(seg);
        let want = match (inherited, seg) {
            (Some(want), _) => want,
            (None, None) => Want::Descend,
            (None, Some(_)) => want(&self.path, self.cut),
        };
        if let Some(parent) = self.frames.last_mut() {
            parent.had_children = true;
            parent.kept_children |= want != Want::Drop;
        }
        self.frames.push(Frame {
            col,
            want,
            body: Body::Pending,
            until: 0,
            key_line,
            had_children: false,
            kept_children: false,
        });
    }

    /// Closes the innermost entry; a map that lost every child becomes `{}`.
    fn pop(&mut self) -> Option<()> {
        let frame = self.frames.pop()?;
        self.path.pop();
        if frame.want == Want::Descend
            && frame.had_children
            && !frame.kept_children
            && let Some((index, prefix)) = frame.key_line
            && let Some(piece) = self.out.get_mut(index)
            && let Piece::Line(start, end) = *piece
        {
            let line = self.text.get(start..end).unwrap_or_default();
            let eol = if line.ends_with("\r\n") { "\r\n" } else { "\n" };
            let head = line.get(..prefix).unwrap_or_default();
            *piece = Piece::Patched(format!("{head} {{}}{eol}"));
        }
        Some(())
    }

    fn dropped(&self) -> bool {
        self.frames.last().is_some_and(|f| f.want == Want::Drop)
    }

    /// Whether the entry holding the innermost one is dropped.
    fn ancestors_drop(&self) -> bool {
        let parent = self.frames.len().checked_sub(2);
        parent
            .and_then(|i| self.frames.get(i))
            .is_some_and(|f| f.want == Want::Drop)
    }

    fn emit(&mut self, offset: usize, len: usize) {
        if !self.dropped() {
            self.out.push(Piece::Line(offset, offset + len));
        }
    }
}

/// `key: …` or `key:` with a plain key: the key and the byte just after the colon.
fn plain_key(content: &str) -> Option<(&str, usize)> {
    let bytes = content.as_bytes();
    // A character that is not ASCII starts with a byte above these.
    if matches!(
        bytes.first()?,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    ) {
        return None;
    }
    // One pass (keys are short): the first `: ` (or `:` at the end), refusing a
    // tab or a comment (`#` after a space) before it.
    let mut previous = b'\0';
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b':' if bytes.get(i + 1).is_none_or(|n| matches!(n, b' ' | b'\r')) => {
                if matches!(previous, b' ' | b'\t') {
                    return None;
                }
                return Some((content.get(..i)?, i + 1));
            }
            b'\t' => return None,
            b'#' if previous == b' ' => return None,
            _ => {}
        }
        previous = b;
    }
    None
}

/// `'key':` or `"key":` with nothing to unescape: the key's text and the byte
/// just after the colon.
fn quoted_key(content: &str) -> Option<(&str, usize)> {
    let quote = *content.as_bytes().first()?;
    if !matches!(quote, b'\'' | b'"') {
        return None;
    }
    let end = 1 + content.get(1..)?.find(quote as char)?;
    let key = content.get(1..end)?;
    let escaped = if quote == b'"' {
        key.contains('\\')
    } else {
        content.as_bytes().get(end + 1) == Some(&b'\'')
    };
    let after = content.as_bytes().get(end + 1..)?;
    let colon =
        after.first() == Some(&b':') && after.get(1).is_none_or(|b| matches!(b, b' ' | b'\r'));
    (!escaped && colon && !key.contains(['\n', '\t'])).then_some((key, end + 2))
}

/// Top-level keys are read as plain strings only when YAML would read them so.
fn top_level_key(key: &str) -> bool {
    let mut chars = key.chars();
    let starts_well = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let special = matches!(
        key.to_ascii_lowercase().as_str(),
        "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
    );
    starts_well && !special && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

/// The text after an anchor's or alias's name (`value` starts with its `&` or
/// `*`), which must end the value or be followed by a space; `None` for a name
/// YAML would not read so.
fn after_name(value: &str) -> Option<&str> {
    let end = value
        .bytes()
        .skip(1)
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
        .map_or(value.len(), |n| n + 1);
    let rest = value.get(end..)?;
    (end > 1 && (rest.is_empty() || rest.starts_with(' '))).then_some(rest)
}

/// The byte offset of the quote or bracket closing the one at `at`, and whether
/// a flow collection holds a `&` or `*` outside quotes (an anchor or alias,
/// perhaps). In a flow collection a quote starts a quoted scalar only where a
/// node starts: after `[`, `{`, `,`, a `:` or `?` that ends a key, a comment, a
/// tag or an anchor. Elsewhere it is a letter of a plain scalar (`[Bob's
/// team]`, `[time:'12]`).
fn closing(text: &str, at: usize) -> Option<(usize, bool)> {
    let bytes = text.as_bytes();
    let open = *bytes.get(at)?;
    match open {
        b'"' | b'\'' => Some((closing_quote(bytes, at)?, false)),
        b'[' | b'{' => {
            let mut depth = 0usize;
            let mut aliases = false;
            // Where a node may start, and whether a quoted scalar just ended
            // (`{"a":"b"}`: its `:` ends a key without a space).
            let (mut node_start, mut after_quoted) = (true, false);
            let mut i = at;
            while let Some(&b) = bytes.get(i) {
                let spaced = |k: usize| bytes.get(k).is_none_or(u8::is_ascii_whitespace);
                match b {
                    b'[' | b'{' => {
                        depth += 1;
                        node_start = true;
                    }
                    b']' | b'}' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some((i, aliases));
                        }
                        node_start = false;
                    }
                    b',' => node_start = true,
                    b':' | b'?' => node_start = after_quoted || spaced(i + 1),
                    b'"' | b'\'' if node_start => {
                        i = closing_quote(bytes, i)?;
                        node_start = false;
                        after_quoted = true;
                        i += 1;
                        continue;
                    }
                    b'&' | b'!' | b'*' if node_start => {
                        // A property (or an alias): its name runs to a space or
                        // an indicator; a node may follow an anchor or a tag.
                        aliases |= b != b'!';
                        while bytes.get(i + 1).is_some_and(|n| {
                            !n.is_ascii_whitespace()
                                && !matches!(n, b',' | b'[' | b']' | b'{' | b'}')
                        }) {
                            i += 1;
                        }
                        node_start = b != b'*';
                    }
                    b'&' | b'*' => {
                        aliases = true;
                        node_start = false;
                    }
                    b'#' if i > 0 && bytes.get(i - 1).is_some_and(u8::is_ascii_whitespace) => {
                        i = memchr::memchr(b'\n', bytes.get(i..)?).map_or(bytes.len(), |n| i + n);
                        continue;
                    }
                    _ if b.is_ascii_whitespace() => {
                        i += 1;
                        continue;
                    }
                    _ => node_start = false,
                }
                after_quoted = false;
                i += 1;
            }
            None
        }
        _ => None,
    }
}

/// The workflow's own state keys, read at the top level and under `workflow:`,
/// `state:` and `orchestration:` alike.
const STATE_FIELDS: &[&str] = &[
    "id",
    "name",
    "title",
    "project_id",
    "project",
    "updated_at",
    "last_updated",
    "status",
    "current_phase",
    "current_phase_name",
    "current_activity",
    "current_gate",
    "next_gate",
    "blockers",
    "workflow_status",
    "workflow_complete",
];
/// Under `workflow:` (and `state:`), also these dates.
const WORKFLOW_ONLY_FIELDS: &[&str] = &["updated", "date"];
/// At the top level, also these, kept whole.
const TOP_LEVEL_ONLY_WHOLE: &[&str] = &["resumption", "decisions", "next_actions", "workflow_id"];
const PHASE_FIELDS: &[&str] = &[
    "id",
    "phase",
    "number",
    "status",
    "started_at",
    "start_time",
    "started",
    "name",
    "title",
];
const GATE_FIELDS: &[&str] = &[
    "id",
    "name",
    "score",
    "threshold",
    "max_iterations",
    "status",
    "score_dimensions",
    "iteration_scores",
    "final_score",
    "completed_at",
    "date",
    "scored_at",
    "gate",
    "barrier",
    "quality",
    "result",
    "verdict",
];

/// What the normaliser reads (see `toplevel`, `gates`, `staleness::phase`), by the
/// path of keys (`None` for a list item).
pub(super) fn want(path: &[Option<&str>], cut: Cut) -> Want {
    match path {
        [Some("resumption")] if cut == Cut::Hooks => Want::Descend,
        [Some("resumption"), Some(k)] if cut == Cut::Hooks => field(k, super::section::READ_KEYS),
        [Some(top)] => top_level(top),
        [Some("workflow"), Some(k)] => workflow_field(k),
        [Some("meta"), Some(k)] => field(k, &["project", "last_updated", "updated_at", "status"]),
        [Some("metadata"), Some(k)] => field(k, &["updated_at", "last_updated"]),
        [Some("state" | "orchestration"), Some(k)] => workflow_field(k),
        [Some("pipeline"), Some("phases")] => Want::Descend,
        [Some("pipeline"), Some("phases"), rest @ ..] => phase(rest),
        [Some("pipeline"), Some(k)] => field(k, &["current_phase", "status"]),
        [Some("paths"), Some(k)] => field(k, &["base"]),
        [Some("checkpoints"), Some(k)] => field(k, &["latest_id"]),
        [Some("pipelines"), _] => Want::Descend,
        [Some("pipelines"), _, Some("current_phase" | "status")] => Want::Whole,
        [Some("pipelines"), _, Some("phases")] => Want::Descend,
        [Some("pipelines"), _, Some("phases"), rest @ ..] => phase(rest),
        [Some("phases"), rest @ ..] => phase(rest),
        [Some(block), Some(k)] if is_phase_block(block) => field(k, PHASE_FIELDS),
        [Some("barriers"), rest @ ..] => barrier(rest),
        [Some("metrics"), Some(k)] => field(k, &["quality"]),
        [Some("gates"), Some(_), None, rest @ ..] => gate(rest),
        [Some("gates"), _, rest @ ..] => gate(rest),
        [Some("quality_gates"), Some(_), None, rest @ ..] => gate(rest),
        [Some("quality_gates"), _, rest @ ..] => gate(rest),
        [.., None] => Want::Descend,
        _ => Want::Drop,
    }
}

fn workflow_field(key: &str) -> Want {
    if WORKFLOW_ONLY_FIELDS.contains(&key) {
        Want::Whole
    } else {
        field(key, STATE_FIELDS)
    }
}

fn top_level(key: &str) -> Want {
    let completed = key
        .strip_prefix("phase_")
        .and_then(|k| k.strip_suffix("_completed"))
        .is_some_and(|n| n.parse::<i64>().is_ok());
    if completed || TOP_LEVEL_ONLY_WHOLE.contains(&key) || STATE_FIELDS.contains(&key) {
        Want::Whole
    } else if is_phase_block(key)
        || [
            "workflow",
            "meta",
            "metadata",
            "pipeline",
            "checkpoints",
            "quality_gates",
            "pipelines",
            "phases",
            "state",
            "orchestration",
            "barriers",
            "metrics",
            "gates",
            "paths",
        ]
        .contains(&key)
    {
        Want::Descend
    } else {
        Want::Drop
    }
}

/// A top-level `phase_N` / `phase_N_<words>` block (`state::phase_blocks`); a
/// scalar such as `phase_2_completed: true` is kept whole above.
fn is_phase_block(key: &str) -> bool {
    key.strip_prefix("phase_")
        .and_then(|rest| rest.split('_').next())
        .is_some_and(|n| n.parse::<i64>().is_ok())
}

fn field(key: &str, fields: &[&str]) -> Want {
    if fields.contains(&key) {
        Want::Whole
    } else {
        Want::Drop
    }
}

/// Below `phases`: the entry (a phase), then its fields.
fn phase(rest: &[Option<&str>]) -> Want {
    match rest {
        [] | [_] | [.., None] => Want::Descend,
        [_, Some(k)] => field(k, PHASE_FIELDS),
        _ => Want::Drop,
    }
}

/// Below `barriers`: each barrier's id and status, and the fields of a scored
/// gate (`scored_blocks`).
fn barrier(rest: &[Option<&str>]) -> Want {
    match rest {
        [] | [_] => Want::Descend,
        [_, Some(k)] => gate_field(k),
        _ => Want::Drop,
    }
}

/// A gate's own field, its result (`gates::SCORE_KEYS`) or iteration count.
fn gate_field(key: &str) -> Want {
    let read = [
        GATE_FIELDS,
        super::gates::SCORE_KEYS,
        super::gates::ITERATION_KEYS,
    ];
    if read.iter().any(|keys| keys.contains(&key)) {
        Want::Whole
    } else {
        Want::Drop
    }
}

/// Below a gate: its fields, and the scores of its iteration history.
fn gate(rest: &[Option<&str>]) -> Want {
    match rest {
        [] | [.., None] => Want::Descend,
        [Some("iteration_history")] => Want::Descend,
        [Some("iteration_history"), None, Some(k)] => field(k, &["score", "score_dimensions"]),
        [Some(k)] if k.starts_with("score_iteration_") => Want::Whole,
        [Some(k)] => gate_field(k),
        _ => Want::Drop,
    }
}

#[cfg(test)]
#[path = "prune_tests.rs"]
mod tests;
