use super::super::{Reading, normalize_orchestration_fast_with, normalize_orchestration_with};
use super::{HOOK_COLLECTIONS, HOOK_VALUES};
use crate::core::model::{Project, Severity, Shape};

const HEAD: &str = "workflow:\n  id: wf\n  status: ACTIVE\n  current_phase: 2\nresumption:\n  \
                    recovery_state:\n    next_step: go on\n";

fn for_hooks(text: &str) -> Project {
    normalize_orchestration_fast_with("p/ORCHESTRATION.yaml", "p", text, Reading::ForHooks)
}

fn in_full(text: &str) -> Project {
    normalize_orchestration_fast_with("p/ORCHESTRATION.yaml", "p", text, Reading::Full)
}

/// The one error of a project the hooks left unread.
fn refusal(project: &Project) -> String {
    assert_eq!(project.shape, Shape::Unreadable);
    let errors: Vec<String> = project
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors[0].clone()
}

#[test]
fn a_list_past_the_budget_is_left_unread_by_the_hooks_and_named_at_its_line() {
    let mut text = format!("{HEAD}  files_to_read:\n");
    text.push_str(&"    - docs/a.md\n".repeat(HOOK_VALUES + 10));
    let why = refusal(&for_hooks(&text));
    assert!(
        why.starts_with(&format!(
            "p/ORCHESTRATION.yaml:8:3: error: resumption.files_to_read ({} entries): what the hooks read",
            HOOK_VALUES + 10
        )),
        "{why}"
    );
    assert!(why.contains("the dashboard and `resume-tui validate` read it whole"));
    let full = in_full(&text);
    assert_eq!(
        full.resumption.unwrap().files_to_read.len(),
        HOOK_VALUES + 10
    );
}

#[test]
fn aliases_count_as_their_copies_and_are_refused_before_they_are_made() {
    let mut text =
        format!("{HEAD}  files_to_read:\n    - &f {{path: a.md, priority: 1, purpose: x}}\n");
    text.push_str(&"    - *f\n".repeat(HOOK_VALUES / 7 + 1));
    let why = refusal(&for_hooks(&text));
    assert!(why.contains("resumption.files_to_read ("), "{why}");
    let mut phases = String::from("workflow:\n  id: wf\nphases:\n  - &p {id: 1, status: done}\n");
    phases.push_str(&"  - *p\n".repeat(HOOK_COLLECTIONS + 1));
    phases.push_str("resumption:\n  next_step: go\n");
    let why = refusal(&for_hooks(&phases));
    assert!(why.contains(":3:1: error: phases ("), "{why}");
}

#[test]
fn many_small_entries_are_refused_by_their_count_of_lists_and_maps() {
    let mut text = String::from("workflow:\n  id: wf\nphases:\n");
    text.push_str(&"  - {}\n".repeat(HOOK_COLLECTIONS + 1));
    text.push_str("resumption:\n  next_step: go\n");
    assert!(refusal(&for_hooks(&text)).contains("phases"));
    let mut map = format!("{HEAD}  agent_summaries:\n");
    for i in 0..HOOK_VALUES / 2 + 1 {
        map.push_str(&format!("    agent-{i}: done\n"));
    }
    let why = refusal(&for_hooks(&map));
    assert!(
        why.contains(":8:3: error: resumption.agent_summaries ("),
        "{why}"
    );
}

/// A megabyte of real-looking decisions (2,500 of twelve fields, 47,500 values)
/// is read; so is what the hooks never read, however large.
#[test]
fn a_megabyte_of_real_decisions_and_any_amount_cut_away_are_read() {
    let mut text = format!("{HEAD}  decision_log:\n");
    for i in 0..2_500 {
        text.push_str(&format!(
            "    - id: RD-{i:04}\n      date: '2026-02-01T10:00:00Z'\n      decision: Use the staged \
             rollout for component {i}\n      rationale: The canary ran for two days with error rates \
             below the threshold, and rolling back takes one command if the\n        next stage shows a regression the canary could not see\n      affects_phases: [2, 3]\n      applied: true\n      \
             alternatives:\n        - Big-bang release\n        - Feature flag only\n"
        ));
    }
    assert!(text.len() > 800_000);
    let read = for_hooks(&text);
    assert_ne!(read.shape, Shape::Unreadable, "{:?}", read.diagnostics);
    assert_eq!(read.resumption.unwrap().decisions.len(), 2_500);

    let mut cut_away = format!("{HEAD}  base: &b {{a: 1, b: 2, c: 3, d: 4}}\n  uses:\n");
    cut_away.push_str(&"    - *b\n".repeat(100_000));
    cut_away.push_str("notes:\n");
    cut_away.push_str(&"  - {}\n".repeat(50_000));
    let read = for_hooks(&cut_away);
    assert_ne!(read.shape, Shape::Unreadable, "{:?}", read.diagnostics);
    assert_eq!(read.summary.next_step.as_deref(), Some("go on"));
}

