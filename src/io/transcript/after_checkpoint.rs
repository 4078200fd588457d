//! The compactions that can follow one checkpoint, read from the transcript's end
//! backwards. When SessionStart(compact) looks for the summary (PostCompact did not
//! record it), the compaction's records are the transcript's newest lines; the read
//! stops at the first stretch written well before the checkpoint, since a
//! transcript is written in time order, instead of reading the whole tail (2 MB,
//! most of a hook's time when the summary is not there at all).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use super::open_regular;
use super::summaries::{
    CompactSummary, MarkedLines, compact_summaries, is_main_boundary, is_main_summary,
    marker_finder, parse_marked, record_time, take_value,
};
use crate::core::dropped::summary::CHECKPOINT_SLACK_SECONDS;
use crate::core::time::Timestamp;

/// Bytes read per step backwards.
const STEP: u64 = 64 * 1024;
/// Lines longer than this are not parsed for their time (the next one is).
const MAX_STAMPED_LINE: usize = 64 * 1024;
/// Lines of a stretch tried for a time before the stretch is passed.
const STAMP_TRIES: usize = 4;

/// The compactions in the last `max_bytes` of the transcript that a checkpoint
/// written at `written` can have led to, oldest first: what
/// `summaries::compact_summaries` gives from the first compaction that can follow
/// it on, so that `core::dropped::summary::after_checkpoint` chooses the same.
/// Without a time, from the newest main-chain compaction on.
pub fn compact_summaries_after(
    path: &Path,
    max_bytes: u64,
    written: Option<Timestamp>,
) -> std::io::Result<Vec<CompactSummary>> {
    let mut file = open_regular(path)?;
    let len = file.seek(SeekFrom::End(0))?;
    read_file_after(path, &mut file, len, max_bytes, written)
}

/// [`compact_summaries_after`] of `file`, `len` bytes long when looked at.
fn read_file_after(
    path: &Path,
    file: &mut File,
    len: u64,
    max_bytes: u64,
    written: Option<Timestamp>,
) -> std::io::Result<Vec<CompactSummary>> {
    match read_after(file, len, len.saturating_sub(max_bytes), STEP, written) {
        // Shorter than it was a moment ago (rewritten): read what is there now.
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            compact_summaries(path, max_bytes)
        }
        read => read,
    }
}

/// [`compact_summaries_after`] of `source`'s bytes from `window_start` to `len`,
/// read `step` bytes at a time from the end.
pub(super) fn read_after(
    source: &mut impl Positional,
    len: u64,
    window_start: u64,
    step: u64,
    written: Option<Timestamp>,
) -> std::io::Result<Vec<CompactSummary>> {
    // A summary pairs with the compaction before it however far back that lies:
    // no stop until the oldest compaction record read is a boundary.
    let mut oldest_is_summary = false;
    let enough = |stretch: &Stretch| {
        if let Some(first) = stretch.records.iter().find(|r| takes_part(r)) {
            oldest_is_summary = is_main_summary(first);
        }
        !oldest_is_summary
            && match written {
                Some(written) => stretch.written_before(written),
                None => stretch.records.iter().any(is_main_boundary),
            }
    };
    let records = marked_records_backward(source, len, window_start, step, enough)?;
    Ok(summaries_of(&records))
}

/// The compactions `records` (marked records in file order) describe.
fn summaries_of(records: &[Value]) -> Vec<CompactSummary> {
    let mut found = Vec::new();
    for record in records {
        take_value(record, &mut found);
    }
    found
}

/// A record `take_value` uses: a main-chain boundary or summary.
fn takes_part(record: &Value) -> bool {
    is_main_boundary(record) || is_main_summary(record)
}

/// Bytes at a position: a file, or a slice in tests.
pub(super) trait Positional {
    fn read_at(&mut self, from: u64, buf: &mut [u8]) -> std::io::Result<()>;
}

impl Positional for File {
    fn read_at(&mut self, from: u64, buf: &mut [u8]) -> std::io::Result<()> {
        self.seek(SeekFrom::Start(from))?;
        self.read_exact(buf)
    }
}

