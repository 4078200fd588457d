//! Live refresh: watches the workspace's folders (never single files: an atomic
//! replace swaps the inode and kills a file watch) with `notify` and
//! `notify-debouncer-full`, and reports changed paths relative to the root.
//!
//! What is watched comes from the loaded workspace (`plan`): each project's folder,
//! recursively, plus the folders between it and the root and the checkpoint
//! folders, without recursion (so a new project or checkpoint is seen without
//! watching every folder of a large repository). `affected` maps changed paths to
//! the projects to reload.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::RecursiveMode;
use notify::event::{AccessKind, AccessMode, EventKind, MetadataKind, ModifyKind};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::core::model::Workspace;

/// Events closer together than this are reported once.
pub const DEBOUNCE: Duration = Duration::from_millis(100);
/// How often the debouncer looks for settled events (its thread sleeps in between).
pub const TICK: Duration = Duration::from_millis(50);

/// A folder to watch, relative to the root (`""` is the root itself).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct WatchDir {
    pub rel: String,
    pub recursive: bool,
}

/// The folders to watch for `workspace`.
pub fn plan(workspace: &Workspace) -> Vec<WatchDir> {
    let mut recursive = BTreeSet::new();
    let mut flat = BTreeSet::from([String::new()]);
    for project in &workspace.projects {
        let dir = parent(&project.source);
        add_chain(&mut flat, &dir);
        if dir.is_empty() {
            flat.insert(dir);
        } else {
            recursive.insert(dir);
        }
        for cp in &project.checkpoints {
            add_chain(&mut flat, &parent(&cp.path));
        }
    }
    for cp in &workspace.unassigned_checkpoints {
        add_chain(&mut flat, &parent(&cp.path));
    }
    if let Some(pre) = &workspace.precompact {
        add_chain(&mut flat, &parent(&pre.path));
    }
    for state in &workspace.context_states {
        // Context state outside the root (`~/.jerry/local`) is not watched.
        if !state.path.starts_with('/') && !state.path.starts_with("..") {
            add_chain(&mut flat, &parent(&state.path));
        }
    }
    // A folder under a recursively watched one needs no watch of its own.
    let under = |dir: &str, set: &BTreeSet<String>| {
        set.iter()
            .any(|r| dir != r && dir.starts_with(&format!("{r}/")))
    };
    let nested: Vec<String> = recursive
        .iter()
        .filter(|d| under(d, &recursive))
        .cloned()
        .collect();
    for d in nested {
        recursive.remove(&d);
    }
    let covered = |dir: &str| recursive.contains(dir) || under(dir, &recursive);
    let mut out: Vec<WatchDir> = recursive
        .iter()
        .map(|rel| WatchDir {
            rel: rel.clone(),
            recursive: true,
        })
        .collect();
    out.extend(
        flat.into_iter()
            .filter(|d| !covered(d))
            .map(|rel| WatchDir {
                rel,
                recursive: false,
            }),
    );
    out.sort();
    out
}

fn parent(rel: &str) -> String {
    match rel.rsplit_once('/') {
        Some((dir, _)) => dir.to_string(),
        None => String::new(),
    }
}

/// `a/b/c` adds `a`, `a/b` and `a/b/c`.
fn add_chain(set: &mut BTreeSet<String>, dir: &str) {
    let mut acc = String::new();
    for part in dir.split('/').filter(|p| !p.is_empty()) {
        if !acc.is_empty() {
            acc.push('/');
        }
        acc.push_str(part);
        set.insert(acc.clone());
    }
}

/// What a set of changes asks to reload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reload {
    Nothing,
    /// Only these state files (root-relative `Project::source`) changed.
    Projects(Vec<String>),
    /// Something else changed (a checkpoint, a new folder, a listed file): reload all.
    All,
}

/// Maps root-relative changed paths to what must be reloaded.
pub fn affected(workspace: &Workspace, changed: &[String]) -> Reload {
    let relevant: Vec<&String> = changed.iter().filter(|p| !ignored(p)).collect();
    if relevant.is_empty() {
        return Reload::Nothing;
    }
    let mut sources = Vec::new();
    for path in relevant {
        match workspace.projects.iter().find(|p| &p.source == path) {
            Some(project) => {
                if !sources.contains(&project.source) {
                    sources.push(project.source.clone());
                }
            }
            None => return Reload::All,
        }
    }
    Reload::Projects(sources)
}

