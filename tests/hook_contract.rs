//! The hook contract through the real binary: stdin fixtures → exact stdout, the
//! files written, a log line; exit 0 whatever happens. Failure cases are in
//! `hook_fail_open.rs`.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/output.rs"]
mod output;
#[path = "support/transcript.rs"]
mod transcript;

use hook_fixture::*;
use serde_json::{Value, json};
use transcript::Transcript;

/// The checkpoint's fsyncs are left to a child that outlives the hook, and
/// `--explain` names it.
#[test]
fn precompact_leaves_its_fsyncs_to_a_child_that_explain_names() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let (stdout, stderr) = fx.run(
        &["--explain"],
        &payload("PreCompact", Some(&t), json!({"trigger": "auto"})),
    );
    assert_eq!(stdout, "");
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);
    let line = stderr
        .lines()
        .find(|l| l.contains("fsync of "))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        line.contains("cx-001-checkpoint.json: after exit, by process "),
        "{line}"
    );
}

#[test]
fn precompact_writes_a_design_checkpoint_and_prints_braces() {
    let fx = Fixture::new();
    fx.write(
        ".jerry/checkpoints/cx-004.json",
        r#"{"checkpoint_id":"cx-004"}"#,
    );
    let t = fx.edits_in("projects/PROJ-001-demo");
    let (stdout, _) = fx.run(
        &[],
        &payload("PreCompact", Some(&t), json!({"trigger": "auto", "custom_instructions": "keep api_key=sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA"})),
    );
    assert_eq!(stdout, "");
    assert_eq!(fx.checkpoints(), ["cx-004.json", "cx-005-checkpoint.json"]);
    let cp = fx.json(".jerry/checkpoints/cx-005-checkpoint.json");
    let keys = output::keys(&cp);
    assert_eq!(
        keys,
        [
            "schema_version",
            "event_type",
            "event_id",
            "timestamp",
            "session_id",
            "trigger",
            "context_state",
            "orchestration_state",
            "accumulated_context",
            "recovery_instructions",
            "metadata"
        ]
    );
    assert_eq!(cp["event_id"], "cx-005");
    assert_eq!(cp["session_id"], SESSION);
    assert_eq!(
        cp["trigger"],
        json!({"type": "auto", "source": "PreCompact hook"})
    );
    assert_eq!(
        cp["context_state"]["estimated_fill_before_compaction"],
        0.886
    );
    assert_eq!(cp["context_state"]["estimated_tokens_used"], 177_200);
    assert_eq!(cp["context_state"]["context_window_size"], 200_000);
    assert_eq!(cp["orchestration_state"]["workflow_id"], "demo-wf-001");
    assert_eq!(cp["orchestration_state"]["current_phase"], 2);
    assert_eq!(
        cp["orchestration_state"]["current_activity"],
        "qg-2-iteration-1"
    );
    assert_eq!(
        cp["recovery_instructions"]["files_to_read"][0]["path"],
        WORKFLOW
    );
    assert_eq!(cp["metadata"]["acknowledged"], false);
    let text = cp.to_string();
    for secret in [
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "hunter2",
        "sk-ant-api03",
    ] {
        assert!(
            !text.contains(secret),
            "{secret} copied into the checkpoint"
        );
    }
    assert!(text.contains("[REDACTED]"));
    fx.assert_logged("INFO PreCompact: checkpoint cx-005 (new)");
}

#[test]
fn precompact_within_the_dedupe_window_updates_the_same_checkpoint() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let input = payload("PreCompact", Some(&t), json!({"trigger": "manual"}));
    let path = fx.root().join(".jerry/checkpoints/cx-001-checkpoint.json");
    let mut inodes = Vec::new();
    for _ in 0..3 {
        assert_eq!(fx.run(&[], &input).0, "");
        inodes.push(inode(&path));
    }
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);
    // The later firings of one compaction change nothing: the file is left as is.
    assert!(inodes.iter().all(|i| *i == inodes[0]), "{inodes:?}");
    fx.assert_logged("INFO PreCompact: checkpoint cx-001 unchanged");
    // A firing that brings something new updates it in place.
    let keep = payload(
        "PreCompact",
        Some(&t),
        json!({"trigger": "manual", "custom_instructions": "keep the API notes"}),
    );
    fx.run(&[], &keep);
    if inodes[0].is_some() {
        assert_ne!(inode(&path), inodes[0], "rewritten");
    }
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);
    let cp = fx.json(".jerry/checkpoints/cx-001-checkpoint.json");
    assert!(cp.to_string().contains("keep the API notes"), "{cp}");
    let other = input.replace(SESSION, "sess-2");
    fx.run(&[], &other);
    assert_eq!(
        fx.checkpoints(),
        ["cx-001-checkpoint.json", "cx-002-checkpoint.json"]
    );
}

