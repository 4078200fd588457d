//! The tail reader of a Claude Code transcript (JSONL, reference
//! claude-code-hooks.md §5). The file is read backwards from its end in chunks, so
//! the cost depends on how far back the answer lies, not on the file's size; a
//! byte budget bounds the worst case. Lines longer than a cap are skipped without
//! being held whole, and lines that are not JSON are counted and skipped.
//!
//! Two answers come out of one pass:
//! - the context usage: the newest main-chain assistant record with a non-zero
//!   `message.usage` (sidechain, API-error and zero-usage records are skipped) after
//!   the last main-chain `compact_boundary`; when a boundary comes first, its
//!   `compactMetadata.postTokens` (if any) stands in;
//! - the file paths of recent Read/Write/Edit/MultiEdit tool calls.

use std::collections::HashSet;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use serde::Serialize;

use crate::core::fill::Usage;
use crate::core::time::Timestamp;

pub mod after_checkpoint;
pub mod attach;
mod record;
pub mod source;
pub mod summaries;

pub use record::ToolUse;

/// How much of the file one scan may read.
#[derive(Debug, Clone, Copy)]
pub struct ScanLimits {
    /// Bytes read per step backwards.
    pub chunk: usize,
    /// Lines longer than this are skipped (and never held in memory whole).
    pub max_line: usize,
    /// Total bytes read before giving up.
    pub max_bytes: u64,
    /// Keep scanning past the usage record for tool calls, up to this many.
    pub max_tool_uses: usize,
    /// Whether tool calls are wanted at all (PreCompact) or only usage.
    pub want_tool_uses: bool,
    /// After the usage is found, bytes more to read looking for the newest
    /// `compact_boundary` (its `preTokens` is evidence of the window's size).
    pub boundary_lookback: u64,
}

impl ScanLimits {
    /// Usage only: stops at the first usable record.
    pub fn usage_only() -> ScanLimits {
        ScanLimits {
            chunk: 64 * 1024,
            max_line: 4 * 1024 * 1024,
            max_bytes: 16 * 1024 * 1024,
            max_tool_uses: 0,
            want_tool_uses: false,
            boundary_lookback: 128 * 1024,
        }
    }

    /// Usage and the recent file tool calls (bounded by `max_bytes`).
    pub fn with_tool_uses() -> ScanLimits {
        ScanLimits {
            max_tool_uses: 32,
            want_tool_uses: true,
            max_bytes: 4 * 1024 * 1024,
            ..ScanLimits::usage_only()
        }
    }
}

/// Where the usage figure came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UsageSource {
    /// An assistant record's `message.usage`.
    AssistantRecord,
    /// `compactMetadata.postTokens` of a boundary with no usage after it yet.
    CompactBoundary,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FoundUsage {
    pub usage: Usage,
    pub source: UsageSource,
    pub model: Option<String>,
    pub message_id: Option<String>,
    pub timestamp: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Boundary {
    pub trigger: Option<String>,
    pub pre_tokens: Option<u64>,
    pub post_tokens: Option<u64>,
    pub timestamp: Option<String>,
}

/// The answer of one backwards scan.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TranscriptScan {
    pub usage: Option<FoundUsage>,
    /// The newest main-chain `compact_boundary`, if one was reached.
    pub last_boundary: Option<Boundary>,
    /// The newest model id seen on a main-chain assistant record.
    pub model: Option<String>,
    /// File tool calls, newest first.
    pub tool_uses: Vec<ToolUse>,
    pub bytes_read: u64,
    pub lines_read: usize,
    pub bad_lines: usize,
    pub long_lines_skipped: usize,
    /// The scan stopped on its byte budget before reaching the file's start.
    pub budget_exhausted: bool,
    /// Main-chain assistant messages read, counting the lines of one streamed
    /// message (sharing `message.id`) once.
    pub assistant_messages: usize,
    #[serde(skip)]
    tool_cap: usize,
    #[serde(skip)]
    seen_tool_ids: HashSet<String>,
    #[serde(skip)]
    last_message_id: Option<String>,
    /// `bytes_read` when the usage settled.
    #[serde(skip)]
    usage_settled_at: Option<u64>,
}

impl TranscriptScan {
    fn done(&mut self, limits: &ScanLimits) -> bool {
        if !self.usage_settled() {
            return false;
        }
        let settled_at = *self.usage_settled_at.get_or_insert(self.bytes_read);
        let boundary_settled = self.last_boundary.is_some()
            || self.bytes_read.saturating_sub(settled_at) >= limits.boundary_lookback;
        let tools_settled = !limits.want_tool_uses || self.tool_uses.len() >= limits.max_tool_uses;
        boundary_settled && tools_settled
    }

    fn wants_boundary(&self) -> bool {
        self.last_boundary.is_none()
    }

    fn usage_settled(&self) -> bool {
        self.usage.is_some() || self.last_boundary.is_some()
    }

