//! Loads a workspace: discover → read (capped, in parallel) → normalise → assemble
//! (checkpoints to projects, unique ids, listed files checked) → staleness.
//! Nothing here fails: every problem becomes a diagnostic on the project or the
//! workspace, and the rest still loads.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::core::model::{
    Checkpoint, ContextState, Diagnostic, PrecompactState, Project, ProjectKind, Shape, Workspace,
};
use crate::core::normalize;
use crate::core::staleness::{self, Session};
use crate::core::time::Timestamp;
use crate::core::workspace::{assign_checkpoints, attribute_unclaimed, make_ids_unique};
use crate::io::discover::{self, Discovery, FileKind, Found};
use crate::io::env::Env;
use crate::io::write::ContentHash;

mod builds;
mod exists;
mod nexus_decisions;
mod one_checkpoint;
mod parallel;
mod read;
mod regular;

pub use exists::{Resolved, resolve};
pub use one_checkpoint::{CheckpointReading, marked_checkpoint, read_checkpoint};
pub use read::{
    MAX_FILE_BYTES, MAX_SETTINGS_BYTES, NotRead, decode, read_bytes_capped,
    read_bytes_listed_regular, read_settings_text, read_text,
};
pub use regular::open_regular;

/// What the caller knows beyond the files.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// The session in progress (hook mode knows it), for the "previous session" rule.
    pub session: Option<Session>,
    /// Parse only the parts of each ORCHESTRATION.yaml the normaliser reads
    /// (`normalize_orchestration_fast`): the same project, without warnings about
    /// the rest. For the hooks, which run on every prompt.
    pub fast_orchestration: bool,
    /// Read on the calling thread only (a hook reads a handful of small files;
    /// starting threads would cost more than it saves).
    pub one_thread: bool,
    /// How each ORCHESTRATION.yaml is read: for the hooks
    /// (`jerry::Reading::ForHooks`), warnings and notes unplaced and no other
    /// fields, which the hooks never show and which cost a tenth of a second each
    /// on a megabyte of keys.
    pub reading: normalize::jerry::Reading,
    /// Only some of the workspace's projects are loaded (one file re-read): a
    /// checkpoint none of them claims is not given to the only one loaded.
    pub partial: bool,
}

/// The content hash of each state file (ORCHESTRATION.yaml, Nexus manifest) as
/// the load read it, by root-relative path.
pub type StateHashes = HashMap<String, ContentHash>;

/// Discovers and loads everything under `root`.
pub fn load_workspace(root: &Path, env: &Env, now: Timestamp, config: &Config) -> Workspace {
    load_workspace_with(root, env, now, config, &LoadOptions::default())
}

pub fn load_workspace_with(
    root: &Path,
    env: &Env,
    now: Timestamp,
    config: &Config,
    options: &LoadOptions,
) -> Workspace {
    let discovery = discover::discover(root, env);
    load_discovered(root, &discovery, now, config, options)
}

/// Loads the files and folders named on a command line (for `validate`).
pub fn load_paths(root: &Path, paths: &[PathBuf], now: Timestamp, config: &Config) -> Workspace {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let discovery = discover_paths(&root, paths);
    load_discovered(&root, &discovery, now, config, &LoadOptions::default())
}

/// The state files among `paths` (absolute, or relative to the current folder).
/// Folders are searched as the workspace is; a file is taken as whatever kind its
/// name (or, failing that, its content) says, even where discovery would not look,
/// e.g. `resume-context.md.backup`. Files under `root` are named relative to it.
pub fn discover_paths(root: &Path, paths: &[PathBuf]) -> Discovery {
    let mut discovery = Discovery::default();
    for given in paths {
        let shown = given.display().to_string();
        let path = match std::fs::canonicalize(given) {
            Ok(path) => path,
            Err(e) => {
                discovery
                    .diagnostics
                    .push(Diagnostic::error(shown, format!("cannot read: {e}")));
                continue;
            }
        };
        if path.is_dir() {
            let found = if path.starts_with(root) {
                discover::discover_under(root, &path)
            } else {
                discover::discover_under(&path, &path)
            };
            discovery.files.extend(found.files);
            discovery.diagnostics.extend(found.diagnostics);
            continue;
        }
        let rel = discover::relative_to(root, &path).unwrap_or(shown);
        match classify_explicit(&path, &rel) {
            Ok(found) => discovery.files.push(found),
            Err(diagnostic) => discovery.diagnostics.push(diagnostic),
        }
    }
    let mut seen = HashSet::new();
    discovery.files.retain(|f| seen.insert(f.path.clone()));
    discovery
}

