//! YAML → `Value` that tolerates duplicate keys. Real Jerry files contain them
//! (the Python tooling that wrote them kept the last value), and `yaml_serde`'s own
//! `Value` rejects the whole file; here the last value wins, as it did for Jerry,
//! and each duplicate is reported so the caller can warn. Tags are dropped.

use std::cell::RefCell;
use std::fmt;

use serde::de::{DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use yaml_serde::{Mapping, Value};

use crate::core::normalize::value::key_text;

pub use crate::core::yaml::parse::Parsed;

/// The document, read by `fast_yaml` when it can and by `yaml_serde` otherwise.
pub fn parse(text: &str) -> Result<Parsed, yaml_serde::Error> {
    crate::core::yaml::parse::parse(text).map_or_else(|| parse_slow(text), Ok)
}

/// The document as `yaml_serde` reads it (behind `yaml_guard`).
pub fn parse_slow(text: &str) -> Result<Parsed, yaml_serde::Error> {
    crate::core::yaml::guard::check(text)
        .map_err(<yaml_serde::Error as serde::de::Error>::custom)?;
    let duplicates = RefCell::new(Vec::new());
    let seed = Seed {
        duplicates: &duplicates,
        path: &Path::Root,
    };
    let doc = seed
        .deserialize(yaml_serde::Deserializer::from_str(text))
        .map_err(|e| crate::core::yaml::error_at::locate(text, e))?;
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
}

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
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
                duplicates: self.duplicates,
                path: &path,
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
                duplicates: self.duplicates,
                path: &path,
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

    #[test]
    fn syntax_errors_keep_their_location() {
        let e = parse("a:\n  b: [1\n").err().unwrap();
        assert!(e.location().is_some());
        assert!(parse("a: 1\n---\nb: 2\n").is_err(), "one document only");
    }
}
