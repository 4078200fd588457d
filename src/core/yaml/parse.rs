//! A fast reader for the YAML that workflow files are written in: block maps and
//! lists, plain, quoted and block scalars, flow lists and maps, comments, anchors
//! and aliases in value position (`alias.rs`). It gives
//! exactly the value `yaml_serde` would (duplicate keys kept last, in the first
//! position, and reported, as `jerry::parse` does), at a fraction of the cost:
//! one pass over the lines, no event list, no second tree.
//!
//! CRLF line breaks are read as LF (as YAML reads them). Anything it cannot
//! vouch for returns `None`, and the caller parses with
//! `yaml_serde`: tags, anchors and aliases as keys (and the other cases
//! `alias.rs` names), directives and second documents,
//! complex (`?`) and flow keys, tabs outside quotes and comments, carriage
//! returns not followed by a line feed, control characters,
//! explicit indentation indicators, anything YAML calls an error. Equality with
//! `yaml_serde` is checked over every corpus and fixture file, by a property
//! test over generated documents, and by the `fast_yaml` fuzz target.

use crate::core::yaml::guard;
use yaml_serde::Value;

mod alias;
mod block;
mod cursor;
mod flow;
mod literal;
mod quoted;
mod scalar;

use cursor::Cursor;

/// The document, and the dotted paths of keys that appeared more than once in
/// their map (in the order `jerry::parse` reports them).
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub doc: Value,
    pub duplicates: Vec<String>,
}

/// `yaml_serde` reads at most this many collections nested in one another.
const YAML_SERDE_DEPTH: usize = 128;

/// The deepest key or list position read here (a scalar there sits in the 128th
/// collection; a collection there would be the 129th).
const MAX_DEPTH: usize = YAML_SERDE_DEPTH;

/// The document as `yaml_serde` would read it, or `None` when it is not in the
/// subset read here (or not valid YAML). The top level must be a block map.
pub fn parse(text: &str) -> Option<Parsed> {
    read(text).ok().flatten()
}

/// Block maps or lists nested past the 128 levels `yaml_serde` reads, found
/// before the rest of the document is read: `yaml_serde` would refuse it too,
/// but only after reading every event of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct TooDeep {
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for TooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "recursion limit exceeded: block maps and lists nest more than {YAML_SERDE_DEPTH} levels deep \
             (the most the YAML reader takes): refused unparsed at line {} column {}",
            self.line, self.column
        )
    }
}

/// What the fast reader refuses itself, as `yaml_serde` would refuse it.
#[derive(Debug, Clone, PartialEq)]
pub enum Refused {
    TooDeep(TooDeep),
    /// Aliases that expand past the guard's value budget (`guard::alias_bomb`
    /// says so, at the first alias), in a document otherwise read whole: the
    /// guarded `yaml_serde` read would count the same values in the same order
    /// and refuse it there, after reading every event of the file.
    AliasBomb,
}

/// [`parse`], or why the document is refused: block nesting past what
/// `yaml_serde` reads, or aliases past the guard's budget.
pub fn read(text: &str) -> Result<Option<Parsed>, Refused> {
    read_within(text, guard::budget(text))
}

/// [`read`] with the value budget of the text as written (`text` may be its
/// copy with LF line breaks, a byte shorter a line).
fn read_within(text: &str, budget: usize) -> Result<Option<Parsed>, Refused> {
    if let Some(lf) = with_lf_breaks(text) {
        return read_within(&lf, budget);
    }
    if !plain_characters(text) {
        return Ok(None);
    }
    let mut cursor = Cursor::new(text);
    cursor.aliases = alias::Aliases::new(budget);
    let read = read_with(cursor, text)?;
    match read {
        // Copies stopped being made, and the document needs them: read it again.
        Some((counted, true, _)) => {
            drop(counted);
            let mut cursor = Cursor::new(text);
            cursor.aliases = alias::Aliases::making_every_copy(budget);
            Ok(read_with(cursor, text)?.map(|(parsed, _, _)| parsed))
        }
        Some((parsed, false, _)) => Ok(Some(parsed)),
        None => Ok(None),
    }
}

/// Whether the document is read here and stays within the limits `yaml_serde`
/// and the guard apply (nesting, the value budget, the repetition limit), found
/// without copying any alias: `Ok(false)` when it is not in the subset read
/// here, and [`read`]'s refusal when it is refused. For a caller that parses
/// only a part of the text, yet must refuse what a parse of the whole would.
pub fn within_limits(text: &str) -> Result<bool, Refused> {
    Ok(read_counting(text)?.is_some())
}

/// A document read without copying its aliases.
pub struct Counted {
    /// The document, each alias a stand-in nested as deeply as its copy.
    pub shape: Value,
    /// The values a read making every copy builds, keys included.
    pub values: usize,
}

