use std::io::Cursor;

use super::*;

fn assistant(id: &str, input: u64, read: u64, extra: &str) -> String {
    format!(
        r#"{{"type":"assistant","uuid":"u-{id}","message":{{"id":"{id}","model":"claude-haiku-4-5","role":"assistant","content":[{{"type":"text","text":"hi"}}],"usage":{{"input_tokens":{input},"cache_creation_input_tokens":0,"cache_read_input_tokens":{read},"output_tokens":7}}}}{extra}}}"#
    )
}

fn scan_text(text: &str, limits: &ScanLimits) -> TranscriptScan {
    let bytes = text.as_bytes().to_vec();
    let len = bytes.len() as u64;
    scan_reader(&mut Cursor::new(bytes), len, limits).unwrap()
}

fn tiny_chunks(limits: ScanLimits) -> ScanLimits {
    ScanLimits { chunk: 7, ..limits }
}

#[test]
fn newest_main_chain_usage_wins_at_any_chunk_size() {
    let text = [
        assistant("m1", 10, 100, ""),
        assistant("m2", 20, 200, ""),
        assistant("s1", 99, 999, r#","isSidechain":true"#),
        assistant("e1", 0, 0, r#","isApiErrorMessage":true"#),
        r#"{"type":"user","message":{"role":"user","content":"the assistant said"}}"#.into(),
    ]
    .join("\n");
    for limits in [
        ScanLimits::usage_only(),
        tiny_chunks(ScanLimits::usage_only()),
    ] {
        let found = scan_text(&text, &limits);
        let usage = found.usage.unwrap();
        assert_eq!(usage.usage.context_tokens(), 220);
        assert_eq!(usage.message_id.as_deref(), Some("m2"));
        assert_eq!(found.model.as_deref(), Some("claude-haiku-4-5"));
    }
}

#[test]
fn a_boundary_before_any_usage_settles_on_post_tokens_or_unknown() {
    let boundary = |post: &str| {
        format!(
            r#"{{"type":"system","subtype":"compact_boundary","compactMetadata":{{"trigger":"auto","preTokens":167189{post}}}}}"#
        )
    };
    let with_post = [
        assistant("m1", 10, 150_000, ""),
        boundary(r#","postTokens":6330"#),
    ]
    .join("\n");
    let found = scan_text(&with_post, &ScanLimits::usage_only());
    let usage = found.usage.unwrap();
    assert_eq!(usage.source, UsageSource::CompactBoundary);
    assert_eq!(usage.usage.context_tokens(), 6330);
    assert_eq!(found.last_boundary.unwrap().pre_tokens, Some(167_189));

    let without = [assistant("m1", 10, 150_000, ""), boundary("")].join("\n");
    let found = scan_text(&without, &ScanLimits::usage_only());
    assert!(
        found.usage.is_none(),
        "pre-compaction usage is never reused"
    );
    assert!(found.last_boundary.is_some());

    let after = [boundary(""), assistant("m2", 5, 6000, "")].join("\n");
    let found = scan_text(&after, &ScanLimits::usage_only());
    assert_eq!(found.usage.unwrap().usage.context_tokens(), 6005);
}

#[test]
fn no_trailing_newline_crlf_blank_lines_and_garbage() {
    let text = format!(
        "\n\n{}\r\n\u{0}\u{1}garbage {{\"assistant\n{}",
        assistant("m1", 1, 2, ""),
        r#"{"type":"assistant","message":{"id":"half"#
    );
    let found = scan_text(&text, &tiny_chunks(ScanLimits::usage_only()));
    assert_eq!(found.usage.unwrap().usage.context_tokens(), 3);
    assert_eq!(found.bad_lines, 2);
}

#[test]
fn arbitrary_bytes_and_truncated_utf8_never_panic() {
    let mut bytes: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    bytes.extend_from_slice("\n{\"type\":\"assistant\",\"x\":\"\u{e9}".as_bytes());
    bytes.pop();
    let len = bytes.len() as u64;
    for chunk in [1, 3, 64, 4096] {
        let limits = ScanLimits {
            chunk,
            ..ScanLimits::with_tool_uses()
        };
        let found = scan_reader(&mut Cursor::new(bytes.clone()), len, &limits).unwrap();
        assert!(found.usage.is_none());
    }
}

#[test]
fn long_lines_are_skipped_without_being_held() {
    let long = format!(
        r#"{{"type":"assistant","message":{{"content":"{}","usage":{{"input_tokens":5}}}}}}"#,
        "x".repeat(5000)
    );
    let text = [assistant("m1", 1, 1, ""), long].join("\n");
    let limits = ScanLimits {
        chunk: 512,
        max_line: 1000,
        ..ScanLimits::usage_only()
    };
    let found = scan_text(&text, &limits);
    assert_eq!(found.long_lines_skipped, 1);
    assert_eq!(found.usage.unwrap().usage.context_tokens(), 2);
    // A long first line (no newline before it) is skipped too.
    let only_long = "y".repeat(3000);
    let found = scan_text(&only_long, &limits);
    assert_eq!((found.long_lines_skipped, found.lines_read), (1, 0));
}

#[test]
fn byte_budget_bounds_the_scan() {
    let filler = r#"{"type":"user","message":{"content":"padding padding padding"}}"#;
    let mut lines = vec![assistant("m1", 1, 1, "")];
    lines.extend(std::iter::repeat_n(filler.to_string(), 2000));
    let text = lines.join("\n");
    let limits = ScanLimits {
        chunk: 1024,
        max_bytes: 8 * 1024,
        ..ScanLimits::usage_only()
    };
    let found = scan_text(&text, &limits);
    assert!(found.budget_exhausted);
    assert!(found.usage.is_none());
    assert!(found.bytes_read <= 8 * 1024);
}

#[test]
fn tool_uses_are_collected_newest_first_and_deduplicated() {
    let tool = |id: &str, name: &str, path: &str| {
        format!(
            r#"{{"type":"assistant","message":{{"id":"t-{id}","content":[{{"type":"tool_use","id":"{id}","name":"{name}","input":{{"file_path":"{path}","content":"big"}}}}],"usage":{{"input_tokens":1}}}}}}"#
        )
    };
    let text = [
        tool("a", "Read", "/w/projects/P1/plan.md"),
        tool("b", "Edit", "/w/projects/P1/ORCHESTRATION.yaml"),
        tool("b", "Edit", "/w/projects/P1/ORCHESTRATION.yaml"),
        tool("c", "Bash", "/ignored"),
        tool("d", "NotebookEdit", "/w/n.ipynb"),
    ]
    .join("\n");
    let found = scan_text(&text, &ScanLimits::with_tool_uses());
    let paths: Vec<(&str, bool)> = found
        .tool_uses
        .iter()
        .map(|t| (t.path.as_str(), t.is_edit))
        .collect();
    assert_eq!(
        paths,
        [
            ("/w/n.ipynb", true),
            ("/w/projects/P1/ORCHESTRATION.yaml", true),
            ("/w/projects/P1/plan.md", false),
        ]
    );
    let usage_only = scan_text(&text, &ScanLimits::usage_only());
    assert!(usage_only.tool_uses.is_empty());
}

#[test]
fn streamed_lines_of_one_message_count_once() {
    let text = [
        assistant("m1", 1, 1, ""),
        assistant("m2", 1, 1, ""),
        assistant("m2", 1, 1, ""),
        assistant("m2", 1, 1, ""),
    ]
    .join("\n");
    let limits = ScanLimits {
        max_tool_uses: usize::MAX,
        ..ScanLimits::with_tool_uses()
    };
    // With tool calls wanted the scan reads the whole (small) file.
    let found = scan_text(
        &text.replace("\"text\",\"text\":\"hi\"", "\"tool_use\""),
        &limits,
    );
    assert_eq!(found.assistant_messages, 2);
}

#[cfg(unix)]
#[test]
fn pipes_and_devices_are_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("session.jsonl");
    crate::io::test_support::mkfifo(&fifo);
    let err = scan(&fifo, &ScanLimits::usage_only()).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(scan(Path::new("/dev/zero"), &ScanLimits::usage_only()).is_err());
    assert!(scan(dir.path(), &ScanLimits::usage_only()).is_err());
    assert_eq!(first_timestamp(&fifo), None);
}

/// Once the usage is found, only lines with a `"tool_use"` block are read: a tool
/// result (whose `"tool_use_id"` must not count) is skipped, and a call written
/// with spaces after the colons is still found.
#[test]
fn older_tool_calls_are_found_after_the_usage_whatever_the_spacing() {
    let call = r#"{"type": "assistant", "message": {"id": "old", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Edit", "input": {"file_path": "/w/projects/P/ORCHESTRATION.yaml"}}]}}"#;
    let result = r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"{\"type\":\"assistant\",\"message\":{\"content\":[]}}"}]}}"#;
    let text = [call.to_string(), result.into(), assistant("new", 5, 50, "")].join("\n");
    let found = scan_text(&text, &ScanLimits::with_tool_uses());
    assert_eq!(found.usage.unwrap().usage.context_tokens(), 55);
    let paths: Vec<&str> = found.tool_uses.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(paths, ["/w/projects/P/ORCHESTRATION.yaml"]);
    assert!(found.tool_uses[0].is_edit);
    assert_eq!(found.bad_lines, 0);
}

