//! Hooks fed the event sequences and payload shapes the real Claude Code client
//! sends (issue 32; /work/findings-32.md, payloads of 2.1.332): around a manual
//! `/compact` the order is SessionStart(resume) → PreCompact → SessionStart(compact)
//! → PostCompact → SessionEnd, and the three compaction events share a `prompt_id`.

#[path = "support/transcript.rs"]
mod transcript;

#[path = "support/hook_fixture.rs"]
mod hook_fixture;

use hook_fixture::{Fixture, context_of};
use serde_json::{Value, json};

const SESSION: &str = "7080ca65-5b17-453b-96bc-0503d5421633";

/// A payload as 2.1.332 sends it: session, transcript path, cwd, the event, and
/// the event's own fields (`prompt_id` on the compaction events).
fn real(fx: &Fixture, event: &str, transcript: &std::path::Path, extra: Value) -> String {
    let mut value = json!({
        "session_id": SESSION,
        "transcript_path": transcript,
        "cwd": fx.root(),
        "hook_event_name": event,
    });
    if let Value::Object(extra) = extra {
        value.as_object_mut().unwrap().extend(extra);
    }
    value.to_string()
}

/// One whole compaction as the real client runs its hooks: PreCompact,
/// SessionStart(compact), PostCompact. What SessionStart(compact) injected.
fn compaction(fx: &Fixture, t: &std::path::Path, trigger: &str, prompt_id: &str) -> String {
    let pre = json!({"prompt_id": prompt_id, "trigger": trigger, "custom_instructions": ""});
    fx.run(&[], &real(fx, "PreCompact", t, pre));
    let start = json!({"prompt_id": prompt_id, "source": "compact", "model": "claude-opus-4-6"});
    let (stdout, _) = fx.run(&[], &real(fx, "SessionStart", t, start));
    let post = json!({
        "prompt_id": prompt_id,
        "trigger": trigger,
        "compact_summary": "<analysis>thinking</analysis>\n<summary>1. Primary Request: the demo workflow.</summary>",
    });
    fx.run(&[], &real(fx, "PostCompact", t, post));
    stdout
}

#[test]
fn two_compactions_under_a_minute_apart_are_two_checkpoints_each_with_its_alert() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let first = compaction(&fx, &t, "manual", "48e0c587-d3f3-4ca2-8123-fe6346e3176c");
    assert!(first.contains("cx-001"), "{first}");
    let second = compaction(&fx, &t, "auto", "9d1f3c2a-0b6e-4c55-9a57-3f1f0c7d2b11");
    assert_eq!(
        fx.checkpoints(),
        ["cx-001-checkpoint.json", "cx-002-checkpoint.json"],
        "{}",
        fx.log()
    );
    let text = context_of(&second, "SessionStart");
    assert!(
        text.contains("<compaction-alert>") && text.contains("cx-002"),
        "the second compaction's own alert: {text}"
    );
    let one = fx.json(".jerry/checkpoints/cx-001-checkpoint.json");
    let two = fx.json(".jerry/checkpoints/cx-002-checkpoint.json");
    assert_eq!(one["trigger"]["type"], "manual");
    assert_eq!(two["trigger"]["type"], "auto");
    assert_eq!(one["post_compact"]["trigger"], "manual");
    assert_eq!(two["post_compact"]["trigger"], "auto");
}

#[test]
fn a_repeated_precompact_of_one_compaction_still_updates_its_checkpoint() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let pre = json!({"prompt_id": "p-1", "trigger": "auto", "custom_instructions": ""});
    fx.run(&[], &real(&fx, "PreCompact", &t, pre.clone()));
    let t = fx.edits_in("02-projects/07-x");
    fx.run(&[], &real(&fx, "PreCompact", &t, pre));
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);
    fx.assert_logged("checkpoint cx-001 (updated)");
}

