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

/// Listed files looked up per project: a stat or more each, on every load and
/// every hook; a list of 40,000 entries cost PreCompact 120,000 stats. Past
/// this, `exists` stays unknown (`None`) and one note says so.
pub const MAX_LOOKED_UP: usize = 1_000;

/// Fills `exists` on the first [`MAX_LOOKED_UP`] listed files of `project` (and,
/// for Nexus, `resolved`) and returns warnings for paths that point outside the
/// workspace.
pub fn check_listed_files(root: &Path, project: &mut Project) {
    let Bases { fence, bases } = bases_of(project);
    let source = project.source.clone();
    let mut warnings = Vec::new();
    let mut looked_up = 0usize;
    let mut check = |path: &str, list: &str| -> Found {
        looked_up += 1;
        if looked_up > MAX_LOOKED_UP {
            return Found::Blank;
        }
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
        manifest.planning_files = planning_files(&root.join(&project.dir).join("01-planning"));
        super::nexus_decisions::read_into(root, project);
    }
    let listed = project
        .resumption
        .as_ref()
        .map_or(0, |r| r.files_to_read.iter().filter(|f| !f.note).count())
        + project
            .manifest
            .as_ref()
            .map_or(0, |m| m.files_to_load.len());
    if listed > MAX_LOOKED_UP {
        warnings.push(Diagnostic::info(
            source,
            format!(
                "{listed} files listed to read; only the first {MAX_LOOKED_UP} were looked up, \
                 whether the others exist is not known"
            ),
        ));
    }
    project.diagnostics.extend(warnings);
}

/// The most names of a build's `01-planning/` the loading sequence is given.
const MAX_PLANNING_FILES: usize = 200;

/// The file names in a build's `01-planning/` folder, sorted; `None` when it
/// cannot be listed (a manifest beside no such folder, a legacy `_resume.md`).
fn planning_files(folder: &Path) -> Option<Vec<String>> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| !t.is_dir()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .take(MAX_PLANNING_FILES)
        .collect();
    names.sort();
    Some(names)
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

    /// Issue 33 item 3: the stats a load makes are bounded, and what was not
    /// looked up is unknown (not missing), with a note.
    #[test]
    fn only_the_first_listed_files_are_looked_up() {
        use crate::core::model::{FileToRead, Resumption, Shape};
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "").unwrap();
        let mut project = Project::at(
            ProjectKind::Jerry,
            "w",
            "ORCHESTRATION.yaml",
            "",
            Shape::V2Nested,
        );
        let file = |path: &str| FileToRead {
            path: path.to_string(),
            ..FileToRead::default()
        };
        let mut files: Vec<FileToRead> = (0..MAX_LOOKED_UP + 5).map(|_| file("a.md")).collect();
        files.push(file("gone.md"));
        project.resumption = Some(Resumption {
            files_to_read: files,
            ..Resumption::default()
        });
        check_listed_files(dir.path(), &mut project);
        let files = &project.resumption.as_ref().unwrap().files_to_read;
        let known = files.iter().filter(|f| f.exists == Some(true)).count();
        assert_eq!(known, MAX_LOOKED_UP);
        assert!(files.iter().skip(MAX_LOOKED_UP).all(|f| f.exists.is_none()));
        let note = project
            .diagnostics
            .iter()
            .find(|d| d.message.contains("looked up"))
            .unwrap();
        assert!(
            note.message
                .starts_with("1006 files listed to read; only the first 1000"),
            "{}",
            note.message
        );
    }

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
