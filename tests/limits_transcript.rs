//! Transcripts at the limits, through the binary under a 1 GiB address-space limit
//! (`ulimit -v`): a 10 GB sparse transcript and a 200 MB line. The tail reader reads
//! at most 16 MB (4 MB for PreCompact's tool calls) from the end and never holds a
//! line over 4 MB, so each hook answers at once with what lies within reach.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/transcript.rs"]
mod transcript;

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use hook_fixture::{Fixture, SESSION, payload};
use hostile::{capped, cli_command, hook};
use serde_json::{Value, json};
use transcript::Transcript;

const GB: u64 = 1024 * 1024 * 1024;
const MB: u64 = 1024 * 1024;

/// A file of `size` bytes: `head` at the start, `tail` at the very end, a hole
/// (NUL bytes, no disk) between.
fn sparse(path: &Path, head: &str, size: u64, tail: &str) {
    let mut file = std::fs::File::create(path).unwrap();
    file.write_all(head.as_bytes()).unwrap();
    file.seek(SeekFrom::Start(size - tail.len() as u64))
        .unwrap();
    file.write_all(tail.as_bytes()).unwrap();
    assert_eq!(file.metadata().unwrap().len(), size);
}

/// 177,200 of 200,000 tokens: 88.6 %.
fn usage_lines() -> String {
    let mut t = Transcript::new(SESSION);
    t.user("go").assistant((1_200, 3_000, 173_000));
    t.text()
}

fn monitor_state(fx: &Fixture) -> Value {
    fx.json(".jerry/context-monitor-state.json")
}

/// The fill the last UserPromptSubmit recorded (`None`: it recorded none).
fn recorded_fill(fx: &Fixture) -> Option<Value> {
    let path = fx.root().join(".jerry/context-monitor-state.json");
    let text = std::fs::read_to_string(&path).ok()?;
    std::fs::remove_file(path).unwrap();
    Some(serde_json::from_str::<Value>(&text).unwrap()["fill"].clone())
}

/// UserPromptSubmit on `transcript` finds no usage it can reach: the fill is logged
/// and recorded as unknown, not guessed.
fn assert_fill_unknown(fx: &Fixture, transcript: &Path) {
    recorded_fill(fx);
    let run = user_prompt(fx, transcript);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let log = fx.log();
    assert!(
        log.trim_end()
            .ends_with("level unknown, 0 block(s) injected"),
        "{log}"
    );
    assert!(
        matches!(recorded_fill(fx), None | Some(Value::Null)),
        "unknown, not guessed"
    );
}

fn user_prompt(fx: &Fixture, transcript: &Path) -> hostile::Run {
    hook(
        &capped(),
        fx.root(),
        fx.log.path(),
        &["UserPromptSubmit"],
        &payload(
            "UserPromptSubmit",
            Some(transcript),
            json!({"prompt": "go"}),
        ),
    )
}

#[test]
fn a_10_gb_sparse_transcript_is_read_from_its_end_only() {
    let fx = Fixture::new();
    let big = fx.root().join("big.jsonl");
    sparse(&big, "", 10 * GB, &format!("\n{}", usage_lines()));
    let run = user_prompt(&fx, &big);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        monitor_state(&fx)["tokens_used"],
        177_200,
        "the newest usage, at the end"
    );
    assert!(run.stdout.contains("context-monitor"), "{}", run.stdout);

    let cli = cli_command(
        &capped(),
        fx.root(),
        &["monitor", "demo-wf-001", "--transcript"],
    )
    .arg(&big)
    .output()
    .unwrap();
    assert_eq!(
        cli.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    assert!(String::from_utf8_lossy(&cli.stdout).contains("88.6"));

    // The usage only at the start, 10 GB back: out of reach, so unknown.
    let far = fx.root().join("far.jsonl");
    sparse(&far, &usage_lines(), 10 * GB, "\n");
    assert_fill_unknown(&fx, &far);
    let run = hook(
        &capped(),
        fx.root(),
        fx.log.path(),
        &["PreCompact"],
        &payload("PreCompact", Some(&far), json!({"trigger": "auto"})),
    );
    assert_eq!(run.stdout, "");
    assert_eq!(
        fx.checkpoints().len(),
        1,
        "the checkpoint is written all the same"
    );
}

#[test]
fn a_200_mb_line_is_skipped_without_being_held() {
    let fx = Fixture::new();
    let line_start = "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"";
    let line_end = "\"}}\n";
    // Usage, then a 200 MB line, then newer usage: the newer one is found.
    let path = fx.root().join("long-line.jsonl");
    let newer = {
        let mut t = Transcript::new(SESSION);
        t.assistant((100, 200, 99_700));
        t.text()
    };
    sparse(
        &path,
        &format!("{}{line_start}", usage_lines()),
        200 * MB,
        &format!("{line_end}{newer}"),
    );
    let run = user_prompt(&fx, &path);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(monitor_state(&fx)["tokens_used"], 100_000);

    // The 200 MB line is the newest and unterminated: the usage before it is more
    // than 16 MB back, so the fill is unknown; the process stays within 1 GiB.
    let last = fx.root().join("long-last.jsonl");
    sparse(
        &last,
        &format!("{}{line_start}", usage_lines()),
        200 * MB,
        "\"",
    );
    assert_fill_unknown(&fx, &last);
}
