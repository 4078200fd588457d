//! The compaction summaries a transcript holds (reference claude-code-hooks.md
//! §5.3): each main-chain `compact_boundary` record and the `isCompactSummary`
//! user record after it. Only the file's last `max_bytes` are read; a record cut
//! by that start is skipped, and lines that are not JSON are skipped.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use memchr::memmem::Finder;
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
    let mut file = super::open_regular(path)?;
    let len = file.seek(SeekFrom::End(0))?;
    let start = len.saturating_sub(max_bytes);
    file.seek(SeekFrom::Start(start))?;
    let mut found: Vec<CompactSummary> = Vec::new();
    // A record cut by the start is skipped.
    for_marked_lines(file.take(max_bytes), start > 0, |line| {
        if let Some(record) = parse_marked(line) {
            take_value(&record, &mut found);
        }
    })?;
    Ok(found)
}

/// Bytes read at a time: a buffer reused chunk after chunk (a fresh buffer of a
/// whole 2 MB tail cost ~500 page faults, milliseconds on a VM).
const CHUNK: usize = 64 * 1024;

/// Calls `take` with each line of `reader` that holds `compact_boundary` or
/// `isCompactSummary`, in order (`skip_first`: not the first line, cut by the
/// read's start). Only a line still open at a chunk's end is copied.
fn for_marked_lines(
    mut reader: impl Read,
    skip_first: bool,
    mut take: impl FnMut(&[u8]),
) -> std::io::Result<()> {
    let finder = marker_finder();
    let mut buf = vec![0; CHUNK];
    let mut open_line: Vec<u8> = Vec::new();
    let mut skipping = skip_first;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let mut rest = buf.get(..n).unwrap_or_default();
        if skipping || !open_line.is_empty() {
            let Some((end, after)) = split_at_newline(rest) else {
                if !skipping {
                    open_line.extend_from_slice(rest);
                }
                continue;
            };
            if !skipping {
                open_line.extend_from_slice(end);
                if MarkedLines::new(&open_line, 0, &finder).next().is_some() {
                    take(&open_line);
                }
                open_line.clear();
            }
            skipping = false;
            rest = after;
        }
        let (whole, open) = rest.split_at(memchr::memrchr(b'\n', rest).map_or(0, |nl| nl + 1));
        MarkedLines::new(whole, 0, &finder).for_each(&mut take);
        open_line.extend_from_slice(open);
    }
    if !skipping && MarkedLines::new(&open_line, 0, &finder).next().is_some() {
        take(&open_line);
    }
    Ok(())
}

/// `bytes` before its first newline and after it.
fn split_at_newline(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let nl = memchr::memchr(b'\n', bytes)?;
    Some((bytes.get(..nl)?, bytes.get(nl + 1..)?))
}

/// What both markers hold, searched for in one pass (`marker_at` tells them).
pub(super) fn marker_finder() -> Finder<'static> {
    Finder::new(b"ompact")
}

/// Whether `ompact` at `at` is part of `compact_boundary` or `isCompactSummary`.
fn marker_at(bytes: &[u8], at: usize) -> bool {
    let holds = |start: Option<usize>, marker: &[u8]| {
        start
            .and_then(|start| bytes.get(start..))
            .is_some_and(|rest| rest.starts_with(marker))
    };
    holds(at.checked_sub(1), b"compact_boundary") || holds(at.checked_sub(3), b"isCompactSummary")
}

/// A marked line's record; lines that are not JSON are skipped.
pub(super) fn parse_marked(line: &[u8]) -> Option<Value> {
    serde_json::from_slice(line).ok()
}

fn is_sidechain(record: &Value) -> bool {
    record.get("isSidechain").and_then(Value::as_bool) == Some(true)
}

/// A `compact_boundary` of the main chain.
pub(super) fn is_main_boundary(record: &Value) -> bool {
    !is_sidechain(record)
        && record.get("subtype").and_then(Value::as_str) == Some("compact_boundary")
}

/// An `isCompactSummary` record of the main chain.
pub(super) fn is_main_summary(record: &Value) -> bool {
    !is_sidechain(record) && record.get("isCompactSummary").and_then(Value::as_bool) == Some(true)
}

/// A record's own `timestamp`.
pub(super) fn record_time(record: &Value) -> Option<Timestamp> {
    record
        .get("timestamp")
        .and_then(Value::as_str)
        .and_then(Timestamp::parse)
}

/// One marked record into `found`: a boundary, or the summary after it (sidechain
/// records are neither).
pub(super) fn take_value(record: &Value, found: &mut Vec<CompactSummary>) {
    if is_main_boundary(record) {
        let meta = record.get("compactMetadata");
        found.push(CompactSummary {
            timestamp: record_time(record),
            trigger: meta
                .and_then(|m| m.get("trigger"))
                .and_then(Value::as_str)
                .map(str::to_string),
            pre_tokens: meta
                .and_then(|m| m.get("preTokens"))
                .and_then(Value::as_u64),
            text: None,
        });
    } else if is_main_summary(record) {
        let text = message_text(record);
        match found.last_mut().filter(|last| last.text.is_none()) {
            Some(last) => last.text = text,
            None => found.push(CompactSummary {
                timestamp: record_time(record),
                trigger: None,
                pre_tokens: None,
                text,
            }),
        }
    }
}

/// The lines of `bytes` from `from` (a line's start) on that hold
/// `compact_boundary` or `isCompactSummary`, in order, each once. The markers are
/// searched for over the whole buffer (a transcript's tail is megabytes of tool
/// output, a handful of its lines are compactions), and only their lines are
/// cut out.
pub(super) struct MarkedLines<'a, 'f> {
    bytes: &'a [u8],
    /// The start of the first line not yet given.
    at: usize,
    finder: &'f Finder<'static>,
}

impl<'a, 'f> MarkedLines<'a, 'f> {
    pub(super) fn new(
        bytes: &'a [u8],
        from: usize,
        finder: &'f Finder<'static>,
    ) -> MarkedLines<'a, 'f> {
        MarkedLines {
            bytes,
            at: from.min(bytes.len()),
            finder,
        }
    }
}

impl<'a> Iterator for MarkedLines<'a, '_> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let (bytes, at) = (self.bytes, self.at);
        let mut from = at;
        let hit = loop {
            let hit = from + self.finder.find(bytes.get(from..)?)?;
            if marker_at(bytes, hit) {
                break hit;
            }
            from = hit + 1;
        };
        let start = memchr::memrchr(b'\n', bytes.get(at..hit)?).map_or(at, |i| at + i + 1);
        let end = memchr::memchr(b'\n', bytes.get(hit..)?).map_or(bytes.len(), |i| hit + i);
        self.at = (end + 1).min(bytes.len());
        bytes.get(start..end)
    }
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
pub(super) mod tests;