/// The first timestamp is found wherever it lies in the first 64 KB: in the first
/// 4 KB, past them, or cut in two by the 4 KB boundary; beyond 64 KB it is not.
#[test]
fn the_first_timestamp_is_found_anywhere_in_the_first_64_kb() {
    let dir = tempfile::tempdir().unwrap();
    let at = |padding: usize| {
        let path = dir.path().join(format!("t{padding}.jsonl"));
        let line = format!(
            "{{\"summary\":\"{}\",\"timestamp\":\"2026-03-01T12:00:00Z\"}}\n{{\"timestamp\":\"2026-03-02T12:00:00Z\"}}\n",
            "x".repeat(padding)
        );
        std::fs::write(&path, line).unwrap();
        first_timestamp(&path).map(|t| t.to_iso())
    };
    let first = Some("2026-03-01T12:00:00Z".to_string());
    // The value starts at byte padding + 28 or so: before, across and after 4 KB.
    for padding in [0, 4_050, 4_060, 4_070, 4_080, 4_096, 10_000, 60_000] {
        assert_eq!(at(padding), first, "padding {padding}");
    }
    assert_eq!(at(70_000), None);
}

/// Lines with the markers whole, cut short, doubled, split by other bytes, or not
/// at all: for the marker checks.
const MARKER_LINES: [&[u8]; 18] = [
    br#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Read"}]}}"#,
    br#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1"}]}}"#,
    br#"{"type":"system","subtype":"compact_boundary"}"#,
    b"\"tool_use\"",
    b"compact_boundary",
    b"tool_use\"",
    b"\"tool_use",
    b"compact_boundar",
    b"ompact_boundary",
    b"_____\"tool_use\"____compact_boundary___",
    b"compact_compact_boundary",
    b"\"tool_\"tool_use\"",
    b"",
    b"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy_yyyyyyyyyyyyyyyyyyy",
    b"ab\"tool_use\"cd",
    b"xcompact_boundaryx",
    b"yyyyyyyy_yyyyyy\"tool_u_se\"compact-boundary",
    b"_",
];

