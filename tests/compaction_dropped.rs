//! "What compaction dropped" end to end, through the real binary on a copy of the
//! demo workspace: PreCompact writes the checkpoint, PostCompact records the
//! summary (or the transcript alone holds it), SessionStart(compact) injects only
//! what the summary dropped, and `resume-tui dropped` reports the same.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/output.rs"]
mod output;
#[path = "support/transcript.rs"]
mod transcript;
mod tui_support;

use std::io::Write;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use hook_fixture::*;
use serde_json::{Value, json};

const WORKFLOW_DIR: &str = "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001";
const WORKFLOW_ID: &str = "payouts-v2-20260302-001";
/// Keeps the gate, RD-002, DF-211 and the next action's S-004 and QG-2; says
/// nothing of DF-212, the files, the phase, or the partial replay-tester.
const SUMMARY: &str = "Working QG-2 iteration 2: RD-002 still awaits sign-off; DF-211 batch \
                       replay unevidenced. Next: finish the S-004 pre-mortem.";

fn precompact(fx: &Fixture, env: &[(&str, &str)]) -> (String, PathBuf) {
    let t = fx.edits_in(WORKFLOW_DIR);
    let (stdout, _) = fx.run_env(
        &[],
        &payload("PreCompact", Some(&t), json!({"trigger": "auto"})),
        env,
    );
    assert!(
        fx.checkpoints()
            .contains(&"cx-005-checkpoint.json".to_string())
    );
    (stdout, t)
}

/// SessionStart(compact) in the session that compacted injects the compaction
/// alert (once per compaction, docs/hooks.md), then the "Dropped by compaction"
/// section in place of Template 1. Returns the section.
fn session_start(fx: &Fixture, transcript: &Path) -> String {
    let context = session_start_context(fx, transcript);
    let at = context
        .find("## Dropped by compaction")
        .or_else(|| context.find("Dropped by compaction: nothing."))
        .unwrap_or_else(|| panic!("no Dropped by compaction section:\n{context}"));
    assert!(
        !context.contains("Proceed with"),
        "Template 1 is not injected beside the section:\n{context}"
    );
    context[at..].to_string()
}

/// All that SessionStart(compact) injects, which begins with the alert.
fn session_start_context(fx: &Fixture, transcript: &Path) -> String {
    let (stdout, _) = fx.run(
        &[],
        &payload(
            "SessionStart",
            Some(transcript),
            json!({"source": "compact"}),
        ),
    );
    let context = context_of(&stdout, "SessionStart");
    assert!(context.starts_with("<compaction-alert>"), "{context}");
    context
}

/// What Claude Code appends to the transcript when it compacts.
fn append_compaction(transcript: &Path, summary: &str) {
    let boundary = json!({"type": "system", "subtype": "compact_boundary", "sessionId": SESSION,
        "timestamp": iso(0), "uuid": "b-1", "compactMetadata": {"trigger": "auto", "preTokens": 177_200}});
    let record = json!({"type": "user", "isCompactSummary": true, "isVisibleInTranscriptOnly": true,
        "parentUuid": "b-1", "sessionId": SESSION, "timestamp": iso(0),
        "message": {"role": "user", "content": [{"type": "text", "text": summary}]}});
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(transcript)
        .unwrap();
    writeln!(file, "{boundary}\n{record}").unwrap();
}

fn dropped_json(fx: &Fixture) -> Value {
    let out = Command::cargo_bin("resume-tui")
        .unwrap()
        .env_clear()
        .env("HOME", fx.home.path())
        .env("RESUME_TUI_CONFIG", fx.home.path().join("none.toml"))
        .args(["dropped", WORKFLOW_ID, "--json", "--root"])
        .arg(fx.root())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn ids(items: &Value) -> Vec<String> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().or(i["text"].as_str()).unwrap().to_string())
        .collect()
}

