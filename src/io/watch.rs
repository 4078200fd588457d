//! Live refresh: watches the workspace's folders (never single files: an atomic
//! replace swaps the inode and kills a file watch) with `notify`, and reports
//! changed paths relative to the root.
//!
//! Events are gathered on a thread of their own that blocks while nothing happens
//! (no timer, no polling): from the first event of a burst it waits until none
//! came for [`QUIET`] (a write and its rename, an editor's save), at most [`MOST`],
//! then reports the burst's paths at once.
//!
//! What is watched comes from the loads (`plan::Planner`, which says why); `affected`
//! maps changed paths to what to reload.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode, EventKind, MetadataKind, ModifyKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};

use crate::core::model::Workspace;

mod plan;
pub use plan::Planner;
#[cfg(test)]
use plan::plan;

/// A burst of events ends when none came for this long.
pub const QUIET: Duration = Duration::from_millis(15);
/// A burst is reported at the latest this long after its first event.
pub const MOST: Duration = Duration::from_millis(150);
/// Kept for the tests: a change is reported within this.
pub const DEBOUNCE: Duration = MOST;

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
    /// Only these state files (root-relative `Project::source`), live context
    /// records (`is_record`) and checkpoints changed.
    Parts {
        projects: Vec<String>,
        records: Vec<String>,
        /// Checkpoint files (made, changed, deleted, or their acknowledgement
        /// marker) in a folder whose checkpoints the workspace already holds.
        checkpoints: Vec<String>,
    },
    /// Something else changed (a new folder, a listed file, a checkpoint in a
    /// folder not known to hold any): reload all.
    All,
}

/// Maps root-relative changed paths to what must be reloaded. `is_record` tells
/// the live context records (read again alone, not with a full load).
pub fn affected(
    workspace: &Workspace,
    changed: &[String],
    is_record: impl Fn(&str) -> bool,
) -> Reload {
    let relevant: Vec<&String> = changed.iter().filter(|p| !ignored(p)).collect();
    if relevant.is_empty() {
        return Reload::Nothing;
    }
    let (mut projects, mut records, mut checkpoints) = (Vec::new(), Vec::new(), Vec::new());
    let mut known: Option<Vec<&str>> = None;
    for path in relevant {
        if let Some(project) = workspace.projects.iter().find(|p| &p.source == path) {
            if !projects.contains(&project.source) {
                projects.push(project.source.clone());
            }
        } else if is_record(path) {
            records.push(path.clone());
        } else {
            let known = known.get_or_insert_with(|| known_checkpoints(workspace));
            match checkpoint_changed(known, path) {
                Some(checkpoint) if !checkpoints.contains(&checkpoint) => {
                    checkpoints.push(checkpoint);
                }
                Some(_) => {}
                None => return Reload::All,
            }
        }
    }
    Reload::Parts {
        projects,
        records,
        checkpoints,
    }
}

/// The paths of the checkpoints the workspace holds, its projects' and the unassigned.
fn known_checkpoints(workspace: &Workspace) -> Vec<&str> {
    let held = workspace.projects.iter().flat_map(|p| &p.checkpoints);
    held.chain(&workspace.unassigned_checkpoints)
        .map(|c| c.path.as_str())
        .collect()
}

