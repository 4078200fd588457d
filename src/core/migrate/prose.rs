//! What a v1 `current_state` sentence says plainly about the workflow's lifecycle
//! and phase. Only unambiguous wording counts; anything else is left unparsed, and
//! the prose is kept verbatim either way.
//!
//! - COMPLETE: "workflow complete(d)" anywhere, or a sentence starting "all phases
//!   complete/done" or "all N phases complete/done".
//! - FAILED / PAUSED / CANCELLED: "workflow failed", "workflow paused",
//!   "workflow cancelled".
//! - ACTIVE: the first sentence starts "workflow not started", "workflow
//!   initialized", "workflow planned", "workflow in progress", or "phase N".
//! - current phase N: the first sentence starts "phase N" (also `PHASE_N_…`) and
//!   does not say that phase is complete or done.

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProseFacts {
    pub status: Option<&'static str>,
    pub phase: Option<i64>,
}

impl ProseFacts {
    pub fn is_empty(&self) -> bool {
        self.status.is_none() && self.phase.is_none()
    }
}

pub fn read_state(prose: &str) -> ProseFacts {
    let sentences: Vec<Vec<String>> = sentences(prose).iter().map(|s| words(s)).collect();
    let mut facts = ProseFacts::default();
    let any_pair = |first: &str, seconds: &[&str]| {
        sentences.iter().any(|w| {
            w.windows(2).any(|pair| match pair {
                [a, b] => a == first && seconds.contains(&b.as_str()),
                _ => false,
            })
        })
    };
    let all_phases_done = sentences.iter().any(|w| {
        let w: Vec<&str> = w.iter().map(String::as_str).collect();
        matches!(
            w.as_slice(),
            ["all", "phases", end, ..] | ["all", _, "phases", end, ..] if DONE.contains(end)
        )
    });
    if any_pair("workflow", &["complete", "completed"]) || all_phases_done {
        facts.status = Some("COMPLETE");
    } else if any_pair("workflow", &["failed"]) {
        facts.status = Some("FAILED");
    } else if any_pair("workflow", &["paused"]) {
        facts.status = Some("PAUSED");
    } else if any_pair("workflow", &["cancelled", "canceled"]) {
        facts.status = Some("CANCELLED");
    }
    let first: Vec<&str> = sentences
        .first()
        .map(|w| w.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let phase = match first.as_slice() {
        ["phase", n, ..] => n.parse::<i64>().ok(),
        _ => None,
    };
    let starts_active = matches!(
        first.as_slice(),
        ["workflow", "not", "started", ..]
            | [
                "workflow",
                "initialized" | "initialised" | "planned" | "active",
                ..
            ]
            | ["workflow", "in", "progress", ..]
    );
    if facts.status.is_none() && (starts_active || phase.is_some()) {
        facts.status = Some("ACTIVE");
    }
    let said_done = first.iter().any(|w| DONE.contains(w));
    if facts.status == Some("ACTIVE") && !said_done {
        facts.phase = phase;
    }
    facts
}

const DONE: &[&str] = &["complete", "completed", "done"];

/// Sentences end at a `.` followed by a space or the end; line breaks are spaces.
fn sentences(prose: &str) -> Vec<String> {
    let flat = prose.split_whitespace().collect::<Vec<_>>().join(" ");
    flat.split(". ")
        .map(|s| s.trim_end_matches('.').trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Lower-case words; `_`, `-`, punctuation and spaces separate them.
fn words(sentence: &str) -> Vec<String> {
    sentence
        .split(|c: char| !c.is_alphanumeric() && c != '/')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(text: &str) -> (Option<&'static str>, Option<i64>) {
        let f = read_state(text);
        (f.status, f.phase)
    }

    #[test]
    fn completed_workflows() {
        for text in [
            "WORKFLOW COMPLETE. All 4 phases done. All 4 quality gates PASS (QG-1: 0.941).",
            "Workflow COMPLETE. All 7 phases, 3 quality gates, 1 barrier done. GO decision.",
            "ALL PHASES COMPLETE. EN-006 workflow complete. AWAITING HUMAN APPROVAL.",
            "FEAT-010 COMPLETE. All 4 phases done. All 7 enablers PASS.",
        ] {
            assert_eq!(facts(text), (Some("COMPLETE"), None), "{text}");
        }
    }

    #[test]
    fn active_workflows_and_their_phase() {
        assert_eq!(facts("Workflow not started"), (Some("ACTIVE"), None));
        assert_eq!(
            facts("Workflow initialized. Phase 1 ready for execution."),
            (Some("ACTIVE"), None)
        );
        assert_eq!(
            facts("WORKFLOW PLANNED. 0/9 agents executed."),
            (Some("ACTIVE"), None)
        );
        assert_eq!(
            facts("Phase 1 IN PROGRESS. TASK-002-005 executing."),
            (Some("ACTIVE"), Some(1))
        );
        assert_eq!(
            facts("Phase 3 tournament iteration 5 (FINAL) — v5 script in production."),
            (Some("ACTIVE"), Some(3))
        );
        assert_eq!(facts("PHASE_2_READY"), (Some("ACTIVE"), Some(2)));
        assert_eq!(
            facts("PHASE_5_HUMAN_GATE_RETRY: TDD v1.2.0, awaiting approval"),
            (Some("ACTIVE"), Some(5))
        );
        // The phase named is finished, so the current one is unknown.
        assert_eq!(
            facts("Phase 2 COMPLETE. Ready for Phase 3 execution."),
            (Some("ACTIVE"), None)
        );
    }

    #[test]
    fn other_lifecycle_words() {
        assert_eq!(facts("Workflow FAILED at QG-2."), (Some("FAILED"), None));
        assert_eq!(facts("workflow paused for review"), (Some("PAUSED"), None));
        assert_eq!(facts("Workflow canceled."), (Some("CANCELLED"), None));
    }

    #[test]
    fn unclear_prose_is_not_parsed() {
        for text in [
            "APPROVED",
            "",
            "Workflow completes after QG-3",
            "workflow not complete",
            "All phases pending.",
            "Phase two is running",
        ] {
            assert!(read_state(text).is_empty(), "{text}");
        }
    }
}
