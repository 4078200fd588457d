//! The compaction summaries a transcript holds (reference claude-code-hooks.md
//! §5.3): each main-chain `compact_boundary` record and the `isCompactSummary`
//! user record after it. Only the file's last `max_bytes` are read; a record cut
//! by that start is skipped, and lines that are not JSON are skipped.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use crate::core::dropped::summary::{CompactSummary, after_checkpoint};
use crate::core::time::Timestamp;
use crate::io::env::Env;

/// Enough for the summary written at the end of a session (SessionStart compact).
pub const TAIL_BYTES: u64 = 2 * 1024 * 1024;
/// Enough for every compaction of a long session (the `dropped` command).
pub const WHOLE_BYTES: u64 = 64 * 1024 * 1024;

/// Every compaction in the last `max_bytes` of the transcript, oldest first.
pub fn compact_summaries(path: &Path, max_bytes: u64) -> std::io::Result<Vec<CompactSummary>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut file = File::open(path)?;
    let len = file.seek(SeekFrom::End(0))?;
    let start = len.saturating_sub(max_bytes);
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.take(max_bytes).read_to_end(&mut bytes)?;
    let mut lines = bytes.split(|b| *b == b'\n');
    if start > 0 {
        lines.next();
    }
    let mut found: Vec<CompactSummary> = Vec::new();
    for line in lines {
        let boundary = memchr::memmem::find(line, b"compact_boundary").is_some();
        if !boundary && memchr::memmem::find(line, b"isCompactSummary").is_none() {
            continue;
        }
        let Ok(record) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        if record.get("isSidechain").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        let stamp = || {
            record
                .get("timestamp")
                .and_then(Value::as_str)
                .and_then(Timestamp::parse)
        };
        if record.get("subtype").and_then(Value::as_str) == Some("compact_boundary") {
            let meta = record.get("compactMetadata");
            found.push(CompactSummary {
                timestamp: stamp(),
                trigger: meta
                    .and_then(|m| m.get("trigger"))
                    .and_then(Value::as_str)
                    .map(str::to_string),
                pre_tokens: meta
                    .and_then(|m| m.get("preTokens"))
                    .and_then(Value::as_u64),
                text: None,
            });
        } else if record.get("isCompactSummary").and_then(Value::as_bool) == Some(true) {
            let text = message_text(&record);
            match found.last_mut().filter(|last| last.text.is_none()) {
                Some(last) => last.text = text,
                None => found.push(CompactSummary {
                    timestamp: stamp(),
                    trigger: None,
                    pre_tokens: None,
                    text,
                }),
            }
        }
    }
    Ok(found)
}

/// `message.content` as text: a string, or the `text` blocks of a list joined.
fn message_text(record: &Value) -> Option<String> {
    let content = record.get("message")?.get("content")?;
    let text = match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => return None,
    };
    (!text.trim().is_empty()).then_some(text)
}

/// Where Claude Code keeps the transcript of `session_id` for a project folder:
/// `<config>/projects/<root with every character but letters and digits as '-'>/
/// <session>.jsonl`, `<config>` being `$CLAUDE_CONFIG_DIR` (its first entry) or
/// `~/.claude`; else that file name in any project folder there.
pub fn transcript_of(env: &Env, root: &Path, session_id: &str) -> Option<PathBuf> {
    let plain = session_id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if session_id.is_empty() || !plain {
        return None;
    }
    let config = match env.get("CLAUDE_CONFIG_DIR") {
        Some(dirs) => PathBuf::from(dirs.split(',').next()?.trim()),
        None => PathBuf::from(env.get("HOME")?).join(".claude"),
    };
    let projects = config.join("projects");
    let name = format!("{session_id}.jsonl");
    let folder: String = root
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let direct = projects.join(folder).join(&name);
    if direct.is_file() {
        return Some(direct);
    }
    std::fs::read_dir(&projects)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path().join(&name))
        .find(|path| path.is_file())
}

#[cfg(test)]
#[path = "summaries_tests.rs"]
mod tests;
