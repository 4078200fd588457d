//! The demo workspace, embedded from `assets/demo/` at build time and unpacked to a
//! temporary folder so that edits never touch the repository.
//!
//! Timestamps in the demo's text files are written as tokens relative to the moment
//! of unpacking, so fresh projects are fresh and stale ones stale whenever it runs:
//! `{{now}}`, `{{now-25m}}`, `{{now-3h}}`, `{{now-2d}}`, `{{now+90s}}` (units `s`, `m`,
//! `h`, `d`) become ISO 8601 UTC (`2026-02-17T12:34:56Z`). Anything else between
//! braces (`{{now-}}`, `{{now-5y}}`, `{{ now }}`) is left exactly as written.

use std::path::Path;

use crate::core::time::Timestamp;
use crate::{Error, Result};

include!(concat!(env!("OUT_DIR"), "/demo_files.rs"));

/// File extensions whose contents carry timestamp tokens.
const TEXT_EXTENSIONS: &[&str] = &["yaml", "yml", "md", "json"];

/// Every embedded demo file, as (path relative to the demo root with `/`, bytes).
pub fn files() -> &'static [(&'static str, &'static [u8])] {
    DEMO_FILES
}

/// Unpacks the demo workspace into a new temporary folder, removed when dropped.
pub fn unpack(now: Timestamp) -> Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix("resume-tui-demo-")
        .tempdir()
        .map_err(|e| Error::io("temporary folder", e))?;
    unpack_into(dir.path(), now)?;
    Ok(dir)
}

/// Writes every demo file under `target`, creating folders as needed, with the
/// timestamp tokens of text files resolved against `now`.
pub fn unpack_into(target: &Path, now: Timestamp) -> Result<()> {
    for (rel, bytes) in DEMO_FILES {
        let path = target.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent.display(), e))?;
        }
        let contents = match std::str::from_utf8(bytes) {
            Ok(text) if is_text_file(rel) => substitute_times(text, now).into_bytes(),
            _ => bytes.to_vec(),
        };
        std::fs::write(&path, contents).map_err(|e| Error::io(path.display(), e))?;
    }
    Ok(())
}

fn is_text_file(rel: &str) -> bool {
    Path::new(rel)
        .extension()
        .and_then(|ext| ext.to_str())
        .is_some_and(|ext| TEXT_EXTENSIONS.contains(&ext))
}

/// Replaces every well-formed `{{now…}}` token in `text`; malformed ones stay as written.
pub fn substitute_times(text: &str, now: Timestamp) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let (before, from_braces) = rest.split_at(start);
        out.push_str(before);
        let inner = from_braces.get(2..).unwrap_or_default();
        let resolved = inner.find("}}").and_then(|end| {
            let (token, after) = inner.split_at(end);
            let stamp = resolve_token(token, now)?;
            Some((stamp, after.get(2..).unwrap_or_default()))
        });
        match resolved {
            Some((stamp, after)) => {
                out.push_str(&stamp.to_iso());
                rest = after;
            }
            None => {
                // Keep the first brace only, so `{{{{now}}` still finds its token.
                out.push('{');
                rest = from_braces.get(1..).unwrap_or_default();
            }
        }
    }
    out.push_str(rest);
    out
}

