//! Assembling a workspace from normalised files, and naming a project in it.

use std::cmp::Reverse;

use crate::core::model::{Checkpoint, Diagnostic, Project, ProjectKind};

mod aliases;
mod claim;
mod lookup;
mod strays;
mod tier;

pub use aliases::aliases;
pub use claim::{Claim, claim};
pub use lookup::{Candidate, LookupError, find_project};
pub use strays::{Excluded, Placement, is_archive_folder, may_be_active, placement};
pub use tier::{TierReading, last_tier, works_on};

/// Gives each checkpoint to the project whose id its `workflow_id` names; failing
/// that, to a Jerry project of the same repository that claims it (its compaction
/// events name the checkpoint, or the checkpoint's `resumption_state` names the
/// workflow; see [`claim`]). When several projects qualify, the strongest claim,
/// then the one nearest the checkpoint's `.jerry` folder, wins. Returns the
/// checkpoints no project claims.
pub fn assign_checkpoints(
    projects: &mut [Project],
    checkpoints: Vec<Checkpoint>,
) -> Vec<Checkpoint> {
    let mut unassigned = Vec::new();
    for checkpoint in checkpoints {
        let repo = checkpoint.path.split(".jerry/").next().unwrap_or_default();
        let nearest = |(i, p): &(usize, &Project)| (common_prefix(&p.source, repo), Reverse(*i));
        let by_workflow = checkpoint.workflow_id.as_deref().and_then(|wf| {
            projects
                .iter()
                .enumerate()
                .filter(|(_, p)| p.id == wf)
                .max_by_key(nearest)
                .map(|(i, _)| i)
        });
        let owner = by_workflow.or_else(|| {
            projects
                .iter()
                .enumerate()
                .filter_map(|(i, p)| claim(p, &checkpoint).map(|c| (c, (i, p))))
                .max_by_key(|(c, entry)| (*c, nearest(entry)))
                .map(|(_, (i, _))| i)
        });
        match owner.and_then(|i| projects.get_mut(i)) {
            Some(project) => project.checkpoints.push(checkpoint),
            None => unassigned.push(checkpoint),
        }
    }
    sort_checkpoints(projects);
    unassigned
}

/// For a whole workspace, after [`assign_checkpoints`]: each checkpoint no
/// project claimed goes to the only Jerry workflow of its repository, else to the
/// only one whose folder its listed files lie in. Returns those still
/// unattributed (listed as not tied to a project, never hidden).
pub fn attribute_unclaimed(
    projects: &mut [Project],
    unclaimed: Vec<Checkpoint>,
) -> Vec<Checkpoint> {
    let mut left = Vec::new();
    for checkpoint in unclaimed {
        match claim::fallback_owner(projects, &checkpoint).and_then(|i| projects.get_mut(i)) {
            Some(project) => project.checkpoints.push(checkpoint),
            None => left.push(checkpoint),
        }
    }
    sort_checkpoints(projects);
    left
}

/// For projects re-read one by one (the dashboard's reload of a changed file):
/// `unclaimed` are the checkpoints the reload read that its project does not
/// claim. Those no other project holds are attributed by [`attribute_unclaimed`],
/// the rule of a full load; `unassigned` (the workspace's list) keeps the rest,
/// once each, and loses those now held.
pub fn attribute_reloaded(
    projects: &mut [Project],
    unassigned: &mut Vec<Checkpoint>,
    unclaimed: Vec<Checkpoint>,
) {
    let held = |projects: &[Project], path: &str| {
        projects
            .iter()
            .any(|p| p.checkpoints.iter().any(|c| c.path == path))
    };
    let free: Vec<Checkpoint> = unclaimed
        .into_iter()
        .filter(|c| !held(projects, &c.path))
        .collect();
    let left = attribute_unclaimed(projects, free);
    unassigned.retain(|c| !held(projects, &c.path));
    for checkpoint in left {
        match unassigned.iter_mut().find(|c| c.path == checkpoint.path) {
            Some(slot) => *slot = checkpoint,
            None => unassigned.push(checkpoint),
        }
    }
}

/// Orders each project's checkpoints and says again whether its resumption
/// section is older than the newest of them.
fn sort_checkpoints(projects: &mut [Project]) {
    for project in projects.iter_mut() {
        project
            .checkpoints
            .sort_by(|a, b| (a.number, &a.id).cmp(&(b.number, &b.id)));
        if project.kind == ProjectKind::Jerry {
            crate::core::normalize::jerry::note_resumption_behind(project);
        }
    }
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// Makes project ids unique. Projects are taken in source order; the first keeps its
/// id, later ones get `@` and the first folder where their path differs from the
/// first's (then a number if that is taken too), with a warning saying so.
pub fn make_ids_unique(projects: &mut [Project]) {
    let mut order: Vec<usize> = (0..projects.len()).collect();
    order.sort_by(|a, b| {
        let key = |i: &usize| projects.get(*i).map(|p| (p.id.clone(), p.source.clone()));
        key(a).cmp(&key(b))
    });
    let mut taken: std::collections::HashSet<String> =
        projects.iter().map(|p| p.id.clone()).collect();
    let mut first: Option<(String, String)> = None;
    for index in order {
        let Some(project) = projects.get_mut(index) else {
            continue;
        };
        match &first {
            Some((id, source)) if *id == project.id => {
                let new_id = unique_id(&project.id, source, &project.source, &taken);
                taken.insert(new_id.clone());
                let what = match project.kind {
                    ProjectKind::Jerry => "workflow id",
                    ProjectKind::Nexus => "project id",
                };
                project.diagnostics.push(Diagnostic::warning(
                    project.source.clone(),
                    format!(
                        "{what} \"{id}\" is also used by {source}; this project is listed as \"{new_id}\""
                    ),
                ));
                project.id = new_id;
            }
            _ => first = Some((project.id.clone(), project.source.clone())),
        }
    }
}

fn unique_id(
    id: &str,
    first_source: &str,
    source: &str,
    taken: &std::collections::HashSet<String>,
) -> String {
    let differing = source
        .split('/')
        .zip(first_source.split('/').chain(std::iter::repeat("")))
        .find(|(a, b)| a != b)
        .map(|(a, _)| a.trim_end_matches(".yaml").trim_end_matches(".md"))
        .filter(|part| !part.is_empty())
        .unwrap_or("copy");
    let base = format!("{id}@{differing}");
    let mut candidate = base.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{base}-{n}");
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests;
