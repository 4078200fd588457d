//! What leaves through a hook, through the real binary (issue 15, point 8): every
//! injected text is redacted (PostToolUse's warning too) and stays under Claude
//! Code's 10,000-unit cap counted in UTF-16 code units, as JavaScript counts it.

#[path = "support/transcript.rs"]
mod transcript;

#[path = "support/hook_fixture.rs"]
mod hook_fixture;

use hook_fixture::{Fixture, WORKFLOW, context_of, iso, orchestration, payload};
use serde_json::json;

const TOKEN: &str = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";

#[test]
fn post_tool_use_is_redacted() {
    let fx = Fixture::new();
    // A state file whose folder name holds a token: the warning names the file.
    let file = format!("projects/{TOKEN}/ORCHESTRATION.yaml");
    fx.write(&file, &orchestration(&iso(3 * 3600)));
    let edit = payload(
        "PostToolUse",
        None,
        json!({"tool_name": "Edit", "tool_input": {"file_path": fx.root().join(&file)}}),
    );
    let (stdout, _) = fx.run(&[], &edit);
    let text = context_of(&stdout, "PostToolUse");
    assert!(
        text.contains("resumption.recovery_state.updated_at"),
        "{text}"
    );
    assert!(!stdout.contains("ghp_16C7e42F"), "{stdout}");
    assert!(text.contains("[REDACTED]"), "{text}");
}

/// A resumption section heavy with emoji: two UTF-16 units per character.
fn emoji_heavy() -> String {
    let smiles = "🙂".repeat(400);
    let mut yaml = orchestration(&iso(60)).replace("qg-2-iteration-1", "writing docs");
    yaml = yaml.replace(
        "Deploy with GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a then re-score",
        &"🚀".repeat(3_000),
    );
    let mut decisions = String::new();
    for i in 1..=60 {
        decisions.push_str(&format!(
            "    - id: \"RD-{i:03}\"\n      decision: \"{smiles}\"\n      affects_phases: [3]\n      applied: false\n"
        ));
    }
    yaml.replace(
        "    - id: \"RD-001\"\n      decision: \"Keep the v1 endpoint\"\n      affects_phases: [3]\n      applied: false\n",
        &decisions,
    )
}

#[test]
fn the_cap_is_counted_in_utf16_units() {
    let fx = Fixture::new();
    fx.write(WORKFLOW, &emoji_heavy());
    let t = fx.edits_in("projects/PROJ-001-demo");
    fx.run(
        &[],
        &payload("PreCompact", Some(&t), json!({"trigger": "auto"})),
    );
    let compact = payload("SessionStart", None, json!({"source": "compact"}));
    let text = context_of(&fx.run(&[], &compact).0, "SessionStart");
    let units = text.encode_utf16().count();
    let chars = text.chars().count();
    assert!(units < 10_000, "{units} UTF-16 units ({chars} characters)");
    // Cut by the cap: counted in characters, the whole text would have fitted.
    let omitted: usize = text
        .split("truncated by resume-tui: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("not cut: {units} units, {chars} characters"));
    assert!(
        chars + omitted < 10_000,
        "{chars} + {omitted} characters: fits a cap in characters, not one in UTF-16 units"
    );
    assert!(text.contains("<compaction-alert>"), "{text}");
}
