use super::*;
use crate::core::normalize::checkpoint::normalize_checkpoint;

/// A checkpoint of our own: a gate in progress, two pending decisions, defects
/// with and without ids, a partial agent, two files.
const BEFORE: &str = r#"{
  "event_id": "cx-012",
  "timestamp": "2026-05-01T10:00:00Z",
  "session_id": "s-1",
  "orchestration_state": {
    "workflow_id": "billing-20260501-001",
    "current_phase": 3,
    "current_phase_name": "Invoice renderer",
    "current_gate": "qg-3",
    "current_gate_iteration": 2,
    "current_gate_score": 0.88
  },
  "accumulated_context": {
    "defect_patterns": [
      "Currency rounding differs between preview and PDF",
      "Totals row misses tax lines (DF-031)"
    ],
    "unresolved_defects": ["DF-031", "DF-044"],
    "blockers": ["Tax API sandbox down"],
    "decisions_since_last_checkpoint": [
      {"id": "RD-004", "summary": "Render amounts with the merchant locale"},
      {"summary": "Keep PDF generation synchronous for now"}
    ],
    "agent_summaries": {
      "renderer": "DONE. Templates for all six invoice types.",
      "pdf-checker": "PARTIAL. Four of six types compared; credit notes left."
    }
  },
  "recovery_instructions": {
    "files_to_read": [
      {"path": "projects/BILL/ORCHESTRATION.yaml", "priority": 1},
      {"path": "projects/BILL/qg-3/iteration-2-findings.md", "priority": 2}
    ],
    "next_action": "Read projects/BILL/ORCHESTRATION.yaml (resumption section). Merge this checkpoint data into it. Then continue: fix DF-031 and re-score QG-3."
  }
}"#;

fn checkpoint() -> crate::core::model::Checkpoint {
    normalize_checkpoint(".jerry/checkpoints/cx-012-checkpoint.json", BEFORE, false).unwrap()
}

fn kept_and_dropped(c: &Comparison) -> (Vec<String>, Vec<String>) {
    let label = |v: &&Verdict| {
        format!(
            "{}:{}",
            v.item.kind.label(),
            v.item.id.clone().unwrap_or_else(|| v.item.text.clone())
        )
    };
    (
        c.kept().map(|v| label(&v)).collect(),
        c.dropped().map(|v| label(&v)).collect(),
    )
}

#[test]
fn items_come_in_reading_order_with_their_identifiers() {
    let items = items_of(&checkpoint());
    let shown: Vec<(Kind, Option<&str>)> =
        items.iter().map(|i| (i.kind, i.id.as_deref())).collect();
    assert_eq!(
        shown,
        vec![
            (Kind::Phase, Some("phase 3")),
            (Kind::Gate, Some("qg-3")),
            (Kind::Decision, Some("RD-004")),
            (Kind::Decision, None),
            (Kind::Defect, Some("DF-031")),
            (Kind::Defect, Some("DF-044")),
            (Kind::Defect, None),
            (Kind::Defect, None),
            (Kind::Blocker, None),
            (Kind::NextAction, None),
            (Kind::File, Some("ORCHESTRATION.yaml")),
            (Kind::File, Some("iteration-2-findings.md")),
            (Kind::Agent, Some("pdf-checker")),
        ]
    );
    let next = items.iter().find(|i| i.kind == Kind::NextAction).unwrap();
    assert_eq!(next.text, "fix DF-031 and re-score QG-3.");
    assert_eq!(items[0].text, "Phase 3: Invoice renderer");
    assert_eq!(items[1].text, "qg-3, iteration 2, score 0.88");
}

