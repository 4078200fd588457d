//! The context tier Jerry last recorded (`context-state.json`: `last_tier`, no
//! fill), shown where no fill can be computed.

use crate::core::model::{ContextState, Project};

/// A recorded tier, and whether its session is one `project` records.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TierReading<'a> {
    pub state: &'a ContextState,
    pub tier: &'a str,
    /// The state's session worked on the project (a checkpoint's or the
    /// manifest's session id); otherwise the tier is the machine's last, of
    /// whatever session Jerry last saw.
    pub this_project: bool,
}

/// The newest-written state that records a tier but no fill, preferring one
/// whose session worked on `project`.
pub fn last_tier<'a>(states: &'a [ContextState], project: &Project) -> Option<TierReading<'a>> {
    states
        .iter()
        .filter(|s| !s.fill.is_some_and(f64::is_finite))
        .filter_map(|state| {
            let tier = state
                .level
                .as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())?;
            let this_project = state
                .session_id
                .as_deref()
                .is_some_and(|id| works_on(project, id));
            Some(TierReading {
                state,
                tier,
                this_project,
            })
        })
        .max_by_key(|r| (r.this_project, r.state.updated_at))
}

/// True when `project` records session `id` as one that worked on it.
pub fn works_on(project: &Project, id: &str) -> bool {
    project
        .checkpoints
        .iter()
        .any(|cp| cp.session_id.as_deref() == Some(id))
        || project
            .manifest
            .as_ref()
            .is_some_and(|m| m.session_ids.iter().any(|s| s == id))
}

impl TierReading<'_> {
    /// One line: `CRITICAL (Jerry's last tier, ~/.jerry/local/context-state.json,
    /// session abc; no fill recorded)`.
    pub fn describe(&self) -> String {
        let session = match (&self.state.session_id, self.this_project) {
            (Some(id), true) => format!(", session {id} of this project"),
            (Some(id), false) => format!(", session {id}, not one this project records"),
            (None, _) => String::new(),
        };
        format!(
            "{} (the last tier Jerry recorded, in {}{session}; no fill can be computed)",
            self.tier.to_uppercase(),
            self.state.path
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{NexusManifest, ProjectKind, Shape, Summary};

    fn project(sessions: &[&str]) -> Project {
        Project {
            kind: ProjectKind::Jerry,
            id: "wf".into(),
            name: None,
            project_ref: None,
            source: "ORCHESTRATION.yaml".into(),
            dir: String::new(),
            shape: Shape::None,
            summary: Summary::default(),
            resumption: None,
            manifest: Some(NexusManifest {
                session_ids: sessions.iter().map(|s| (*s).to_string()).collect(),
                ..NexusManifest::default()
            }),
            trajectory: Default::default(),
            checkpoints: Vec::new(),
            staleness: Default::default(),
            diagnostics: Vec::new(),
            top_level_keys: Vec::new(),
        }
    }

    fn state(path: &str, fill: Option<f64>, tier: Option<&str>, session: &str) -> ContextState {
        ContextState {
            path: path.into(),
            fill,
            level: tier.map(str::to_string),
            session_id: Some(session.into()),
            ..ContextState::default()
        }
    }

    #[test]
    fn a_tier_without_fill_is_read_and_tied_to_its_session() {
        let states = [
            state(
                ".jerry/context-monitor-state.json",
                Some(0.5),
                Some("LOW"),
                "s1",
            ),
            state(
                "/h/.jerry/local/context-state.json",
                None,
                Some("critical"),
                "s1",
            ),
        ];
        let reading = last_tier(&states, &project(&["s1"])).unwrap();
        assert_eq!((reading.tier, reading.this_project), ("critical", true));
        assert!(
            reading
                .describe()
                .starts_with("CRITICAL (the last tier Jerry recorded")
        );
        let other = last_tier(&states, &project(&["s9"])).unwrap();
        assert!(!other.this_project);
        assert!(other.describe().contains("not one this project records"));
        let none = [state("x.json", None, None, "s1")];
        assert!(last_tier(&none, &project(&[])).is_none());
    }
}