    /// Whether `take_line` would pass over the line made of `first` and the
    /// `pending` pieces (newest first) for want of a marker: then it is not joined
    /// (most such lines are long tool results).
    fn passes_over(&self, first: &[u8], pending: &[Vec<u8>]) -> bool {
        if !self.usage_settled() {
            return false;
        }
        let (tools, boundary) = (self.tool_cap > 0, self.wants_boundary());
        // A marker (16 bytes at most) lies in one piece, or within the 15 bytes
        // before a piece's start and the piece's first 15.
        const REACH: usize = 15;
        let mut seam: Vec<u8> = Vec::with_capacity(3 * REACH);
        let pieces = std::iter::once(first).chain(pending.iter().rev().map(Vec::as_slice));
        for piece in pieces {
            let carried = seam.len();
            seam.extend_from_slice(piece.get(..REACH).unwrap_or(piece));
            if holds_marker(piece, tools, boundary) || holds_marker(&seam, tools, boundary) {
                return false;
            }
            // The last 15 bytes of the line so far.
            match piece.len().checked_sub(REACH) {
                Some(tail) => {
                    seam.clear();
                    seam.extend_from_slice(piece.get(tail..).unwrap_or_default());
                }
                None => {
                    seam.truncate(carried);
                    seam.extend_from_slice(piece);
                    seam.drain(..seam.len().saturating_sub(REACH));
                }
            }
        }
        true
    }

    fn take_line(&mut self, line: &[u8]) {
        self.lines_read += 1;
        let line = trim_ascii(line);
        if line.is_empty() {
            return;
        }
        // Then only tool calls and the boundary are still wanted: `"tool_use"`
        // with its quotes is the block's type, which a tool result's
        // `"tool_use_id"` does not match.
        if self.usage_settled() && !holds_marker(line, self.tool_cap > 0, self.wants_boundary()) {
            return;
        }
        if !contains(line, &ASSISTANT) && !contains(line, &BOUNDARY) {
            return;
        }
        match record::parse(line) {
            Some(record) => record.apply(self),
            None => self.bad_lines += 1,
        }
    }
}

fn trim_ascii(mut line: &[u8]) -> &[u8] {
    while let [rest @ .., last] = line {
        if last.is_ascii_whitespace() {
            line = rest;
        } else {
            break;
        }
    }
    while let [first, rest @ ..] = line {
        if first.is_ascii_whitespace() {
            line = rest;
        } else {
            break;
        }
    }
    line
}

/// Whether `line` holds `"tool_use"` (when `tools`) or `compact_boundary` (when
/// `boundary`): one pass over its underscores, both markers' middle, where a
/// search per marker read every line twice (most of a compaction's scan is long
/// tool results that hold neither).
fn holds_marker(line: &[u8], tools: bool, boundary: bool) -> bool {
    (tools || boundary)
        && memchr::memchr_iter(b'_', line).any(|i| {
            let around = |before: usize, len: usize| {
                i.checked_sub(before)
                    .and_then(|start| line.get(start..start + len))
            };
            (tools && around(5, 10) == Some(b"\"tool_use\"".as_slice()))
                || (boundary && around(7, 16) == Some(b"compact_boundary".as_slice()))
        })
}

/// The markers `take_line` looks for, each searcher built once per process (a
/// scan tests every line it reads, tens of thousands of them).
static BOUNDARY: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"compact_boundary"));
static ASSISTANT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"assistant"));

fn contains(haystack: &[u8], needle: &Finder<'_>) -> bool {
    needle.find(haystack).is_some()
}

/// Scans the transcript at `path` backwards.
pub fn scan(path: &Path, limits: &ScanLimits) -> std::io::Result<TranscriptScan> {
    let mut file = open_regular(path)?;
    let len = file.seek(SeekFrom::End(0))?;
    scan_reader(&mut file, len, limits)
}

/// Whether the transcript's last `max_bytes`, after the last compact boundary
/// they hold, contain `needle`. Claude Code 2.1.332 writes the context a
/// SessionStart(compact) hook added into the transcript (a
/// `hook_additional_context` attachment); 2.1.76 in print mode drops it unsent.
pub fn holds_after_last_boundary(
    path: &Path,
    needle: &str,
    max_bytes: u64,
) -> std::io::Result<bool> {
    let mut file = open_regular(path)?;
    let len = file.seek(SeekFrom::End(0))?;
    file.seek(SeekFrom::Start(len.saturating_sub(max_bytes)))?;
    let mut tail = Vec::new();
    file.take(max_bytes).read_to_end(&mut tail)?;
    let after = memchr::memmem::rfind(&tail, b"\"compact_boundary\"").unwrap_or(0);
    Ok(tail
        .get(after..)
        .is_some_and(|rest| memchr::memmem::find(rest, needle.as_bytes()).is_some()))
}

/// Opens `path` only if it is a regular file: opening a FIFO blocks until a
/// writer comes, and a device or `/proc/kmsg` has no end to read back from.
pub(super) fn open_regular(path: &Path) -> std::io::Result<File> {
    crate::io::load::open_regular(path)
}

