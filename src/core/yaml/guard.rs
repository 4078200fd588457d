//! Guards run before YAML is parsed, against documents that would take unbounded
//! time or memory.
//!
//! - Aliases that expand exponentially ("billion laughs"): `yaml_serde` replays an
//!   anchor's events at every alias, with a limit of 100 alias jumps per event of the
//!   document: a few hundred bytes stay small, but padding a file with events raises
//!   that limit, and a 1 MB file can expand to billions of values. A document that
//!   uses aliases is walked once without building anything, counting values; past
//!   [`budget`] it is refused.
//! - Deep flow nesting (`[[[[…]]]]`): the YAML scanner checks every open flow level
//!   at every token, so 100,000 levels (200 KB) took minutes before the parser's own
//!   depth limit (128) could refuse them. Flow nesting past [`MAX_FLOW_DEPTH`] is
//!   refused after one linear scan.
//! - Complex keys (`? [a, b] : c`, `{[a, b]: c}`): each is hashed and named whole
//!   as it is inserted, and one nested in another multiplies that; past
//!   [`MAX_COMPLEX_KEYS`] the document is refused in the same scan.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IgnoredAny, Visitor};

use super::error_at::{first_alias, line_column, locate, sigil_at, with_position};

/// Values a document may expand to beyond one per byte of its text (a document
/// without aliases never holds more values than it has bytes).
pub const ALIAS_ALLOWANCE: usize = 100_000;

/// How many values `text` may expand to.
pub fn budget(text: &str) -> usize {
    text.len().saturating_add(ALIAS_ALLOWANCE)
}

/// Flow collections nested deeper than this are refused unparsed (the parser
/// refuses anything past 128 levels anyway).
pub const MAX_FLOW_DEPTH: usize = 256;

/// `Err` with a message when `text` nests flow collections past [`MAX_FLOW_DEPTH`]
/// or uses aliases that expand past [`budget`]. Syntax errors are left for the
/// real parser, which reports them with a location.
pub fn check(text: &str) -> Result<(), String> {
    check_unexpanded(text)?;
    if !uses_aliases(text) {
        return Ok(());
    }
    #[cfg(test)]
    COUNTING_PARSES.with(|n| n.set(n.get() + 1));
    let seen = Cell::new(0);
    let counter = Counter {
        seen: &seen,
        budget: budget(text),
    };
    match counter.deserialize(yaml_serde::Deserializer::from_str(text)) {
        Err(_) if seen.get() > budget(text) => Err(alias_bomb(text)),
        _ => Ok(()),
    }
}

#[cfg(test)]
thread_local! {
    /// How many times [`check`] parsed a document to count its values.
    pub static COUNTING_PARSES: Cell<usize> = const { Cell::new(0) };
}

/// [`check`] without the alias count, for a reader that counts the values it
/// builds against [`budget`] itself (one parse instead of two): flow nesting,
/// the work inside it and complex keys, in one linear scan.
pub fn check_unexpanded(text: &str) -> Result<(), String> {
    match flow_too_deep(text, MAX_FLOW_DEPTH) {
        Some(FlowRefusal::Deep(at)) => {
            let (line, column) = line_column(text, at);
            Err(format!(
                "`[` and `{{` nest more than {MAX_FLOW_DEPTH} levels deep: refused unparsed at line {line} column {column}"
            ))
        }
        Some(FlowRefusal::Work(at)) => {
            let (line, column) = line_column(text, at);
            Err(format!(
                "so much of the file lies inside deeply nested `[` and `{{` that reading it would take \
                 more than {} steps (each byte costs its nesting depth): refused unparsed at line {line} column {column}",
                flow_work_budget(text.len())
            ))
        }
        Some(FlowRefusal::ComplexKeys(at)) => {
            let (line, column) = line_column(text, at);
            Err(format!(
                "more than {MAX_COMPLEX_KEYS} complex keys (`? key`, or a list or map used as a key): \
                 refused unparsed at line {line} column {column}"
            ))
        }
        None => Ok(()),
    }
}

/// The refusal of a document whose aliases expand past [`budget`].
pub fn alias_bomb(text: &str) -> String {
    with_position(
        &format!(
            "its aliases (`*name`) expand to more than {} values: refused as an alias bomb",
            budget(text)
        ),
        first_alias(text),
    )
}

