//! What a hook decided, as data: the exact stdout, the files to write, the log
//! lines and the explanation. `handle` returns it; the executor carries it out.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::core::render::budget::{INJECTION_LIMIT_CHARS, limit};
use crate::io::log::Level;
use crate::io::write::{Snapshot, WriteError, read_snapshot};

/// A file change the hook wants, checked again when it is carried out.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedWrite {
    pub path: PathBuf,
    pub op: WriteOp,
    /// Why, for `--dry-run` and the log.
    pub why: String,
    /// Fsynced after the hook exits (checkpoints, a consumed state's folder:
    /// `io::fsync_later`); `false` for a cache that a later run rewrites anyway
    /// (the context-monitor and precompact states).
    pub durable: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum WriteOp {
    /// A new file that must not exist yet.
    Create(Vec<u8>),
    /// Replace a file that must still hold the snapshot's bytes.
    Replace { snapshot: Snapshot, bytes: Vec<u8> },
    /// Remove a file that must still hold the snapshot's bytes.
    Remove { snapshot: Snapshot },
}

impl WriteOp {
    pub fn verb(&self) -> &'static str {
        match self {
            WriteOp::Create(_) => "create",
            WriteOp::Replace { .. } => "replace",
            WriteOp::Remove { .. } => "remove",
        }
    }

    /// Puts `bytes` at `path`: replaces the file there, or creates it when there is
    /// none. A file that is there but is not read (a FIFO, a folder, over the size
    /// limit, unreadable) is an error, and is to be left alone.
    pub fn put(path: &Path, bytes: Vec<u8>) -> Result<WriteOp, WriteError> {
        match read_snapshot(path) {
            Ok(snapshot) => Ok(WriteOp::Replace { snapshot, bytes }),
            Err(e) if e.is_missing() => Ok(WriteOp::Create(bytes)),
            Err(e) => Err(e),
        }
    }

    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            WriteOp::Create(bytes) | WriteOp::Replace { bytes, .. } => Some(bytes),
            WriteOp::Remove { .. } => None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookOutcome {
    /// Exactly what goes to stdout (no trailing newline), or nothing.
    pub stdout: Option<String>,
    pub writes: Vec<PlannedWrite>,
    pub log: Vec<(Level, String)>,
    /// Why: which project, which confidence, which fill basis.
    pub explain: Vec<String>,
}

impl HookOutcome {
    pub fn nothing(reason: impl Into<String>) -> HookOutcome {
        let mut outcome = HookOutcome::default();
        outcome.explain(reason);
        outcome
    }

    pub fn explain(&mut self, line: impl Into<String>) {
        self.explain.push(line.into());
    }

    pub fn info(&mut self, message: impl Into<String>) {
        self.log.push((Level::Info, message.into()));
    }

    pub fn error(&mut self, message: impl Into<String>) {
        let message = message.into();
        self.explain.push(format!("problem: {message}"));
        self.log.push((Level::Error, message));
    }

    pub fn write(&mut self, path: PathBuf, op: WriteOp, why: impl Into<String>) {
        self.plan(path, op, why.into(), true);
    }

    /// A write of a cache that the next run rewrites anyway: atomic, not fsynced.
    pub fn write_cache(&mut self, path: PathBuf, op: WriteOp, why: impl Into<String>) {
        self.plan(path, op, why.into(), false);
    }

    fn plan(&mut self, path: PathBuf, op: WriteOp, why: String, durable: bool) {
        self.writes.push(PlannedWrite {
            path,
            op,
            why,
            durable,
        });
    }
}

/// The injection limit less one: the context must stay *under* 10,000 characters.
pub const CONTEXT_LIMIT: usize = INJECTION_LIMIT_CHARS - 1;

/// `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}` with the text
/// joined from `blocks`, cleaned and redacted (everything a hook injects passes
/// here), and cut to stay under the limit in UTF-16 code units, the unit Claude
/// Code counts in; `None` when there is no text.
pub fn additional_context(event: &str, blocks: &[String]) -> Option<String> {
    let text = blocks
        .iter()
        .map(|b| b.trim())
        .filter(|b| !b.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    if text.is_empty() {
        return None;
    }
    let clean = crate::core::redact::scrub(&text);
    let text = limit_utf16(&clean, CONTEXT_LIMIT);
    let envelope = json!({
        "hookSpecificOutput": {
            "hookEventName": event,
            "additionalContext": text,
        }
    });
    Some(envelope.to_string())
}

/// True when the envelope `stdout` injects `block` whole (cleaned and redacted as
/// `additional_context` cleans it): the cap cuts from the end, and a block cut
/// by it was not delivered.
pub fn carries_whole(stdout: Option<&str>, block: &str) -> bool {
    let Some(value) = stdout.and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok()) else {
        return false;
    };
    let Some(context) = value
        .get("hookSpecificOutput")
        .and_then(|o| o.get("additionalContext"))
        .and_then(serde_json::Value::as_str)
    else {
        return false;
    };
    context.contains(crate::core::redact::scrub(block.trim()).as_ref())
}

/// `text` cut to at most `max` UTF-16 code units (a character outside the Basic
/// Multilingual Plane, such as most emoji, counts 2), with `limit`'s marker.
pub fn limit_utf16(text: &str, max: usize) -> String {
    let units = text.encode_utf16().count();
    if units <= max {
        return text.to_string();
    }
    // Characters whose UTF-16 length fits, then `limit` places the marker; the
    // character budget shrinks by the surplus until the result fits.
    let mut chars = max;
    loop {
        let (cut, _) = limit(text, chars);
        let over = cut.encode_utf16().count().saturating_sub(max);
        if over == 0 || chars == 0 {
            return cut;
        }
        chars = chars.saturating_sub(over.max(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_shape_and_limit() {
        let out =
            additional_context("SessionStart", &["a".into(), " ".into(), "b".into()]).unwrap();
        assert_eq!(
            out,
            r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"a\n\nb"}}"#
        );
        assert_eq!(additional_context("SessionStart", &[String::new()]), None);
        let long = "é".repeat(20_000);
        let out = additional_context("UserPromptSubmit", &[long]).unwrap();
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        let text = value["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap();
        assert!(text.chars().count() < 10_000);
    }

    #[test]
    fn the_cap_counts_utf16_units_and_secrets_are_redacted() {
        let emoji = "🙂".repeat(6_325);
        let out = additional_context("UserPromptSubmit", &[emoji]).unwrap();
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        let text = value["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap();
        assert!(
            text.encode_utf16().count() < 10_000,
            "{}",
            text.encode_utf16().count()
        );
        assert!(text.contains("truncated by resume-tui"));
        let secret = "token ghp_0123456789abcdefghijABCDEFGHIJ012345 here".to_string();
        let out = additional_context("SessionStart", &[secret]).unwrap();
        assert!(!out.contains("ghp_0123456789abcdefghij"), "{out}");
    }

    #[test]
    fn a_block_cut_by_the_cap_is_not_carried_whole() {
        let small = "<compaction-alert>\nCHECKPOINT: cx-001\n</compaction-alert>".to_string();
        let big = "x".repeat(12_000);
        let first = additional_context("SessionStart", &[small.clone(), big.clone()]);
        assert!(carries_whole(first.as_deref(), &small));
        assert!(!carries_whole(first.as_deref(), &big));
        let last = additional_context("SessionStart", &[big, small.clone()]);
        assert!(!carries_whole(last.as_deref(), &small));
        assert!(!carries_whole(None, &small));
    }
}
