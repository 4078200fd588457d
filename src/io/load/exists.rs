//! Do the files a project lists exist? Paths are resolved under the workspace root
//! only (for Nexus, under the Nexus workspace root): a path that is absolute, starts
//! with `~`, or climbs out with `..` is never looked up, and counts as missing with
//! a warning.

use std::path::Path;

use crate::core::model::{Diagnostic, Project, ProjectKind};

/// Where a listed path points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// Root-relative path, `/` separators, no `.` or `..`.
    Inside(String),
    Outside,
    Empty,
}

/// `path` resolved against `base` (root-relative), lexically.
pub fn resolve(base: &str, path: &str) -> Resolved {
    let path = path.trim().replace('\\', "/");
    if path.is_empty() {
        return Resolved::Empty;
    }
    let drive = path.as_bytes().get(1) == Some(&b':');
    if path.starts_with('/') || path.starts_with('~') || drive {
        return Resolved::Outside;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in base.split('/').chain(path.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Resolved::Outside;
                }
            }
            part => parts.push(part),
        }
    }
    Resolved::Inside(parts.join("/"))
}

/// The folders a Jerry project's `files_to_read` may be relative to, in order: the
/// ORCHESTRATION.yaml's folder, the file's `paths.base` (relative to the
/// repository root), the repository root (the folder holding `projects/`), the
/// workspace root, and the project's `projects/<PROJ>` folder.
pub fn jerry_bases(project: &Project) -> Vec<String> {
    let dir = project.dir.as_str();
    let parts: Vec<&str> = dir.split('/').collect();
    let projects = parts.iter().position(|p| *p == "projects");
    let repo = projects
        .map(|i| parts.get(..i).unwrap_or_default().join("/"))
        .unwrap_or_default();
    let mut bases = vec![dir.to_string()];
    let declared = project
        .resumption
        .as_ref()
        .and_then(|r| r.paths_base.as_deref());
    if let Some(Resolved::Inside(base)) = declared.map(|b| resolve(&repo, b)) {
        bases.push(base);
    }
    bases.push(repo);
    bases.push(String::new());
    if let Some(i) = projects {
        bases.push(
            parts
                .get(..(i + 2).min(parts.len()))
                .unwrap_or_default()
                .join("/"),
        );
    }
    let mut unique = Vec::new();
    for base in bases {
        if !unique.contains(&base) {
            unique.push(base);
        }
    }
    unique
}

/// Folders of a Nexus workspace that hold projects; the folder holding them is the
/// Nexus workspace root.
const NEXUS_MARKERS: &[&str] = &["02-projects", "02-builds", "05-archived"];

/// Where a project's listed paths may be resolved: `fence`, a root-relative folder
/// no path may climb out of, and the `bases` (relative to the fence) tried in order.
struct Bases {
    fence: String,
    bases: Vec<String>,
}

/// A Nexus manifest lists paths relative to its project folder and relative to the
/// Nexus workspace root (the folder holding `02-projects/`, `02-builds/`,
/// `00-system/`), e.g. `00-system/skills/...`. Neither may leave that root.
fn nexus_bases(project: &Project) -> Bases {
    let parts: Vec<&str> = project.dir.split('/').collect();
    let split = parts
        .iter()
        .position(|p| NEXUS_MARKERS.contains(p))
        .unwrap_or(0);
    let fence = parts.get(..split).unwrap_or_default().join("/");
    let inside = parts.get(split..).unwrap_or_default().join("/");
    Bases {
        fence,
        bases: vec![inside, String::new()],
    }
}

fn bases_of(project: &Project) -> Bases {
    match project.kind {
        ProjectKind::Jerry => Bases {
            fence: String::new(),
            bases: jerry_bases(project),
        },
        ProjectKind::Nexus => nexus_bases(project),
    }
}

/// What checking one listed path found.
enum Found {
    /// Root-relative path of the existing file.
    At(String),
    Missing,
    /// Empty entry: nothing to check.
    Blank,
}

/// Fills `exists` on every listed file of `project` (and, for Nexus, `resolved`)
/// and returns warnings for paths that point outside the workspace.
pub fn check_listed_files(root: &Path, project: &mut Project) {
    let Bases { fence, bases } = bases_of(project);
    let source = project.source.clone();
    let mut warnings = Vec::new();
    let mut check = |path: &str, list: &str| -> Found {
        let mut inside_somewhere = false;
        for base in &bases {
            match resolve(base, path) {
                Resolved::Empty => return Found::Blank,
                Resolved::Outside => {}
                Resolved::Inside(rel) => {
                    inside_somewhere = true;
                    let rel = join(&fence, &rel);
                    if rel.is_empty() || root.join(&rel).exists() {
                        return Found::At(rel);
                    }
                }
            }
        }
        if !inside_somewhere {
            warnings.push(Diagnostic::warning(
                source.clone(),
                format!("{list} entry \"{path}\" points outside the workspace; it is not checked"),
            ));
        }
        Found::Missing
    };
    let looked_in: Vec<String> = bases
        .iter()
        .map(|b| match join(&fence, b) {
            b if b.is_empty() => ".".to_string(),
            b => b,
        })
        .collect();
    if let Some(resumption) = &mut project.resumption {
        for file in resumption.files_to_read.iter_mut().filter(|f| !f.note) {
            (file.exists, file.resolved, file.looked_in) = match check(&file.path, "files_to_read")
            {
                Found::At(rel) => (Some(true), Some(rel), Vec::new()),
                Found::Missing => (Some(false), None, looked_in.clone()),
                Found::Blank => (None, None, Vec::new()),
            };
        }
    }
    // The plan `files_to_read` does not name: the state file's sibling.
    if let Some(plan) = &mut project.summary.sibling_plan {
        let found = root.join(&plan.path).is_file();
        plan.exists = Some(found);
        plan.resolved = found.then(|| plan.path.clone());
    }
    if let Some(manifest) = &mut project.manifest {
        for file in &mut manifest.files_to_load {
            (file.exists, file.resolved) = match check(&file.path, "files_to_load") {
                Found::At(rel) => (Some(true), Some(rel)),
                Found::Missing => (Some(false), None),
                Found::Blank => (None, None),
            };
        }
    }
    project.diagnostics.extend(warnings);
}

fn join(fence: &str, rel: &str) -> String {
    match (fence.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_string(),
        (false, true) => fence.to_string(),
        (false, false) => format!("{fence}/{rel}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_lexically_and_never_leaves_the_root() {
        let inside = |s: &str| Resolved::Inside(s.to_string());
        let cases = [
            ("p", "a.md", inside("p/a.md")),
            ("p", "./a/../b.md", inside("p/b.md")),
            ("p/q", "../a.md", inside("p/a.md")),
            ("", "a/b/", inside("a/b")),
            ("p", "..", inside("")),
            ("p", "../../a.md", Resolved::Outside),
            ("", "../a.md", Resolved::Outside),
            ("p", "/etc/passwd", Resolved::Outside),
            ("p", "~/.jerry/x", Resolved::Outside),
            ("p", "C:\\x", Resolved::Outside),
            ("p", "a\\b.md", inside("p/a/b.md")),
            ("p", "  ", Resolved::Empty),
        ];
        for (base, path, expected) in cases {
            assert_eq!(resolve(base, path), expected, "{base} + {path}");
        }
    }
}