/// The file's inode, which a rewrite (a new file renamed over it) changes; `None`
/// where there are no inodes, so that only the rest of a test checks there.
fn inode(path: &std::path::Path) -> Option<u64> {
    let meta = std::fs::metadata(path).unwrap();
    #[cfg(unix)]
    return Some(std::os::unix::fs::MetadataExt::ino(&meta));
    #[cfg(not(unix))]
    return {
        let _ = meta;
        None
    };
}

#[test]
fn parallel_precompact_firings_make_one_checkpoint() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let input = payload("PreCompact", Some(&t), json!({"trigger": "auto"}));
    let children: Vec<_> = (0..4).map(|_| fx.spawn_fed(&[], &input)).collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(String::from_utf8(out.stdout).unwrap(), "");
    }
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);
}

#[test]
fn precompact_in_a_nexus_workspace_writes_the_flat_precompact_state() {
    let fx = Fixture::new().nexus();
    let mut t = Transcript::new(SESSION);
    let root = fx.root().display().to_string();
    t.tool_use(
        "Read",
        &format!("{root}/02-projects/07-x/01-planning/01-overview.md"),
        (1, 1, 50_000),
    );
    let path = fx.transcript(&t);
    assert_eq!(
        fx.run(
            &["PreCompact"],
            &payload("PreCompact", Some(&path), json!({}))
        )
        .0,
        ""
    );
    let text = fx.read("00-system/.cache/precompact_state.json");
    assert!(text.len() < 1024);
    let state: Value = serde_json::from_str(&text).unwrap();
    let keys = output::keys(&state);
    assert_eq!(
        keys,
        [
            "active_project_id",
            "confidence",
            "detection_method",
            "timestamp",
            "session_id"
        ]
    );
    assert_eq!(state["session_id"], SESSION, "whose compaction it was");
    assert_eq!(state["active_project_id"], "07-x");
    assert_eq!(state["confidence"], "medium", "reads only");
    assert_eq!(state["detection_method"], "transcript");
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);

    // A later firing of the same compaction: the state, which already says this,
    // is left as is.
    let state_path = fx.root().join("00-system/.cache/precompact_state.json");
    let before = inode(&state_path);
    fx.run(
        &["PreCompact"],
        &payload("PreCompact", Some(&path), json!({})),
    );
    assert_eq!(inode(&state_path), before);
    // Another session's compaction moments later, on the same project: a new
    // checkpoint, and the state now names that session.
    let input = payload("PreCompact", Some(&path), json!({})).replace(SESSION, "sess-2");
    fx.run(&["PreCompact"], &input);
    assert_eq!(
        fx.checkpoints(),
        ["cx-001-checkpoint.json", "cx-002-checkpoint.json"]
    );
    assert_eq!(
        fx.json("00-system/.cache/precompact_state.json")["session_id"],
        "sess-2"
    );
    // A state that says something else is rewritten.
    fx.write(
        "00-system/.cache/precompact_state.json",
        &text.replace("07-x", "09-y"),
    );
    let input = payload("PreCompact", Some(&path), json!({})).replace(SESSION, "sess-3");
    fx.run(&["PreCompact"], &input);
    // Rewritten as before, at this run's time (which may be the next second).
    let untimed = |text: &str| {
        let mut state: serde_json::Value = serde_json::from_str(text).unwrap();
        state.as_object_mut().unwrap().remove("timestamp");
        state
    };
    assert_eq!(
        untimed(&fx.read("00-system/.cache/precompact_state.json")),
        untimed(&text.replace(SESSION, "sess-3"))
    );
}

#[test]
fn precompact_without_transcript_falls_back_and_still_writes() {
    let fx = Fixture::new();
    let missing = fx.root().join("gone.jsonl");
    let (stdout, _) = fx.run(&[], &payload("PreCompact", Some(&missing), json!({})));
    assert_eq!(stdout, "");
    let cp = fx.json(".jerry/checkpoints/cx-001-checkpoint.json");
    assert_eq!(
        cp["context_state"]["estimated_fill_before_compaction"],
        Value::Null
    );
    assert_eq!(
        cp["orchestration_state"]["workflow_id"], "demo-wf-001",
        "fallback: the active workflow"
    );
    fx.assert_logged("ERROR PreCompact: transcript");
}

