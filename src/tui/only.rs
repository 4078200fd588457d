//! The header's counts as filters: CRITICAL, STALE, unacknowledged checkpoints,
//! the projects not COMPLETE, and each kind of project. One is on at a time (`F`
//! cycles, skipping a filter that would show no project or every one; a click
//! on a count picks).

use super::list::Waiting;
use crate::core::model::{Project, ProjectKind};
use crate::core::staleness::StalenessLevel;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Only {
    Critical,
    Stale,
    Unacknowledged,
    /// Hides the COMPLETE (COMPLETED, DONE) projects.
    Open,
    Jerry,
    Nexus,
}

impl Only {
    pub const ALL: [Only; 6] = [
        Only::Critical,
        Only::Stale,
        Only::Unacknowledged,
        Only::Open,
        Only::Jerry,
        Only::Nexus,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Only::Critical => "CRITICAL",
            Only::Stale => "STALE",
            Only::Unacknowledged => "unacknowledged",
            Only::Open => "not COMPLETE",
            Only::Jerry => "Jerry",
            Only::Nexus => "Nexus",
        }
    }

    pub fn matches(self, project: &Project, waiting: &Waiting) -> bool {
        match self {
            Only::Critical => project.staleness.level == StalenessLevel::Critical,
            Only::Stale => project.staleness.level == StalenessLevel::Stale,
            Only::Unacknowledged => waiting.of(project) > 0,
            Only::Open => !is_complete(project.summary.status.as_deref()),
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

/// The statuses the list marks `✓` (`view::badges::status`).
fn is_complete(status: Option<&str>) -> bool {
    status.is_some_and(|s| {
        ["COMPLETE", "COMPLETED", "DONE"]
            .iter()
            .any(|done| s.trim().eq_ignore_ascii_case(done))
    })
}

/// `F`: the next filter after `current` that shows some projects but not all
/// `total` of them (`counts`, in `Only::ALL` order), or none after the last;
/// with the filters passed over.
pub fn next_shown(
    current: Option<Only>,
    counts: &[(Only, usize)],
    total: usize,
) -> (Option<Only>, Vec<(Only, usize)>) {
    let mut skipped = Vec::new();
    let mut at = Only::cycle(current);
    while let Some(only) = at {
        let n = counts
            .iter()
            .find(|(o, _)| *o == only)
            .map_or(0, |(_, n)| *n);
        if n > 0 && n < total {
            break;
        }
        skipped.push((only, n));
        at = Only::cycle(at);
    }
    (at, skipped)
}

/// `F` on the model: the next filter worth showing, and the status bar says
/// which were passed over and why.
pub fn cycle(model: &mut super::model::Model) -> Vec<super::Effect> {
    let mut counts = model.tally.counts();
    let mut total = model.workspace.projects.len();
    // The `no project` row is a row of the list too, kept by some filters.
    let (loose, waiting) = super::loose::counts(model);
    if loose > 0 {
        total += 1;
        for (only, n) in &mut counts {
            *n += usize::from(super::loose::kept_by(*only, waiting));
        }
    }
    let (next, skipped) = next_shown(model.only, &counts, total);
    let effects = super::update::set_only(model, next);
    if !skipped.is_empty() {
        let why: Vec<String> = skipped
            .iter()
            .map(|(only, n)| {
                let what = if *n == 0 { "none" } else { "all" };
                format!("{} {what}", only.label())
            })
            .collect();
        let text = format!(
            "{}; skipped {}",
            model.status.as_ref().map_or("", |s| s.text.as_str()),
            why.join(", ")
        );
        model.set_status(super::model::StatusKind::Info, text);
    }
    effects
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

    #[test]
    fn f_skips_a_filter_that_shows_nothing_or_everything() {
        let counts = [
            (Only::Critical, 0),
            (Only::Stale, 3),
            (Only::Unacknowledged, 0),
            (Only::Open, 11),
            (Only::Jerry, 6),
            (Only::Nexus, 5),
        ];
        let (next, skipped) = next_shown(None, &counts, 11);
        assert_eq!(next, Some(Only::Stale));
        assert_eq!(skipped, [(Only::Critical, 0)]);
        let (next, skipped) = next_shown(next, &counts, 11);
        assert_eq!(next, Some(Only::Jerry));
        assert_eq!(skipped, [(Only::Unacknowledged, 0), (Only::Open, 11)]);
        let (next, _) = next_shown(Some(Only::Nexus), &counts, 11);
        assert_eq!(next, None);
        assert!(is_complete(Some(" complete ")) && is_complete(Some("DONE")));
        assert!(!is_complete(Some("ACTIVE")) && !is_complete(None));
    }
}
