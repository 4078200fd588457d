//! A guard against YAML whose aliases expand exponentially ("billion laughs").
//!
//! `yaml_serde` replays an anchor's events at every alias, with a limit of 100 alias
//! jumps per event of the document: a few hundred bytes stay small, but padding a
//! file with events raises that limit, and a 1 MB file can expand to billions of
//! values. Before parsing, a document that uses aliases is walked once without
//! building anything, counting values; past [`budget`] it is refused.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IgnoredAny, Visitor};

/// Values a document may expand to beyond one per byte of its text (a document
/// without aliases never holds more values than it has bytes).
pub const ALIAS_ALLOWANCE: usize = 1_000_000;

/// How many values `text` may expand to.
pub fn budget(text: &str) -> usize {
    text.len().saturating_add(ALIAS_ALLOWANCE)
}

/// `Err` with a message when `text` uses aliases that expand past [`budget`].
/// Syntax errors are left for the real parser, which reports them with a location.
pub fn check(text: &str) -> Result<(), String> {
    if !uses_aliases(text) {
        return Ok(());
    }
    let seen = Cell::new(0);
    let counter = Counter {
        seen: &seen,
        budget: budget(text),
    };
    match counter.deserialize(yaml_serde::Deserializer::from_str(text)) {
        Err(_) if seen.get() > budget(text) => Err(format!(
            "its aliases (`*name`) expand to more than {} values: refused as an alias bomb",
            budget(text)
        )),
        _ => Ok(()),
    }
}

/// `yaml_serde::from_str` behind the guard.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, yaml_serde::Error> {
    check(text).map_err(<yaml_serde::Error as de::Error>::custom)?;
    yaml_serde::from_str(text)
}

/// Whether `text` may hold both an anchor (`&name`) and an alias (`*name`) where
/// YAML allows one: after a space, a line start or a flow indicator. Markdown bold
/// (`**x**`) and prose such as `R&D` do not count.
fn uses_aliases(text: &str) -> bool {
    let mark = |sigil: u8| {
        let bytes = text.as_bytes();
        bytes.iter().enumerate().any(|(i, &b)| {
            b == sigil
                && (i == 0
                    || bytes
                        .get(i - 1)
                        .is_some_and(|p| b" \t\n\r[{,:-".contains(p)))
                && bytes
                    .get(i + 1)
                    .is_some_and(|n| !n.is_ascii_whitespace() && !b",[]{}*&".contains(n))
        })
    };
    mark(b'&') && mark(b'*')
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
mod tests {
    use super::*;

    /// `levels` anchors, each a list of `fanout` aliases of the one before, after
    /// `padding` plain values that raise the parser's own alias limit.
    fn bomb(levels: usize, fanout: usize, padding: usize) -> String {
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
    fn syntax_errors_are_left_to_the_parser() {
        assert_eq!(check("a: &x [1\nb: *x\n"), Ok(()));
        let err = from_str::<yaml_serde::Value>("a: &x [1\nb: *x\n").unwrap_err();
        assert!(err.location().is_some(), "{err}");
    }
}
