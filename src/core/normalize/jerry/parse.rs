//! YAML → `Value` that tolerates duplicate keys. Real Jerry files contain them
//! (the Python tooling that wrote them kept the last value), and `yaml_serde`'s own
//! `Value` rejects the whole file; here the last value wins, as it did for Jerry,
//! and each duplicate is reported so the caller can warn. Tags are dropped.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use yaml_serde::{Mapping, Value};

use crate::core::normalize::value::key_text;

pub use crate::core::yaml::parse::Parsed;

/// The document, read by `fast_yaml` when it can and by `yaml_serde` otherwise.
pub fn parse(text: &str) -> Result<Parsed, yaml_serde::Error> {
    match crate::core::yaml::parse::read(text) {
        Ok(Some(parsed)) => Ok(parsed),
        Ok(None) => parse_slow(text),
        Err(refused) => Err(refusal(text, refused)),
    }
}

/// The error [`parse`] gives for a document the fast reader refuses.
pub fn refusal(text: &str, refused: crate::core::yaml::parse::Refused) -> yaml_serde::Error {
    use crate::core::yaml::parse::Refused;
    use serde::de::Error;
    match refused {
        Refused::TooDeep(too_deep) => yaml_serde::Error::custom(too_deep),
        Refused::AliasBomb => yaml_serde::Error::custom(crate::core::yaml::guard::alias_bomb(text)),
    }
}

/// The document as `yaml_serde` reads it, behind `core::yaml::guard`: the
/// values built are counted against the guard's budget as they are built, so a
/// document with aliases is parsed once (the guard's own count parses it again).
pub fn parse_slow(text: &str) -> Result<Parsed, yaml_serde::Error> {
    use crate::core::yaml::guard;
    let refused = <yaml_serde::Error as serde::de::Error>::custom;
    guard::check_unexpanded(text).map_err(refused)?;
    let duplicates = RefCell::new(Vec::new());
    let built = Cell::new(0);
    let seed = Seed {
        duplicates: &duplicates,
        path: &Path::Root,
        built: &built,
        budget: guard::budget(text),
    };
    let doc = match seed.deserialize(yaml_serde::Deserializer::from_str(text)) {
        Err(_) if built.get() > guard::budget(text) => {
            return Err(refused(guard::alias_bomb(text)));
        }
        read => read.map_err(|e| crate::core::yaml::error_at::locate(text, e))?,
    };
    Ok(Parsed {
        doc,
        duplicates: duplicates.into_inner(),
    })
}

enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, key) => write!(f, "{key}"),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

#[derive(Clone, Copy)]
struct Seed<'a> {
    duplicates: &'a RefCell<Vec<String>>,
    path: &'a Path<'a>,
    /// Values built so far, refused past `budget` (aliases expand).
    built: &'a Cell<usize>,
    budget: usize,
}

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        let n = self.built.get().saturating_add(1);
        self.built.set(n);
        if n > self.budget {
            return Err(<D::Error as serde::de::Error>::custom(
                "value budget exceeded",
            ));
        }
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Number(i.into()))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        Ok(Value::Number(u.into()))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Number(f.into()))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let path = Path::Index(self.path, items.len());
            let seed = Seed {
                path: &path,
                ..self
            };
            match seq.next_element_seed(seed)? {
                Some(item) => items.push(item),
                None => break,
            }
        }
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut mapping = Mapping::new();
        while let Some(key) = map.next_key_seed(self)? {
            let name = key_text(&key);
            let path = Path::Key(self.path, &name);
            let value = map.next_value_seed(Seed {
                path: &path,
                ..self
            })?;
            // Like the Python loader Jerry used: the last value wins, in the first position.
            if mapping.insert(key, value).is_some() {
                self.duplicates.borrow_mut().push(path.to_string());
            }
        }
        Ok(Value::Mapping(mapping))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (_tag, contents): (String, _) = data.variant()?;
        contents.newtype_variant_seed(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_keep_the_last_value_in_the_first_position() {
        // Both readers: `parse` takes this text on the fast path.
        for read in [parse, parse_slow] {
            let parsed = read("a: 1\nb:\n  - {x: 1, x: 2}\na: 3\n").unwrap();
            let keys: Vec<_> = parsed
                .doc
                .as_mapping()
                .unwrap()
                .keys()
                .map(key_text)
                .collect();
            assert_eq!(keys, vec!["a", "b"]);
            assert_eq!(parsed.doc["a"], Value::from(3));
            assert_eq!(parsed.doc["b"][0]["x"], Value::from(2));
            assert_eq!(parsed.duplicates, vec!["b[0].x", "a"]);
        }
    }

    #[test]
    fn values_match_the_strict_parser_on_clean_input() {
        let text = "a: [1, -2, 3.5, true, ~, 'q']\nb: {c: !custom d, 18446744073709551615: big}\n";
        let strict: Value = yaml_serde::from_str(text).unwrap();
        let lenient = parse(text).unwrap().doc;
        assert_eq!(lenient["a"], strict["a"]);
        assert_eq!(lenient["b"]["c"], Value::from("d"));
        assert!(parse(text).unwrap().duplicates.is_empty());
    }

    /// Issue 33: a document with aliases was parsed twice (the guard's count,
    /// then the read); the read counts what it builds and refuses an alias bomb
    /// itself, naming its first alias.
    #[test]
    fn an_alias_bomb_is_refused_by_the_one_read() {
        // Plain values first raise `yaml_serde`'s own limit of alias jumps.
        let mut doc = format!(
            "pad: [{}]\na0: &a0 [lol, lol]\n",
            vec!["1"; 200_000].join(",")
        );
        for level in 1..=9 {
            let refs = vec![format!("*a{}", level - 1); 10].join(", ");
            doc.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
        }
        let err = parse_slow(&doc).unwrap_err().to_string();
        assert!(err.contains("refused as an alias bomb"), "{err}");
        assert!(err.contains("at line 3 column 10"), "{err}");
        use crate::core::yaml::guard::COUNTING_PARSES;
        let before = COUNTING_PARSES.with(Cell::get);
        let small = parse_slow("d: &d {a: 1}\nx: *d\ny: [*d, *d]\n").unwrap();
        assert_eq!(small.doc["y"][1]["a"], Value::from(1));
        assert_eq!(COUNTING_PARSES.with(Cell::get), before, "parsed once");
    }

    #[test]
    fn syntax_errors_keep_their_location() {
        let e = parse("a:\n  b: [1\n").err().unwrap();
        assert!(e.location().is_some());
        assert!(parse("a: 1\n---\nb: 2\n").is_err(), "one document only");
    }

    /// Block nesting past what `yaml_serde` reads is refused by the fast reader
    /// at the line and column where it starts, not after `yaml_serde` has read
    /// every event of the file.
    #[test]
    fn block_nesting_past_the_limit_is_refused_where_it_starts() {
        let mut deep: String = (0..140)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        deep.push_str(&"x: 1\n".repeat(100));
        let err = parse(&deep).unwrap_err().to_string();
        assert!(err.contains("nest more than 128 levels"), "{err}");
        assert!(err.contains("at line 129 column 129"), "{err}");
    }
}
