//! The real Claude Code client (`RESUME_TUI_CLAUDE`), each test once per version,
//! against the stand-in Messages API: resume-tui's hooks installed in a copy of the
//! demo workspace run, and what they say reaches the model's request; what they
//! write lands on disk. Facts the suite rests on: docs/hooks.md, "The real client".

#[path = "support/real_client.rs"]
mod real_client;
#[path = "support/real_client_api.rs"]
mod real_client_api;

use real_client::{World, each, text};
use real_client_api::{Answer, summary};

const K200: u64 = 200_000;

/// The end of a request's text, where this turn's reminders are.
fn tail(text: &str) -> &str {
    let start = text.len().saturating_sub(3000);
    let start = (start..text.len())
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(0);
    &text[start..]
}

/// A session whose last answer reported `fill` of `window`, then one more prompt:
/// the texts of the requests that prompt sent. (2.1.76 compacts automatically
/// before sending it at 85 % of 200k: the prompt's block then reaches the model in
/// the summarisation request.)
fn prompt_at(world: &World, fill: f64, window: u64) -> String {
    world.api.set_fill(fill, window);
    let session = world.print("Look at the payouts workflow.", &[]);
    world.api.clear();
    world.resume(&session, "Go on.");
    let sent: Vec<String> = world.api.messages().iter().map(|r| r.text()).collect();
    assert!(!sent.is_empty(), "no model request after the resume");
    sent.join("\n")
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn startup_injects_nothing_by_default_and_the_summary_when_asked() {
    each(|client| {
        let world = World::new(client);
        world.print("Hello.", &[]);
        assert!(
            world.last_contexts().is_empty(),
            "{}: startup injected without hooks.startup_summary: {}",
            client.label(),
            world.last_contexts()
        );
        let log = world.hook_log();
        assert!(
            log.contains("SessionStart: source startup"),
            "{}: SessionStart(startup) did not run: {log}",
            client.label()
        );
        let config = world.home.path().join(".config/resume-tui");
        std::fs::create_dir_all(&config).unwrap();
        std::fs::write(
            config.join("config.toml"),
            "[hooks]\nstartup_summary = true\n",
        )
        .unwrap();
        world.api.clear();
        world.print("Hello again.", &[]);
        let contexts = world.last_contexts();
        assert!(
            contexts.contains("SessionStart hook additional context")
                && contexts.contains("resume-tui: active workflow"),
            "{}: the startup summary did not reach the model: {contexts}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn resume_clear_and_fork_reach_the_hook_with_their_source() {
    each(|client| {
        let world = World::new(client);
        let session = world.print("Hello.", &[]);
        world.resume(&session, "Again.");
        world.print("Forked.", &["--resume", &session, "--fork-session"]);
        // `/clear` is interactive: SessionStart(clear) injects nothing (a fresh start).
        let pane = world.interactive(&["--resume", &session]);
        pane.wait_for("the prompt", |s| s.contains('❯'));
        pane.send("/clear");
        real_client::wait_until("SessionStart(clear)", || {
            world.hook_log().contains("SessionStart: source clear")
        });
        drop(pane);
        let log = world.hook_log();
        assert!(
            log.contains("SessionStart: source resume"),
            "{}: no SessionStart(resume): {log}",
            client.label()
        );
        // `fork` is a source of its own from v2.1.214 on; before, a fork is a resume.
        let fork = if client.at_least((2, 1, 214)) {
            "fork"
        } else {
            "resume"
        };
        let forks = log.matches(&format!("SessionStart: source {fork}")).count();
        assert!(
            forks >= 1,
            "{}: the fork ran no SessionStart({fork}): {log}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn post_tool_use_runs_on_a_state_file_edit() {
    each(|client| {
        let world = World::new(client);
        world.work_on_payouts(true);
        let state = std::fs::read_to_string(world.root().join(real_client::PAYOUTS_STATE)).unwrap();
        assert!(
            state.contains("current_activity: \"qg-2-iteration-3\""),
            "{}: the client did not make the edit",
            client.label()
        );
        let log = world.hook_log();
        assert!(
            log.contains("PostToolUse"),
            "{}: PostToolUse did not run on the state-file edit: {log}",
            client.label()
        );
        assert!(
            !log.contains(" ERROR PostToolUse"),
            "{}: {log}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn hooks_install_writes_the_form_the_installed_version_runs() {
    each(|client| {
        let world = World::new(client);
        let settings: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(world.root().join(".claude/settings.json")).unwrap(),
        )
        .unwrap();
        let entry = &settings["hooks"]["UserPromptSubmit"][0]["hooks"][0];
        let exec_form = entry["args"].is_array();
        assert_eq!(
            exec_form,
            client.at_least((2, 1, 139)),
            "{}: the wrong form: {entry}",
            client.label()
        );
        // Whatever the form, the client runs it: the hook logged the prompt.
        world.print("Hello.", &[]);
        assert!(
            world.hook_log().contains("UserPromptSubmit"),
            "{}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn prompts_below_and_above_each_threshold_of_200k() {
    each(|client| {
        for (fill, expected) in [
            (0.50, None),
            (0.85, Some("CONTEXT STATUS: CRITICAL (85.0% filled)")),
            (0.95, Some("CONTEXT STATUS: COMPACTION (95.0% filled)")),
        ] {
            let world = World::new(client);
            let request = prompt_at(&world, fill, K200);
            match expected {
                Some(status) => assert!(
                    request.contains(status),
                    "{} at {fill}: {status:?} did not reach the model: {}\nlog: {}",
                    client.label(),
                    tail(&request),
                    world.hook_log()
                ),
                None => assert!(
                    !request.contains("<context-monitor>"),
                    "{} at {fill}: a monitor block below the warning level",
                    client.label()
                ),
            }
        }
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn manual_compact_writes_a_checkpoint_and_the_next_prompt_gets_the_alert() {
    each(|client| {
        let world = World::new(client);
        world.api.set_fill(0.50, K200);
        let session = world.print("Work on the payouts workflow.", &[]);
        world.api.set(Answer {
            summary: summary("The operator asked for the payouts work.", "thinking"),
            ..world.api.answer()
        });
        world.resume(&session, "/compact keep the decisions");
        let mine = world.checkpoints_of(&session);
        assert_eq!(
            mine.len(),
            1,
            "{}: one checkpoint for the compaction: {mine:?}",
            client.label()
        );
        let checkpoint = &mine[0].1;
        assert_eq!(checkpoint["trigger"]["type"], "manual", "{checkpoint}");
        assert!(
            checkpoint["post_compact"]["compact_summary"]
                .as_str()
                .is_some_and(|s| s.contains("payouts work")),
            "{}: PostCompact did not record the summary: {checkpoint}",
            client.label()
        );
        world.api.clear();
        world.resume(&session, "Go on.");
        let request = world.prompts().last().cloned().expect("a request");
        assert!(
            request.contains("compaction-alert") || request.contains("COMPACTION"),
            "{}: the alert did not reach the next request: {request:.4000}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn doctor_on_a_healthy_real_session_reports_no_error() {
    each(|client| {
        let world = World::new(client);
        let session = world.print("Hello.", &[]);
        world.resume(&session, "Again.");
        let out = world.resume_tui(&["doctor"]);
        let report = text(&out);
        let errors = report
            .lines()
            .any(|l| l.starts_with("error") || l.contains("hook error"));
        assert!(
            !errors,
            "{}: doctor reports an error on a healthy session: {report}\nlog: {}",
            client.label(),
            world.hook_log()
        );
        assert!(
            report.contains(&client.label()),
            "{}: doctor does not name the installed version: {report}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn the_installed_status_line_runs_and_records_the_1m_window() {
    each(|client| {
        let world = World::bare(client);
        let out = world.resume_tui(&["hooks", "install", "--project", "--statusline"]);
        assert!(out.status.success(), "{}", text(&out));
        let pane = world.interactive(&["--model", "claude-opus-4-6[1m]"]);
        pane.wait_for("the status line", |s| s.contains(" · ctx "));
        pane.send("hello there");
        let dir = world.root().join(".jerry/context-window");
        // A record whole: the folder may also hold one being written (atomically,
        // through a temporary file beside it).
        let mut record = serde_json::Value::Null;
        real_client::wait_until("the status line's record", || {
            record = std::fs::read_dir(&dir)
                .into_iter()
                .flatten()
                .flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                .find_map(|e| {
                    let text = std::fs::read_to_string(e.path()).ok()?;
                    serde_json::from_str(&text).ok()
                })
                .unwrap_or(serde_json::Value::Null);
            !record.is_null()
        });
        assert_eq!(
            record["context_window_size"],
            1_000_000,
            "{}: the status line did not record the 1M window: {record}",
            client.label()
        );
        pane.wait_for("the gauge", |s| s.contains("ctx ["));
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn an_automatic_compaction_writes_an_auto_checkpoint_and_the_alert_reaches_the_model() {
    each(|client| {
        let world = World::new(client);
        world.api.set_fill(0.50, K200);
        let session = world.work_on_payouts(false);
        // 2.1.76 compacts by itself once the reported usage passes its threshold (85 %
        // of 200k does); 2.1.197 and later only on `400 prompt is too long` (issue 32).
        // The boundary between the two was not bisected.
        if client.at_least((2, 1, 197)) {
            let mut answer = world.api.answer();
            answer.too_long = 1;
            world.api.set(answer);
        } else {
            // The client decides on the usage the previous answer reported.
            world.api.set_fill(0.95, K200);
            world.resume(&session, "Keep going.");
        }
        world.api.clear();
        world.resume(&session, "Go on.");
        let mine = world.checkpoints_of(&session);
        let auto = mine.iter().find(|(_, c)| c["trigger"]["type"] == "auto");
        assert!(
            auto.is_some(),
            "{}: no automatic compaction's checkpoint: {mine:?}\nlog: {}",
            client.label(),
            world.hook_log()
        );
        let summarised = world.api.messages().iter().any(|r| r.is_summarisation());
        assert!(
            summarised,
            "{}: the client sent no summarisation request",
            client.label()
        );
        let contexts = world.last_contexts();
        assert!(
            contexts.contains("<compaction-alert>"),
            "{}: the alert did not reach the model after the automatic compaction: {contexts:.3000}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn prompts_below_and_above_each_threshold_of_1m() {
    each(|client| {
        for (fill, expected) in [
            (0.50, None),
            (0.85, Some("CONTEXT STATUS: CRITICAL (85.0% filled)")),
            (0.95, Some("CONTEXT STATUS: COMPACTION (95.0% filled)")),
        ] {
            let mut world = World::new(client);
            world.model = "claude-opus-4-6[1m]".to_string();
            let request = prompt_at(&world, fill, 1_000_000);
            match expected {
                Some(status) => assert!(
                    request.contains(status),
                    "{} at {fill} of 1M: {status:?} did not reach the model: {}\nlog: {}",
                    client.label(),
                    tail(&request),
                    world.hook_log()
                ),
                None => assert!(
                    !request.contains("CONTEXT STATUS: CRITICAL")
                        && !request.contains("CONTEXT STATUS: COMPACTION"),
                    "{} at {fill} of 1M: an alarm below the warning level: {}",
                    client.label(),
                    tail(&request)
                ),
            }
        }
    });
}
