//! Issue 32's nine defects, each against the real Claude Code client
//! (`RESUME_TUI_CLAUDE`, every version named): each test asserts the behaviour the
//! issue asks for, on what reaches the model's request and what lands on disk.

#[path = "support/real_client.rs"]
mod real_client;
#[path = "support/real_client_api.rs"]
mod real_client_api;

use real_client::{World, each};
use real_client_api::{Answer, summary};

const K200: u64 = 200_000;
const M1: u64 = 1_000_000;
const PENDING: &str = "Close settlement windows on the ledger clock";

/// A payouts session at 50 % of 200k, compacted by `/compact` with `summary`.
fn compacted(world: &World, summary_text: String) -> String {
    world.api.set_fill(0.50, K200);
    let session = world.work_on_payouts(false);
    world.api.set(Answer {
        summary: summary_text,
        ..world.api.answer()
    });
    world.resume(&session, "/compact keep the decisions");
    session
}

/// A summary that keeps everything of the payouts workflow but RD-002.
fn summary_without_rd002(analysis: &str) -> String {
    summary(
        "Payouts v2 (payouts-v2-20260302-001): phase 2, QG-2 iteration 2; finish the S-004 \
         pre-mortem, then re-score. RD-001 applied. DF-211 and DF-212 open.",
        analysis,
    )
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn defect_1_first_prompt_of_a_new_session_logs_no_error() {
    each(|client| {
        let world = World::new(client);
        world.print("Hello.", &[]);
        let log = world.hook_log();
        assert!(
            log.contains("UserPromptSubmit"),
            "{}: the hook did not run: {log}",
            client.label()
        );
        assert!(
            !log.contains(" ERROR "),
            "{}: a healthy first prompt logged an error: {log}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn defect_2_dropped_by_compaction_reaches_the_model() {
    each(|client| {
        let world = World::new(client);
        let session = compacted(&world, summary_without_rd002("nothing"));
        world.api.clear();
        world.resume(&session, "Go on.");
        let contexts = world
            .api
            .messages()
            .iter()
            .map(|r| r.hook_contexts().join("\n"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            contexts.contains("Dropped by compaction") && contexts.contains(PENDING),
            "{}: the dropped pending decision RD-002 did not reach the model after /compact: \
             {contexts:.4000}\nlog: {}",
            client.label(),
            world.hook_log()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn defect_3_own_checkpoint_is_not_called_a_contradiction() {
    each(|client| {
        let world = World::new(client);
        let session = compacted(&world, summary_without_rd002("nothing"));
        let checkpoint = world.checkpoints_of(&session);
        let id = checkpoint
            .last()
            .map(|(n, _)| n.split('-').take(2).collect::<Vec<_>>().join("-"));
        let id = id.unwrap_or_else(|| panic!("{}: no checkpoint", client.label()));
        world.api.clear();
        world.resume(&session, "Go on.");
        let all = world.api.messages_text();
        assert!(
            !all.contains("contradicts itself") && !all.contains("confirm with the operator"),
            "{}: its own checkpoint was reported as a contradiction",
            client.label()
        );
        // "checkpoint cx-005 at <its time> is newer than the resumption section".
        let said = all.lines().any(|line| {
            line.contains(&format!("checkpoint {id} "))
                && line.contains("is newer than the resumption section")
        });
        assert!(
            said,
            "{}: the model is not told that {id} is newer than the resumption section: {}",
            client.label(),
            world.last_contexts()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn defect_4_one_injection_tells_each_fact_once() {
    each(|client| {
        let world = World::new(client);
        world.api.set_fill(0.85, K200);
        let session = world.work_on_payouts(false);
        world.api.set(Answer {
            summary: summary_without_rd002("nothing"),
            ..world.api.answer()
        });
        world.resume(&session, "/compact");
        world.api.clear();
        world.resume(&session, "Go on.");
        let injections: Vec<String> = world
            .api
            .messages()
            .iter()
            .flat_map(|r| r.hook_contexts())
            .collect();
        assert!(
            !injections.is_empty(),
            "{}: nothing injected",
            client.label()
        );
        let next = "S-004 pre-mortem";
        for one in &injections {
            assert!(
                one.matches(next).count() <= 1,
                "{}: the next action appears {} times in one injection: {one}",
                client.label(),
                one.matches(next).count()
            );
            assert!(
                !(one.contains("PRE-COMPACTION FILL")
                    && one.contains("Context fill at interruption")),
                "{}: two fills in one injection, neither labelled by when it was measured: {one}",
                client.label()
            );
        }
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn defect_5_two_compactions_under_a_minute_are_two_checkpoints() {
    each(|client| {
        let world = World::new(client);
        let session = compacted(&world, summary_without_rd002("first"));
        world.resume(&session, "/compact again");
        let mine = world.checkpoints_of(&session);
        assert_eq!(
            mine.len(),
            2,
            "{}: two compactions, {} checkpoint(s): {:?}\nlog: {}",
            client.label(),
            mine.len(),
            mine.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            world.hook_log()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn defect_6_a_1m_session_is_not_measured_against_200k() {
    each(|client| {
        let mut world = World::new(client);
        world.model = "claude-opus-4-6[1m]".to_string();
        world.api.set_fill(0.17, M1);
        let session = world.print("Look at the payouts workflow.", &[]);
        world.api.clear();
        world.resume(&session, "Go on.");
        let all = world.api.messages_text();
        assert!(
            !all.contains("CONTEXT STATUS: CRITICAL")
                && !all.contains("CONTEXT STATUS: COMPACTION"),
            "{}: a false alarm at 17 % of 1M: {}\nlog: {}",
            client.label(),
            world.last_contexts(),
            world.hook_log()
        );
        let anthropic_beta: Vec<String> = world
            .api
            .messages()
            .iter()
            .filter_map(|r| r.header("anthropic-beta").map(str::to_string))
            .collect();
        assert!(
            anthropic_beta.iter().any(|b| b.contains("context-1m")),
            "{}: the client did not ask for the 1M window: {anthropic_beta:?}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn defect_7_what_only_the_analysis_holds_counts_as_dropped() {
    each(|client| {
        let world = World::new(client);
        let analysis = format!("RD-002 pending: {PENDING}, not the batcher host clock.");
        let session = compacted(&world, summary_without_rd002(&analysis));
        let checkpoint = world.checkpoints_of(&session);
        let name = checkpoint
            .last()
            .map(|(n, _)| n.clone())
            .unwrap_or_default();
        let out = world.resume_tui(&[
            "dropped",
            "payouts-v2-20260302-001",
            name.trim_end_matches(".json"),
        ]);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        world.api.clear();
        world.resume(&session, "Go on.");
        let contexts: String = world
            .api
            .messages()
            .iter()
            .flat_map(|r| r.hook_contexts())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            contexts.contains("Dropped by compaction") && contexts.contains(PENDING),
            "{}: RD-002, only in the <analysis> the model never sees, was not reported dropped: \
             {contexts:.3000}\n`dropped`: {text}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn defect_8_a_resume_names_the_sessions_own_workflow() {
    each(|client| {
        let world = World::new(client);
        let session = world.work_on_payouts(true);
        world.api.clear();
        world.resume(&session, "Go on.");
        let contexts = world.last_contexts();
        assert!(
            !contexts.contains("Do NOT start over") || contexts.contains("payouts-v2-20260302-001"),
            "{}: the resume imposed another workflow: {contexts}",
            client.label()
        );
        let imposed_other = contexts
            .lines()
            .any(|l| l.starts_with("WORKFLOW:") && !l.contains("payouts-v2-20260302-001"));
        assert!(
            !imposed_other,
            "{}: the resume names another session's workflow first: {contexts}",
            client.label()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn defect_9_checkpoints_carry_the_phases_of_the_state_file() {
    each(|client| {
        let world = World::new(client);
        let session = compacted(&world, summary_without_rd002("nothing"));
        let mine = world.checkpoints_of(&session);
        let (name, checkpoint) = mine
            .last()
            .unwrap_or_else(|| panic!("{}: no checkpoint: {}", client.label(), world.hook_log()));
        let phases = &checkpoint["orchestration_state"];
        let complete = phases["phases_complete"]
            .as_array()
            .map(Vec::len)
            .unwrap_or(0);
        let remaining = phases["phases_remaining"]
            .as_array()
            .map(Vec::len)
            .unwrap_or(0);
        assert!(
            complete >= 1 && remaining >= 1,
            "{}: {name}: phase 1 is COMPLETE and phase 3 remains in the state file, the \
             checkpoint says {phases}",
            client.label()
        );
    });
}
