//! What `show` would leave unknown about a project, said by `validate` as notes
//! (docs/formats.md lists every key that was looked in).

use crate::core::model::{Diagnostic, Project, ProjectKind};

pub fn unknowns(project: &Project) -> Vec<Diagnostic> {
    if project.kind != ProjectKind::Jerry || project.shape == crate::core::model::Shape::Unreadable
    {
        return Vec::new();
    }
    let s = &project.summary;
    let mut notes = Vec::new();
    let mut say = |missing: bool, what: &str, places: &str| {
        if missing {
            notes.push(Diagnostic::info(
                project.source.clone(),
                format!(
                    "no {what} in any known key (looked in {places}); `show` leaves it unknown"
                ),
            ));
        }
    };
    say(
        s.phase.is_none(),
        "current phase",
        "resumption, workflow, the top level, state, orchestration, pipelines, phases",
    );
    say(
        s.status.is_none(),
        "workflow status",
        "resumption, workflow, the top level, meta, state, orchestration, pipelines",
    );
    say(
        s.updated_at_raw.is_none(),
        "last update",
        "resumption, workflow, the top level, meta, metadata, state, orchestration",
    );
    if let Some(raw) = s
        .updated_at_raw
        .as_deref()
        .filter(|_| s.updated_at.is_none())
    {
        notes.push(Diagnostic::info(
            project.source.clone(),
            format!(
                "the last update {raw:?} (at {}) is not a date; staleness cannot use it",
                s.sources.updated_at.as_deref().unwrap_or("?")
            ),
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::normalize::jerry::normalize_orchestration;

    #[test]
    fn every_unknown_is_said() {
        let p = normalize_orchestration("w/O.yaml", "w", "workflow: {id: w, last_updated: soon}\n");
        let messages: Vec<String> = unknowns(&p).into_iter().map(|d| d.message).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(
            messages[0].starts_with("no current phase in any known key (looked in resumption,")
        );
        assert!(messages[1].starts_with("no workflow status in any known key"));
        assert!(messages[2].contains("\"soon\" (at workflow.last_updated) is not a date"));
        let p = normalize_orchestration(
            "w/O.yaml",
            "w",
            "workflow: {id: w, status: ACTIVE, updated_at: '2026-01-01'}\npipelines: {a: {current_phase: 1}}\n",
        );
        assert!(unknowns(&p).is_empty());
    }
}
