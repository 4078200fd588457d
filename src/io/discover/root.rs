//! Which folder a hook serves: a workspace is found at the folder it starts in or
//! above it, never by searching below. A hook started where there is none writes
//! nothing and walks nothing.
//!
//! The nearest workspace wins; a folder above the start that another user owns or
//! others may write into is never one (`trust`). Claude Code started in a Jerry
//! project folder under `projects/` serves the repository's `.jerry/`. A folder
//! is a workspace root when it
//! holds, judged by a few `stat`s:
//! `ORCHESTRATION.yaml`; a `.jerry/` folder (what resume-tui and Jerry keep in a
//! workspace) unless all it holds is `local/` (Jerry's per-user state in
//! `~/.jerry/`); a Nexus `00-system/` beside
//! `02-projects/` or `02-builds/`; or a Jerry `projects/` folder one of whose first
//! entries is a Jerry project (`is_jerry_project`: its workflow file at the top or
//! in `orchestration/<workflow-id>/`, …); a `~/projects` of unrelated code is not.

use std::path::{Path, PathBuf};

/// How many entries of `projects/` or `.jerry/` are looked at.
const PEEK: usize = 64;

/// Whether `dir` is a workspace root by the rule above.
pub fn is_workspace_root(dir: &Path) -> bool {
    keeps_state(dir) || dir.join("ORCHESTRATION.yaml").is_file() || has_jerry_projects(dir)
}

/// Where a workspace keeps its state: a `.jerry/` folder or a Nexus root. Above a
/// folder with only a workflow file (a Jerry project folder), such a folder is
/// the workspace.
fn keeps_state(dir: &Path) -> bool {
    has_jerry_folder(dir) || is_nexus_root(dir)
}

/// A `.jerry/` folder that is not only Jerry's per-user `local/` state (all that
/// `~/.jerry/` holds): empty, or holding checkpoints, the monitor state, ….
fn has_jerry_folder(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir.join(".jerry")) else {
        return false;
    };
    let names: Vec<_> = entries
        .flatten()
        .take(PEEK)
        .map(|e| e.file_name())
        .collect();
    names.is_empty() || names.iter().any(|n| n != "local")
}

/// A Nexus workspace: `00-system/` with `02-projects/` or `02-builds/`.
pub fn is_nexus_root(dir: &Path) -> bool {
    dir.join("00-system").is_dir()
        && (dir.join("02-projects").is_dir() || dir.join("02-builds").is_dir())
}

fn has_jerry_projects(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir.join("projects")) else {
        return false;
    };
    entries
        .flatten()
        .take(PEEK)
        .any(|entry| is_jerry_project(&entry.path()))
}

/// A Jerry project folder: its workflow file at the top or one level into
/// `orchestration/` (`orchestration/<workflow-id>/ORCHESTRATION.yaml`, the nested
/// layout most real workflows use), or Jerry's `WORKTRACKER.md`, or a `PROJ-…`
/// folder with the `orchestration/` or `work/` tree Jerry keeps its workflows in.
fn is_jerry_project(project: &Path) -> bool {
    const WORKFLOW: &str = "ORCHESTRATION.yaml";
    if project.join(WORKFLOW).is_file() || project.join("WORKTRACKER.md").is_file() {
        return true;
    }
    let orchestration = project.join("orchestration");
    let named = project
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("PROJ-"));
    if named && (orchestration.is_dir() || project.join("work").is_dir()) {
        return true;
    }
    if orchestration.join(WORKFLOW).is_file() {
        return true;
    }
    std::fs::read_dir(&orchestration).is_ok_and(|workflows| {
        workflows
            .flatten()
            .take(PEEK)
            .any(|w| w.path().join(WORKFLOW).is_file())
    })
}

/// The workspace `start` is in: the nearest of `start` and its ancestors that is
/// a workspace root, where a folder above `start` counts only if it passes
/// `trust::distrust` (not another user's, not writable by others). One
/// exception keeps a Jerry repository whole: started in (or under) a project of
/// its `projects/` folder, the repository serves when it keeps state. The
/// search stops below `home` (a home folder found from below would claim every
/// project under it) and below `/`. `None` when there is none.
pub fn workspace_root(start: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let euid = super::trust::euid();
    let trusted: Vec<&Path> = candidates(start, home)
        .filter(|dir| *dir == start || super::trust::distrust(dir, euid).is_none())
        .collect();
    let nearest = trusted.iter().position(|dir| is_workspace_root(dir))?;
    let found = trusted.get(nearest)?;
    if keeps_state(found) {
        return Some(found.to_path_buf());
    }
    let repository = trusted
        .iter()
        .skip(nearest + 1)
        .find(|dir| found.starts_with(dir.join("projects")) && keeps_state(dir));
    Some(repository.unwrap_or(found).to_path_buf())
}

/// `start` and the folders above it a hook may serve, nearest first.
fn candidates<'a>(start: &'a Path, home: Option<&'a Path>) -> impl Iterator<Item = &'a Path> {
    let in_home = home.filter(|home| start.starts_with(home));
    std::iter::once(start).chain(start.ancestors().skip(1).take_while(move |dir| {
        dir.parent().is_some() && in_home.is_none_or(|home| *dir != home && dir.starts_with(home))
    }))
}

