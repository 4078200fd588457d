//! Live refresh: watches the workspace's folders (never single files: an atomic
//! replace swaps the inode and kills a file watch) with `notify` and
//! `notify-debouncer-full`, and reports changed paths relative to the root.
//!
//! What is watched comes from the loads (`plan::Planner`, which says why); `affected`
//! maps changed paths to the projects to reload.

use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::RecursiveMode;
use notify::event::{AccessKind, AccessMode, EventKind, MetadataKind, ModifyKind};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::core::model::Workspace;

mod plan;
pub use plan::Planner;
#[cfg(test)]
use plan::plan;

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
    /// Each folder watched, with what it was when its watch was added.
    watched: Vec<(WatchDir, FolderId)>,
}

/// What [`Watcher::set`] did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SetOutcome {
    /// Folders watched now that were not watched before (new, or made again).
    pub added: Vec<String>,
    /// The first folder that could not be watched, and why.
    pub problem: Option<String>,
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
    /// Folders that do not exist are skipped. A folder deleted since it was watched
    /// took its watch with it: it is watched again once it exists again, even when
    /// it was deleted and made again between two calls.
    pub fn set(&mut self, dirs: Vec<WatchDir>) -> SetOutcome {
        let mut outcome = SetOutcome::default();
        let before = std::mem::take(&mut self.watched);
        for (old, _) in &before {
            if !dirs.contains(old) {
                let _ = self.debouncer.unwatch(self.root.join(&old.rel));
            }
        }
        for dir in dirs {
            let path = self.root.join(&dir.rel);
            let was = before.iter().find(|(d, _)| *d == dir).map(|(_, id)| *id);
            let Some(id) = folder_id(&path) else {
                if was.is_some() {
                    let _ = self.debouncer.unwatch(&path);
                }
                continue;
            };
            match was {
                Some(was) if was == id => {
                    self.watched.push((dir, id));
                    continue;
                }
                Some(_) => {
                    let _ = self.debouncer.unwatch(&path);
                }
                None => {}
            }
            let mode = if dir.recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            match self.debouncer.watch(&path, mode) {
                Ok(()) => {
                    outcome.added.push(dir.rel.clone());
                    self.watched.push((dir, id));
                }
                Err(e) => {
                    let problem = format!("watching {}: {e}", path.display());
                    outcome.problem.get_or_insert(problem);
                }
            }
        }
        outcome
    }

    pub fn watched(&self) -> Vec<&WatchDir> {
        self.watched.iter().map(|(dir, _)| dir).collect()
    }
}

/// Which folder a path names. A folder deleted and made again under the same name
/// is another one (its watch went with the old one), though it often gets the same
/// inode number back: its birth time tells them apart, where the file system keeps
/// one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FolderId {
    inode: (u64, u64),
    born: Option<std::time::SystemTime>,
}

/// The folder at `path`, or `None` when there is no folder there.
fn folder_id(path: &Path) -> Option<FolderId> {
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_dir())?;
    Some(FolderId {
        inode: inode(&meta),
        born: meta.created().ok(),
    })
}

#[cfg(unix)]
fn inode(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn inode(_: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
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

    pub(super) fn project(source: &str) -> Project {
        Project {
            kind: ProjectKind::Jerry,
            id: source.to_string(),
            name: None,
            project_ref: None,
            source: source.to_string(),
            dir: source
                .rsplit_once('/')
                .map_or("", |(dir, _)| dir)
                .to_string(),
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

    pub(super) fn ws(sources: &[&str]) -> Workspace {
        Workspace {
            root: "/w".into(),
            projects: sources.iter().map(|s| project(s)).collect(),
            ..Default::default()
        }
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
        let outcome = watcher.set(plan(&ws(&["p/ORCHESTRATION.yaml"]), &[]));
        assert_eq!(outcome.problem, None);
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
    fn a_folder_deleted_and_made_again_is_watched_again() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p");
        std::fs::create_dir(&p).unwrap();
        let mut watcher = Watcher::start(dir.path(), |_| {}).unwrap();
        let wanted = || plan(&ws(&[]), &["p".to_string()]);
        assert_eq!(watcher.set(wanted()).added, ["", "p"]);
        assert_eq!(watcher.set(wanted()), SetOutcome::default(), "as it was");
        // Made again at once: the same name (and often the same inode number).
        std::fs::remove_dir(&p).unwrap();
        std::fs::create_dir(&p).unwrap();
        assert_eq!(watcher.set(wanted()).added, ["p"]);
        // Gone for a while: not watched, then watched again.
        std::fs::remove_dir(&p).unwrap();
        assert_eq!(watcher.set(wanted()), SetOutcome::default());
        assert_eq!(watcher.watched().len(), 1);
        std::fs::create_dir(&p).unwrap();
        assert_eq!(watcher.set(wanted()).added, ["p"]);
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
        assert_eq!(
            watcher.set(plan(&ws(&["ORCHESTRATION.yaml"]), &[])).problem,
            None
        );
        for _ in 0..5 {
            std::fs::read_to_string(dir.path().join("ORCHESTRATION.yaml")).unwrap();
        }
        let got = rx.recv_timeout(DEBOUNCE * 5);
        assert!(got.is_err(), "reads were reported as changes: {got:?}");
    }
}