#[test]
fn postcompact_records_the_summary_into_the_sessions_checkpoint() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    fx.run(&[], &payload("PreCompact", Some(&t), json!({})));
    let (stdout, _) = fx.run(
        &[],
        &payload(
            "PostCompact",
            Some(&t),
            json!({"trigger": "auto", "compact_summary": "Kept: phase 2. token=abcdef123456"}),
        ),
    );
    assert_eq!(stdout, "");
    let cp = fx.json(".jerry/checkpoints/cx-001-checkpoint.json");
    assert_eq!(cp["post_compact"]["trigger"], "auto");
    assert_eq!(
        cp["post_compact"]["compact_summary"],
        "Kept: phase 2. token=[REDACTED]"
    );
    assert!(cp["post_compact"]["recorded_at"].is_string());
    assert_eq!(cp["event_id"], "cx-001", "the rest is kept");
}

#[test]
fn user_prompt_submit_measures_records_and_injects_without_checkpointing() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    fx.run(&[], &payload("PreCompact", Some(&t), json!({})));
    let before = fx.checkpoints();
    let (stdout, _) = fx.run(
        &[],
        &payload("UserPromptSubmit", Some(&t), json!({"prompt": "next"})),
    );
    let text = context_of(&stdout, "UserPromptSubmit");
    assert!(text.contains("<context-monitor>"), "{text}");
    assert!(text.contains("CRITICAL"), "{text}");
    assert!(text.contains("<compaction-alert>"), "{text}");
    assert!(
        text.contains(".jerry/checkpoints/cx-001-checkpoint.json"),
        "{text}"
    );
    assert_eq!(fx.checkpoints(), before, "no checkpoint on a prompt");
    let state = fx.json(".jerry/context-monitor-state.json");
    let keys = output::keys(&state);
    assert_eq!(
        keys,
        [
            "schema_version",
            "session_id",
            "fill",
            "tokens_used",
            "window",
            "window_source",
            "level",
            "updated_at",
            "transcript_path",
            "project"
        ]
    );
    assert_eq!(
        state["project"],
        hook_fixture::WORKFLOW,
        "its own checkpoint's"
    );
    assert_eq!(state["fill"], 0.886);
    assert_eq!(state["level"], "CRITICAL");
    assert_eq!(state["window"], 200_000);
}

