//! Assembling a workspace from normalised files, and naming a project in it.

use std::cmp::Reverse;

use crate::core::model::{Checkpoint, Diagnostic, Project, ProjectKind, Workspace};

mod claim;

pub use claim::{Claim, claim};

/// Why a project name did not pick exactly one project.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    #[error("\"{name}\" matches {} projects: {}; name one of them exactly", candidates.len(), candidates.join(", "))]
    Ambiguous {
        name: String,
        candidates: Vec<String>,
    },
    #[error("no project \"{name}\"{}", suggestion(close))]
    NotFound { name: String, close: Vec<String> },
}

fn suggestion(close: &[String]) -> String {
    if close.is_empty() {
        "; `resume-tui list` shows every project".to_string()
    } else {
        format!("; did you mean {}?", close.join(", "))
    }
}

/// Finds the project `name` refers to: its exact id, its path (state file or folder,
/// relative to the root or starting with the root), its id in any letter case, or a
/// unique case-insensitive prefix of its id.
pub fn find_project<'a>(ws: &'a Workspace, name: &str) -> Result<&'a Project, LookupError> {
    let name = name.trim();
    if let Some(project) = ws.projects.iter().find(|p| p.id == name) {
        return Ok(project);
    }
    let path = as_relative_path(&ws.root, name);
    let by_path: Vec<&Project> = ws
        .projects
        .iter()
        .filter(|p| p.source == path || (!path.is_empty() && p.dir == path))
        .collect();
    if let Some(found) = one(by_path, name)? {
        return Ok(found);
    }
    let lower = name.to_lowercase();
    let by_case: Vec<&Project> = ws
        .projects
        .iter()
        .filter(|p| p.id.to_lowercase() == lower)
        .collect();
    if let Some(found) = one(by_case, name)? {
        return Ok(found);
    }
    let by_prefix: Vec<&Project> = ws
        .projects
        .iter()
        .filter(|p| !lower.is_empty() && p.id.to_lowercase().starts_with(&lower))
        .collect();
    if let Some(found) = one(by_prefix, name)? {
        return Ok(found);
    }
    Err(LookupError::NotFound {
        name: name.to_string(),
        close: close_ids(ws, &lower),
    })
}

fn one<'a>(matches: Vec<&'a Project>, name: &str) -> Result<Option<&'a Project>, LookupError> {
    match matches.as_slice() {
        [] => Ok(None),
        [only] => Ok(Some(only)),
        many => {
            let mut candidates: Vec<String> = many.iter().map(|p| p.id.clone()).collect();
            candidates.sort();
            Err(LookupError::Ambiguous {
                name: name.to_string(),
                candidates,
            })
        }
    }
}

/// `name` as a root-relative path with `/` separators: `./` and a trailing `/` are
/// dropped, and so is the root when `name` starts with it.
fn as_relative_path(root: &str, name: &str) -> String {
    let name = name.replace('\\', "/");
    let root = root.replace('\\', "/");
    let root = root.trim_end_matches('/');
    let mut rel = name.as_str();
    if !root.is_empty()
        && let Some(rest) = rel.strip_prefix(root)
        && (rest.is_empty() || rest.starts_with('/'))
    {
        rel = rest.trim_start_matches('/');
    }
    while let Some(rest) = rel.strip_prefix("./") {
        rel = rest;
    }
    rel.trim_end_matches('/').to_string()
}

/// Up to five ids that contain `lower` or are a few edits away from it.
fn close_ids(ws: &Workspace, lower: &str) -> Vec<String> {
    let mut scored: Vec<(usize, &str)> = ws
        .projects
        .iter()
        .filter_map(|p| {
            let id = p.id.to_lowercase();
            let distance = if !lower.is_empty() && id.contains(lower) {
                0
            } else {
                edit_distance(&id, lower)
            };
            (distance <= (lower.chars().count() / 5).max(2)).then_some((distance, p.id.as_str()))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored
        .into_iter()
        .take(5)
        .map(|(_, id)| id.to_string())
        .collect()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous.get(j).copied().unwrap_or(0) + usize::from(ca != *cb);
            let delete = previous.get(j + 1).copied().unwrap_or(0) + 1;
            let insert = current.get(j).copied().unwrap_or(0) + 1;
            current.push(substitute.min(delete).min(insert));
        }
        previous = current;
    }
    previous.last().copied().unwrap_or(0)
}

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
    for project in projects.iter_mut() {
        project
            .checkpoints
            .sort_by(|a, b| (a.number, &a.id).cmp(&(b.number, &b.id)));
    }
    unassigned
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
