use super::*;
use crate::core::dropped::summary::after_checkpoint;
use crate::io::transcript::summaries::compact_summaries;
use crate::io::transcript::summaries::tests::write;

impl Positional for &[u8] {
    fn read_at(&mut self, from: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let from = usize::try_from(from).unwrap();
        buf.copy_from_slice(&self[from..from + buf.len()]);
        Ok(())
    }
}

fn boundary(at: &str) -> String {
    format!(
        r#"{{"type":"system","subtype":"compact_boundary","timestamp":"{at}","compactMetadata":{{"trigger":"auto","preTokens":170000}}}}"#
    )
}

fn summary(text: &str) -> String {
    format!(
        r#"{{"type":"user","isCompactSummary":true,"message":{{"role":"user","content":"{text}"}}}}"#
    )
}

fn turn(at: &str, size: usize) -> String {
    format!(
        r#"{{"type":"user","timestamp":"{at}","message":{{"role":"user","content":"{}"}}}}"#,
        "y".repeat(size)
    )
}

/// Read back to the window's start, the marked records are the forward read's,
/// whatever the step, the window and where the lines end.
#[test]
fn read_to_the_start_backwards_gives_what_the_forward_read_gives() {
    let lines = [
        turn("2026-05-01T09:00:00Z", 40),
        boundary("2026-05-01T10:00:00Z"),
        String::new(),
        summary("one"),
        turn("2026-05-01T11:00:00Z", 300),
        "not json, compact_boundary".to_string(),
        boundary("2026-05-01T12:00:00Z"),
        summary("two"),
        "\r".to_string(),
        turn("2026-05-01T13:00:00Z", 5),
    ];
    for ending in ["\n", ""] {
        let text = lines.join("\n") + ending;
        let bytes = text.as_bytes();
        let len = bytes.len() as u64;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(&path, &text).unwrap();
        for window in [len, len - 1, len / 2, 200, 150, 3, 0] {
            let forward = compact_summaries(&path, window).unwrap();
            for step in [1, 2, 3, 7, 64, 100, 1000, 1 << 20] {
                let records =
                    marked_records_backward(&mut &bytes[..], len, len - window, step, |_| false)
                        .unwrap();
                let backward = summaries_of(&records);
                assert_eq!(backward, forward, "window {window} step {step} {ending:?}");
            }
        }
    }
}

/// SessionStart(compact) right after a compaction: the summary is found in the
/// last step, and nothing written well before the checkpoint is read.
#[test]
fn the_read_stops_at_records_older_than_the_checkpoint() {
    let mut lines: Vec<String> = (0..40)
        .map(|i| turn(&format!("2026-05-01T10:{i:02}:00Z"), 10_000))
        .collect();
    lines.push(boundary("2026-05-01T11:00:30Z"));
    lines.push(summary("this compaction"));
    let text = lines.join("\n") + "\n";
    let bytes = text.as_bytes();
    let len = bytes.len() as u64;
    let written = Timestamp::parse("2026-05-01T10:59:50Z");
    let mut stretches = 0;
    let records = marked_records_backward(&mut &bytes[..], len, 0, 16 * 1024, |stretch| {
        stretches += 1;
        stretch.written_before(written.unwrap())
    })
    .unwrap();
    assert!(stretches <= 2, "read {stretches} steps");
    let found = summaries_of(&records);
    let chosen = after_checkpoint(&found, written).and_then(|s| s.text.as_deref());
    assert_eq!(chosen, Some("this compaction"));
}

/// What the checkpoint is compared with is the same as with the whole tail read:
/// the first compaction after it (even with a later one), none when none
/// followed, the newest without a time.
#[test]
fn the_chosen_compaction_is_the_one_the_whole_tail_gives() {
    let (_dir, path) = write(&[
        turn("2026-05-01T09:00:00Z", 20_000),
        boundary("2026-05-01T10:01:00Z"),
        summary("one"),
        turn("2026-05-01T11:00:00Z", 70_000),
        turn("2026-05-01T12:00:00Z", 70_000),
        boundary("2026-05-01T14:00:00Z"),
        summary("two"),
        turn("2026-05-01T14:10:00Z", 100),
    ]);
    let whole = compact_summaries(&path, u64::MAX).unwrap();
    for written in [
        None,
        Timestamp::parse("2026-05-01T08:00:00Z"),
        Timestamp::parse("2026-05-01T10:00:30Z"),
        Timestamp::parse("2026-05-01T11:30:00Z"),
        Timestamp::parse("2026-05-01T13:59:30Z"),
        Timestamp::parse("2026-05-01T15:00:00Z"),
    ] {
        let found = compact_summaries_after(&path, u64::MAX, written).unwrap();
        assert_eq!(
            after_checkpoint(&found, written),
            after_checkpoint(&whole, written),
            "{written:?}"
        );
        assert!(found.len() <= whole.len());
    }
    let newest = compact_summaries_after(&path, u64::MAX, None).unwrap();
    assert_eq!(newest.len(), 1, "{newest:?}");
}

/// A line longer than a step is read whole, a record's time nested in its message
/// is not taken for its own, and lines that are not JSON stop nothing.
#[test]
fn long_lines_nested_times_and_garbage() {
    let nested = r#"{"type":"user","message":{"content":[{"timestamp":"2020-01-01T00:00:00Z"}]},"timestamp":"2026-05-01T11:00:00Z"}"#;
    let lines = [
        turn("2026-05-01T09:00:00Z", 10),
        boundary("2026-05-01T10:30:00Z"),
        summary(&"long ".repeat(40_000)),
        nested.to_string(),
        "garbage {".to_string(),
    ];
    let text = lines.join("\n");
    let bytes = text.as_bytes();
    let len = bytes.len() as u64;
    let written = Timestamp::parse("2026-05-01T10:29:00Z").unwrap();
    let records = marked_records_backward(&mut &bytes[..], len, 0, 1024, |stretch| {
        stretch.written_before(written)
    })
    .unwrap();
    let found = summaries_of(&records);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].text.as_deref().map(str::len), Some(200_000));
}

