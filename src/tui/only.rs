//! The header's counts as filters: CRITICAL, STALE, unacknowledged checkpoints,
//! and each kind of project. One is on at a time (`F` cycles, a click picks).

use super::list::Waiting;
use crate::core::model::{Project, ProjectKind};
use crate::core::staleness::StalenessLevel;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Only {
    Critical,
    Stale,
    Unacknowledged,
    Jerry,
    Nexus,
}

impl Only {
    pub const ALL: [Only; 5] = [
        Only::Critical,
        Only::Stale,
        Only::Unacknowledged,
        Only::Jerry,
        Only::Nexus,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Only::Critical => "CRITICAL",
            Only::Stale => "STALE",
            Only::Unacknowledged => "unacknowledged",
            Only::Jerry => "Jerry",
            Only::Nexus => "Nexus",
        }
    }

    pub fn matches(self, project: &Project, waiting: &Waiting) -> bool {
        match self {
            Only::Critical => project.staleness.level == StalenessLevel::Critical,
            Only::Stale => project.staleness.level == StalenessLevel::Stale,
            Only::Unacknowledged => waiting.of(project) > 0,
            Only::Jerry => project.kind == ProjectKind::Jerry,
            Only::Nexus => project.kind == ProjectKind::Nexus,
        }
    }

    /// The next filter of `F`: none, each in turn, none again.
    pub fn cycle(current: Option<Only>) -> Option<Only> {
        match current {
            None => Only::ALL.first().copied(),
            Some(only) => {
                let i = Only::ALL.iter().position(|o| *o == only).unwrap_or(0);
                Only::ALL.get(i + 1).copied()
            }
        }
    }
}

/// How many projects each filter would show, in `Only::ALL` order, by a pass
/// over every project: what `list_change::Tally` keeps, for the tests to hold
/// it to.
#[cfg(test)]
pub fn counts(
    projects: &[Project],
    unassigned: &[crate::core::model::Checkpoint],
) -> Vec<(Only, usize)> {
    let waiting = Waiting::new(unassigned);
    Only::ALL
        .iter()
        .map(|only| {
            let n = projects
                .iter()
                .filter(|p| only.matches(p, &waiting))
                .count();
            (*only, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycling_visits_each_filter_then_none() {
        let mut seen = Vec::new();
        let mut at = Only::cycle(None);
        while let Some(only) = at {
            seen.push(only);
            at = Only::cycle(at);
        }
        assert_eq!(seen, Only::ALL);
    }
}