/// `yaml_serde::from_str` behind the guard.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, yaml_serde::Error> {
    check(text).map_err(<yaml_serde::Error as de::Error>::custom)?;
    yaml_serde::from_str(text).map_err(|e| locate(text, e))
}

/// Whether `text` may hold both an anchor (`&name`) and an alias (`*name`) where
/// YAML allows one: after a space, a line start or a flow indicator. Markdown bold
/// (`**x**`) and prose such as `R&D` do not count.
fn uses_aliases(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mark = |sigil: u8| (0..bytes.len()).any(|i| sigil_at(bytes, i, sigil));
    mark(b'&') && mark(b'*')
}

/// The byte where flow collections first nest past `max`, by a scan that knows
/// quotes, comments and block scalars: outside a flow collection, `[` and `{` open
/// one only where a value starts (after `: `, `- `, `? `, or first on a line);
/// inside one, every bracket outside quotes counts.
/// What the YAML scanner may spend on flow nesting: it looks at every open flow
/// level at every token, so a byte inside `depth` levels costs `depth`. Real files
/// nest one or two levels; a megabyte inside 200 levels took seconds.
pub fn flow_work_budget(len: usize) -> usize {
    len.saturating_mul(8).saturating_add(1 << 20)
}

/// Complex keys allowed in one document: each is hashed and named whole at
/// every insertion, a key nested in a key multiplies that, and the files this
/// reads are written by tools that never produce one.
pub const MAX_COMPLEX_KEYS: usize = 1_000;

#[derive(Debug, PartialEq)]
enum FlowRefusal {
    /// The complex key past [`MAX_COMPLEX_KEYS`] starts at this byte.
    ComplexKeys(usize),
    /// Nested past the depth allowed, at this byte.
    Deep(usize),
    /// Past [`flow_work_budget`], at this byte.
    Work(usize),
}

fn flow_too_deep(text: &str, max: usize) -> Option<FlowRefusal> {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    let (mut work, budget) = (0usize, flow_work_budget(text.len()));
    // Whether only spaces (or an indicator) came since the line or value began.
    let mut value_start = true;
    let mut indent = indent_at(bytes, 0);
    // The indentation of the line whose value is a block scalar (`|`, `>`).
    let mut block_scalar: Option<usize> = None;
    // The open flow collections (`[` or `{`), and whether a key may start here
    // (just after a flow map's `{` or `,`).
    let mut open: Vec<u8> = Vec::new();
    let mut key_start = false;
    let mut complex_keys = 0usize;
    let mut complex = |at: usize| {
        complex_keys += 1;
        (complex_keys > MAX_COMPLEX_KEYS).then_some(FlowRefusal::ComplexKeys(at))
    };
    while let Some(&b) = bytes.get(i) {
        if !matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            key_start = key_start && matches!(b, b'[' | b'{');
        }
        work = work.saturating_add(depth);
        if work > budget {
            return Some(FlowRefusal::Work(i));
        }
        match b {
            b'\n' => {
                value_start = true;
                indent = indent_at(bytes, i + 1);
                let rest = bytes.get(i + 1 + indent..).unwrap_or_default();
                let blank = rest.first().is_none_or(|&c| c == b'\n' || c == b'\r');
                match block_scalar {
                    Some(parent) if blank || indent > parent => {
                        // A line of the block scalar: text, skipped whole.
                        while bytes.get(i + 1).is_some_and(|&n| n != b'\n') {
                            i += 1;
                        }
                    }
                    _ => block_scalar = None,
                }
            }
            b'#' if i == 0 || bytes.get(i - 1).is_some_and(u8::is_ascii_whitespace) => {
                while bytes.get(i + 1).is_some_and(|&n| n != b'\n') {
                    i += 1;
                }
            }
            b'|' | b'>' if value_start && depth == 0 => {
                block_scalar = Some(indent);
                value_start = false;
            }
            b'"' | b'\'' if value_start => {
                i = closing_quote(bytes, i).unwrap_or(bytes.len());
                value_start = false;
            }
            b'[' | b'{' if value_start || depth > 0 => {
                if key_start && let Some(refusal) = complex(i) {
                    return Some(refusal);
                }
                depth += 1;
                if depth > max {
                    return Some(FlowRefusal::Deep(i));
                }
                open.push(b);
                value_start = true;
                key_start = b == b'{';
                i += 1;
                continue;
            }
            b']' | b'}' if depth > 0 => {
                depth -= 1;
                open.pop();
                value_start = false;
            }
            b',' if depth > 0 => {
                value_start = true;
                key_start = open.last() == Some(&b'{');
                i += 1;
                continue;
            }
            b'?' if value_start && bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace) => {
                if let Some(refusal) = complex(i) {
                    return Some(refusal);
                }
                value_start = true;
            }
            b':' | b'-' | b'?' => {
                value_start = bytes
                    .get(i + 1)
                    .is_none_or(|n| n.is_ascii_whitespace() || depth > 0 && b == b':');
            }
            b' ' | b'\t' | b'\r' => {}
            _ => value_start = false,
        }
        i += 1;
    }
    None
}

