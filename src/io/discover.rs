//! Finds the state files under a workspace root: Jerry `ORCHESTRATION.yaml` files,
//! checkpoints and their acknowledgement markers, context state, Nexus manifests and
//! the Nexus precompact state. Walking never fails: an unreadable folder is a
//! diagnostic, heavy folders are skipped, and symlinked folders are followed once.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use crate::core::model::Diagnostic;
use crate::core::workspace::{Excluded, Placement, placement};
use crate::io::env::Env;

mod listing;
mod parallel;
mod places;
pub mod root;
pub mod trust;
use listing::{EntryType, ListError, Lister};
pub use places::is_state_folder;

/// Folders never worth walking: build output, dependency caches, VCS data.
const SKIPPED_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "target",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    "dist",
    "build",
    ".tox",
    ".nox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".gradle",
    ".next",
    ".nuxt",
    ".terraform",
    ".cargo",
    ".rustup",
    ".npm",
    ".pnpm-store",
    ".yarn",
    "bower_components",
    ".direnv",
    ".idea",
];

/// Deeper than this is almost certainly a generated tree; it is reported and not walked.
const MAX_DEPTH: usize = 40;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileKind {
    /// Jerry `ORCHESTRATION.yaml`.
    Orchestration,
    /// `.jerry/checkpoints/cx-NNN.json` or `cx-NNN-checkpoint.json`.
    Checkpoint,
    /// `.jerry/checkpoints/cx-NNN.acknowledged` (an empty marker).
    CheckpointMarker,
    /// Design `.jerry/context-monitor-state.json`.
    ContextMonitorState,
    /// Real Jerry `context-state.json` in `$JERRY_LIFECYCLE_DIR` or `~/.jerry/local/`.
    LifecycleContextState,
    /// Nexus `resume-context.md` or legacy `_resume.md`.
    NexusManifest,
    /// Nexus `<build>/01-planning/01-overview.md` (name, status, creation date).
    NexusOverview,
    /// Nexus `<build>/01-planning/04-steps.md` (the steps, as checkboxes).
    NexusSteps,
    /// Nexus `00-system/.cache/precompact_state.json`.
    Precompact,
}

/// One file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub kind: FileKind,
    /// The path to open.
    pub path: PathBuf,
    /// Relative to the root with `/` separators; files outside the root keep their path.
    pub rel: String,
    /// The folder its relative paths are resolved from, relative to the root: the
    /// ORCHESTRATION.yaml's folder, the Nexus project folder, the checkpoints folder.
    pub dir: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Discovery {
    /// Sorted by kind, then path.
    pub files: Vec<Found>,
    pub diagnostics: Vec<Diagnostic>,
    /// The folders walked that are places where new state files appear
    /// ([`is_state_folder`]), relative to the root: what the live refresh watches
    /// besides the projects it knows.
    pub state_folders: Vec<String>,
    /// State files found in places that hold no projects (test fixtures), and
    /// Nexus manifests outside the Nexus layout, with the reason.
    pub excluded: Vec<Excluded>,
}

impl Discovery {
    pub fn of_kind(&self, kind: FileKind) -> impl Iterator<Item = &Found> {
        self.files.iter().filter(move |f| f.kind == kind)
    }
}

/// Walks `root` and returns every state file found, plus the context state kept
/// outside the workspace (taken from `env`, never from the process environment).
pub fn discover(root: &Path, env: &Env) -> Discovery {
    let mut discovery = Discovery::default();
    walk(root, "", &mut discovery);
    discovery.files.extend(lifecycle_context_state(env));
    finish(&mut discovery);
    discovery
}

/// Walks `dir` (which lies under `root`) only, naming files relative to `root`.
pub fn discover_under(root: &Path, dir: &Path) -> Discovery {
    let mut discovery = Discovery::default();
    let prefix = relative_to(root, dir).unwrap_or_default();
    walk(dir, &prefix, &mut discovery);
    finish(&mut discovery);
    discovery
}

/// Puts what the walk found in a fixed order (folders may be read on several
/// threads at once).
fn finish(discovery: &mut Discovery) {
    // A file is found once (by one path), so no two are equal.
    discovery
        .files
        .sort_unstable_by(|a, b| (a.kind, &a.rel).cmp(&(b.kind, &b.rel)));
    discovery
        .diagnostics
        .sort_by(|a, b| (&a.file, a.line, &a.message).cmp(&(&b.file, b.line, &b.message)));
    discovery.state_folders.sort_unstable();
    discovery.state_folders.dedup();
    discovery.excluded.sort_by(|a, b| a.path.cmp(&b.path));
    drop_legacy_duplicates(discovery);
}