/// Re-reads one project's state file (root-relative `rel_path`) with its
/// checkpoints, and the content hash of the state file as read. `None` when the
/// path is not an ORCHESTRATION.yaml or a Nexus manifest.
pub fn load_project_file(
    root: &Path,
    rel_path: &str,
    now: Timestamp,
    config: &Config,
) -> (Option<Project>, Option<ContentHash>) {
    let reloaded = reload_project_file(root, rel_path, now, config);
    (reloaded.project, reloaded.hash)
}

/// One project file read again, for a workspace already loaded.
#[derive(Debug, Clone, Default)]
pub struct ReloadedFile {
    pub project: Option<Project>,
    /// The content hash of the state file as read.
    pub hash: Option<ContentHash>,
    /// The checkpoints read beside it that the project does not claim: the caller,
    /// who knows the whole workspace, attributes them by the same rule as a full
    /// load (`core::workspace::attribute_reloaded`).
    pub unclaimed: Vec<Checkpoint>,
}

/// [`load_project_file`], with the checkpoints the project does not claim.
pub fn reload_project_file(
    root: &Path,
    rel_path: &str,
    now: Timestamp,
    config: &Config,
) -> ReloadedFile {
    let Some(found) = project_files(root, rel_path) else {
        return ReloadedFile::default();
    };
    let options = LoadOptions {
        partial: true,
        ..LoadOptions::default()
    };
    let (ws, mut hashes) = load_discovered_hashed(root, &found, now, config, &options);
    let hash = found.files.first().and_then(|f| hashes.remove(&f.rel));
    ReloadedFile {
        project: ws.projects.into_iter().next(),
        hash,
        unclaimed: ws.unassigned_checkpoints,
    }
}

/// The state file `rel_path` (if it is one) and the checkpoints it may own.
fn project_files(root: &Path, rel_path: &str) -> Option<Discovery> {
    let rel = rel_path.trim_start_matches("./").replace('\\', "/");
    let (kind, dir) = discover::classify(&rel)?;
    if !discover::is_project_file(kind) {
        return None;
    }
    if kind != FileKind::Orchestration {
        let mut files = discover::nexus_build_files(root, &dir);
        // The file asked for first: its hash is the one returned.
        files.sort_by_key(|f| f.rel != rel);
        return Some(Discovery {
            files,
            ..Discovery::default()
        });
    }
    let mut files = vec![Found {
        kind,
        path: root.join(&rel),
        rel: rel.clone(),
        dir: dir.clone(),
    }];
    if kind == FileKind::Orchestration {
        for checkpoints in checkpoint_folders(&dir) {
            let found = discover::discover_under(root, &root.join(&checkpoints));
            files.extend(
                found.files.into_iter().filter(|f| {
                    matches!(f.kind, FileKind::Checkpoint | FileKind::CheckpointMarker)
                }),
            );
        }
    }
    Some(Discovery {
        files,
        ..Discovery::default()
    })
}

/// `.jerry/checkpoints` folders a project at `dir` may use: at the workspace root and
/// at the repository root above `projects/`.
fn checkpoint_folders(dir: &str) -> Vec<String> {
    let mut folders = vec![".jerry/checkpoints".to_string()];
    if let Some((repo, _)) = dir.split_once("/projects/") {
        folders.push(format!("{repo}/.jerry/checkpoints"));
    }
    folders
}

