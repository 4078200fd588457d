//! The properties the fuzz targets check, shared by the `cargo fuzz` crate in
//! `fuzz/` (which includes this folder by path) and by `tests/fuzz_short.rs`, which
//! runs every target over its seeds and a few hundred generated inputs in the
//! normal test run. A target takes bytes and panics when a property fails.
#![allow(dead_code)]

pub mod edit;
pub mod hook;
pub mod lcs;
pub mod parse;
pub mod source;
pub mod transcript;
pub mod yaml_gen;

/// A fuzz target: its `cargo fuzz run` name and the property it checks.
pub type Target = (&'static str, fn(&[u8]));

/// Every target, by the name `cargo fuzz run` takes.
pub const TARGETS: [Target; 15] = [
    ("jerry", parse::jerry),
    ("jerry_fast", parse::jerry_fast),
    ("fast_yaml", parse::fast_yaml),
    ("nexus", parse::nexus),
    ("frontmatter", parse::frontmatter),
    ("checkpoint", parse::checkpoint),
    ("context_state", parse::context_state),
    ("precompact", parse::precompact),
    ("yaml_aliases", parse::yaml_aliases),
    ("redact", parse::redact),
    ("transcript", transcript::transcript),
    ("hook_stdin", hook::stdin),
    ("settings_merge", hook::settings_merge),
    ("edit_yaml", edit::edit_yaml),
    ("edit_json", edit::edit_json),
];

/// Text from fuzz bytes: valid UTF-8 as is, anything else lossily.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Characters that must never reach a terminal, a clipboard or an injection.
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Panics when `text` (an injection or copied prompt) holds an unsafe character.
pub fn assert_clean(what: &str, text: &str) {
    if let Some(c) = text.chars().find(|c| is_unsafe(*c)) {
        panic!("{what} holds the unsafe character {:?}: {text:?}", c);
    }
}
