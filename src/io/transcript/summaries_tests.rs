use super::*;

fn boundary(at: &str, trigger: &str, extra: &str) -> String {
    format!(
        r#"{{"type":"system","subtype":"compact_boundary","uuid":"b-{at}","timestamp":"{at}","content":"Conversation compacted","compactMetadata":{{"trigger":"{trigger}","preTokens":170000}}{extra}}}"#
    )
}

fn summary(text: &str, as_list: bool) -> String {
    let content = if as_list {
        format!(r#"[{{"type":"text","text":"{text}"}}]"#)
    } else {
        format!(r#""{text}""#)
    };
    format!(
        r#"{{"type":"user","isCompactSummary":true,"isVisibleInTranscriptOnly":true,"message":{{"role":"user","content":{content}}}}}"#
    )
}

pub(in crate::io::transcript) fn write(lines: &[String]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s-1.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    (dir, path)
}

#[test]
fn each_boundary_gets_the_summary_after_it() {
    let (_dir, path) = write(&[
        r#"{"type":"user","message":{"role":"user","content":"hello"}}"#.into(),
        boundary("2026-05-01T10:01:00Z", "auto", ""),
        summary("first: RD-004 kept", false),
        "not json at all, compact_boundary".into(),
        boundary("2026-05-01T12:00:00Z", "manual", r#","isSidechain":true"#),
        summary("sidechain summary", false).replace("{\"type\"", "{\"isSidechain\":true,\"type\""),
        boundary("2026-05-01T14:00:00Z", "manual", ""),
        summary("second: DF-031", true),
        boundary("2026-05-01T16:00:00Z", "auto", ""),
    ]);
    let found = compact_summaries(&path, WHOLE_BYTES).unwrap();
    let texts: Vec<Option<&str>> = found.iter().map(|s| s.text.as_deref()).collect();
    assert_eq!(
        texts,
        [Some("first: RD-004 kept"), Some("second: DF-031"), None]
    );
    assert_eq!(found[0].trigger.as_deref(), Some("auto"));
    assert_eq!(found[0].pre_tokens, Some(170_000));
    assert_eq!(found[1].trigger.as_deref(), Some("manual"));
}

#[test]
fn the_compaction_of_a_checkpoint_is_the_first_after_it() {
    let (_dir, path) = write(&[
        boundary("2026-05-01T10:01:00Z", "auto", ""),
        summary("one", false),
        boundary("2026-05-01T14:00:00Z", "auto", ""),
        summary("two", false),
    ]);
    let found = compact_summaries(&path, WHOLE_BYTES).unwrap();
    let at = |s: &str| Timestamp::parse(s);
    let pick = |t| after_checkpoint(&found, t).and_then(|s| s.text.clone());
    assert_eq!(pick(at("2026-05-01T10:00:30Z")).as_deref(), Some("one"));
    assert_eq!(pick(at("2026-05-01T13:59:00Z")).as_deref(), Some("two"));
    assert_eq!(pick(at("2026-05-01T15:00:00Z")), None);
    assert_eq!(pick(None).as_deref(), Some("two"));
}

#[test]
fn a_tail_read_skips_the_record_it_cuts() {
    let filler = format!(
        r#"{{"type":"user","message":{{"content":"{}"}}}}"#,
        "x".repeat(5000)
    );
    let (_dir, path) = write(&[
        boundary("2026-05-01T10:01:00Z", "auto", ""),
        summary("old", false),
        filler,
        boundary("2026-05-01T14:00:00Z", "auto", ""),
        summary("new", false),
    ]);
    let found = compact_summaries(&path, 1000).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].text.as_deref(), Some("new"));
}

#[test]
fn folders_and_missing_files_are_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    assert!(compact_summaries(dir.path(), WHOLE_BYTES).is_err());
    assert!(compact_summaries(&dir.path().join("none.jsonl"), WHOLE_BYTES).is_err());
}

