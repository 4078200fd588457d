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

fn write(lines: &[String]) -> (tempfile::TempDir, PathBuf) {
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