#[test]
fn user_prompt_submit_low_fill_injects_nothing_and_a_200k_model_near_full_warns() {
    let fx = Fixture::new();
    let mut t = Transcript::new(SESSION);
    t.assistant((10, 10, 50_000));
    let low = fx.transcript(&t);
    let (stdout, _) = fx.run(&[], &payload("UserPromptSubmit", Some(&low), json!({})));
    assert_eq!(stdout, "");
    assert_eq!(fx.json(".jerry/context-monitor-state.json")["level"], "LOW");

    // 170k tokens of Opus 4.6 with no sign of 1M: 85 % of its 200k window, and the
    // level is taken against the same window (issue 15: it used to stay silent).
    let mut t = Transcript::new(SESSION).with_model("claude-opus-4-6");
    t.assistant((0, 0, 170_000));
    let unsure = fx.transcript(&t);
    let (stdout, _) = fx.run(&[], &payload("UserPromptSubmit", Some(&unsure), json!({})));
    let text = context_of(&stdout, "UserPromptSubmit");
    assert!(text.contains("CRITICAL (85.0% filled)"), "{text}");
    let state = fx.json(".jerry/context-monitor-state.json");
    assert_eq!(
        (state["fill"].as_f64(), state["level"].as_str()),
        (Some(0.85), Some("CRITICAL"))
    );

    let (stdout, _) = fx.run_env(
        &[],
        &payload("UserPromptSubmit", Some(&unsure), json!({})),
        &[("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "180000")],
    );
    let text = context_of(&stdout, "UserPromptSubmit");
    assert!(text.contains("COMPACTION"), "{text}");
    assert_eq!(
        fx.json(".jerry/context-monitor-state.json")["window"],
        180_000
    );
}

#[test]
fn session_start_by_source() {
    let fx = Fixture::new().nexus();
    let t = fx.edits_in("projects/PROJ-001-demo");
    fx.run(&[], &payload("PreCompact", Some(&t), json!({})));

    let clear = payload("SessionStart", Some(&t), json!({"source": "clear"}));
    assert_eq!(fx.run(&[], &clear).0, "");
    let startup = payload("SessionStart", Some(&t), json!({"source": "startup"}));
    assert_eq!(
        fx.run(&[], &startup).0,
        "",
        "startup summary is off by default"
    );

    // The precompact state names no Nexus project (the Jerry workflow was active):
    // Template 1 from the unacknowledged checkpoint, and the state is consumed.
    let compact = payload("SessionStart", Some(&t), json!({"source": "compact"}));
    let text = context_of(&fx.run(&[], &compact).0, "SessionStart");
    assert!(text.contains("demo-wf-001"), "{text}");
    assert!(
        !fx.root()
            .join("00-system/.cache/precompact_state.json")
            .exists()
    );

    // A recent state (within hooks.nexus_state_max_age_minutes) is injected.
    fx.write(
        "00-system/.cache/precompact_state.json",
        &format!(
            r#"{{"active_project_id":"07-x","confidence":"high","detection_method":"transcript","timestamp":"{}"}}"#,
            hook_fixture::iso(120)
        ),
    );
    let text = context_of(&fx.run(&[], &compact).0, "SessionStart");
    assert!(
        text.contains("07-x") && text.contains("01-overview.md"),
        "{text}"
    );
    assert!(
        !fx.root()
            .join("00-system/.cache/precompact_state.json")
            .exists(),
        "consumed"
    );
}

/// The precompact state is written without fsync (docs/hooks.md): when it is lost,
/// SessionStart re-orients from the checkpoint written beside it, which names the
/// same Nexus project.
#[test]
fn session_start_without_the_precompact_state_uses_the_checkpoint() {
    let fx = Fixture::new().nexus();
    let t = fx.edits_in("02-projects/07-x");
    fx.run(&[], &payload("PreCompact", Some(&t), json!({})));
    let state = fx.json("00-system/.cache/precompact_state.json");
    assert_eq!(state["active_project_id"], "07-x", "{state}");
    std::fs::remove_file(fx.root().join("00-system/.cache/precompact_state.json")).unwrap();

    let compact = payload("SessionStart", Some(&t), json!({"source": "compact"}));
    let text = context_of(&fx.run(&[], &compact).0, "SessionStart");
    assert!(
        text.contains("07-x") && text.contains("01-overview.md"),
        "the loading sequence of 07-x: {text}"
    );
}

#[test]
fn session_start_startup_summary_when_configured() {
    let fx = Fixture::new();
    let config = fx.root().join("config.toml");
    std::fs::write(&config, "[hooks]\nstartup_summary = true\n").unwrap();
    let (stdout, _) = fx.run_env(
        &[],
        &payload("SessionStart", None, json!({"source": "startup"})),
        &[("RESUME_TUI_CONFIG", config.to_str().unwrap())],
    );
    let text = context_of(&stdout, "SessionStart");
    assert!(
        text.starts_with("resume-tui: active workflow demo-wf-001"),
        "{text}"
    );
}

#[test]
fn post_tool_use_warns_about_a_stale_resumption_section() {
    let fx = Fixture::new();
    fx.write(WORKFLOW, &orchestration(&iso(3 * 3600)));
    let edit = |tool: &str| {
        payload(
            "PostToolUse",
            None,
            json!({"tool_name": tool, "tool_input": {"file_path": fx.root().join(WORKFLOW)}}),
        )
    };
    let text = context_of(&fx.run(&[], &edit("Edit")).0, "PostToolUse");
    assert!(
        text.contains("STALE") || text.contains("CRITICAL"),
        "{text}"
    );
    assert!(
        text.contains("resumption.recovery_state.updated_at"),
        "{text}"
    );
    assert!(!text.contains('\n'), "one paragraph");
    assert_eq!(fx.run(&[], &edit("Read")).0, "");

    fx.write(WORKFLOW, &orchestration(&iso(30)));
    assert_eq!(fx.run(&[], &edit("Write")).0, "", "fresh: nothing to say");
    let other = payload(
        "PostToolUse",
        None,
        json!({"tool_name": "Edit", "tool_input": {"file_path": fx.root().join("projects/PROJ-001-demo/plan.md")}}),
    );
    assert_eq!(fx.run(&[], &other).0, "");
}