#[test]
fn the_transcript_of_a_session_is_found_under_the_config_folder() {
    let config = tempfile::tempdir().unwrap();
    let root = Path::new("/work/my.repo");
    let folder = config.path().join("projects").join("-work-my-repo");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("s-1.jsonl"), "").unwrap();
    let other = config.path().join("projects").join("-elsewhere");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("s-2.jsonl"), "").unwrap();
    let env = Env::from_pairs([("CLAUDE_CONFIG_DIR", config.path().to_str().unwrap())]);
    assert_eq!(
        transcript_of(&env, root, "s-1"),
        Some(folder.join("s-1.jsonl"))
    );
    assert_eq!(
        transcript_of(&env, root, "s-2"),
        Some(other.join("s-2.jsonl"))
    );
    assert_eq!(transcript_of(&env, root, "s-3"), None);
    assert_eq!(transcript_of(&env, root, "../s-1"), None);
    assert_eq!(transcript_of(&env, root, ""), None);
}

/// Every sequence of up to `depth` of these lines, with and without a final
/// newline: markers at a line's start or end, both in one line, cut markers,
/// their common part alone, empty lines, a `\r`.
fn line_mixes(depth: usize) -> Vec<String> {
    let pieces = [
        "",
        "plain",
        "compact_boundary",
        "x isCompactSummary y",
        "compact_boundary isCompactSummary",
        "\r",
        "compact_boundar",
        "isCompactSummar",
        "a compact Compact ompact",
        "{\"subtype\":\"compact_boundary\"}",
    ];
    let mut cases = vec![String::new()];
    for _ in 0..depth {
        let longer: Vec<String> = cases
            .iter()
            .flat_map(|case| pieces.iter().map(move |p| format!("{case}{p}\n")))
            .collect();
        cases.extend(longer);
    }
    let unended: Vec<String> = cases
        .iter()
        .map(|c| c.trim_end_matches('\n').to_string())
        .collect();
    cases.extend(unended);
    cases
}

fn marked<'a>(lines: impl Iterator<Item = &'a [u8]>) -> Vec<&'a [u8]> {
    lines
        .filter(|line| {
            memchr::memmem::find(line, b"compact_boundary").is_some()
                || memchr::memmem::find(line, b"isCompactSummary").is_some()
        })
        .collect()
}

/// The marked lines are exactly the lines a split on `\n` gives that hold a
/// marker, in order, from any line's start.
#[test]
fn marked_lines_are_the_lines_that_hold_a_marker() {
    let finder = marker_finder();
    for text in line_mixes(4) {
        let bytes = text.as_bytes();
        for from in [0, bytes.len() / 2, bytes.len()] {
            let from = bytes[..from]
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1);
            let expected = marked(bytes[from..].split(|b| *b == b'\n'));
            let got: Vec<&[u8]> = MarkedLines::new(bytes, from, &finder).collect();
            assert_eq!(got, expected, "{text:?} from {from}");
        }
    }
}

/// A reader that gives at most `step` bytes a read: every place a chunk can end.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// Read chunk by chunk, the marked lines are the same wherever the chunks end,
/// a line cut by the read's start is skipped, and a last line with no newline
/// is read.
#[test]
fn chunked_reads_find_every_marked_line_whatever_the_chunk_ends() {
    for text in line_mixes(3) {
        let bytes = text.as_bytes();
        for skip_first in [false, true] {
            let mut lines = bytes.split(|b| *b == b'\n');
            if skip_first {
                lines.next();
            }
            let expected: Vec<Vec<u8>> = marked(lines).into_iter().map(<[u8]>::to_vec).collect();
            for step in [1, 2, 3, 7, 16, 17, CHUNK] {
                let mut got: Vec<Vec<u8>> = Vec::new();
                for_marked_lines(Trickle { bytes, step }, skip_first, |line| {
                    got.push(line.to_vec());
                })
                .unwrap();
                assert_eq!(
                    got, expected,
                    "{text:?} skip_first {skip_first} step {step}"
                );
            }
        }
    }
}