/// Scans the first `len` bytes of `reader` backwards.
pub fn scan_reader<R: Read + Seek>(
    reader: &mut R,
    len: u64,
    limits: &ScanLimits,
) -> std::io::Result<TranscriptScan> {
    let mut found = TranscriptScan {
        tool_cap: if limits.want_tool_uses {
            limits.max_tool_uses
        } else {
            0
        },
        ..TranscriptScan::default()
    };
    let chunk_size = limits.chunk.max(1);
    // Zeroed once, then refilled chunk after chunk.
    let mut buf = Vec::new();
    // The end of a line whose start lies further back, as pieces in file order
    // reversed (newest piece first), and whether that line is over the cap.
    let mut pending: Vec<Vec<u8>> = Vec::new();
    let mut pending_len = 0usize;
    let mut skipping = false;
    let mut pos = len;

    while pos > 0 {
        if found.bytes_read >= limits.max_bytes {
            found.budget_exhausted = true;
            return Ok(found);
        }
        let start = pos.saturating_sub(chunk_size as u64);
        let size = usize::try_from(pos - start)
            .unwrap_or(chunk_size)
            .min(chunk_size);
        reader.seek(SeekFrom::Start(start))?;
        let chunk = read_exact_into(reader, size, &mut buf)?;
        found.bytes_read += size as u64;

        let mut end = chunk.len();
        while let Some(nl) = chunk.get(..end).and_then(|c| memchr::memrchr(b'\n', c)) {
            let segment = chunk.get(nl + 1..end).unwrap_or_default();
            if skipping || segment.len() + pending_len > limits.max_line {
                found.long_lines_skipped += 1;
            } else if pending.is_empty() {
                found.take_line(segment);
            } else if found.passes_over(segment, &pending) {
                found.lines_read += 1;
            } else {
                let line = join(segment, &pending, pending_len);
                found.take_line(&line);
            }
            pending.clear();
            pending_len = 0;
            skipping = false;
            if found.done(limits) {
                return Ok(found);
            }
            end = nl;
        }
        let head = chunk.get(..end).unwrap_or_default();
        if !skipping && !head.is_empty() {
            if head.len() + pending_len > limits.max_line {
                skipping = true;
                pending.clear();
                pending_len = 0;
            } else {
                pending.push(head.to_vec());
                pending_len += head.len();
            }
        }
        pos = start;
    }
    if skipping {
        found.long_lines_skipped += 1;
    } else if !pending.is_empty() {
        let line = join(&[], &pending, pending_len);
        found.take_line(&line);
    }
    Ok(found)
}

/// Exactly `size` bytes, read into `buf`, which keeps its length from chunk to
/// chunk: one `read` a chunk (`read_to_end` into spare capacity took four, its
/// reads growing from 8 KB), and the buffer is zeroed only when it grows.
fn read_exact_into<'b, R: Read>(
    reader: &mut R,
    size: usize,
    buf: &'b mut Vec<u8>,
) -> std::io::Result<&'b [u8]> {
    if buf.len() < size {
        buf.resize(size, 0);
    }
    let chunk = buf.get_mut(..size).unwrap_or_default();
    reader.read_exact(chunk)?;
    Ok(chunk)
}

/// When the transcript began: the first `"timestamp"` in its first 64 KB. Its
/// first line states it in every transcript seen, so 4 KB are read first, and the
/// rest of the 64 KB only when those do not hold one.
pub fn first_timestamp(path: &Path) -> Option<Timestamp> {
    const FIRST: u64 = 4 * 1024;
    const HEAD: u64 = 64 * 1024;
    let mut file = open_regular(path).ok()?;
    // Read into spare capacity: a zeroed buffer costs more than the search.
    let mut head = Vec::with_capacity(FIRST as usize);
    (&mut file).take(FIRST).read_to_end(&mut head).ok()?;
    if let Some(stamp) = first_timestamp_in(&head) {
        return Some(stamp);
    }
    if (head.len() as u64) < FIRST {
        return None;
    }
    file.take(HEAD - FIRST).read_to_end(&mut head).ok()?;
    first_timestamp_in(&head)
}

/// The first `"timestamp"` value of `head` that parses; `None` also when one is
/// cut off at the end (a longer head is searched again from its start).
fn first_timestamp_in(head: &[u8]) -> Option<Timestamp> {
    let key = b"\"timestamp\"";
    let mut from = 0;
    while let Some(at) = find(head, from, key) {
        from = at + key.len();
        let rest = head.get(from..)?;
        let skip = rest
            .iter()
            .take_while(|b| b.is_ascii_whitespace() || **b == b':')
            .count();
        let value = rest.get(skip..)?.strip_prefix(b"\"")?;
        let end = value.iter().position(|&b| b == b'"')?;
        let text = std::str::from_utf8(value.get(..end)?).ok()?;
        if let Some(stamp) = Timestamp::parse(text) {
            return Some(stamp);
        }
    }
    None
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack.get(from..)?, needle).map(|at| from + at)
}

fn join(first: &[u8], pending: &[Vec<u8>], pending_len: usize) -> Vec<u8> {
    let mut line = Vec::with_capacity(first.len() + pending_len);
    line.extend_from_slice(first);
    for piece in pending.iter().rev() {
        line.extend_from_slice(piece);
    }
    line
}

#[cfg(test)]
mod tests;