/// What one file became.
enum Item {
    Project(Box<Project>),
    Checkpoint(Box<Checkpoint>),
    ContextState(ContextState),
    Precompact(PrecompactState),
    /// A Nexus build's `01-overview.md` or `04-steps.md`, for the project of its folder.
    BuildFile(String),
    Problem(Diagnostic),
    Nothing,
}

/// Reads, normalises and assembles the files of `discovery`.
pub fn load_discovered(
    root: &Path,
    discovery: &Discovery,
    now: Timestamp,
    config: &Config,
    options: &LoadOptions,
) -> Workspace {
    load_files(root, discovery, now, config, options, false).0
}

/// [`load_discovered`], with the hash of each state file's bytes as read (the
/// dashboard: an edit must find the file as the operator saw it).
pub fn load_discovered_hashed(
    root: &Path,
    discovery: &Discovery,
    now: Timestamp,
    config: &Config,
    options: &LoadOptions,
) -> (Workspace, StateHashes) {
    load_files(root, discovery, now, config, options, true)
}

fn load_files(
    root: &Path,
    discovery: &Discovery,
    now: Timestamp,
    config: &Config,
    options: &LoadOptions,
    hash_state_files: bool,
) -> (Workspace, StateHashes) {
    let markers: HashSet<&str> = discovery
        .of_kind(FileKind::CheckpointMarker)
        .map(|f| f.rel.as_str())
        .collect();
    // Listed files are checked here too, on the workers: a stat or more each.
    let load = |found: &Found| {
        let (mut item, hash) = load_one(found, &markers, options, hash_state_files);
        if let Item::Project(project) = &mut item
            && Path::new(&project.source).is_relative()
        {
            exists::check_listed_files(root, project);
        }
        (item, hash)
    };
    let loaded: Vec<(Item, Option<ContentHash>)> = if options.one_thread {
        discovery.files.iter().map(load).collect()
    } else {
        parallel::map(&discovery.files, load)
    };
    let mut hashes = StateHashes::new();
    let mut items = Vec::with_capacity(loaded.len());
    for ((item, hash), found) in loaded.into_iter().zip(&discovery.files) {
        if let Some(hash) = hash {
            hashes.insert(found.rel.clone(), hash);
        }
        items.push(item);
    }

    let mut ws = Workspace {
        root: root.display().to_string(),
        diagnostics: discovery.diagnostics.clone(),
        ..Workspace::default()
    };
    let mut checkpoints = Vec::new();
    let mut precompacts = Vec::new();
    let mut build_files = Vec::new();
    for (item, found) in items.into_iter().zip(&discovery.files) {
        match item {
            Item::BuildFile(text) => build_files.push((found, text)),
            Item::Project(project) => ws.projects.push(*project),
            Item::Checkpoint(checkpoint) => checkpoints.push(*checkpoint),
            Item::ContextState(state) => ws.context_states.push(state),
            Item::Precompact(state) => precompacts.push(state),
            Item::Problem(diagnostic) => ws.diagnostics.push(diagnostic),
            Item::Nothing => {}
        }
    }
    builds::attach(&mut ws.projects, &build_files);
    builds::note_archived(&mut ws.projects);
    ws.excluded = discovery.excluded.clone();
    ws.projects.sort_by(|a, b| a.source.cmp(&b.source));
    let unclaimed = assign_checkpoints(&mut ws.projects, checkpoints);
    ws.unassigned_checkpoints = if options.partial {
        unclaimed
    } else {
        attribute_unclaimed(&mut ws.projects, unclaimed)
    };
    make_ids_unique(&mut ws.projects);
    choose_precompact(&mut ws, precompacts);
    for project in &mut ws.projects {
        project.staleness = staleness::assess(
            project,
            options.session.as_ref(),
            now,
            config.staleness.stale_after_minutes,
        );
    }
    (ws, hashes)
}