#[test]
fn identifiers_count_when_they_appear_in_any_spelling() {
    let summary = "Resuming QG3 iteration 2 on Phase-3. Decision rd-4 (merchant locale) \
                   stands. DF-31 still open; see iteration-2-findings.md. \
                   The pdf checker agent has credit notes left.";
    let c = compare_checkpoint(&checkpoint(), summary);
    let (kept, dropped) = kept_and_dropped(&c);
    assert_eq!(
        kept,
        [
            "phase:phase 3",
            "gate:qg-3",
            "decision:RD-004",
            "defect:DF-031",
            "defect:Totals row misses tax lines (DF-031)",
            "next action:fix DF-031 and re-score QG-3.",
            "file:iteration-2-findings.md",
            "agent:pdf-checker",
        ]
    );
    assert_eq!(
        dropped,
        [
            "decision:Keep PDF generation synchronous for now",
            "defect:DF-044",
            "defect:Currency rounding differs between preview and PDF",
            "blocker:Tax API sandbox down",
            "file:ORCHESTRATION.yaml",
        ]
    );
    let reason = |id: &str| {
        c.verdicts
            .iter()
            .find(|v| v.item.id.as_deref() == Some(id))
            .map(|v| v.reason.clone())
            .unwrap()
    };
    assert_eq!(reason("RD-004"), "RD-004 appears");
    assert_eq!(
        reason("ORCHESTRATION.yaml"),
        "ORCHESTRATION.yaml does not appear"
    );
}

#[test]
fn an_identifier_inside_another_word_does_not_count() {
    let c = compare_checkpoint(&checkpoint(), "XQG-3 and RD-0045 and findings.md only");
    let kept: Vec<_> = c.kept().map(|v| v.item.kind).collect();
    assert!(!kept.contains(&Kind::Gate), "{kept:?}");
    assert!(!kept.contains(&Kind::Decision), "{kept:?}");
    assert!(!kept.contains(&Kind::File), "{kept:?}");
}

#[test]
fn an_item_with_several_identifiers_needs_all_of_them() {
    let items = vec![Item {
        kind: Kind::NextAction,
        id: None,
        text: "Finish the S-004 pre-mortem for QG-2, then re-score.".into(),
    }];
    let c = compare(items.clone(), "QG-2 is in progress.");
    assert!(!c.verdicts[0].kept);
    assert_eq!(c.verdicts[0].reason, "S-004 does not appear");
    assert!(compare(items, "S-004 pre-mortem for QG-2 under way").verdicts[0].kept);
}

#[test]
fn without_identifiers_half_the_distinctive_words_decide() {
    let item = |text: &str| Item {
        kind: Kind::Defect,
        id: None,
        text: text.into(),
    };
    let defect = "Currency rounding differs between preview and PDF";
    // Distinctive: currency, rounding, differs, preview (PDF is too short): 2 needed.
    let c = compare(
        vec![item(defect)],
        "The preview still shows rounded currencies.",
    );
    assert!(c.verdicts[0].kept, "{}", c.verdicts[0].reason);
    assert_eq!(
        c.verdicts[0].reason,
        "3 of 4 distinctive words appear (2 needed)"
    );
    let c = compare(
        vec![item(defect)],
        "Invoices render; currency handling is done.",
    );
    assert!(!c.verdicts[0].kept);
    assert_eq!(
        c.verdicts[0].reason,
        "1 of 4 distinctive words appear (2 needed)"
    );
    // Only common or short words: the text must appear whole.
    let c = compare(vec![item("Do it now")], "then do it now, please");
    assert!(c.verdicts[0].kept, "{}", c.verdicts[0].reason);
    assert!(!compare(vec![item("Do it now")], "later").verdicts[0].kept);
}

#[test]
fn an_empty_summary_drops_everything() {
    let c = compare_checkpoint(&checkpoint(), "");
    assert_eq!(c.kept().count(), 0);
    assert_eq!(c.dropped().count(), 13);
}

#[test]
fn dropped_items_put_decisions_then_defects_first() {
    let c = compare_checkpoint(&checkpoint(), "");
    let kinds: Vec<Kind> = c.dropped_by_urgency().iter().map(|v| v.item.kind).collect();
    assert_eq!(
        kinds,
        [
            Kind::Decision,
            Kind::Decision,
            Kind::Defect,
            Kind::Defect,
            Kind::Defect,
            Kind::Defect,
            Kind::Blocker,
            Kind::Phase,
            Kind::Gate,
            Kind::NextAction,
            Kind::File,
            Kind::File,
            Kind::Agent,
        ]
    );
}

#[test]
fn agents_left_partial_are_told_by_their_status_word() {
    assert!(unfinished("PARTIAL. Single-payout replay green"));
    assert!(unfinished("  in progress: 3 of 5"));
    assert!(unfinished("BLOCKED"));
    assert!(!unfinished("DONE. All good"));
    assert!(!unfinished("Partially done is not a status word"));
    assert!(!unfinished(""));
}