/// Spaces at `at` (the start of a line).
fn indent_at(bytes: &[u8], at: usize) -> usize {
    bytes
        .get(at..)
        .map_or(0, |rest| rest.iter().take_while(|&&b| b == b' ').count())
}

/// The index of the quote closing the quoted scalar opened at `open` (a `"` with
/// backslash escapes, or a `'` where `''` is a quote), or `None` when it never
/// closes.
pub(crate) fn closing_quote(bytes: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    match *bytes.get(open)? {
        b'"' => loop {
            i += memchr::memchr2(b'\\', b'"', bytes.get(i..)?)?;
            match bytes.get(i)? {
                b'\\' => i += 2,
                _ => return Some(i),
            }
        },
        b'\'' => loop {
            i += memchr::memchr(b'\'', bytes.get(i..)?)?;
            if bytes.get(i + 1) != Some(&b'\'') {
                return Some(i);
            }
            i += 2;
        },
        _ => None,
    }
}

#[derive(Clone, Copy)]
struct Counter<'a> {
    seen: &'a Cell<usize>,
    budget: usize,
}

impl Counter<'_> {
    fn bump<E: de::Error>(&self) -> Result<(), E> {
        let n = self.seen.get().saturating_add(1);
        self.seen.set(n);
        if n > self.budget {
            Err(E::custom("alias budget exceeded"))
        } else {
            Ok(())
        }
    }
}