/// A session whose transcript edits the payouts workflow, resumed with
/// `--resume` while another session's unacknowledged checkpoint names the demo
/// workflow: its own workflow is resumed, the other only mentioned.
#[test]
fn a_resume_resumes_the_sessions_own_workflow_and_only_mentions_another_sessions() {
    let fx = Fixture::new();
    let payouts = hook_fixture::orchestration(&hook_fixture::iso(120))
        .replace("demo-wf-001", "payouts-wf-002")
        .replace("PROJ-001-demo", "PROJ-002-payouts");
    fx.write("projects/PROJ-002-payouts/ORCHESTRATION.yaml", &payouts);
    // Another session compacted while working on the demo workflow.
    let other = fx.edits_in("projects/PROJ-001-demo");
    let pre = json!({"session_id": "other-session", "prompt_id": "p-9", "trigger": "auto", "custom_instructions": ""});
    fx.run(&[], &real(&fx, "PreCompact", &other, pre));
    assert_eq!(fx.checkpoints(), ["cx-001-checkpoint.json"]);

    let mine = fx.root().join("mine.jsonl");
    std::fs::rename(fx.edits_in("projects/PROJ-002-payouts"), &mine).unwrap();
    let start = json!({
        "source": "resume",
        "seconds_since_last_response": 8,
        "context_tokens": 1010,
        "prompt_cache_likely_expired": false,
        "estimated_cache_write_usd": 0.0051,
    });
    let (stdout, _) = fx.run(&[], &real(&fx, "SessionStart", &mine, start.clone()));
    let text = context_of(&stdout, "SessionStart");
    let (own, mention) = text
        .split_once("<other-session-checkpoint>")
        .unwrap_or_else(|| panic!("the other checkpoint is mentioned: {text}"));
    assert!(own.contains("payouts-wf-002"), "{text}");
    // Template 1 says its next action once; the closing step points at it.
    assert_eq!(own.matches("then re-score").count(), 1, "{text}");
    assert!(
        own.contains("3. Proceed with the NEXT ACTION above"),
        "{text}"
    );
    assert!(!own.contains("demo-wf-001"), "never imposed: {text}");
    assert!(
        mention.contains("cx-001") && mention.contains("demo-wf-001"),
        "{text}"
    );
    assert!(mention.contains("other-session"), "{text}");

    // With no workflow of its own (a transcript that touched no workflow), the
    // other session's workflow is still only mentioned.
    let idle = fx.root().join("idle.jsonl");
    let mut t = transcript::Transcript::new(SESSION);
    t.user("hello").assistant((10, 10, 1_000));
    t.write(&idle);
    let (stdout, _) = fx.run(&[], &real(&fx, "SessionStart", &idle, start));
    let text = context_of(&stdout, "SessionStart");
    assert!(
        text.trim_start().starts_with("<other-session-checkpoint>"),
        "{text}"
    );
    assert!(!text.contains("Do NOT start over"), "{text}");
}

/// A stand-in for the Claude Code process a hook runs under, started as
/// `claude -p --model MODEL` (its command line is all that matters): killed
/// and reaped when dropped.
struct Client(std::process::Child);

impl Client {
    fn with_model(model: &str) -> Client {
        let child = std::process::Command::new("sh")
            .args(["-c", "read _", "claude", "-p", "--model", model])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        Client(child)
    }

