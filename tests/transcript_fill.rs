//! Fill arithmetic over generated transcripts: which record counts, and the window.

#[path = "support/transcript.rs"]
mod transcript;

use resume_tui::core::fill::{self, WindowInputs, WindowSource};
use resume_tui::io::transcript::{ScanLimits, UsageSource, scan};
use transcript::Transcript;

fn scan_of(t: &Transcript) -> resume_tui::io::transcript::TranscriptScan {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    t.write(&path);
    scan(&path, &ScanLimits::with_tool_uses()).unwrap()
}

#[test]
fn the_newest_main_chain_response_counts_and_noise_is_skipped() {
    let mut t = Transcript::new("s1");
    t.user("start")
        .every_other_type()
        .assistant((1_000, 2_000, 120_000))
        .tool_use("Read", "/work/projects/P1/plan.md", (1_200, 3_000, 173_000))
        .sidechain((5, 5, 190_000))
        .api_error()
        .api_error_with_usage((9, 9, 199_000))
        .synthetic()
        .sidechain_boundary()
        .every_other_type()
        .garbage("{not json")
        .garbage("\u{0}\u{1}\u{2}");
    let found = scan_of(&t);
    let usage = found.usage.clone().unwrap();
    assert_eq!(usage.source, UsageSource::AssistantRecord);
    assert_eq!(
        usage.usage.context_tokens(),
        177_200,
        "output tokens are not counted"
    );
    assert_eq!(found.model.as_deref(), Some("claude-haiku-4-5"));
    let measured = fill::measure(
        usage.usage.context_tokens(),
        &WindowInputs {
            model: found.model.as_deref(),
            ..WindowInputs::default()
        },
    );
    assert_eq!(measured.basis.window, 200_000);
    assert!((measured.fill - 0.886).abs() < 1e-9);
    assert_eq!(found.tool_uses.len(), 1);
    assert!(!found.tool_uses[0].is_edit);
}

#[test]
fn only_usage_after_the_last_compact_boundary_counts() {
    let mut t = Transcript::new("s1");
    t.assistant((10, 10, 180_000))
        .compact_boundary("auto", 180_020, Some(6_330));
    let found = scan_of(&t);
    let usage = found.usage.unwrap();
    assert_eq!(usage.source, UsageSource::CompactBoundary);
    assert_eq!(usage.usage.context_tokens(), 6_330);

    let mut t = Transcript::new("s1");
    t.assistant((10, 10, 180_000))
        .compact_boundary("manual", 180_020, None);
    let found = scan_of(&t);
    assert!(
        found.usage.is_none(),
        "unknown, never the pre-compaction figure"
    );
    assert_eq!(
        found.last_boundary.unwrap().trigger.as_deref(),
        Some("manual")
    );

    let mut t = Transcript::new("s1");
    t.assistant((10, 10, 180_000))
        .compact_boundary("auto", 180_020, Some(6_330))
        .assistant((100, 900, 7_000));
    assert_eq!(scan_of(&t).usage.unwrap().usage.context_tokens(), 8_000);
}

#[test]
fn a_streamed_message_counts_once() {
    let mut t = Transcript::new("s1");
    t.assistant((1, 1, 1_000))
        .streamed((10, 20, 50_000), 4)
        .user("next");
    let found = scan_of(&t);
    assert_eq!(found.usage.unwrap().usage.context_tokens(), 50_030);

    let mut t = Transcript::new("s1");
    t.tool_use("Edit", "/w/a.md", (1, 1, 1_000))
        .streamed_tool_calls((10, 20, 60_000), &["/w/b.md", "/w/c.md", "/w/d.md"]);
    let found = scan_of(&t);
    assert_eq!(found.usage.unwrap().usage.context_tokens(), 60_030);
    assert_eq!(
        found.assistant_messages, 2,
        "three lines of one message id are one message"
    );
    let paths: Vec<&str> = found.tool_uses.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(paths, ["/w/d.md", "/w/c.md", "/w/b.md", "/w/a.md"]);
}

#[test]
fn window_comes_from_the_model_and_overrides() {
    let mut t = Transcript::new("s1").with_model("claude-sonnet-4-6[1m]");
    t.assistant((0, 0, 450_000));
    let found = scan_of(&t);
    let inputs = WindowInputs {
        model: found.model.as_deref(),
        ..WindowInputs::default()
    };
    let measured = fill::measure(150_000, &inputs);
    assert_eq!(
        (measured.basis.window, measured.basis.source),
        (1_000_000, WindowSource::ModelSuffix)
    );
    // More than 200,000 tokens in use is evidence of its own, before the model.
    let measured = fill::measure(450_000, &inputs);
    assert_eq!(
        (measured.basis.window, measured.basis.source),
        (1_000_000, WindowSource::ObservedUsage)
    );
    let overridden = fill::measure(
        450_000,
        &WindowInputs {
            env_window: Some("500000"),
            ..inputs
        },
    );
    assert_eq!(overridden.basis.window, 500_000);
    assert!((overridden.fill - 0.9).abs() < 1e-9);
}

#[test]
fn truncated_last_line_and_no_trailing_newline() {
    let mut t = Transcript::new("s1");
    t.assistant((1, 2, 3))
        .garbage(r#"{"type":"assistant","message":{"id":"cut"#);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    std::fs::write(&path, t.text_unterminated()).unwrap();
    let found = scan(&path, &ScanLimits::usage_only()).unwrap();
    assert_eq!(found.usage.unwrap().usage.context_tokens(), 6);
    assert_eq!(found.bad_lines, 1);
}

#[test]
fn cost_does_not_grow_with_the_file() {
    let mut t = Transcript::new("s1");
    for _ in 0..300 {
        t.big_tool_result(20_000).assistant((1, 1, 10_000));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    t.write(&path);
    let limits = ScanLimits::usage_only();
    let found = scan(&path, &limits).unwrap();
    assert!(found.usage.is_some());
    // The usage, then at most the look-back for an older compaction boundary.
    assert!(
        found.bytes_read <= limits.boundary_lookback + limits.chunk as u64,
        "read {} of {} bytes",
        found.bytes_read,
        std::fs::metadata(&path).unwrap().len()
    );
}