/// The checkpoint to read again for a changed `path`: the checkpoint file itself
/// when its folder holds checkpoints the workspace knows (so a load would find it
/// there too), or the known checkpoint an acknowledgement marker names.
fn checkpoint_changed(known: &[&str], path: &str) -> Option<String> {
    use crate::io::discover::{FileKind, classify};
    let (kind, _) = classify(path)?;
    let folder = |p: &str| p.rsplit_once('/').map(|(dir, _)| dir.to_string());
    match kind {
        FileKind::Checkpoint => {
            let dir = folder(path)?;
            let known_folder = known
                .iter()
                .any(|k| folder(k).as_deref() == Some(dir.as_str()));
            known_folder.then(|| path.to_string())
        }
        FileKind::CheckpointMarker => {
            crate::io::load::marked_checkpoint(path, known.iter().copied()).map(str::to_string)
        }
        _ => None,
    }
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

/// A running watcher. Dropping it stops watching (and its thread ends).
pub struct Watcher {
    inner: RecommendedWatcher,
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
    /// the watcher's own thread.
    pub fn start(
        root: &Path,
        on_change: impl Fn(Result<Vec<String>, String>) + Send + 'static,
    ) -> Result<Watcher, String> {
        let base = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let strip = base.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        let inner = notify::recommended_watcher(move |event| {
            let _ = tx.send(event);
        })
        .map_err(|e| format!("watching {}: {e}", root.display()))?;
        std::thread::Builder::new()
            .name("watch".into())
            .spawn(move || gather(&rx, &strip, &on_change))
            .map_err(|e| format!("watching {}: {e}", root.display()))?;
        Ok(Watcher {
            inner,
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
        let before: std::collections::BTreeMap<WatchDir, FolderId> =
            std::mem::take(&mut self.watched).into_iter().collect();
        let wanted: std::collections::BTreeSet<&WatchDir> = dirs.iter().collect();
        for old in before.keys() {
            if !wanted.contains(old) {
                let _ = self.inner.unwatch(&self.root.join(&old.rel));
            }
        }
        for dir in dirs {
            let path = self.root.join(&dir.rel);
            let was = before.get(&dir).copied();
            let Some(id) = folder_id(&path) else {
                if was.is_some() {
                    let _ = self.inner.unwatch(&path);
                }
                continue;
            };
            match was {
                Some(was) if was == id => {
                    self.watched.push((dir, id));
                    continue;
                }
                Some(_) => {
                    let _ = self.inner.unwatch(&path);
                }
                None => {}
            }
            let mode = if dir.recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            match self.inner.watch(&path, mode) {
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

/// Takes the events of one burst at a time (see the module) and reports their
/// paths, until the watcher is dropped.
fn gather(
    rx: &Receiver<notify::Result<notify::Event>>,
    root: &Path,
    on_change: &dyn Fn(Result<Vec<String>, String>),
) {
    while let Ok(first) = rx.recv() {
        let started = Instant::now();
        let mut burst = vec![first];
        let mut open = true;
        loop {
            let left = MOST.saturating_sub(started.elapsed());
            if left.is_zero() {
                break;
            }
            match rx.recv_timeout(QUIET.min(left)) {
                Ok(event) => burst.push(event),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    open = false;
                    break;
                }
            }
        }
        report(burst, root, on_change);
        if !open {
            return;
        }
    }
}

fn report(
    burst: Vec<notify::Result<notify::Event>>,
    root: &Path,
    on_change: &dyn Fn(Result<Vec<String>, String>),
) {
    let mut paths = Vec::new();
    let mut errors = Vec::new();
    for event in burst {
        match event {
            Ok(event) if changes_content(&event.kind) => {
                paths.extend(event.paths.iter().map(|p| relative(root, p)));
            }
            Ok(_) => {}
            Err(e) => errors.push(e.to_string()),
        }
    }
    paths.sort();
    paths.dedup();
    if !paths.is_empty() {
        on_change(Ok(paths));
    }
    if !errors.is_empty() {
        errors.dedup();
        on_change(Err(format!("watching files: {}", errors.join("; "))));
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
        let dir = source.rsplit_once('/').map_or("", |(dir, _)| dir);
        Project::at(ProjectKind::Jerry, source, source, dir, Shape::V2Nested)
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
        let record = |p: &str| p.ends_with("state.json");
        assert_eq!(
            affected(
                &w,
                &[
                    "b/ORCHESTRATION.yaml".into(),
                    "b/.ORCHESTRATION.yaml.lock".into(),
                    ".jerry/state.json".into(),
                ],
                record
            ),
            Reload::Parts {
                projects: vec!["b/ORCHESTRATION.yaml".into()],
                records: vec![".jerry/state.json".into()],
                checkpoints: Vec::new(),
            }
        );
        assert_eq!(
            affected(&w, &[".jerry/checkpoints/cx-004.json".into()], record),
            Reload::All,
            "no checkpoint known in that folder: a load decides"
        );
    }

    #[test]
    fn checkpoints_in_a_known_folder_are_read_again_alone() {
        let mut w = ws(&["a/ORCHESTRATION.yaml"]);
        let text = r#"{"checkpoint_id": "cx-001", "created_at": "2026-02-20T12:00:00Z"}"#;
        let known = crate::core::normalize::checkpoint::normalize_checkpoint(
            ".jerry/checkpoints/cx-001.json",
            text,
            false,
        )
        .unwrap();
        w.unassigned_checkpoints.push(known);
        let changed = |paths: &[&str]| {
            let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
            affected(&w, &paths, |_| false)
        };
        assert_eq!(
            changed(&[
                ".jerry/checkpoints/cx-002-checkpoint.json",
                ".jerry/checkpoints/cx-001.acknowledged",
                ".jerry/checkpoints/.cx-002.json.tmp",
            ]),
            Reload::Parts {
                projects: Vec::new(),
                records: Vec::new(),
                checkpoints: vec![
                    ".jerry/checkpoints/cx-002-checkpoint.json".into(),
                    ".jerry/checkpoints/cx-001.json".into(),
                ],
            }
        );
        assert_eq!(
            changed(&[".jerry/checkpoints/cx-009.acknowledged"]),
            Reload::All,
            "a marker of no known checkpoint"
        );
        assert_eq!(
            changed(&["b/.jerry/checkpoints/cx-002.json"]),
            Reload::All,
            "another folder"
        );
        assert_eq!(
            affected(&w, &["a/.git/index".into(), "a/x.swp".into()], |_| false),
            Reload::Nothing
        );
        assert_eq!(affected(&w, &[], |_| false), Reload::Nothing);
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