/// `root`-relative path of `path` with `/` separators, if it lies under `root`.
pub fn relative_to(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

struct Pending {
    path: PathBuf,
    rel: String,
    /// Its canonical path, for a folder reached through a symlink only. A folder
    /// under the start is named by the start's canonical path and its own place
    /// (see [`walk`]), and none of them can be reached twice but through a link.
    canonical: Option<PathBuf>,
    depth: usize,
}

fn walk(start: &Path, start_rel: &str, discovery: &mut Discovery) {
    let canonical = match std::fs::canonicalize(start) {
        Ok(path) => path,
        Err(e) => {
            let name = if start_rel.is_empty() {
                start.display().to_string()
            } else {
                start_rel.to_string()
            };
            discovery
                .diagnostics
                .push(Diagnostic::error(name, format!("cannot read folder: {e}")));
            return;
        }
    };
    let visited = Mutex::new(HashSet::from([canonical.clone()]));
    let mut stack = vec![Pending {
        path: start.to_path_buf(),
        rel: start_rel.to_string(),
        canonical: None,
        depth: 0,
    }];
    // Symlinked folders wait until every real folder is walked, so that a file is
    // named by its real path rather than by a link to it.
    let mut links: Vec<(Pending, String)> = Vec::new();
    let mut walked = Vec::new();
    parallel::walk_stack(&mut stack, &mut links, &mut walked, &visited, discovery);
    if !links.is_empty() {
        let mut visited = lock(&visited);
        for path in walked {
            if let Ok(under) = path.strip_prefix(start) {
                visited.insert(canonical.join(under));
            }
        }
    }
    while let Some((link, name)) = links.pop() {
        follow_symlink(&link, &name, &mut stack, &visited, discovery);
        parallel::walk_stack(&mut stack, &mut links, &mut Vec::new(), &visited, discovery);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A folder found inside the one being read: its path, root-relative name and
/// canonical path (when its parent has one), for [`next_folder`].
type Subfolder = (PathBuf, String, Option<PathBuf>);

/// Lists `dir`: state files and diagnostics go to `discovery`, the folders to
/// walk next to `subfolders`, symlinks (followed last) to `links`.
fn walk_one(
    dir: &Pending,
    lister: &mut Lister,
    subfolders: &mut Vec<Subfolder>,
    links: &mut Vec<(Pending, String)>,
    discovery: &mut Discovery,
) {
    let display = if dir.rel.is_empty() { "." } else { &dir.rel };
    if is_state_folder(&dir.rel) {
        discovery.state_folders.push(dir.rel.clone());
    }
    let mut rel = String::with_capacity(dir.rel.len() + 64);
    let listed = lister.list(&dir.path, |name, entry_type| {
        let name_text = name.to_string_lossy();
        rel.clear();
        if !dir.rel.is_empty() {
            rel.push_str(&dir.rel);
            rel.push('/');
        }
        rel.push_str(&name_text);
        match entry_type {
            EntryType::Folder => {
                folder_named_like_a_state_file(&rel, discovery);
                if !skipped(&dir.rel, &name_text) {
                    let canonical = dir.canonical.as_ref().map(|c| c.join(name));
                    subfolders.push((dir.path.join(name), rel.clone(), canonical));
                }
            }
            EntryType::File => add_file(&rel, || dir.path.join(name), discovery),
            EntryType::Symlink => {
                // `depth` here is the parent's, for `next_folder`.
                let link = Pending {
                    path: dir.path.join(name),
                    rel: rel.clone(),
                    canonical: None,
                    depth: dir.depth,
                };
                links.push((link, dir.rel.clone()));
            }
            EntryType::Other => {}
        }
    });
    let (problem, e) = match listed {
        Ok(()) => return,
        Err(ListError::Open(e)) => ("cannot read folder", e),
        Err(ListError::Read(e)) => ("cannot list folder", e),
    };
    discovery
        .diagnostics
        .push(Diagnostic::warning(display, format!("{problem}: {e}")));
}

fn follow_symlink(
    link: &Pending,
    parent_rel: &str,
    stack: &mut Vec<Pending>,
    visited: &Mutex<HashSet<PathBuf>>,
    discovery: &mut Discovery,
) {
    let (path, rel) = (link.path.clone(), link.rel.clone());
    let name = rel.rsplit('/').next().unwrap_or_default();
    // Only symlinks need a stat to learn what they point at.
    let Ok(meta) = std::fs::metadata(&path) else {
        if classify(&rel).is_some() {
            discovery.diagnostics.push(Diagnostic::warning(
                rel,
                "broken symlink: it points at nothing",
            ));
        }
        return;
    };
    if meta.is_dir() {
        folder_named_like_a_state_file(&rel, discovery);
        if skipped(parent_rel, name) {
            return;
        }
        match std::fs::canonicalize(&path) {
            Ok(canonical) => {
                let found = (path, rel, Some(canonical));
                stack.extend(next_folder(link, found, visited, discovery));
            }
            Err(e) => discovery.diagnostics.push(Diagnostic::warning(
                rel,
                format!("cannot follow symlink: {e}"),
            )),
        }
    } else {
        add_file(&rel, || path, discovery);
    }
}

/// A file found by the walk: a state file in an expected place is kept; one in a
/// test fixture, or a manifest outside the Nexus layout, is excluded with the
/// reason (`list --all`), never dropped unsaid. Nothing is allocated for any other
/// file.
fn add_file(rel: &str, path: impl FnOnce() -> PathBuf, discovery: &mut Discovery) {
    let Some((kind, dir)) = classify(rel) else {
        let name = rel.rsplit('/').next().unwrap_or_default();
        if matches!(name, "resume-context.md" | "_resume.md") {
            let reason = match placement(rel) {
                Placement::Excluded(reason) => reason,
                _ => "not where Nexus keeps a manifest (<area>/<id>/01-planning/, the area one of 02-projects, 02-builds, 02-builds/active, 02-builds/complete, 05-archived)".to_string(),
            };
            let path = rel.to_string();
            discovery.excluded.push(Excluded { path, reason });
        }
        return;
    };
    if let (true, Placement::Excluded(reason)) = (is_project_file(kind), placement(rel)) {
        let path = rel.to_string();
        discovery.excluded.push(Excluded { path, reason });
        return;
    }
    discovery.files.push(Found {
        kind,
        path: path(),
        rel: rel.to_string(),
        dir,
    });
}

/// The files a project is read from (the others are checkpoints, markers and
/// context state).
pub fn is_project_file(kind: FileKind) -> bool {
    matches!(
        kind,
        FileKind::Orchestration
            | FileKind::NexusManifest
            | FileKind::NexusOverview
            | FileKind::NexusSteps
    )
}

/// A folder where a state file belongs (a file replaced by a folder) is said, not
/// silently passed over.
fn folder_named_like_a_state_file(rel: &str, discovery: &mut Discovery) {
    if classify(rel).is_some() {
        discovery.diagnostics.push(Diagnostic::warning(
            rel,
            "is a folder, not a file: not read",
        ));
    }
}

/// The folder `found` in `parent`, to walk next, unless it lies too deep or, reached
/// through a symlink, was walked already (each said in `discovery`).
fn next_folder(
    parent: &Pending,
    (path, rel, canonical): Subfolder,
    visited: &Mutex<HashSet<PathBuf>>,
    discovery: &mut Discovery,
) -> Option<Pending> {
    if parent.depth + 1 > MAX_DEPTH {
        discovery.diagnostics.push(Diagnostic::warning(
            rel,
            format!("folder nested deeper than {MAX_DEPTH} levels; not searched"),
        ));
        return None;
    }
    if let Some(canonical) = &canonical
        && !lock(visited).insert(canonical.clone())
    {
        discovery.diagnostics.push(Diagnostic::info(
            rel,
            format!(
                "symlink to a folder already searched ({}); not followed again",
                canonical.display()
            ),
        ));
        return None;
    }
    Some(Pending {
        path,
        rel,
        canonical,
        depth: parent.depth + 1,
    })
}

fn skipped(parent_rel: &str, name: &str) -> bool {
    if SKIPPED_DIRS.contains(&name) {
        return true;
    }
    // Caches are skipped, except the Nexus one that holds the precompact state.
    name == ".cache" && parent_rel.rsplit('/').next() != Some("00-system")
}

/// What kind of state file `rel` (root-relative, `/` separators) is, judged by its
/// name and the folders above it, and the project folder it belongs to.
pub fn classify(rel: &str) -> Option<(FileKind, String)> {
    let mut parts = rel.rsplit('/');
    let name = parts.next()?;
    let parent = parts.next();
    let grandparent = parts.next();
    let folder = |levels: usize| parent_dir(rel, levels);
    match name {
        "ORCHESTRATION.yaml" => Some((FileKind::Orchestration, folder(1))),
        "context-monitor-state.json" if parent == Some(".jerry") => {
            Some((FileKind::ContextMonitorState, folder(2)))
        }
        "precompact_state.json" if parent == Some(".cache") && grandparent == Some("00-system") => {
            Some((FileKind::Precompact, folder(3)))
        }
        "resume-context.md" | "_resume.md" => {
            nexus_project_dir(rel, name == "_resume.md").map(|dir| (FileKind::NexusManifest, dir))
        }
        "01-overview.md" => nexus_project_dir(rel, false).map(|dir| (FileKind::NexusOverview, dir)),
        "04-steps.md" => nexus_project_dir(rel, false).map(|dir| (FileKind::NexusSteps, dir)),
        _ if parent == Some("checkpoints") && grandparent == Some(".jerry") => {
            checkpoint_kind(name).map(|kind| (kind, folder(1)))
        }
        _ => None,
    }
}

fn checkpoint_kind(name: &str) -> Option<FileKind> {
    let rest = name.strip_prefix("cx-")?;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    match rest.get(digits..)? {
        ".json" | "-checkpoint.json" => Some(FileKind::Checkpoint),
        ".acknowledged" => Some(FileKind::CheckpointMarker),
        _ => None,
    }
}

/// The Nexus project folder of a manifest, if the manifest sits where Nexus puts one:
/// `<area>/<id>/01-planning/<name>` for the areas `places::is_nexus_area` names, or (legacy `_resume.md`
/// only) directly in `<area>/<id>/`.
fn nexus_project_dir(rel: &str, legacy: bool) -> Option<String> {
    let parts: Vec<&str> = rel.split('/').collect();
    let n = parts.len();
    let in_planning = n >= 4 && parts.get(n - 2) == Some(&"01-planning");
    let (id_index, levels) = if in_planning {
        (n - 3, 2)
    } else if legacy && n >= 3 {
        (n - 2, 1)
    } else {
        return None;
    };
    places::is_nexus_area(&parts, id_index.checked_sub(1)?).then(|| parent_dir(rel, levels))
}

/// `rel` with its last `levels` components removed.
fn parent_dir(rel: &str, levels: usize) -> String {
    let mut dir = rel;
    for _ in 0..levels {
        dir = dir.rsplit_once('/').map_or("", |(head, _)| head);
    }
    dir.to_string()
}

/// Nexus keeps `_resume.md` beside `resume-context.md` after migrating. The newer
/// file is the project; the other is reported once and not listed.
fn drop_legacy_duplicates(discovery: &mut Discovery) {
    let mut chosen: Vec<(String, String)> = Vec::new();
    let mut manifests: Vec<&Found> = discovery.of_kind(FileKind::NexusManifest).collect();
    manifests.sort_by_key(|f| (f.dir.clone(), manifest_rank(&f.rel), f.rel.clone()));
    let mut dropped = Vec::new();
    for found in manifests {
        match chosen.iter().find(|(dir, _)| *dir == found.dir) {
            Some((_, kept)) => dropped.push((found.rel.clone(), kept.clone())),
            None => chosen.push((found.dir.clone(), found.rel.clone())),
        }
    }
    for (rel, kept) in &dropped {
        discovery.diagnostics.push(Diagnostic::info(
            rel.clone(),
            format!("legacy duplicate of {kept}; the newer manifest is the project"),
        ));
    }
    discovery
        .files
        .retain(|f| !dropped.iter().any(|(rel, _)| *rel == f.rel));
}

fn manifest_rank(rel: &str) -> u8 {
    if rel.ends_with("/resume-context.md") {
        0
    } else if rel.ends_with("/01-planning/_resume.md") {
        1
    } else {
        2
    }
}

/// The files of the Nexus build (or project) folder `dir` (root-relative) that
/// exist: its manifest (`01-planning/resume-context.md`, else a legacy
/// `_resume.md`), `01-planning/01-overview.md` and `01-planning/04-steps.md`.
pub fn nexus_build_files(root: &Path, dir: &str) -> Vec<Found> {
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let manifests = [
        "01-planning/resume-context.md",
        "01-planning/_resume.md",
        "_resume.md",
    ];
    let manifest = manifests
        .iter()
        .map(|name| format!("{prefix}{name}"))
        .find(|rel| root.join(rel).is_file());
    let others = ["01-planning/01-overview.md", "01-planning/04-steps.md"]
        .iter()
        .map(|name| format!("{prefix}{name}"))
        .filter(|rel| root.join(rel).is_file());
    manifest
        .into_iter()
        .chain(others)
        .filter_map(|rel| {
            let (kind, dir) = classify(&rel)?;
            Some(Found {
                kind,
                path: root.join(&rel),
                rel,
                dir,
            })
        })
        .collect()
}

/// The real Jerry context state: `$JERRY_LIFECYCLE_DIR/context-state.json`, else
/// `~/.jerry/local/context-state.json`, when the file exists.
fn lifecycle_context_state(env: &Env) -> Option<Found> {
    let path = match env.get("JERRY_LIFECYCLE_DIR") {
        Some(dir) => PathBuf::from(dir).join("context-state.json"),
        None => PathBuf::from(env.get("HOME")?).join(".jerry/local/context-state.json"),
    };
    let meta = std::fs::metadata(&path).ok()?;
    meta.is_file().then(|| Found {
        kind: FileKind::LifecycleContextState,
        rel: path.display().to_string(),
        dir: String::new(),
        path,
    })
}

#[cfg(test)]
mod tests;