impl<'de> DeserializeSeed<'de> for Counter<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Counter<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.bump()
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.bump()
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.bump()
    }

    fn visit_i128<E: de::Error>(self, _: i128) -> Result<(), E> {
        self.bump()
    }

    fn visit_u128<E: de::Error>(self, _: u128) -> Result<(), E> {
        self.bump()
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.bump()
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.bump()
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.bump()
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.bump()
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.deserialize(d)
    }

    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.bump()?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.bump()?;
        while map.next_key_seed(self)?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        use de::VariantAccess;
        let (IgnoredAny, contents) = data.variant()?;
        contents.newtype_variant_seed(self)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `levels` anchors, each a list of `fanout` aliases of the one before, after
    /// `padding` plain values that raise the parser's own alias limit.
    pub(crate) fn bomb(levels: usize, fanout: usize, padding: usize) -> String {
        let mut doc = format!(
            "pad: [{}]\na0: &a0 [lol, lol]\n",
            vec!["1"; padding].join(",")
        );
        for level in 1..=levels {
            let refs = vec![format!("*a{}", level - 1); fanout].join(", ");
            doc.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
        }
        doc
    }

    #[test]
    fn an_alias_bomb_is_refused_before_it_expands() {
        let doc = bomb(9, 10, 200_000);
        let err = check(&doc).unwrap_err();
        assert!(err.contains("refused as an alias bomb"), "{err}");
        let typed = from_str::<yaml_serde::Value>(&doc).unwrap_err();
        assert!(typed.to_string().contains("alias bomb"), "{typed}");
    }

    #[test]
    fn ordinary_aliases_and_lookalikes_pass() {
        let merge = "defaults: &d {a: 1, b: 2}\nx:\n  <<: *d\n  c: 3\ny: *d\n";
        assert_eq!(check(merge), Ok(()));
        assert_eq!(from_str::<yaml_serde::Value>(merge).unwrap()["y"]["b"], 2);
        assert!(!uses_aliases("note: \"**bold** R&D a*b\"\n"));
        assert!(uses_aliases("a: &x 1\nb: *x\n"));
        assert_eq!(check(&bomb(3, 10, 0)), Ok(()), "1,000 values is nothing");
    }

    #[test]
    fn deep_flow_nesting_is_refused_before_the_scanner_sees_it() {
        let deep = format!("a: 1\nb: {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let err = check(&deep).unwrap_err();
        assert!(err.contains("more than 256 levels deep"), "{err}");
        assert!(err.ends_with("at line 2 column 260"), "{err}");
        let ok = format!("b: {}1{}\n", "[{".repeat(100), "}]".repeat(100));
        assert_eq!(flow_too_deep(&ok, MAX_FLOW_DEPTH), None);
    }

    #[test]
    fn brackets_in_text_are_not_nesting() {
        let prose =
            "note: see [1 and [2 and {3\ntext: |\n  [[[[\nq: \"[[[[\"\nr: '[[[[''[['\n# [[[[[\n";
        assert_eq!(flow_too_deep(&prose.repeat(100), 3), None);
        assert_eq!(
            flow_too_deep("a: [[[[1]]]]\n", 3),
            Some(FlowRefusal::Deep(6))
        );
        let text = "a:\n- [\n  [\n    [ [ '[', x]]]]\n";
        let Some(FlowRefusal::Deep(at)) = flow_too_deep(text, 3) else {
            panic!("not refused as deep")
        };
        assert_eq!(super::line_column(text, at), (4, 7));
    }

    /// 200 levels (within the depth allowed) around a megabyte of items: the
    /// scanner's cost is depth × tokens, so it is refused, with its position.
    #[test]
    fn much_text_inside_deep_flow_nesting_is_refused_with_its_position() {
        let items = "1, ".repeat(350_000);
        let text = format!("a: 1\nb: {}{items}{}\n", "[".repeat(200), "]".repeat(200));
        let err = check(&text).unwrap_err();
        assert!(err.contains("refused unparsed at line 2 column"), "{err}");
        assert!(err.contains("nesting depth"), "{err}");
        // The same items two levels deep are read.
        let shallow = format!("a: 1\nb: [[{items}]]\n");
        assert_eq!(check(&shallow), Ok(()));
    }

    /// Issue 33 item 3: complex keys are bounded in number, counted in the same
    /// scan, and the one past the limit is named by line and column.
    #[test]
    fn too_many_complex_keys_are_refused_at_the_one_past_the_limit() {
        let block = |n: usize| {
            let keys: String = (0..n).map(|i| format!("  ? [a{i}, b]\n  : c\n")).collect();
            format!("workflow:\n  id: w\nm:\n{keys}")
        };
        assert_eq!(check(&block(MAX_COMPLEX_KEYS)), Ok(()));
        let err = check(&block(MAX_COMPLEX_KEYS + 1)).unwrap_err();
        let line = 4 + 2 * MAX_COMPLEX_KEYS;
        assert!(
            err.ends_with(&format!("complex keys (`? key`, or a list or map used as a key): refused unparsed at line {line} column 3")),
            "{err}"
        );
        let typed = from_str::<yaml_serde::Value>(&block(MAX_COMPLEX_KEYS + 1)).unwrap_err();
        assert!(
            typed.to_string().contains("more than 1000 complex keys"),
            "{typed}"
        );

        let flow = |n: usize| {
            let items: String = (0..n)
                .map(|i| format!("  - {{x: 1, [a{i}, b]: c}}\n"))
                .collect();
            format!("m:\n{items}")
        };
        assert_eq!(check(&flow(MAX_COMPLEX_KEYS)), Ok(()));
        let err = check(&flow(MAX_COMPLEX_KEYS + 1)).unwrap_err();
        assert!(
            err.ends_with(&format!("line {} column 12", MAX_COMPLEX_KEYS + 2)),
            "{err}"
        );
        // Lists as values, and question marks in text, are not keys.
        let plain: String = (0..2_000)
            .map(|i| format!("k{i}: {{a: [1, {{b: [2]}}], c: what? [x]}}\nq{i}: \"? [a]: b\"\n"))
            .collect();
        assert_eq!(check(&plain), Ok(()));
    }

    #[test]
    fn syntax_errors_are_left_to_the_parser() {
        assert_eq!(check("a: &x [1\nb: *x\n"), Ok(()));
        let err = from_str::<yaml_serde::Value>("a: &x [1\nb: *x\n").unwrap_err();
        assert!(err.location().is_some(), "{err}");
    }
}
