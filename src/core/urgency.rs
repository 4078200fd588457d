//! One order of urgency, for the dashboard's attention sort and `list`: the
//! projects with checkpoints waiting for the operator first, then CRITICAL,
//! STALE, UNKNOWN and FRESH, each the latest update first, then by id
//! (docs/keybindings.md, "Sorts").

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::core::model::{Checkpoint, Project};
use crate::core::staleness::StalenessLevel;

/// Checkpoints of the project still waiting for the operator: its own, plus
/// workflow-less ones (real Jerry) that its compaction events name.
pub fn waiting(project: &Project, unassigned: &[Checkpoint]) -> usize {
    Waiting::new(unassigned).of(project)
}

/// `waiting` for many projects: the unacknowledged unassigned checkpoints
/// counted once by id (ignoring ASCII case), not once a project.
#[derive(Debug, Default)]
pub struct Waiting {
    named: HashMap<String, usize>,
}

impl Waiting {
    pub fn new(unassigned: &[Checkpoint]) -> Waiting {
        let mut named = HashMap::new();
        for cp in unassigned.iter().filter(|cp| !cp.acknowledged) {
            *named.entry(cp.id.to_ascii_lowercase()).or_insert(0) += 1;
        }
        Waiting { named }
    }

    /// How many checkpoints wait for `project`'s operator (see `waiting`).
    pub fn of(&self, project: &Project) -> usize {
        let own = project.unacknowledged_checkpoints().count();
        if self.named.is_empty() {
            return own;
        }
        let events = project
            .resumption
            .as_ref()
            .and_then(|r| r.compaction.as_ref())
            .map_or(&[][..], |c| c.events.as_slice());
        let mut ids: Vec<String> = events
            .iter()
            .filter_map(|e| e.id.as_deref())
            .map(str::to_ascii_lowercase)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        own + ids
            .iter()
            .filter_map(|id| self.named.get(id))
            .sum::<usize>()
    }
}

/// How urgently a project needs the operator: 0 first.
pub fn rank(project: &Project, waiting: &Waiting) -> u8 {
    if waiting.of(project) > 0 {
        0
    } else {
        match project.staleness.level {
            StalenessLevel::Critical => 1,
            StalenessLevel::Stale => 2,
            StalenessLevel::Unknown => 3,
            StalenessLevel::Fresh => 4,
        }
    }
}

/// The latest update first; never updated last.
pub fn newest_first(a: &Project, b: &Project) -> Ordering {
    b.summary.updated_at.cmp(&a.summary.updated_at)
}

/// The order of urgency: `rank`, then the latest update, then the id.
pub fn compare(a: &Project, b: &Project, waiting: &Waiting) -> Ordering {
    rank(a, waiting)
        .cmp(&rank(b, waiting))
        .then_with(|| newest_first(a, b))
        .then_with(|| a.id.cmp(&b.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{ProjectKind, Shape};
    use crate::core::time::Timestamp;

    fn project(id: &str, level: StalenessLevel, updated: Option<i64>) -> Project {
        let mut p = Project::at(ProjectKind::Jerry, id, id, "", Shape::None);
        p.staleness.level = level;
        p.summary.updated_at = updated.map(Timestamp);
        p
    }

    #[test]
    fn waiting_then_critical_stale_unknown_fresh_then_newest_then_id() {
        let waiting = Waiting::default();
        let rows = [
            project("fresh", StalenessLevel::Fresh, Some(50)),
            project("unknown", StalenessLevel::Unknown, None),
            project("stale-old", StalenessLevel::Stale, Some(10)),
            project("stale-new", StalenessLevel::Stale, Some(20)),
            project("critical", StalenessLevel::Critical, Some(1)),
            project("b-same", StalenessLevel::Fresh, Some(50)),
        ];
        let mut flagged = project("flagged-fresh", StalenessLevel::Fresh, Some(5));
        let text = r#"{"checkpoint_id": "cx-001", "created_at": "2026-02-20T12:00:00Z"}"#;
        let cp = crate::core::normalize::checkpoint::normalize_checkpoint(
            ".jerry/checkpoints/cx-001.json",
            text,
            false,
        )
        .unwrap();
        flagged.checkpoints.push(cp);
        let mut all: Vec<Project> = rows.to_vec();
        all.push(flagged);
        all.sort_by(|a, b| compare(a, b, &waiting));
        let ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "flagged-fresh",
                "critical",
                "stale-new",
                "stale-old",
                "unknown",
                "b-same",
                "fresh"
            ]
        );
    }
}