fn load_one(
    found: &Found,
    markers: &HashSet<&str>,
    options: &LoadOptions,
    hash_state_files: bool,
) -> (Item, Option<ContentHash>) {
    if found.kind == FileKind::CheckpointMarker {
        return (Item::Nothing, None);
    }
    let state_file = matches!(
        found.kind,
        FileKind::Orchestration | FileKind::NexusManifest
    );
    if matches!(found.kind, FileKind::NexusOverview | FileKind::NexusSteps) {
        return match read::read_text_capped(&found.path, &found.rel, MAX_FILE_BYTES) {
            Ok(text) => (Item::BuildFile(text), None),
            Err(diagnostic) => (Item::Problem(diagnostic), None),
        };
    }
    let read =
        read::read_bytes_or_say_why(&found.path, &found.rel, MAX_FILE_BYTES).and_then(|bytes| {
            let hash = (state_file && hash_state_files).then(|| ContentHash::of(&bytes));
            Ok((read::decode(&found.rel, bytes)?, hash))
        });
    match read {
        Ok((text, hash)) => {
            let mut item = parse_one(found, markers, options, &text);
            if let Item::Project(project) = &mut item {
                project
                    .diagnostics
                    .extend(invisible_note(&found.rel, &text));
            }
            (item, hash)
        }
        Err(diagnostic) if state_file => (
            Item::Project(Box::new(unreadable_project(found, diagnostic))),
            None,
        ),
        Err(diagnostic) => (Item::Problem(diagnostic), None),
    }
}

/// A state file holding invisible characters (`core::invisible`) is said to: they
/// are removed from everything copied out of it and shown as escapes by `show`.
fn invisible_note(rel: &str, text: &str) -> Option<Diagnostic> {
    let found = crate::core::invisible::find(text)?;
    Some(
        Diagnostic::warning(
            rel,
            format!(
                "{} invisible character(s), the first U+{:04X}: removed from the prompt, the clipboard and the hooks' injections (they can carry text the model reads and you do not see); `show` prints them as \\u escapes",
                found.count,
                u32::from(found.first)
            ),
        )
        .at(found.line, found.column),
    )
}

fn parse_one(found: &Found, markers: &HashSet<&str>, options: &LoadOptions, text: &str) -> Item {
    let (rel, dir) = (found.rel.as_str(), found.dir.as_str());
    let reading = options.reading;
    match found.kind {
        FileKind::Orchestration if options.fast_orchestration => Item::Project(Box::new(
            normalize::jerry::normalize_orchestration_fast_with(rel, dir, text, reading),
        )),
        FileKind::Orchestration => Item::Project(Box::new(
            normalize::jerry::normalize_orchestration(rel, dir, text),
        )),
        FileKind::NexusManifest => Item::Project(Box::new(normalize::nexus::normalize_manifest(
            rel, dir, text,
        ))),
        FileKind::Checkpoint => {
            let marker = marker_for(rel);
            let acknowledged = marker.as_deref().is_some_and(|m| markers.contains(m));
            match normalize::checkpoint::normalize_checkpoint(rel, text, acknowledged) {
                Ok(checkpoint) => Item::Checkpoint(Box::new(checkpoint)),
                Err(diagnostic) => Item::Problem(diagnostic),
            }
        }
        FileKind::ContextMonitorState | FileKind::LifecycleContextState => {
            match normalize::context_state::normalize_context_state(rel, text) {
                Ok(state) => Item::ContextState(state),
                Err(diagnostic) => Item::Problem(diagnostic),
            }
        }
        FileKind::Precompact => match normalize::precompact::normalize_precompact(rel, text) {
            Ok(state) => Item::Precompact(state),
            Err(diagnostic) => Item::Problem(diagnostic),
        },
        FileKind::CheckpointMarker | FileKind::NexusOverview | FileKind::NexusSteps => {
            Item::Nothing
        }
    }
}