#[test]
fn session_start_after_compaction_restores_only_what_the_recorded_summary_dropped() {
    let fx = Fixture::demo();
    let (stdout, t) = precompact(&fx, &[]);
    assert_eq!(stdout, "", "no steering unless asked for");
    let (post, _) = fx.run(
        &[],
        &payload(
            "PostCompact",
            Some(&t),
            json!({"trigger": "auto", "compact_summary": SUMMARY}),
        ),
    );
    assert_eq!(post, "");

    let context = session_start(&fx, &t);
    assert!(context.starts_with("## Dropped by compaction"), "{context}");
    for lost in [
        "DF-212",
        "replay-tester",
        "ORCHESTRATION_PLAN.md",
        "WORKTRACKER.md",
        "Current phase: Phase 2",
    ] {
        assert!(context.contains(lost), "{lost} missing:\n{context}");
    }
    assert!(
        !context.contains("Decision RD-002"),
        "kept, not restored:\n{context}"
    );
    assert!(
        !context.contains("Current gate"),
        "kept, not restored:\n{context}"
    );
    // Pending decisions and defects first: the first listed item is a defect here.
    let first = context.lines().find(|l| l.starts_with("- ")).unwrap();
    assert!(first.starts_with("- Defect DF-212"), "{first}");
    assert!(context.contains(&format!("`resume-tui dropped {WORKFLOW_ID} cx-005`")));

    let report = dropped_json(&fx);
    let keys = output::keys(&report);
    assert_eq!(
        keys,
        ["project", "checkpoint", "summary_source", "kept", "dropped"]
    );
    assert_eq!(report["project"], WORKFLOW_ID);
    assert_eq!(report["checkpoint"], "cx-005");
    assert_eq!(report["summary_source"], "post_compact");
    let kept = ids(&report["kept"]);
    assert!(
        kept.contains(&"RD-002".to_string()) && kept.contains(&"qg-2".to_string()),
        "{kept:?}"
    );
    assert!(kept.contains(&"DF-211".to_string()), "{kept:?}");
    let dropped = ids(&report["dropped"]);
    assert!(dropped.contains(&"DF-212".to_string()), "{dropped:?}");
    assert!(
        dropped.contains(&"replay-tester".to_string()),
        "{dropped:?}"
    );
    let item = &report["kept"][0];
    assert_eq!(item.as_object().unwrap().len(), 3, "kind, id, text: {item}");
}

#[test]
fn the_summary_is_read_from_the_transcript_when_post_compact_recorded_none() {
    let fx = Fixture::demo();
    let (_, t) = precompact(&fx, &[]);
    append_compaction(&t, SUMMARY);
    let context = session_start(&fx, &t);
    assert!(context.starts_with("## Dropped by compaction"), "{context}");
    assert!(
        context.contains("DF-212") && !context.contains("Decision RD-002"),
        "{context}"
    );

    // The command finds the session's transcript where Claude Code keeps it.
    let folder: String = fx
        .root()
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let kept_at = fx.home.path().join(".claude/projects").join(folder);
    std::fs::create_dir_all(&kept_at).unwrap();
    std::fs::copy(&t, kept_at.join(format!("{SESSION}.jsonl"))).unwrap();
    let report = dropped_json(&fx);
    assert_eq!(report["summary_source"], "transcript");
    assert!(ids(&report["kept"]).contains(&"RD-002".to_string()));

    // The dashboard's Compaction tab says the same, from the same transcript.
    let tab = compaction_tab_of_cx005(&fx);
    let dropped = report["dropped"].as_array().unwrap().len();
    let total = dropped + report["kept"].as_array().unwrap().len();
    assert!(
        tab.contains(&format!(
            "Kept and dropped by the transcript's summary ({dropped} dropped of {total})"
        )),
        "{tab}"
    );
    assert!(
        tab.contains("Compaction summary in the transcript"),
        "{tab}"
    );
    assert!(
        tab.contains("✗ defect DF-212") && tab.contains("✓ decision RD-002"),
        "{tab}"
    );
}

/// The dashboard over the fixture, loaded as it loads (both passes: the full one
/// reads the transcripts), on the payouts project's Compaction tab at cx-005.
fn compaction_tab_of_cx005(fx: &Fixture) -> String {
    use resume_tui::config::Config;
    use resume_tui::io::env::Env;
    use resume_tui::tui::loader::{Pass, load};
    use resume_tui::tui::{Model, Msg, update};
    let home = fx.home.path().to_str().unwrap();
    let env = Env::from_pairs([("HOME", home)]);
    let now = resume_tui::io::clock::now();
    let discovery = resume_tui::io::discover::discover(fx.root(), &env);
    let mut model = Model::new(
        Config::default(),
        resume_tui::tui::theme::Theme::default_dark(),
        resume_tui::tui::keymap::Keymap::defaults(),
        now,
    );
    update(&mut model, Msg::Resize(120, 300), now);
    for pass in [Pass::Preview, Pass::Full] {
        let loaded = load(fx.root(), &env, &discovery, now, &Config::default(), pass);
        update(&mut model, Msg::Loaded(Ok(Box::new(loaded))), now);
    }
    tui_support::select(&mut model, WORKFLOW_ID);
    tui_support::press(&mut model, &["3", "l"]);
    for _ in 0..10 {
        let screen = tui_support::screen(&model);
        if screen.contains("cx-005  .jerry/checkpoints/cx-005-checkpoint.json") {
            return screen;
        }
        tui_support::press(&mut model, &["j"]);
    }
    panic!("no row for cx-005:\n{}", tui_support::screen(&model));
}

