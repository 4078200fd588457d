//! One order of urgency, for the dashboard's attention sort and `list`: the
//! projects with checkpoints waiting for the operator first, then CRITICAL (or a
//! session past the context fill's critical threshold), a session past the
//! warning threshold, then STALE, UNKNOWN and FRESH, each the latest update
//! first, then by id (docs/keybindings.md, "The order of urgency").

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::core::model::{Checkpoint, Project, Workspace};
use crate::core::staleness::StalenessLevel;

/// Checkpoints of the project still waiting for the operator: its own, plus
/// workflow-less ones (real Jerry) that its compaction events name.
pub fn waiting(project: &Project, unassigned: &[Checkpoint]) -> usize {
    Waiting::new(unassigned).of(project)
}

/// How full a project's session is against the configured thresholds
/// (`[context] warning`, `critical`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FillLevel {
    Below,
    Warning,
    Critical,
}

impl FillLevel {
    pub fn of(fill: Option<f64>, warning: f64, critical: f64) -> FillLevel {
        match fill {
            Some(f) if f >= critical => FillLevel::Critical,
            Some(f) if f >= warning => FillLevel::Warning,
            _ => FillLevel::Below,
        }
    }
}

/// What the order of urgency needs beyond a project's own file, prepared once
/// for many projects: the unacknowledged unassigned checkpoints counted once by
/// id (ignoring ASCII case), not once a project, and each project's session
/// fill level (`with_fills`; none without it).
#[derive(Debug, Default)]
pub struct Waiting {
    named: HashMap<String, usize>,
    fills: HashMap<String, FillLevel>,
}

impl Waiting {
    pub fn new(unassigned: &[Checkpoint]) -> Waiting {
        let mut named = HashMap::new();
        for cp in unassigned.iter().filter(|cp| !cp.acknowledged) {
            *named.entry(cp.id.to_ascii_lowercase()).or_insert(0) += 1;
        }
        Waiting {
            named,
            fills: HashMap::new(),
        }
    }

    /// Takes in the fill level of each project's session (`session_fill::fill`).
    pub fn with_fills(mut self, workspace: &Workspace, warning: f64, critical: f64) -> Waiting {
        for project in &workspace.projects {
            let fill = crate::core::session_fill::fill(workspace, project);
            let level = FillLevel::of(fill, warning, critical);
            if level != FillLevel::Below {
                self.fills.insert(project.id.clone(), level);
            }
        }
        self
    }

    /// The fill level of `project`'s session, as `with_fills` took it.
    pub fn fill_level(&self, project: &Project) -> FillLevel {
        self.fills
            .get(&project.id)
            .copied()
            .unwrap_or(FillLevel::Below)
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
        return 0;
    }
    match (project.staleness.level, waiting.fill_level(project)) {
        (StalenessLevel::Critical, _) | (_, FillLevel::Critical) => 1,
        (_, FillLevel::Warning) => 2,
        (StalenessLevel::Stale, _) => 3,
        (StalenessLevel::Unknown, _) => 4,
        (StalenessLevel::Fresh, _) => 5,
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

    fn session_at(ws: &mut Workspace, id: &str, fill: f64) -> Project {
        let mut p = project(id, StalenessLevel::Fresh, Some(50));
        p.summary.fill_at_update = Some(fill);
        ws.projects.push(p.clone());
        p
    }

    #[test]
    fn a_session_past_a_threshold_comes_up_the_order() {
        let mut ws = Workspace::default();
        let cool = session_at(&mut ws, "cool", 0.30);
        let warm = session_at(&mut ws, "warm", 0.65);
        let hot = session_at(&mut ws, "hot", 0.85);
        let stale = project("stale", StalenessLevel::Stale, Some(60));
        let critical = project("critical", StalenessLevel::Critical, Some(10));
        let waiting = Waiting::new(&[]).with_fills(&ws, 0.60, 0.80);
        assert_eq!(waiting.fill_level(&hot), FillLevel::Critical);
        assert_eq!(waiting.fill_level(&warm), FillLevel::Warning);
        assert_eq!(waiting.fill_level(&cool), FillLevel::Below);
        let mut all = [cool, stale, warm, critical, hot];
        all.sort_by(|a, b| compare(a, b, &waiting));
        let ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["hot", "critical", "warm", "stale", "cool"]);
        let without = Waiting::new(&[]);
        all.sort_by(|a, b| compare(a, b, &without));
        let ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["critical", "stale", "cool", "hot", "warm"]);
    }
}
