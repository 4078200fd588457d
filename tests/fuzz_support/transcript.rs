//! The transcript tail reader over any bytes: reading backwards in chunks of any size
//! finds exactly what one read of the whole file finds (lines split the same, long
//! lines skipped the same), a byte budget stops it cleanly, and reading from a file
//! (with `first_timestamp`) matches reading from memory.

use std::io::Cursor;
use std::path::PathBuf;

use resume_tui::io::transcript::{ScanLimits, TranscriptScan, first_timestamp, scan, scan_reader};

use super::source::Source;

fn same(a: &TranscriptScan, b: &TranscriptScan) {
    assert_eq!(a.usage, b.usage);
    assert_eq!(a.last_boundary, b.last_boundary);
    assert_eq!(a.model, b.model);
    assert_eq!(a.tool_uses, b.tool_uses);
    assert_eq!(a.lines_read, b.lines_read);
    assert_eq!(a.bad_lines, b.bad_lines);
    assert_eq!(a.long_lines_skipped, b.long_lines_skipped);
    assert_eq!(a.assistant_messages, b.assistant_messages);
}

pub fn transcript(data: &[u8]) {
    let mut src = Source::new(data);
    let chunk = 1 + src.below(300);
    let max_line = if src.chance(128) {
        1 + src.below(400)
    } else {
        usize::MAX / 2
    };
    let want_tool_uses = src.chance(128);
    let body = src.rest();
    let len = body.len() as u64;
    let limits = ScanLimits {
        chunk,
        max_line,
        max_bytes: u64::MAX,
        max_tool_uses: if want_tool_uses { 1 + src.below(40) } else { 0 },
        want_tool_uses,
        // Unbounded, so the answer does not depend on where chunks fall.
        boundary_lookback: u64::MAX,
    };
    let whole = ScanLimits {
        chunk: body.len().max(1),
        ..limits
    };
    let chunked = scan_reader(&mut Cursor::new(body), len, &limits).unwrap();
    let at_once = scan_reader(&mut Cursor::new(body), len, &whole).unwrap();
    same(&chunked, &at_once);
    assert!(chunked.bytes_read <= len);

    let budget = ScanLimits {
        max_bytes: len / 2,
        ..limits
    };
    let cut = scan_reader(&mut Cursor::new(body), len, &budget).unwrap();
    assert!(cut.bytes_read <= len / 2 + chunk as u64);

    let file =
        Removed(std::env::temp_dir().join(format!("resume-tui-fuzz-{}.jsonl", std::process::id())));
    std::fs::write(&file.0, body).unwrap();
    same(&scan(&file.0, &limits).unwrap(), &chunked);
    let _ = first_timestamp(&file.0);
}

/// A file removed when dropped: also when a check above fails (the panic unwinds).
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