#[test]
fn folders_and_missing_files_are_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    assert!(compact_summaries_after(dir.path(), u64::MAX, None).is_err());
    assert!(compact_summaries_after(&dir.path().join("none.jsonl"), u64::MAX, None).is_err());
}

/// What the forward read and the backward read choose for a checkpoint at `written`.
fn both_choose(lines: &[String], written: &str) -> (Option<String>, Option<String>) {
    let (_dir, path) = write(lines);
    let written = Timestamp::parse(written);
    let forward = compact_summaries(&path, u64::MAX).unwrap();
    let backward = compact_summaries_after(&path, u64::MAX, written).unwrap();
    (
        after_checkpoint(&forward, written).and_then(|s| s.text.clone()),
        after_checkpoint(&backward, written).and_then(|s| s.text.clone()),
    )
}

/// One record out of time order (a sidechain's, replayed) at the start of the
/// newest stretch does not stop the read before the compaction.
#[test]
fn one_record_out_of_time_order_does_not_hide_the_compaction() {
    let sidechain = r#"{"type":"user","isSidechain":true,"timestamp":"2026-05-01T10:00:00Z","message":{"role":"user","content":"replayed"}}"#;
    let stray = r#"{"type":"user","timestamp":"2026-05-01T10:00:00Z","message":{"role":"user","content":"queued"}}"#;
    for odd in [sidechain, stray] {
        let lines = [
            turn("2026-05-01T10:00:00Z", 1_000),
            boundary("2026-05-01T11:00:30Z"),
            summary("this compaction"),
            turn("2026-05-01T11:01:00Z", 70_000),
            odd.to_string(),
            turn("2026-05-01T11:02:00Z", 10),
        ];
        let (forward, backward) = both_choose(&lines, "2026-05-01T10:59:50Z");
        assert_eq!(forward.as_deref(), Some("this compaction"));
        assert_eq!(backward, forward, "{odd}");
    }
}

/// A summary record far from the boundary it pairs with (one written without a
/// summary): the read goes back to the boundary, as the forward read pairs them.
#[test]
fn a_summary_is_read_with_its_boundary_however_far_back() {
    let lone = r#"{"type":"user","isCompactSummary":true,"timestamp":"2026-05-01T11:00:00Z","message":{"role":"user","content":"late"}}"#;
    let lines = [
        boundary("2026-05-01T10:00:00Z"),
        turn("2026-05-01T10:30:00Z", 70_000),
        turn("2026-05-01T10:31:00Z", 10),
        lone.to_string(),
    ];
    let (forward, backward) = both_choose(&lines, "2026-05-01T10:59:30Z");
    assert_eq!(backward, forward);
}

/// A file shorter than it was when its length was taken is read as it is now.
#[test]
fn a_file_that_shrinks_while_read_is_read_as_it_is() {
    let (_dir, path) = write(&[boundary("2026-05-01T10:00:00Z"), summary("x")]);
    let mut file = std::fs::File::open(&path).unwrap();
    let len = file.metadata().unwrap().len();
    let err = read_after(&mut file, len + 10, 0, STEP, None).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
    let found = read_file_after(&path, &mut file, len + 10, u64::MAX, None).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].text.as_deref(), Some("x"));
}

/// Random transcripts in time order (boundaries with and without summaries,
/// lone summaries, sidechain boundaries, garbage, empty lines), random windows,
/// steps and checkpoint times: the backward read chooses what the forward read
/// chooses.
#[test]
fn the_backward_read_chooses_what_the_forward_read_chooses() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut below = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let at = |second: i64| Timestamp(1_777_000_000 + second).to_iso();
    let lone = |t: i64, n: u64| {
        format!(
            r#"{{"type":"user","isCompactSummary":true,"timestamp":"{}","message":{{"role":"user","content":"s{n}"}}}}"#,
            at(t)
        )
    };
    for case in 0..1500 {
        let mut t: i64 = 0;
        let mut lines: Vec<String> = Vec::new();
        for _ in 0..1 + below(25) {
            t += below(50) as i64;
            lines.push(match below(10) {
                0 | 1 => boundary(&at(t)),
                2 => lone(t, below(1000)),
                3 => summary(&format!("u{}", below(1000))),
                4 => String::new(),
                5 => "garbage compact_boundary".to_string(),
                6 => format!(
                    r#"{{"type":"system","subtype":"compact_boundary","isSidechain":true,"timestamp":"{}"}}"#,
                    at(t)
                ),
                _ => turn(&at(t), below(300) as usize),
            });
        }
        let text = lines.join("\n") + if below(2) == 0 { "\n" } else { "" };
        let bytes = text.as_bytes();
        let len = bytes.len() as u64;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(&path, &text).unwrap();
        let window = match below(3) {
            0 => len,
            1 => below(len + 1),
            _ => u64::MAX,
        };
        let forward = compact_summaries(&path, window).unwrap();
        for _ in 0..4 {
            let written = (below(4) > 0)
                .then(|| Timestamp(1_777_000_000 + below((t + 200) as u64) as i64 - 100));
            let step = 1 + below(400);
            let backward = read_after(
                &mut &bytes[..],
                len,
                len.saturating_sub(window),
                step,
                written,
            )
            .unwrap();
            assert_eq!(
                after_checkpoint(&backward, written),
                after_checkpoint(&forward, written),
                "case {case} window {window} step {step} written {written:?}\n{text}"
            );
        }
    }
}