#[test]
fn file_names_and_codes_are_read_from_free_text() {
    assert_eq!(file_name("webhooks/retries.mdx"), Some("retries.mdx"));
    assert_eq!(file_name("0.91"), None);
    assert_eq!(file_name("e.g"), None);
    assert_eq!(file_name("v2.1.240"), None);
    let ids =
        identifiers::required_in("Fix DF-211 (see notes/batch-replay.md), score 0.91, v2, utf8.");
    assert_eq!(
        ids,
        [
            (Identifier::Code(("df".into(), 211)), "DF-211".to_string()),
            (
                Identifier::Name("batch replay.md".into()),
                "batch-replay.md".to_string()
            ),
        ]
    );
}

#[test]
fn a_checkpoint_with_no_state_has_no_items() {
    let bare =
        normalize_checkpoint("cx-001.json", r#"{"checkpoint_id": "cx-001"}"#, false).unwrap();
    assert!(items_of(&bare).is_empty());
    assert!(compare_checkpoint(&bare, "anything").verdicts.is_empty());
}

#[test]
fn the_section_lists_what_was_dropped_within_its_limit() {
    let c = compare_checkpoint(&checkpoint(), "");
    let section = |max_chars| {
        render_section(&SectionInput {
            checkpoint_id: "cx-012",
            workflow: Some("billing-20260501-001"),
            comparison: &c,
            max_chars,
        })
    };
    let full = section(6_000);
    assert!(full.starts_with("## Dropped by compaction\n"), "{full}");
    assert!(full.contains("left out 13 of the 13 items"), "{full}");
    assert!(
        full.contains("- Decision RD-004 (pending): Render amounts"),
        "{full}"
    );
    assert!(full.contains("The summary kept none of them. Full list: `resume-tui dropped billing-20260501-001 cx-012`."));
    let cut = section(400);
    assert!(cut.chars().count() <= 400, "{}", cut.chars().count());
    assert!(cut.contains("- … and "), "{cut}");
    assert!(
        cut.contains("- Decision RD-004"),
        "decisions come first: {cut}"
    );
    // The file's own text holds every item but the phase's `phase 3` phrase.
    let kept_all = compare_checkpoint(&checkpoint(), &format!("{BEFORE} phase 3"));
    let one = render_section(&SectionInput {
        checkpoint_id: "cx-012",
        workflow: None,
        comparison: &kept_all,
        max_chars: 6_000,
    });
    assert_eq!(
        one,
        "Dropped by compaction: nothing. The compaction summary kept all 13 items of checkpoint cx-012."
    );
}

#[test]
fn the_steer_names_the_identifiers_and_the_next_action() {
    let text = steer_text(&checkpoint()).unwrap();
    assert!(
        text.starts_with("resume-tui: in the summary, keep"),
        "{text}"
    );
    for id in [
        "current phase 3",
        "quality gate qg-3",
        "pending decisions RD-004",
        "unresolved defects DF-031, DF-044",
    ] {
        assert!(text.contains(id), "{id}: {text}");
    }
    assert!(
        text.ends_with("Keep the next action: fix DF-031 and re-score QG-3."),
        "{text}"
    );
    let bare =
        normalize_checkpoint("cx-001.json", r#"{"checkpoint_id": "cx-001"}"#, false).unwrap();
    assert_eq!(steer_text(&bare), None);
}

#[test]
fn what_only_the_analysis_names_counts_as_dropped() {
    // PostCompact receives `<analysis>` and `<summary>`; the model keeps the summary.
    let summary = "<analysis>RD-004 and DF-031 were weighed; DF-044 too.</analysis>\n\
                   <summary>Current work: QG-3 on the invoice renderer; DF-044 open.</summary>";
    let c = compare_checkpoint(&checkpoint(), summary);
    let (kept, dropped) = kept_and_dropped(&c);
    assert!(
        dropped.contains(&"decision:RD-004".to_string()),
        "{dropped:?}"
    );
    assert!(
        dropped.contains(&"defect:DF-031".to_string()),
        "{dropped:?}"
    );
    assert!(kept.contains(&"defect:DF-044".to_string()), "{kept:?}");
}