/// The whole lines of one step back, and the marked ones among them parsed.
pub(super) struct Stretch<'a> {
    /// Whole lines, in file order (the last may have no newline at the file's end).
    pub lines: &'a [u8],
    /// Its marked lines that are JSON, in file order.
    pub records: Vec<Value>,
}

impl Stretch<'_> {
    /// Whether the stretch was written more than the slack before `written`:
    /// the first and the last of its main-chain records with a time (of the
    /// first and last few lines) are both that old, or it holds a main-chain
    /// boundary that old. Nothing before it can follow the checkpoint; one record
    /// out of time order is not taken for the stretch.
    fn written_before(&self, written: Timestamp) -> bool {
        let old = |at: Timestamp| at.seconds_since(written) < -CHECKPOINT_SLACK_SECONDS;
        let stamped = |line: &&[u8]| !line.is_empty() && line.len() <= MAX_STAMPED_LINE;
        let lines = || self.lines.split(|b| *b == b'\n');
        let first = lines().filter(stamped).take(STAMP_TRIES).find_map(stamp_of);
        let last = lines()
            .rev()
            .filter(stamped)
            .take(STAMP_TRIES)
            .find_map(stamp_of);
        let stamps_old = match (first, last) {
            (None, None) => false,
            (first, last) => first.is_none_or(old) && last.is_none_or(old),
        };
        stamps_old
            || self
                .records
                .iter()
                .any(|record| is_main_boundary(record) && record_time(record).is_some_and(old))
    }
}

/// A main-chain record's own `timestamp` (not one nested in its message),
/// without building it; a sidechain's is not the main chain's time.
fn stamp_of(line: &[u8]) -> Option<Timestamp> {
    #[derive(Deserialize)]
    struct Stamped<'a> {
        #[serde(borrow, default)]
        timestamp: Option<&'a str>,
        #[serde(rename = "isSidechain", default)]
        is_sidechain: Option<bool>,
    }
    let stamped: Stamped = serde_json::from_slice(line).ok()?;
    if stamped.is_sidechain == Some(true) {
        return None;
    }
    Timestamp::parse(stamped.timestamp?)
}

/// The marked records of `source`'s bytes from `window_start` to `len`, in file
/// order, read `step` bytes at a time from the end, until `enough` says a stretch
/// suffices. A line cut by `window_start` is skipped, as the forward read skips it.
pub(super) fn marked_records_backward(
    source: &mut impl Positional,
    len: u64,
    window_start: u64,
    step: u64,
    mut enough: impl FnMut(&Stretch) -> bool,
) -> std::io::Result<Vec<Value>> {
    let finder = marker_finder();
    // Newest stretch first; each in file order.
    let mut stretches: Vec<Vec<Value>> = Vec::new();
    let mut end = len;
    let mut size = step.max(1);
    let mut buf = Vec::new();
    while end > window_start {
        let from = end.saturating_sub(size).max(window_start);
        buf.resize(usize::try_from(end - from).unwrap_or(usize::MAX), 0);
        source.read_at(from, &mut buf)?;
        // The first line is taken as cut (the next step back reads it whole).
        let lines_at = if from == 0 {
            0
        } else {
            match memchr::memchr(b'\n', &buf) {
                Some(nl) if nl + 1 < buf.len() => nl + 1,
                // No whole line yet: one line longer than the step.
                _ if from > window_start => {
                    size = size.saturating_mul(2);
                    continue;
                }
                _ => break,
            }
        };
        let lines = buf.get(lines_at..).unwrap_or_default();
        let stretch = Stretch {
            lines,
            records: MarkedLines::new(lines, 0, &finder)
                .filter_map(parse_marked)
                .collect(),
        };
        let done = enough(&stretch);
        stretches.push(stretch.records);
        if done {
            break;
        }
        end = from + lines_at as u64;
        size = step.max(1);
    }
    Ok(stretches.into_iter().rev().flatten().collect())
}

#[cfg(test)]
#[path = "after_checkpoint_tests.rs"]
mod tests;
