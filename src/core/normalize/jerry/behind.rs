//! A resumption section older than the newest checkpoint of its workflow: the
//! recovery fields were written before the last compaction, so the checkpoint
//! (or the compaction event the hook appended) may know more than they say.
//!
//! Judged twice: when the file is read (its own `compaction_events`), and again
//! once the workspace has given the workflow its checkpoints
//! (`core::workspace`). The second call replaces the first's sentence.

use crate::core::model::{Diagnostic, Project};
use crate::core::time::{Timestamp, update_effective};

/// How the sentence starts; also how a later call finds an earlier one.
const OPENING: &str = "the resumption section was last updated";
const WARNING_PREFIX: &str = "the file contradicts itself: ";

/// The sentence for `project`, when its resumption section's own `updated_at` is
/// older than the newest checkpoint it is known to have (an attached checkpoint
/// file or a compaction event of the section). A date without a time counts to
/// the end of its day.
pub fn resumption_behind(project: &Project) -> Option<String> {
    project.resumption.as_ref()?;
    let summary = &project.summary;
    let key = summary.sources.updated_at.as_deref()?;
    if !key.starts_with("resumption") {
        return None;
    }
    let updated = summary.updated_at?;
    let raw = summary.updated_at_raw.as_deref();
    let effective = update_effective(raw, updated);
    let (newest_at, newest) = newest_checkpoint(project)?;
    (newest_at.0 > effective.0).then(|| {
        format!(
            "{OPENING} at {} ({key}), before the newest checkpoint {newest} at {}: \
             its recovery fields may predate the last compaction",
            raw.map_or_else(|| updated.to_iso(), |r| r.trim().to_string()),
            newest_at.to_iso()
        )
    })
}

fn newest_checkpoint(project: &Project) -> Option<(Timestamp, String)> {
    let files = project
        .checkpoints
        .iter()
        .filter_map(|c| Some((c.created_at?, c.id.clone())));
    let events = project
        .resumption
        .iter()
        .filter_map(|r| r.compaction.as_ref())
        .flat_map(|c| c.events.iter())
        .filter_map(|e| {
            let name =
                e.id.clone()
                    .unwrap_or_else(|| "(a compaction event)".to_string());
            Some((e.timestamp?, name))
        });
    files.chain(events).max_by_key(|(at, _)| at.0)
}

/// Says (or stops saying) the sentence on the summary and as a warning, replacing
/// what an earlier call said. A warning it replaces keeps its line and column.
pub fn note_resumption_behind(project: &mut Project) {
    let sentence = resumption_behind(project);
    project
        .summary
        .contradictions
        .retain(|c| !c.starts_with(OPENING));
    let earlier = project
        .diagnostics
        .iter()
        .position(|d| d.message.starts_with(&format!("{WARNING_PREFIX}{OPENING}")));
    let place = earlier.map(|i| project.diagnostics.remove(i));
    let Some(sentence) = sentence else {
        return;
    };
    let message = format!("{WARNING_PREFIX}{sentence}");
    let warning = match place {
        Some(old) => Diagnostic { message, ..old },
        None => Diagnostic::warning(project.source.clone(), message),
    };
    project.diagnostics.push(warning);
    project.summary.contradictions.push(sentence);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Checkpoint;
    use crate::core::normalize::checkpoint::normalize_checkpoint;
    use crate::core::normalize::jerry::normalize_orchestration;

    const SECTION: &str = "workflow: {id: w, status: ACTIVE}\nresumption:\n  recovery_state:\n    \
                           current_phase: 2\n    updated_at: '2026-03-01T11:00:00Z'\n";

    fn checkpoint(id: &str, at: &str) -> Checkpoint {
        let text = format!(r#"{{"checkpoint_id": "{id}", "created_at": "{at}"}}"#);
        normalize_checkpoint(&format!(".jerry/checkpoints/{id}.json"), &text, false).unwrap()
    }

    #[test]
    fn a_compaction_event_newer_than_the_section_is_said() {
        let text = format!(
            "{SECTION}  compaction_events:\n    count: 1\n    events:\n      \
             - {{checkpoint_id: cx-004, timestamp: '2026-03-01T11:35:00Z'}}\n"
        );
        let p = normalize_orchestration("w/ORCHESTRATION.yaml", "w", &text);
        assert_eq!(
            p.summary.contradictions,
            [
                "the resumption section was last updated at 2026-03-01T11:00:00Z \
              (resumption.recovery_state.updated_at), before the newest checkpoint cx-004 at \
              2026-03-01T11:35:00Z: its recovery fields may predate the last compaction"
            ]
        );
        let warning = p
            .diagnostics
            .iter()
            .find(|d| d.message.contains("newest checkpoint cx-004"))
            .unwrap();
        assert_eq!(warning.line, Some(5), "located at updated_at");
    }

    #[test]
    fn attached_checkpoints_count_and_a_second_call_replaces_the_first() {
        let mut p = normalize_orchestration("w/ORCHESTRATION.yaml", "w", SECTION);
        assert!(p.summary.contradictions.is_empty());
        p.checkpoints = vec![checkpoint("cx-001", "2026-03-01T10:30:00Z")];
        note_resumption_behind(&mut p);
        assert!(p.summary.contradictions.is_empty(), "an older checkpoint");
        p.checkpoints
            .push(checkpoint("cx-002", "2026-03-01T11:30:00Z"));
        note_resumption_behind(&mut p);
        note_resumption_behind(&mut p);
        assert_eq!(p.summary.contradictions.len(), 1);
        assert!(p.summary.contradictions[0].contains("cx-002 at 2026-03-01T11:30:00Z"));
        let said = |p: &Project| {
            p.diagnostics
                .iter()
                .filter(|d| d.message.contains(OPENING))
                .count()
        };
        assert_eq!(said(&p), 1);
        p.checkpoints.pop();
        note_resumption_behind(&mut p);
        assert!(p.summary.contradictions.is_empty());
        assert_eq!(said(&p), 0);
    }

    #[test]
    fn a_date_counts_to_the_end_of_its_day_and_no_section_no_sentence() {
        let text = SECTION.replace("'2026-03-01T11:00:00Z'", "'2026-03-01'");
        let mut p = normalize_orchestration("w/ORCHESTRATION.yaml", "w", &text);
        p.checkpoints = vec![checkpoint("cx-002", "2026-03-01T23:00:00Z")];
        note_resumption_behind(&mut p);
        assert!(p.summary.contradictions.is_empty());
        p.checkpoints = vec![checkpoint("cx-003", "2026-03-02T08:00:00Z")];
        note_resumption_behind(&mut p);
        assert_eq!(p.summary.contradictions.len(), 1);
        let mut none = normalize_orchestration(
            "w/ORCHESTRATION.yaml",
            "w",
            "workflow: {id: w, updated_at: '2026-03-01T11:00:00Z'}\n",
        );
        none.checkpoints = vec![checkpoint("cx-003", "2026-03-02T08:00:00Z")];
        note_resumption_behind(&mut none);
        assert!(
            none.summary.contradictions.is_empty(),
            "no resumption section"
        );
    }
}