/// The document as [`read`] reads it, no alias copied: what a caller with a
/// budget of its own checks before the copies are made. `Ok(None)` when it is
/// not in the subset read here, and [`read`]'s refusal when it is refused.
pub fn read_counting(text: &str) -> Result<Option<Counted>, Refused> {
    counting_within(text, guard::budget(text))
}

fn counting_within(text: &str, budget: usize) -> Result<Option<Counted>, Refused> {
    if let Some(lf) = with_lf_breaks(text) {
        return counting_within(&lf, budget);
    }
    if !plain_characters(text) {
        return Ok(None);
    }
    let mut cursor = Cursor::new(text);
    cursor.aliases = alias::Aliases::only_counting(budget);
    Ok(read_with(cursor, text)?.map(|(parsed, _, values)| Counted {
        shape: parsed.doc,
        values,
    }))
}

/// The document `cursor` reads, whether its copies stopped being made, and the
/// values built (copies included, made or not).
fn read_with<'a>(
    mut cursor: Cursor<'a>,
    text: &'a str,
) -> Result<Option<(Parsed, bool, usize)>, Refused> {
    let Some(doc) = block::document(&mut cursor) else {
        return match cursor.too_deep {
            // Past the budget first: `yaml_serde` would refuse the aliases first.
            Some(_) if cursor.aliases.over_budget() => Ok(None),
            Some((line, column)) => Err(Refused::TooDeep(TooDeep {
                line: line + 1,
                column,
            })),
            None => Ok(None),
        };
    };
    if !cursor.aliases.within_limits() {
        // Refused here only when nothing else could stop `yaml_serde` first:
        // no repetition limit reached, no refusal by the guard's own scan.
        if cursor.aliases.over_budget_first() && guard::check_unexpanded(text).is_ok() {
            return Err(Refused::AliasBomb);
        }
        return Ok(None);
    }
    let counted_only = cursor.aliases.counting_only;
    let values = cursor.aliases.built();
    let parsed = Parsed {
        doc,
        duplicates: cursor.duplicates,
    };
    Ok(Some((parsed, counted_only, values)))
}

/// The finished map, its spare room given back. Maps start with room for one
/// entry and grow to three at the second, so most of a file's maps (one or two
/// entries) would hold one or two unused 168-byte slots: a third of the memory of
/// a file of small flow maps, each page of it a page fault.
fn fitted_map(mut map: yaml_serde::Mapping) -> Value {
    if map.capacity() > map.len() + 1 {
        map.shrink_to_fit();
    }
    Value::Mapping(map)
}

/// The finished list, its spare room given back (lists grow by doubling).
fn fitted_list(mut items: Vec<Value>) -> Value {
    if items.capacity() > items.len() + 1 {
        items.shrink_to_fit();
    }
    Value::Sequence(items)
}

/// `text` with its CRLF line breaks as LF, when it has some and no other
/// carriage return: YAML reads every line break as a line feed, in scalars too
/// (a file saved on Windows read by `yaml_serde` took a hook 110–140 ms a
/// megabyte).
fn with_lf_breaks(text: &str) -> Option<String> {
    let mut crs = memchr::memchr_iter(b'\r', text.as_bytes()).peekable();
    crs.peek()?;
    let bytes = text.as_bytes();
    crs.all(|i| bytes.get(i + 1) == Some(&b'\n'))
        .then(|| text.replace("\r\n", "\n"))
}

/// No carriage return, control character other than tab, or character YAML
/// treats as a line break (NEL, LS, PS) or refuses (C1 controls, BOM inside,
/// U+FFFE/FFFF). Tabs are read inside quoted scalars and comments only.
fn plain_characters(text: &str) -> bool {
    let bytes = text.as_bytes();
    // Without an early exit, so that the compiler can vectorise it.
    let controls = bytes.iter().fold(false, |found, &b| {
        found | ((b < 0x20) & (b != b'\n') & (b != b'\t')) | (b == 0x7f)
    });
    if controls {
        return false;
    }
    // The refused characters above U+007F start with one of these bytes.
    !memchr::memchr3_iter(0xc2, 0xe2, 0xef, bytes).any(|i| {
        let next = |k: usize| bytes.get(i + k).copied().unwrap_or_default();
        match bytes.get(i) {
            Some(0xc2) => (0x80..=0x9f).contains(&next(1)),
            Some(0xe2) => next(1) == 0x80 && matches!(next(2), 0xa8 | 0xa9),
            _ => matches!(
                (next(1), next(2)),
                (0xbb, 0xbf) | (0xbf, 0xbe) | (0xbf, 0xbf)
            ),
        }
    })
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