/// `…/cx-007.json` and `…/cx-007-checkpoint.json` → `…/cx-007.acknowledged`: the
/// marker that acknowledges the checkpoint file, whatever id it holds (writers
/// name markers through this too: `project_edit::marker_path`).
pub fn marker_for(rel: &str) -> Option<String> {
    let base = rel
        .strip_suffix("-checkpoint.json")
        .or_else(|| rel.strip_suffix(".json"))?;
    Some(format!("{base}.acknowledged"))
}

/// The precompact state nearest the root is the workspace's; others are noted.
fn choose_precompact(ws: &mut Workspace, mut states: Vec<PrecompactState>) {
    states.sort_by_key(|s| (s.path.matches('/').count(), s.path.clone()));
    let mut states = states.into_iter();
    ws.precompact = states.next();
    if let Some(chosen) = &ws.precompact {
        for other in states {
            ws.diagnostics.push(Diagnostic::info(
                other.path.clone(),
                format!(
                    "another precompact state, {}, is nearer the root and is the one used",
                    chosen.path
                ),
            ));
        }
    }
}

/// A project whose state file could not be read: listed, with the reason.
fn unreadable_project(found: &Found, diagnostic: Diagnostic) -> Project {
    let kind = if found.kind == FileKind::NexusManifest {
        ProjectKind::Nexus
    } else {
        ProjectKind::Jerry
    };
    let id = found
        .dir
        .rsplit('/')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or("workspace")
        .to_string();
    Project {
        diagnostics: vec![diagnostic],
        ..Project::at(kind, id, &found.rel, &found.dir, Shape::Unreadable)
    }
}

/// Classifies a file named on the command line: by its place and name, then (for
/// backups and stray copies) by extension and content.
fn classify_explicit(path: &Path, rel: &str) -> Result<Found, Diagnostic> {
    let stripped = [".pre-optimize-backup", ".backup", ".bak", ".orig"]
        .iter()
        .find_map(|suffix| rel.strip_suffix(suffix))
        .unwrap_or(rel);
    let dir_of = |levels: usize| {
        let mut dir = rel;
        for _ in 0..levels {
            dir = dir.rsplit_once('/').map_or("", |(head, _)| head);
        }
        dir.to_string()
    };
    let (kind, dir) = match discover::classify(stripped) {
        Some(found) => found,
        None => guess_kind(path, stripped).map(|kind| (kind, dir_of(1)))?,
    };
    // A Nexus manifest found by content alone resolves paths from its project folder.
    let dir = if kind == FileKind::NexusManifest && rel.contains("/01-planning/") {
        dir_of(2)
    } else {
        dir
    };
    Ok(Found {
        kind,
        path: path.to_path_buf(),
        rel: rel.to_string(),
        dir,
    })
}

fn guess_kind(path: &Path, name: &str) -> Result<FileKind, Diagnostic> {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        return Ok(FileKind::Orchestration);
    }
    if lower.ends_with(".md") {
        return Ok(FileKind::NexusManifest);
    }
    let file_name = lower.rsplit('/').next().unwrap_or_default();
    if lower.ends_with(".json") {
        if file_name.starts_with("cx-") || file_name.contains("checkpoint") {
            return Ok(FileKind::Checkpoint);
        }
        if file_name.contains("precompact") {
            return Ok(FileKind::Precompact);
        }
        if file_name.contains("context") {
            return Ok(FileKind::ContextMonitorState);
        }
        // Small JSON: look at the keys.
        if let Ok(text) = read::read_text_capped(path, name, 1024 * 1024) {
            if text.contains("\"active_project_id\"") {
                return Ok(FileKind::Precompact);
            }
            if text.contains("\"checkpoint_id\"") || text.contains("\"event_type\"") {
                return Ok(FileKind::Checkpoint);
            }
            if text.contains("\"last_tier\"") || text.contains("\"previous_tokens\"") {
                return Ok(FileKind::ContextMonitorState);
            }
        }
    }
    Err(Diagnostic::error(
        name,
        "not a file resume-tui reads: expected ORCHESTRATION.yaml, a Nexus manifest (.md), \
         a checkpoint, context state or precompact state (.json)",
    ))
}

#[cfg(test)]
mod tests;