#[test]
fn a_summary_that_kept_everything_is_said_in_one_line() {
    let fx = Fixture::demo();
    let (_, t) = precompact(&fx, &[]);
    // The checkpoint's own text holds every identifier and word of its items.
    let everything = fx.read(".jerry/checkpoints/cx-005-checkpoint.json");
    fx.run(
        &[],
        &payload(
            "PostCompact",
            Some(&t),
            json!({"trigger": "auto", "compact_summary": everything}),
        ),
    );
    let context = session_start(&fx, &t);
    assert!(
        context.starts_with("Dropped by compaction: nothing."),
        "{context}"
    );
    assert_eq!(context.lines().count(), 1, "{context}");
}

#[test]
fn without_a_summary_session_start_keeps_the_resume_context_and_dropped_says_so() {
    let fx = Fixture::demo();
    let (_, t) = precompact(&fx, &[]);
    let context = session_start_context(&fx, &t);
    assert!(!context.contains("Dropped by compaction"), "{context}");
    assert!(
        context.contains(WORKFLOW_ID),
        "Template 1 as before:\n{context}"
    );
    let report = dropped_json(&fx);
    assert_eq!(report["summary_source"], Value::Null);
    assert_eq!(report["kept"], json!([]));
    assert_eq!(report["dropped"], json!([]));
}

#[test]
fn precompact_steer_names_what_must_survive_only_when_switched_on() {
    let fx = Fixture::demo();
    let config = fx.home.path().join("config.toml");
    std::fs::write(&config, "[hooks]\nprecompact_steer = true\n").unwrap();
    let plan = fx.root().join(WORKFLOW_DIR).join("ORCHESTRATION.yaml");
    let yaml = std::fs::read_to_string(&plan).unwrap().replace(
        "next_step: \"Finish",
        "next_step: \"With GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a finish",
    );
    std::fs::write(&plan, yaml).unwrap();
    let (stdout, _) = precompact(&fx, &[("RESUME_TUI_CONFIG", config.to_str().unwrap())]);
    assert!(
        !stdout.trim_start().starts_with('{'),
        "plain text: {stdout}"
    );
    for id in ["phase 2", "qg-2", "RD-002", "DF-211", "DF-212", "S-004"] {
        assert!(stdout.contains(id), "{id} missing: {stdout}");
    }
    assert!(!stdout.contains("ghp_16C7"), "redacted: {stdout}");
    assert!(stdout.chars().count() <= resume_tui::core::dropped::MAX_STEER_CHARS + 1);
}

fn demo_command(args: &[&str]) -> Vec<u8> {
    let out = Command::cargo_bin("resume-tui")
        .unwrap()
        .env_clear()
        .env("HOME", "/nonexistent")
        .env("RESUME_TUI_CONFIG", "/nonexistent/config.toml")
        .arg("--demo")
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    out.stdout
}

#[test]
fn the_demo_shows_a_recorded_compaction_that_dropped_something() {
    let report: Value =
        serde_json::from_slice(&demo_command(&["dropped", "payouts", "--json"])).unwrap();
    assert_eq!(report["checkpoint"], "cx-002");
    assert_eq!(report["summary_source"], "post_compact");
    let dropped = ids(&report["dropped"]);
    assert!(dropped.contains(&"DF-212".to_string()), "{dropped:?}");
    assert!(ids(&report["kept"]).contains(&"RD-002".to_string()));

    let timeline: Value = serde_json::from_slice(&demo_command(&["timeline", "--json"])).unwrap();
    let events = timeline["events"].as_array().unwrap();
    assert!(
        events
            .iter()
            .all(|e| e["project"].is_string() && e.get("timestamp").is_some())
    );
    let stamps: Vec<&str> = events
        .iter()
        .filter_map(|e| e["timestamp"].as_str())
        .collect();
    let mut newest_first = stamps.clone();
    newest_first.sort_by(|a, b| b.cmp(a));
    assert_eq!(stamps, newest_first);
    let cx2 = events.iter().find(|e| e["checkpoint"] == "cx-002").unwrap();
    assert_eq!(cx2["dropped"], dropped.len());
    assert_eq!(cx2["acknowledged"], false);
    assert_eq!(cx2["project"], WORKFLOW_ID);

    let recent: Value =
        serde_json::from_slice(&demo_command(&["timeline", "--since", "1h", "--json"])).unwrap();
    let ids_recent: Vec<&str> = recent["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids_recent, ["cx-004", "cx-003"], "cx-002 is 70 minutes old");

    let text = String::from_utf8(demo_command(&["timeline"])).unwrap();
    let row = text.lines().find(|l| l.contains("cx-002")).unwrap();
    assert!(
        row.contains("UNACKNOWLEDGED") && row.contains(&format!("dropped {}", dropped.len())),
        "{row}"
    );
}
