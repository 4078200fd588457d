//! Assembling a workspace from normalised files, and naming a project in it.

use std::cmp::Reverse;

use crate::core::model::{Checkpoint, Diagnostic, Project, ProjectKind};

mod aliases;
mod claim;
mod lookup;
mod strays;
mod tier;

pub use aliases::{aliases, is_generic_folder};
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
        match claimant(projects, &checkpoint).and_then(|i| projects.get_mut(i)) {
            Some(project) => project.checkpoints.push(checkpoint),
            None => unassigned.push(checkpoint),
        }
    }
    sort_checkpoints(projects);
    unassigned
}

/// The project [`assign_checkpoints`] gives `checkpoint` to, if any.
fn claimant(projects: &[Project], checkpoint: &Checkpoint) -> Option<usize> {
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
    by_workflow.or_else(|| {
        projects
            .iter()
            .enumerate()
            .filter_map(|(i, p)| claim(p, checkpoint).map(|c| (c, (i, p))))
            .max_by_key(|(c, entry)| (*c, nearest(entry)))
            .map(|(_, (i, _))| i)
    })
}

/// One checkpoint file changed in a loaded workspace (the dashboard's live
/// refresh): the checkpoint at `path` leaves whichever project or the unassigned
/// list held it, and `now_read` (its new reading, `None` when the file is gone)
/// goes where a full load would put it: [`assign_checkpoints`], then
/// [`attribute_unclaimed`]'s rule, else `unassigned` (kept in path order, as a
/// load lists them). Returns the indices of the projects whose checkpoints changed
/// (their staleness is the caller's to assess again).
pub fn replace_checkpoint(
    projects: &mut [Project],
    unassigned: &mut Vec<Checkpoint>,
    path: &str,
    now_read: Option<Checkpoint>,
) -> Vec<usize> {
    let mut touched = Vec::new();
    for (i, project) in projects.iter_mut().enumerate() {
        let before = project.checkpoints.len();
        project.checkpoints.retain(|c| c.path != path);
        if project.checkpoints.len() != before {
            touched.push(i);
        }
    }
    unassigned.retain(|c| c.path != path);
    if let Some(checkpoint) = now_read {
        let owner = claimant(projects, &checkpoint)
            .or_else(|| claim::fallback_owner(projects, &checkpoint));
        match owner.and_then(|i| projects.get_mut(i).map(|p| (i, p))) {
            Some((i, project)) => {
                project.checkpoints.push(checkpoint);
                if !touched.contains(&i) {
                    touched.push(i);
                }
            }
            None => {
                let at = unassigned.partition_point(|c| c.path.as_str() < path);
                unassigned.insert(at, checkpoint);
            }
        }
    }
    for &i in &touched {
        if let Some(project) = projects.get_mut(i) {
            sort_checkpoints(std::slice::from_mut(project));
        }
    }
    touched
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
    let mut received = Vec::new();
    for checkpoint in unclaimed {
        let owner = claim::fallback_owner(projects, &checkpoint);
        match owner.and_then(|i| projects.get_mut(i).map(|p| (i, p))) {
            Some((i, project)) => {
                project.checkpoints.push(checkpoint);
                received.push(i);
            }
            None => left.push(checkpoint),
        }
    }
    // Only the projects given one change (the others were sorted and assessed
    // when their checkpoints were assigned).
    received.sort_unstable();
    received.dedup();
    for i in received {
        if let Some(project) = projects.get_mut(i) {
            sort_checkpoints(std::slice::from_mut(project));
        }
    }
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
    let held = |projects: &[Project]| -> std::collections::HashSet<String> {
        let all = projects.iter().flat_map(|p| &p.checkpoints);
        all.map(|c| c.path.clone()).collect()
    };
    let held_before = held(projects);
    let free: Vec<Checkpoint> = unclaimed
        .into_iter()
        .filter(|c| !held_before.contains(&c.path))
        .collect();
    let left = attribute_unclaimed(projects, free);
    let held_now = held(projects);
    unassigned.retain(|c| !held_now.contains(&c.path));
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