/// `now`, `now-25m`, `now+2d` → a time; anything else → `None`.
fn resolve_token(token: &str, now: Timestamp) -> Option<Timestamp> {
    let offset = token.strip_prefix("now")?;
    if offset.is_empty() {
        return Some(now);
    }
    let (sign, amount) = match offset.split_at_checked(1)? {
        ("-", amount) => (-1, amount),
        ("+", amount) => (1, amount),
        _ => return None,
    };
    let (digits, unit) = amount.split_at_checked(amount.len().checked_sub(1)?)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let seconds_per_unit = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3_600,
        "d" => 86_400,
        _ => return None,
    };
    let count: i64 = digits.parse().ok()?;
    let delta = count.checked_mul(seconds_per_unit)?.checked_mul(sign)?;
    now.0.checked_add(delta).map(Timestamp)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Timestamp = Timestamp(1_771_331_696); // 2026-02-17T12:34:56Z

    #[test]
    fn resolves_each_unit_relative_to_now() {
        let cases = [
            ("{{now}}", "2026-02-17T12:34:56Z"),
            ("{{now-30s}}", "2026-02-17T12:34:26Z"),
            ("{{now-25m}}", "2026-02-17T12:09:56Z"),
            ("{{now-3h}}", "2026-02-17T09:34:56Z"),
            ("{{now-2d}}", "2026-02-15T12:34:56Z"),
            ("{{now+90m}}", "2026-02-17T14:04:56Z"),
            ("{{now-0m}}", "2026-02-17T12:34:56Z"),
        ];
        for (token, expected) in cases {
            assert_eq!(substitute_times(token, NOW), expected, "{token}");
        }
    }

    #[test]
    fn replaces_tokens_inside_surrounding_text() {
        let text = "updated_at: \"{{now-10m}}\"  # fresh\ncreated: {{now-2d}}\n";
        assert_eq!(
            substitute_times(text, NOW),
            "updated_at: \"2026-02-17T12:24:56Z\"  # fresh\ncreated: 2026-02-15T12:34:56Z\n"
        );
    }

    #[test]
    fn leaves_malformed_tokens_as_written() {
        for text in [
            "{{now-}}",
            "{{now-5}}",
            "{{now-m}}",
            "{{now-5y}}",
            "{{now*5m}}",
            "{{ now }}",
            "{{NOW}}",
            "{{now-5m",
            "{{now--5m}}",
            "{{now-+5m}}",
            "{{now-5.5h}}",
            "{{now-99999999999999999999d}}",
            "{{later}}",
            "{{}}",
            "{{",
            "}}",
            "{now}",
            "{{now-é}}",
            "plain text with no braces",
        ] {
            assert_eq!(substitute_times(text, NOW), text, "{text:?}");
        }
    }

    #[test]
    fn a_malformed_token_does_not_hide_a_good_one_after_it() {
        assert_eq!(
            substitute_times("{{bad}} {{now}}", NOW),
            "{{bad}} 2026-02-17T12:34:56Z"
        );
        assert_eq!(substitute_times("{{{{now}}", NOW), "{{2026-02-17T12:34:56Z");
        assert_eq!(
            substitute_times("{{now-5m {{now}}", NOW),
            "{{now-5m 2026-02-17T12:34:56Z"
        );
    }

    #[test]
    fn only_text_files_carry_tokens() {
        for rel in [
            "a/ORCHESTRATION.yaml",
            "b.yml",
            "README.md",
            "x/cx-001.json",
        ] {
            assert!(is_text_file(rel), "{rel}");
        }
        for rel in ["x/cx-003.acknowledged", "Makefile", "yaml", "notes.txt"] {
            assert!(!is_text_file(rel), "{rel}");
        }
    }

    #[test]
    fn unpacks_every_embedded_file_with_tokens_resolved() {
        let dir = tempfile::tempdir().unwrap();
        unpack_into(dir.path(), NOW).unwrap();
        assert!(!files().is_empty(), "the demo workspace is embedded");
        for (rel, bytes) in files() {
            let path = dir.path().join(rel);
            let written = std::fs::read(&path).unwrap();
            if is_text_file(rel) {
                let text = String::from_utf8(written).unwrap();
                assert!(
                    !text.contains("{{now"),
                    "{rel}: an unresolved or malformed timestamp token is left"
                );
                let original = std::str::from_utf8(bytes).unwrap();
                assert_eq!(text, substitute_times(original, NOW), "{rel}");
            } else {
                assert_eq!(&written, bytes, "{rel}");
            }
        }
        let count = walk_count(dir.path());
        assert_eq!(count, files().len(), "no file more, no file less");
    }

    #[test]
    fn every_unpacked_data_file_parses() {
        let mut checked = 0;
        for (rel, bytes) in files() {
            let Ok(text) = std::str::from_utf8(bytes) else {
                continue;
            };
            let text = substitute_times(text, NOW);
            let yaml = if rel.ends_with(".yaml") || rel.ends_with(".yml") {
                Some(text.as_str())
            } else if rel.ends_with(".md") {
                frontmatter(&text)
            } else {
                None
            };
            if let Some(yaml) = yaml {
                let parsed: Result<yaml_serde::Value, _> = yaml_serde::from_str(yaml);
                assert!(parsed.is_ok(), "{rel}: {parsed:?}");
                checked += 1;
            }
            if rel.ends_with(".json") {
                let parsed: Result<serde_json::Value, _> = serde_json::from_str(&text);
                assert!(parsed.is_ok(), "{rel}: {parsed:?}");
                checked += 1;
            }
        }
        assert!(checked >= 10, "only {checked} data files checked");
    }

    fn frontmatter(text: &str) -> Option<&str> {
        let body = text.strip_prefix("---\n")?;
        body.find("\n---\n").and_then(|end| body.get(..end))
    }

    fn walk_count(dir: &Path) -> usize {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| {
                let path = entry.unwrap().path();
                if path.is_dir() { walk_count(&path) } else { 1 }
            })
            .sum()
    }
}