/// One pass over the underscores finds what a search per marker found.
#[test]
fn one_pass_for_both_markers_agrees_with_a_search_for_each() {
    let search = |line: &[u8], tools: bool, boundary: bool| {
        let has = |needle: &[u8]| memchr::memmem::find(line, needle).is_some();
        (tools && has(b"\"tool_use\"")) || (boundary && has(b"compact_boundary"))
    };
    for line in MARKER_LINES {
        for (tools, boundary) in [(true, true), (true, false), (false, true), (false, false)] {
            assert_eq!(
                holds_marker(line, tools, boundary),
                search(line, tools, boundary),
                "{:?} tools={tools} boundary={boundary}",
                String::from_utf8_lossy(line)
            );
        }
    }
}

/// A line that spans chunks is joined only if it may hold a marker: the check
/// on its pieces agrees with the check on the whole line, wherever it is cut.
#[test]
fn a_line_in_pieces_is_passed_over_exactly_when_the_whole_line_would_be() {
    let settled = |tool_cap: usize, boundary_seen: bool| TranscriptScan {
        usage: Some(FoundUsage {
            usage: Usage::default(),
            source: UsageSource::AssistantRecord,
            model: None,
            message_id: None,
            timestamp: None,
        }),
        last_boundary: boundary_seen.then_some(Boundary {
            trigger: None,
            pre_tokens: None,
            post_tokens: None,
            timestamp: None,
        }),
        tool_cap,
        ..TranscriptScan::default()
    };
    for line in MARKER_LINES {
        for (tool_cap, boundary_seen) in [(32, false), (32, true), (0, false), (0, true)] {
            let scan = settled(tool_cap, boundary_seen);
            let whole = !holds_marker(line, tool_cap > 0, !boundary_seen);
            // Every cut into two and three pieces (pending: newest piece first).
            for a in 0..=line.len() {
                for b in a..=line.len() {
                    let (first, middle, last) = (&line[..a], &line[a..b], &line[b..]);
                    let pending = vec![last.to_vec(), middle.to_vec()];
                    assert_eq!(
                        scan.passes_over(first, &pending),
                        whole,
                        "{:?} cut at {a} and {b}",
                        String::from_utf8_lossy(line)
                    );
                }
            }
        }
    }
    // Before the usage settles every line is read.
    assert!(!TranscriptScan::default().passes_over(b"plain", &[b" text".to_vec()]));
}