    fn pid(&self) -> String {
        self.0.id().to_string()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// UserPromptSubmit in a session whose transcript (the client's bare model id)
/// holds 170,000 tokens.
fn prompt_at_170k_of_opus_4_6(fx: &Fixture) -> String {
    let mut t = transcript::Transcript::new(SESSION).with_model("claude-opus-4-6");
    t.user("go").assistant((1_000, 2_000, 167_000));
    let path = fx.transcript(&t);
    real(fx, "UserPromptSubmit", &path, json!({"prompt": "go"}))
}

/// `claude -p --model 'claude-opus-4-6[1m]'`: the transcript and every hook input
/// name `claude-opus-4-6` only; 170,000 tokens are 17 % of the 1M window the
/// client's command line selected, not a CRITICAL 85 % of 200k.
#[test]
fn a_1m_model_chosen_on_the_command_line_is_measured_against_1m() {
    let fx = Fixture::new();
    let input = prompt_at_170k_of_opus_4_6(&fx);

    let client = Client::with_model("claude-opus-4-6[1m]");
    let (stdout, _) = fx.run_env(&[], &input, &[("CLAUDE_PID", &client.pid())]);
    assert!(!stdout.contains("CRITICAL"), "{stdout}");
    let state = fx.json(".jerry/context-monitor-state.json");
    assert_eq!(state["window"], 1_000_000, "{state}");
    assert!(
        (state["fill"].as_f64().unwrap() - 0.17).abs() < 1e-9,
        "{state}"
    );
    drop(client);

    // Started without [1m], the same session is measured against 200k.
    let client = Client::with_model("claude-opus-4-6");
    let (stdout, _) = fx.run_env(&[], &input, &[("CLAUDE_PID", &client.pid())]);
    assert!(stdout.contains("CRITICAL"), "{stdout}");
    assert_eq!(
        fx.json(".jerry/context-monitor-state.json")["window"],
        200_000
    );
}

/// Claude Code 2.1.76 sets no `CLAUDE_PID`: the hook's ancestor that is Claude
/// Code (here a `claude` that runs the hook through `sh -c`) gives its `--model`.
#[test]
fn without_claude_pid_the_ancestor_claude_code_gives_the_model() {
    let fx = Fixture::new();
    let input = prompt_at_170k_of_opus_4_6(&fx);
    let bin = fx.home.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let claude = bin.join("claude");
    std::os::unix::fs::symlink("/bin/sh", &claude).unwrap();
    let mut cmd = std::process::Command::new(&claude);
    cmd.args(["-c", "\"$0\" hook UserPromptSubmit; true"])
        .arg(assert_cmd::cargo::cargo_bin("resume-tui"))
        .args(["--model", "claude-opus-4-6[1m]"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", fx.home.path())
        .env("RESUME_TUI_LOG_DIR", fx.log.path())
        .env("CLAUDE_PROJECT_DIR", fx.root())
        .current_dir(fx.root());
    let (stdout, _) = hook_fixture::run_command(cmd, &input);
    assert!(!stdout.contains("CRITICAL"), "{stdout}");
    let state = fx.json(".jerry/context-monitor-state.json");
    assert_eq!(state["window"], 1_000_000, "{state}");
}

/// After a compaction SessionStart(compact) injects the alert and Template 1 as
/// one story: the next action once, each fill labelled by when it was measured.
#[test]
fn the_alert_and_template_1_tell_one_story_after_a_compaction() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let stdout = compaction(&fx, &t, "manual", "48e0c587-d3f3-4ca2-8123-fe6346e3176c");
    let text = context_of(&stdout, "SessionStart");
    assert!(text.contains("<compaction-alert>"), "{text}");
    assert!(text.contains("WORKFLOW: demo-wf-001"), "{text}");
    // The fixture's next step: "Deploy with GITHUB_TOKEN=… then re-score".
    assert_eq!(text.matches("then re-score").count(), 1, "{text}");
    assert!(text.contains("NEXT ACTION: Deploy with"), "{text}");
    let checkpoint = fx.json(".jerry/checkpoints/cx-001-checkpoint.json");
    let at = checkpoint["timestamp"].as_str().unwrap();
    assert!(
        text.contains(&format!("FILL AT COMPACTION (cx-001, {at}): 88.6%")),
        "{text}"
    );
    let written = fx.read(hook_fixture::WORKFLOW);
    let written = written
        .split("updated_at: \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    assert!(
        text.contains(&format!(
            "- Context fill when the resumption section was written ({written}): 50.0%"
        )),
        "{text}"
    );
    assert!(!text.contains("PRE-COMPACTION FILL"), "{text}");
    assert!(!text.contains("Context fill at interruption"), "{text}");
}
