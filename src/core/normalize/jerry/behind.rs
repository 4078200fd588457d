//! A resumption section older than the newest checkpoint of its workflow: the
//! recovery fields were written before the last compaction, so the checkpoint
//! (or the compaction event the hook appended) knows more than they say. That is
//! the expected state right after a compaction, not a contradiction: the line
//! says what to do (merge the checkpoint, then acknowledge it) and goes to
//! `summary.behind`, never to `summary.contradictions`.
//!
//! Judged twice: when the file is read (its own `compaction_events`), and again
//! once the workspace has given the workflow its checkpoints
//! (`core::workspace`). The second call replaces the first's sentence.

use crate::core::model::{Diagnostic, Project};
use crate::core::time::{Timestamp, update_effective};

/// How the warning starts, for every line of `summary.behind`.
pub(crate) const WARNING_PREFIX: &str = "behind newer evidence: ";
/// What sets this module's line apart from the other `behind` lines.
const MARK: &str = "is newer than the resumption section (";

/// The line for `project`, when its resumption section's own `updated_at` is
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
    let newest = newest_checkpoint(project)?;
    (newest.at.0 > effective.0).then(|| {
        let what = match &newest.id {
            Some(id) => format!("checkpoint {id}"),
            None => "a compaction event".to_string(),
        };
        let todo = match (&newest.id, newest.acknowledged) {
            (Some(_), false) => "merge it, then acknowledge it",
            _ => "merge it into the resumption section",
        };
        format!(
            "{what} at {} {MARK}{key} {}): {todo}",
            newest.at.to_iso(),
            raw.map_or_else(|| updated.to_iso(), |r| r.trim().to_string()),
        )
    })
}

struct Newest {
    at: Timestamp,
    id: Option<String>,
    acknowledged: bool,
}

fn newest_checkpoint(project: &Project) -> Option<Newest> {
    let files = project.checkpoints.iter().filter_map(|c| {
        Some(Newest {
            at: c.created_at?,
            id: Some(c.id.clone()),
            acknowledged: c.acknowledged,
        })
    });
    let events = project
        .resumption
        .iter()
        .filter_map(|r| r.compaction.as_ref())
        .flat_map(|c| c.events.iter())
        .filter_map(|e| {
            Some(Newest {
                at: e.timestamp?,
                id: e.id.clone(),
                acknowledged: false,
            })
        });
    // A file and the event the hook appended for it name one checkpoint: the
    // file (which knows whether it is acknowledged) wins a tie.
    files
        .chain(events)
        .reduce(|a, b| if b.at.0 > a.at.0 { b } else { a })
}

/// Says (or stops saying) the line on the summary and as a warning, replacing
/// what an earlier call said. A warning it replaces keeps its line and column.
pub fn note_resumption_behind(project: &mut Project) {
    let sentence = resumption_behind(project);
    project.summary.behind.retain(|c| !c.contains(MARK));
    let earlier = project
        .diagnostics
        .iter()
        .position(|d| d.message.starts_with(WARNING_PREFIX) && d.message.contains(MARK));
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
    project.summary.behind.insert(0, sentence);
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
            p.summary.behind,
            [
                "checkpoint cx-004 at 2026-03-01T11:35:00Z is newer than the resumption \
                 section (resumption.recovery_state.updated_at 2026-03-01T11:00:00Z): merge it, \
                 then acknowledge it"
            ]
        );
        assert!(p.summary.contradictions.is_empty(), "not a contradiction");
        let warning = p
            .diagnostics
            .iter()
            .find(|d| d.message.contains("checkpoint cx-004 at"))
            .unwrap();
        assert_eq!(warning.line, Some(5), "located at updated_at");
    }

    #[test]
    fn attached_checkpoints_count_and_a_second_call_replaces_the_first() {
        let mut p = normalize_orchestration("w/ORCHESTRATION.yaml", "w", SECTION);
        assert!(p.summary.behind.is_empty());
        p.checkpoints = vec![checkpoint("cx-001", "2026-03-01T10:30:00Z")];
        note_resumption_behind(&mut p);
        assert!(p.summary.behind.is_empty(), "an older checkpoint");
        p.checkpoints
            .push(checkpoint("cx-002", "2026-03-01T11:30:00Z"));
        note_resumption_behind(&mut p);
        note_resumption_behind(&mut p);
        assert_eq!(p.summary.behind.len(), 1);
        assert!(p.summary.behind[0].starts_with("checkpoint cx-002 at 2026-03-01T11:30:00Z"));
        let said = |p: &Project| {
            p.diagnostics
                .iter()
                .filter(|d| d.message.contains(MARK))
                .count()
        };
        assert_eq!(said(&p), 1);
        p.checkpoints.pop();
        note_resumption_behind(&mut p);
        assert!(p.summary.behind.is_empty());
        assert_eq!(said(&p), 0);
    }

    #[test]
    fn a_date_counts_to_the_end_of_its_day_and_no_section_no_sentence() {
        let text = SECTION.replace("'2026-03-01T11:00:00Z'", "'2026-03-01'");
        let mut p = normalize_orchestration("w/ORCHESTRATION.yaml", "w", &text);
        p.checkpoints = vec![checkpoint("cx-002", "2026-03-01T23:00:00Z")];
        note_resumption_behind(&mut p);
        assert!(p.summary.behind.is_empty());
        p.checkpoints = vec![checkpoint("cx-003", "2026-03-02T08:00:00Z")];
        note_resumption_behind(&mut p);
        assert_eq!(p.summary.behind.len(), 1);
        let mut none = normalize_orchestration(
            "w/ORCHESTRATION.yaml",
            "w",
            "workflow: {id: w, updated_at: '2026-03-01T11:00:00Z'}\n",
        );
        none.checkpoints = vec![checkpoint("cx-003", "2026-03-02T08:00:00Z")];
        note_resumption_behind(&mut none);
        assert!(none.summary.behind.is_empty(), "no resumption section");
    }
}
