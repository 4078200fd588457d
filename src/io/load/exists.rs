//! Do the files a project lists exist? Paths are resolved under the workspace root
//! only: a path that is absolute, starts with `~`, or climbs out with `..` is never
//! looked up, and counts as missing with a warning.

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
/// repository root (real files use repo-root-relative paths), the workspace root,
/// the project's `projects/<PROJ>` folder, and the ORCHESTRATION.yaml's folder.
pub fn jerry_bases(project: &Project) -> Vec<String> {
    let mut bases = Vec::new();
    let dir = project.dir.as_str();
    let parts: Vec<&str> = dir.split('/').collect();
    if let Some(i) = parts.iter().position(|p| *p == "projects") {
        let repo = parts.get(..i).unwrap_or_default().join("/");
        bases.push(repo);
        bases.push(String::new());
        bases.push(
            parts
                .get(..(i + 2).min(parts.len()))
                .unwrap_or_default()
                .join("/"),
        );
    } else {
        bases.push(String::new());
    }
    bases.push(dir.to_string());
    let mut unique = Vec::new();
    for base in bases {
        if !unique.contains(&base) {
            unique.push(base);
        }
    }
    unique
}

/// Fills `exists` on every listed file of `project` and returns warnings for paths
/// that point outside the workspace.
pub fn check_listed_files(root: &Path, project: &mut Project) {
    let bases = match project.kind {
        ProjectKind::Jerry => jerry_bases(project),
        ProjectKind::Nexus => vec![project.dir.clone()],
    };
    let source = project.source.clone();
    let mut warnings = Vec::new();
    let mut check = |path: &str, list: &str| -> Option<bool> {
        let mut inside_somewhere = false;
        for base in &bases {
            match resolve(base, path) {
                Resolved::Empty => return None,
                Resolved::Outside => {}
                Resolved::Inside(rel) => {
                    inside_somewhere = true;
                    if rel.is_empty() || root.join(&rel).exists() {
                        return Some(true);
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
        Some(false)
    };
    if let Some(resumption) = &mut project.resumption {
        for file in &mut resumption.files_to_read {
            file.exists = check(&file.path, "files_to_read");
        }
    }
    if let Some(manifest) = &mut project.manifest {
        for file in &mut manifest.files_to_load {
            file.exists = check(&file.path, "files_to_load");
        }
    }
    project.diagnostics.extend(warnings);
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
