//! Naming a project the way its owner does: its id, its path, any of its
//! [`aliases`], in any letter case, or a unique prefix of any of these.

use std::fmt;

use super::aliases::aliases;
use crate::core::model::{Project, Workspace};
use crate::core::time::Timestamp;

/// Why a project name did not pick exactly one project.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    #[error(
        "\"{name}\" matches {} projects (newest first); name one of them as its line starts (its id, or its path where others share the id):\n{}",
        candidates.len(),
        lines(candidates)
    )]
    Ambiguous {
        name: String,
        candidates: Vec<Candidate>,
    },
    #[error("no project \"{name}\"{}", suggestion(close))]
    NotFound { name: String, close: Vec<String> },
}

/// One project a name could mean, as the ambiguity message lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub id: String,
    /// What names this project alone: its id, or its state file's path when
    /// other workflows share the id (they got an `id@folder` suffix).
    pub handle: String,
    pub name: Option<String>,
    pub status: Option<String>,
    pub updated_at: Option<Timestamp>,
}

impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dash = |v: Option<&str>| v.unwrap_or("-").to_string();
        let updated = self.updated_at.map(Timestamp::to_iso);
        write!(f, "  {}", self.handle)?;
        if self.handle != self.id {
            write!(f, "  ·  {}", self.id)?;
        }
        write!(
            f,
            "  ·  {}  ·  {}  ·  updated {}",
            dash(self.name.as_deref()),
            dash(self.status.as_deref()),
            dash(updated.as_deref())
        )
    }
}

fn lines(candidates: &[Candidate]) -> String {
    let all: Vec<String> = candidates.iter().map(ToString::to_string).collect();
    all.join("\n")
}

fn suggestion(close: &[String]) -> String {
    if close.is_empty() {
        "; `resume-tui list` shows every project".to_string()
    } else {
        format!("; did you mean {}?", close.join(", "))
    }
}

/// A project with its aliases in lower case, and a test of one lookup step.
type Named<'a> = (&'a Project, Vec<String>);
type Step<'s> = dyn Fn(&Named) -> bool + 's;

/// Finds the project `name` refers to, trying in turn: its exact id; its path
/// (state file or folder, relative to the root or starting with it); an id or
/// alias in any letter case (a work-item folder such as `FEAT-023` names every
/// workflow in it); a bare number, the folders it numbers; a unique
/// case-insensitive prefix of an id or alias (never for a bare number).
/// A step that matches several projects ends the search with all of them.
pub fn find_project<'a>(ws: &'a Workspace, name: &str) -> Result<&'a Project, LookupError> {
    let name = name.trim();
    // Two workflows with one id (the second got an `id@folder` suffix): both are
    // candidates, never a silent pick of the first.
    let same_id = with_id(ws, name);
    if same_id.iter().any(|p| p.id == name)
        && let Some(found) = one(ws, same_id, name)?
    {
        return Ok(found);
    }
    let path = as_relative_path(&ws.root, name);
    let lower = name.to_lowercase();
    let named: Vec<Named> = ws
        .projects
        .iter()
        .map(|p| (p, aliases(p).iter().map(|a| a.to_lowercase()).collect()))
        .collect();
    // A bare number names only the folders it numbers: `3` is `03-…` or `3-…`,
    // never `34-…` (the prefix step is not tried for a number).
    let number = lower
        .parse::<u64>()
        .ok()
        .filter(|_| lower.chars().all(|c| c.is_ascii_digit()));
    let numbered = |alias: &String| {
        let digits: String = alias.chars().take_while(char::is_ascii_digit).collect();
        let rest = alias.get(digits.len()..).unwrap_or_default();
        (rest.is_empty() || rest.starts_with(['-', '_']))
            && number.is_some_and(|n| digits.parse::<u64>().ok() == Some(n))
    };
    let steps: [&Step; 4] = [
        &|(p, _)| p.source == path || (!path.is_empty() && p.dir == path),
        &|(_, names)| names.contains(&lower),
        &|(_, names)| names.iter().any(numbered),
        &|(_, names)| {
            number.is_none() && !lower.is_empty() && names.iter().any(|a| a.starts_with(&lower))
        },
    ];
    for step in steps {
        let matches: Vec<&Project> = named.iter().filter(|n| step(n)).map(|(p, _)| *p).collect();
        if let Some(found) = one(ws, matches, name)? {
            return Ok(found);
        }
    }
    Err(LookupError::NotFound {
        name: name.to_string(),
        close: close_ids(ws, &lower),
    })
}

/// The projects `id` is the id of: its own, and those that got an `id@folder` suffix.
fn with_id<'a>(ws: &'a Workspace, id: &str) -> Vec<&'a Project> {
    ws.projects
        .iter()
        .filter(|p| p.id == id || p.id.strip_prefix(id).is_some_and(|r| r.starts_with('@')))
        .collect()
}

/// `project`'s id when it names that project alone, else its state file's path.
fn handle(ws: &Workspace, project: &Project) -> String {
    match with_id(ws, &project.id).as_slice() {
        [only] if std::ptr::eq(*only, project) => project.id.clone(),
        _ => project.source.clone(),
    }
}

fn one<'a>(
    ws: &Workspace,
    matches: Vec<&'a Project>,
    name: &str,
) -> Result<Option<&'a Project>, LookupError> {
    match matches.as_slice() {
        [] => Ok(None),
        [only] => Ok(Some(only)),
        many => {
            let mut candidates: Vec<Candidate> = many
                .iter()
                .map(|p| Candidate {
                    id: p.id.clone(),
                    handle: handle(ws, p),
                    name: p.name.clone(),
                    status: p.summary.status.clone(),
                    updated_at: p.summary.updated_at,
                })
                .collect();
            candidates.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then(a.id.cmp(&b.id)));
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