/// Paths whose changes never matter: the write path's lock files and temporaries,
/// editor swap and backup files, version control.
pub fn ignored(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    rel.split('/').any(|part| part == ".git")
        || name.ends_with(".lock")
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.starts_with(".#")
        || (name.starts_with('.') && name.contains(".tmp"))
        || name.starts_with(".tmp")
}

/// A running watcher. Dropping it stops watching.
pub struct Watcher {
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    root: PathBuf,
    watched: Vec<WatchDir>,
}

impl Watcher {
    /// Starts watching; `on_change` gets root-relative paths (or a problem) from
    /// the debouncer's thread.
    pub fn start(
        root: &Path,
        on_change: impl Fn(Result<Vec<String>, String>) + Send + 'static,
    ) -> Result<Watcher, String> {
        let base = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let strip = base.clone();
        let debouncer =
            new_debouncer(
                DEBOUNCE,
                Some(TICK),
                move |result: DebounceEventResult| match result {
                    Ok(events) => {
                        let mut paths: Vec<String> = events
                            .iter()
                            .filter(|e| changes_content(&e.kind))
                            .flat_map(|e| e.paths.iter())
                            .map(|p| relative(&strip, p))
                            .collect();
                        paths.sort();
                        paths.dedup();
                        if !paths.is_empty() {
                            on_change(Ok(paths));
                        }
                    }
                    Err(errors) => {
                        let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
                        on_change(Err(format!("watching files: {}", text.join("; "))));
                    }
                },
            )
            .map_err(|e| format!("watching {}: {e}", root.display()))?;
        Ok(Watcher {
            debouncer,
            root: base,
            watched: Vec::new(),
        })
    }

    /// Watches exactly the folders of `dirs` (adding and removing watches as needed).
    /// Folders that do not exist are skipped; the first failure is returned.
    pub fn set(&mut self, dirs: Vec<WatchDir>) -> Result<(), String> {
        let mut problem = None;
        for old in &self.watched {
            if !dirs.contains(old) {
                let _ = self.debouncer.unwatch(self.root.join(&old.rel));
            }
        }
        let mut now_watched = Vec::new();
        for dir in dirs {
            if self.watched.contains(&dir) {
                now_watched.push(dir);
                continue;
            }
            let path = self.root.join(&dir.rel);
            if !path.is_dir() {
                continue;
            }
            let mode = if dir.recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            match self.debouncer.watch(&path, mode) {
                Ok(()) => now_watched.push(dir),
                Err(e) => {
                    problem.get_or_insert(format!("watching {}: {e}", path.display()));
                }
            }
        }
        self.watched = now_watched;
        problem.map_or(Ok(()), Err)
    }

    pub fn watched(&self) -> &[WatchDir] {
        &self.watched
    }
}

/// Whether an event can change what a file says. Opening and reading are reported
/// too (inotify's IN_OPEN), and the loader's own reads must not trigger a reload.
pub fn changes_content(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Any | EventKind::Other => true,
        EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => false,
        EventKind::Modify(_) => true,
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
    }
}

fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{Project, ProjectKind, Shape};

    fn project(source: &str) -> Project {
        Project {
            kind: ProjectKind::Jerry,
            id: source.to_string(),
            name: None,
            project_ref: None,
            source: source.to_string(),
            dir: parent(source),
            shape: Shape::V2Nested,
            summary: Default::default(),
            resumption: None,
            manifest: None,
            trajectory: Default::default(),
            checkpoints: Vec::new(),
            staleness: Default::default(),
            diagnostics: Vec::new(),
            top_level_keys: Vec::new(),
        }
    }

    fn ws(sources: &[&str]) -> Workspace {
        Workspace {
            root: "/w".into(),
            projects: sources.iter().map(|s| project(s)).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn plan_watches_project_folders_recursively_and_their_parents_flat() {
        let plan = plan(&ws(&[
            "projects/PROJ-001/ORCHESTRATION.yaml",
            "projects/PROJ-001/sub/ORCHESTRATION.yaml",
            "02-projects/04-x/01-planning/resume-context.md",
        ]));
        let show: Vec<String> = plan
            .iter()
            .map(|d| format!("{}{}", d.rel, if d.recursive { " (r)" } else { "" }))
            .collect();
        assert_eq!(
            show,
            [
                "",
                "02-projects",
                "02-projects/04-x",
                "02-projects/04-x/01-planning (r)",
                "projects",
                "projects/PROJ-001 (r)",
            ]
        );
    }

    #[test]
    fn a_project_at_the_root_does_not_watch_the_whole_tree() {
        let plan = plan(&ws(&["ORCHESTRATION.yaml"]));
        assert_eq!(
            plan,
            [WatchDir {
                rel: String::new(),
                recursive: false
            }]
        );
    }

    #[test]
    fn changed_state_files_reload_only_their_projects() {
        let w = ws(&["a/ORCHESTRATION.yaml", "b/ORCHESTRATION.yaml"]);
        assert_eq!(
            affected(
                &w,
                &[
                    "b/ORCHESTRATION.yaml".into(),
                    "b/.ORCHESTRATION.yaml.lock".into()
                ]
            ),
            Reload::Projects(vec!["b/ORCHESTRATION.yaml".into()])
        );
        assert_eq!(
            affected(&w, &[".jerry/checkpoints/cx-004.json".into()]),
            Reload::All
        );
        assert_eq!(
            affected(&w, &["a/.git/index".into(), "a/x.swp".into()]),
            Reload::Nothing
        );
        assert_eq!(affected(&w, &[]), Reload::Nothing);
    }

    #[test]
    fn reports_a_write_in_a_watched_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("p")).unwrap();
        std::fs::write(dir.path().join("p/ORCHESTRATION.yaml"), "a: 1\n").unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let mut watcher = Watcher::start(dir.path(), move |r| {
            let _ = tx.send(r);
        })
        .unwrap();
        watcher.set(plan(&ws(&["p/ORCHESTRATION.yaml"]))).unwrap();
        assert_eq!(watcher.watched().len(), 2);
        // An atomic replace, as the write path and most editors do it.
        std::fs::write(dir.path().join("p/.new"), "a: 2\n").unwrap();
        std::fs::rename(
            dir.path().join("p/.new"),
            dir.path().join("p/ORCHESTRATION.yaml"),
        )
        .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let mut seen = Vec::new();
        while std::time::Instant::now() < deadline {
            if let Ok(Ok(paths)) = rx.recv_timeout(Duration::from_millis(200)) {
                seen.extend(paths);
                if seen.iter().any(|p| p == "p/ORCHESTRATION.yaml") {
                    return;
                }
            }
        }
        panic!("no change reported for p/ORCHESTRATION.yaml; saw {seen:?}");
    }

    #[test]
    fn reading_files_is_not_a_change() {
        assert!(!changes_content(&EventKind::Access(AccessKind::Open(
            notify::event::AccessMode::Any
        ))));
        assert!(!changes_content(&EventKind::Access(AccessKind::Close(
            AccessMode::Read
        ))));
        assert!(!changes_content(&EventKind::Modify(ModifyKind::Metadata(
            MetadataKind::AccessTime
        ))));
        assert!(changes_content(&EventKind::Access(AccessKind::Close(
            AccessMode::Write
        ))));
        assert!(changes_content(&EventKind::Modify(ModifyKind::Any)));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ORCHESTRATION.yaml"), "a: 1\n").unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let mut watcher = Watcher::start(dir.path(), move |r| {
            let _ = tx.send(r);
        })
        .unwrap();
        watcher.set(plan(&ws(&["ORCHESTRATION.yaml"]))).unwrap();
        for _ in 0..5 {
            std::fs::read_to_string(dir.path().join("ORCHESTRATION.yaml")).unwrap();
        }
        let got = rx.recv_timeout(DEBOUNCE * 5);
        assert!(got.is_err(), "reads were reported as changes: {got:?}");
    }
}