/// A file the cut cannot take (a tag) is parsed whole, and the budget still
/// counts only what the hooks read.
#[test]
fn a_file_read_whole_counts_only_what_the_hooks_read() {
    let mut text = format!("{HEAD}tagged: !x y\nnotes:\n");
    text.push_str(&"  - {}\n".repeat(HOOK_COLLECTIONS + 1));
    let read = normalize_orchestration_with("p/ORCHESTRATION.yaml", "p", &text, Reading::ForHooks);
    assert_ne!(read.shape, Shape::Unreadable, "{:?}", read.diagnostics);
    text.push_str("phases:\n");
    text.push_str(&"  - {}\n".repeat(HOOK_COLLECTIONS + 1));
    let read = normalize_orchestration_with("p/ORCHESTRATION.yaml", "p", &text, Reading::ForHooks);
    assert!(refusal(&read).contains("phases ("));
}

/// A file the cut cannot take, or whose phase is stated nowhere the cut keeps,
/// is parsed whole by a hook only up to `WHOLE_BYTES`: 70,000 maps cut away
/// and the word "phase" had the hooks parse and walk a megabyte (106 ms; 334 ms
/// with a tab that sends it to `yaml_serde`).
#[test]
fn past_its_size_a_file_the_cut_cannot_take_is_not_parsed_whole_by_a_hook() {
    let mut junk = String::from("workflow:\n  id: wf\n  status: ACTIVE\njunk:\n");
    for i in 0..20_000 {
        junk.push_str(&format!("  k{i}: {{a: 1}}\n"));
    }
    assert!(junk.len() > super::WHOLE_BYTES);
    let unstated =
        format!("{junk}resumption:\n  recovery_state:\n    next_step: go to the next phase\n");
    let read = for_hooks(&unstated);
    assert_ne!(read.shape, Shape::Unreadable, "{:?}", read.diagnostics);
    assert_eq!(read.summary.phase, None, "not looked for in the whole file");
    assert_eq!(
        read.summary.next_step.as_deref(),
        Some("go to the next phase")
    );

    let tagged = format!("{junk}tag: !x y\nresumption:\n  next_step: go\n");
    let why = refusal(&for_hooks(&tagged));
    assert!(
        why.starts_with(
            "p/ORCHESTRATION.yaml: error: at 321 KB this file is larger than the 128 KB"
        ),
        "{why}"
    );
    assert_ne!(in_full(&tagged).shape, Shape::Unreadable);
    let small = "workflow:\n  id: wf\ntag: !x y\nresumption:\n  next_step: go\n";
    assert_ne!(for_hooks(small).shape, Shape::Unreadable);
}

/// What the cut keeps may itself be large, and in a form only `yaml_serde`
/// reads (a tab in a flow list, a lone carriage return): a hook does not give it
/// to `yaml_serde` past `WHOLE_BYTES` (165–218 ms a megabyte, the second
/// review's find).
#[test]
fn a_large_kept_part_only_the_slow_reader_reads_is_left_unread_by_a_hook() {
    let list = format!("[1,\t{}1]", "1,".repeat(100_000));
    let tab = format!("{HEAD}  files_to_read: {list}\n");
    assert!(refusal(&for_hooks(&tab)).contains("larger than the 128 KB a hook reads"));
    let lone_cr = format!(
        "{HEAD}  current_state: \"a\\rb\"\n  files_to_read: {}\n",
        list.replace('\t', " ")
    )
    .replace("\\r", "\r");
    assert!(refusal(&for_hooks(&lone_cr)).contains("larger than the 128 KB a hook reads"));
    let plain = format!("{HEAD}  files_to_read: {}\n", list.replace('\t', " "));
    assert!(refusal(&for_hooks(&plain)).contains("resumption.files_to_read (100002 entries)"));
    assert_ne!(in_full(&tab).shape, Shape::Unreadable);
}
