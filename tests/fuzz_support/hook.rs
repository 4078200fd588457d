//! Targets over the hook's input side: the stdin payload reader (fed in chunks of
//! any size) and the settings.json merger.

use std::io::Read;
use std::time::Duration;

use resume_tui::hook::install::{OwnExe, SPECS, is_ours, merge, parse};
use resume_tui::hook::stdin::{Payload, read_payload};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::source::Source;
use super::text;

/// Hands out `data` `chunk` bytes at a time, then EOF.
struct Chunked {
    data: Vec<u8>,
    pos: usize,
    chunk: usize,
}

impl Read for Chunked {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let rest = &self.data[self.pos..];
        let n = rest.len().min(self.chunk).min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        Ok(n)
    }
}

const MAX: usize = 1 << 20;

/// The payload is exactly the first JSON value of the bytes, when that is an object.
pub fn stdin(data: &[u8]) {
    let mut src = Source::new(data);
    let chunk = 1 + src.below(64);
    let body = src.rest().to_vec();
    let reader = Chunked {
        data: body.clone(),
        pos: 0,
        chunk,
    };
    let payload = read_payload(
        reader,
        resume_tui::hook::stdin::Wait::silence(Duration::from_secs(10)),
        MAX,
    );
    // A UTF-8 byte order mark before the object is accepted (and skipped) on purpose.
    let json = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&body);
    let mut de = serde_json::Deserializer::from_slice(json);
    let first = Value::deserialize(&mut de);
    match payload {
        Payload::Object(map) => match first {
            Ok(Value::Object(expected)) => assert_eq!(map, expected),
            other => panic!("read an object from {body:?}, serde_json reads {other:?}"),
        },
        Payload::Empty => assert!(
            body.iter().all(u8::is_ascii_whitespace),
            "empty, but the bytes are {body:?}"
        ),
        Payload::Invalid(reason) => assert!(
            !matches!(first, Ok(Value::Object(_))),
            "refused {body:?} ({reason}), which starts with an object"
        ),
        Payload::Silent { .. } | Payload::Late { .. } => {
            panic!("a reader at EOF counted as silent or late")
        }
        Payload::TooLarge => assert!(body.len() > MAX),
    }
}

const EXE: &str = "/opt/bin/resume-tui";

fn handlers(settings: &Map<String, Value>, event: &str) -> Vec<Value> {
    settings
        .get("hooks")
        .and_then(|h| h.get(event))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|group| group.get("hooks").and_then(Value::as_array))
        .flatten()
        .cloned()
        .collect()
}

/// Merging keeps every other key and every other tool's handler, leaves exactly one
/// resume-tui handler per event, and a second merge changes nothing.
pub fn settings_merge(data: &[u8]) {
    let text = text(data);
    let Ok(merged) = merge(Some(&text), EXE) else {
        return;
    };
    let Some(new_text) = merged.text else {
        return;
    };
    let original = parse(&text).unwrap();
    let new = parse(&new_text).unwrap();
    let keys = |m: &Map<String, Value>| -> Vec<String> {
        m.keys().filter(|k| *k != "hooks").cloned().collect()
    };
    assert_eq!(
        keys(&original),
        keys(&new),
        "top-level keys or their order changed"
    );
    for key in keys(&original) {
        assert_eq!(original[&key], new[&key], "`{key}` changed");
    }
    // `merge` counts as ours what names resume-tui or runs EXE.
    let own = OwnExe::at(std::path::Path::new(EXE));
    let is_ours = |h: &Value| is_ours(h, &own);
    for spec in SPECS {
        let after = handlers(&new, spec.event);
        assert_eq!(
            after.iter().filter(|h| is_ours(h)).count(),
            1,
            "{}: {after:?}",
            spec.event
        );
        let others =
            |hs: Vec<Value>| -> Vec<Value> { hs.into_iter().filter(|h| !is_ours(h)).collect() };
        assert_eq!(
            others(handlers(&original, spec.event)),
            others(after),
            "{}: another tool's handler changed",
            spec.event
        );
    }
    let again = merge(Some(&new_text), EXE).unwrap();
    assert_eq!(again.text, None, "a second merge changed {new_text}");
}