/// The folders at or above `start` that look like a workspace but are not one
/// to a hook, each with the reason (for `doctor`).
pub fn passed_over(start: &Path, home: Option<&Path>) -> Vec<(PathBuf, super::trust::Distrust)> {
    let euid = super::trust::euid();
    candidates(start, home)
        .skip(1)
        .filter(|dir| is_workspace_root(dir))
        .filter_map(|dir| Some((dir.to_path_buf(), super::trust::distrust(dir, euid)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mkdir(root: &Path, rel: &str) -> PathBuf {
        let dir = root.join(rel);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn found_at_the_start_or_above_never_below() {
        let tmp = tempfile::tempdir().unwrap();
        let home = mkdir(tmp.path(), "home");
        let repo = mkdir(&home, "code/repo");
        std::fs::create_dir_all(repo.join(".jerry/checkpoints")).unwrap();
        let deep = mkdir(&repo, "src/deep");
        assert_eq!(workspace_root(&repo, Some(&home)), Some(repo.clone()));
        assert_eq!(workspace_root(&deep, Some(&home)), Some(repo.clone()));
        // Below a folder is never a reason for it to be one.
        assert_eq!(workspace_root(&home, Some(&home)), None);
        assert_eq!(workspace_root(&home.join("code"), Some(&home)), None);
    }

    #[test]
    fn weak_signs_are_not_a_workspace() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        mkdir(home, ".jerry/local");
        mkdir(home, "projects/some-code");
        mkdir(home, "00-system");
        assert!(!is_workspace_root(home));
        std::fs::write(home.join("projects/some-code/ORCHESTRATION.yaml"), "x").unwrap();
        assert!(is_workspace_root(home));
        // The nested layout: projects/<project>/orchestration/<workflow>/.
        let nested = mkdir(home, "nested");
        let workflow = mkdir(&nested, "projects/code-x/orchestration/wf-001");
        assert!(!is_workspace_root(&nested));
        std::fs::write(workflow.join("ORCHESTRATION.yaml"), "x").unwrap();
        assert!(is_workspace_root(&nested));
        let tracked = mkdir(home, "tracked");
        mkdir(&tracked, "projects/PROJ-003-x/work/EPIC-1");
        assert!(is_workspace_root(&tracked), "a PROJ- folder with work/");
        let code = mkdir(home, "code");
        mkdir(&code, "projects/some-app/work");
        assert!(!is_workspace_root(&code), "work/ alone, not a PROJ- folder");
        let nexus = mkdir(home, "nexus");
        mkdir(&nexus, "00-system");
        mkdir(&nexus, "02-builds");
        assert!(is_nexus_root(&nexus));
        let inside = mkdir(&nexus, "02-builds/active/x");
        assert_eq!(workspace_root(&inside, None), Some(nexus));
    }

    /// An ancestor's `.jerry/` (even empty) no longer beats a nearer workflow
    /// file that is not one of its `projects/`.
    #[test]
    fn the_nearest_workspace_wins() {
        let tmp = tempfile::tempdir().unwrap();
        let outer = mkdir(tmp.path(), "outer");
        mkdir(&outer, ".jerry");
        let mine = mkdir(&outer, "b-project");
        std::fs::write(mine.join("ORCHESTRATION.yaml"), "x").unwrap();
        assert_eq!(workspace_root(&mine, None), Some(mine.clone()));
        let below = mkdir(&mine, "src");
        assert_eq!(workspace_root(&below, None), Some(mine));
    }

    /// A world-writable folder without the sticky bit is passed over, and
    /// `passed_over` says why; with the sticky bit and the `.jerry/` the user's
    /// own, it serves.
    #[test]
    fn a_folder_others_may_write_into_is_never_a_workspace() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let shared = mkdir(tmp.path(), "shared");
        mkdir(&shared, ".jerry/checkpoints");
        let start = mkdir(&shared, "b-project/src");
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(workspace_root(&start, None), None);
        let over = passed_over(&start, None);
        assert_eq!(over.len(), 1, "{over:?}");
        assert!(matches!(
            over[0].1,
            super::super::trust::Distrust::SharedWritable(0o777)
        ));
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o770)).unwrap();
        assert_eq!(workspace_root(&start, None), None, "group-writable");
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        assert_eq!(workspace_root(&start, None), Some(shared.clone()));
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(workspace_root(&start, None), Some(shared));
    }

    #[test]
    fn a_folder_that_keeps_state_wins_over_a_nearer_workflow_file() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = mkdir(tmp.path(), "repo");
        let project = mkdir(&repo, "projects/PROJ-1");
        std::fs::write(project.join("ORCHESTRATION.yaml"), "x").unwrap();
        assert_eq!(workspace_root(&project, None), Some(project.clone()));
        mkdir(&repo, ".jerry/checkpoints");
        assert_eq!(workspace_root(&project, None), Some(repo));
    }
}
