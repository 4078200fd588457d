//! The edits the operator asks for, applied to a project's files: its state file
//! (ORCHESTRATION.yaml or Nexus manifest) through `io::yaml_edit`, its checkpoints
//! (design: `metadata.acknowledged` in the JSON; real Jerry: a `cx-NNN.acknowledged`
//! marker). Every change is prepared first and then written through `io::write`;
//! with `dry_run` nothing is written and the outcome says what would be.
//!
//! Both front ends write through here. The CLI shows nothing before it edits, so it
//! re-reads and retries when a file changes under it ([`retrying`]); the dashboard
//! passes the hash of the state file it shows ([`Target::expected`]), so that an edit
//! decided on what is on screen is never applied to something else.

use std::path::Path;

use crate::core::edit::{self, CheckpointEvent, EditIntent};
use crate::core::model::{Checkpoint, CheckpointFormat, Diagnostic, Project, ProjectKind};
use crate::core::time::Timestamp;
use crate::io::load::MAX_FILE_BYTES;
use crate::io::write::{self, ContentHash, Snapshot, WriteError};
use crate::io::yaml_edit::{self, Edited};

/// The project an edit is for: its state file, and what the caller last read of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub project_id: String,
    /// The state file (ORCHESTRATION.yaml or Nexus manifest), relative to the root.
    pub source: String,
    pub kind: ProjectKind,
    /// The hash of the state file's bytes as the caller read them. When set, an edit
    /// of a file that now holds anything else is refused with
    /// [`WriteError::ChangedOnDisk`]; when `None` the edit applies to the file as it
    /// is now.
    pub expected: Option<ContentHash>,
}

impl Target {
    /// The project's state file, as it is now on disk.
    pub fn of(project: &Project) -> Target {
        Target {
            project_id: project.id.clone(),
            source: project.source.clone(),
            kind: project.kind,
            expected: None,
        }
    }

    /// Only if the state file still hashes to `expected`.
    pub fn expecting(self, expected: Option<ContentHash>) -> Target {
        Target { expected, ..self }
    }

    /// Reads the state file, refusing one that is not what the caller read.
    fn read(&self, root: &Path) -> Result<Snapshot, WriteError> {
        let path = root.join(&self.source);
        let snapshot = read_to_edit(&path)?;
        match self.expected {
            Some(expected) if expected != snapshot.hash => Err(WriteError::ChangedOnDisk { path }),
            _ => Ok(snapshot),
        }
    }
}

/// Reads a file to edit, refusing unread one the loader would not read either:
/// larger than [`MAX_FILE_BYTES`] (an edit parses the whole file, several times
/// over in memory), or not a regular file (opening a FIFO blocks).
pub fn read_to_edit(path: &Path) -> Result<Snapshot, WriteError> {
    write::read_bounded(path, MAX_FILE_BYTES, "not edited")
}

/// One file an edit changes (or would change).
#[derive(Debug, Clone, PartialEq)]
pub struct FileChange {
    /// Relative to the workspace root.
    pub label: String,
    pub edited: Edited,
    /// A new file (a marker) rather than a changed one.
    pub created: bool,
}

impl FileChange {
    /// `projects/…/ORCHESTRATION.yaml: 3 lines changed (+2 −1)`.
    pub fn summary(&self) -> String {
        self.summary_as(&self.label)
    }

    /// The summary naming the file only (`ORCHESTRATION.yaml: …`), for a status line.
    pub fn brief(&self) -> String {
        let name = self.label.rsplit('/').next().unwrap_or(&self.label);
        self.summary_as(name)
    }

    fn summary_as(&self, name: &str) -> String {
        if self.created {
            format!("{name}: created (empty marker)")
        } else {
            self.edited.stats().summary(name)
        }
    }

    pub fn diff(&self) -> String {
        if self.created {
            format!("--- /dev/null\n+++ b/{}\n(new empty file)\n", self.label)
        } else {
            self.edited.diff(&self.label)
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    pub changes: Vec<FileChange>,
    /// Why something was left as it was ("cx-003 is already acknowledged", …).
    pub notes: Vec<String>,
}

impl Outcome {
    /// One line for a status bar: each file's [`FileChange::brief`], then the notes;
    /// `nothing to change` when there are neither.
    pub fn brief(&self) -> String {
        let parts: Vec<String> = self
            .changes
            .iter()
            .map(FileChange::brief)
            .chain(self.notes.iter().cloned())
            .collect();
        if parts.is_empty() {
            "nothing to change".to_string()
        } else {
            parts.join("; ")
        }
    }
}

fn not_applicable(target: &Target, root: &Path, message: String) -> WriteError {
    WriteError::NotApplicable {
        path: root.join(&target.source),
        message,
    }
}

/// Runs `edit` again (it re-reads every file) when a file changed on disk between
/// its read and its write, up to `attempts` times in all. For callers whose intent
/// does not depend on what the operator last saw (the CLI); the dashboard reloads
/// and lets the operator decide instead.
pub fn retrying<T>(
    attempts: usize,
    mut edit: impl FnMut() -> Result<T, WriteError>,
) -> Result<T, WriteError> {
    let mut left = attempts.max(1);
    loop {
        left -= 1;
        match edit() {
            Err(e) if left > 0 && e.is_changed_on_disk() => {}
            result => return result,
        }
    }
}

/// How long an edit waits for another writer of the same file to finish: the
/// same for its state file's lock (held here) and every other file it writes
/// (`write::Options::default`).
pub use write::EDIT_LOCK_WAIT;

/// The state file's lock, held from the read to the write so that two editors
/// (two CLI runs, the dashboard and a script) take turns instead of one failing
/// with "changed on disk"; none for a dry run.
fn hold_unless(dry_run: bool, path: &Path) -> Result<Option<write::HeldLock>, WriteError> {
    if dry_run {
        return Ok(None);
    }
    match write::hold_lock(path, EDIT_LOCK_WAIT) {
        Ok(lock) => Ok(Some(lock)),
        // A file that is not there is said by the read that follows.
        Err(e) if e.is_missing() => Ok(None),
        Err(e) => Err(e),
    }
}

/// Applies `intent` to the project's state file.
pub fn edit_state(
    root: &Path,
    target: &Target,
    intent: &EditIntent,
    dry_run: bool,
) -> Result<Outcome, WriteError> {
    let _lock = hold_unless(dry_run, &root.join(&target.source))?;
    let snapshot = target.read(root)?;
    let edited = yaml_edit::edit_snapshot(&snapshot, &target.source, intent, dry_run)?;
    Ok(outcome_of(&target.source, edited))
}

/// One file a change wrote, to put back (an undo).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revert {
    /// Relative to the root.
    pub path: String,
    /// What the change left in it: it is put back only while it holds this.
    pub written: String,
    /// Its text before the change; `None` when the change created it (a marker).
    pub before: Option<String>,
}

/// Puts back every file of a change (an undo): only if each still holds what the
/// change left (and the state file what the dashboard read), else nothing is
/// written. The state file's lock is held throughout, as an edit holds it.
pub fn revert(root: &Path, target: &Target, files: &[Revert]) -> Result<Outcome, WriteError> {
    let state = root.join(&target.source);
    let _lock = match write::hold_lock(&state, EDIT_LOCK_WAIT) {
        Err(e) if !e.is_missing() => return Err(e),
        held => held.ok(),
    };
    revert_files(root, Some(target), files)
}

/// [`revert`] for a change to checkpoints tied to no project
/// ([`acknowledge_loose`]): no state file to lock or to find as it was shown.
pub fn revert_loose(root: &Path, files: &[Revert]) -> Result<Outcome, WriteError> {
    revert_files(root, None, files)
}

fn revert_files(
    root: &Path,
    target: Option<&Target>,
    files: &[Revert],
) -> Result<Outcome, WriteError> {
    let mut checked = Vec::new();
    for file in files {
        let path = root.join(&file.path);
        let changed = || WriteError::ChangedOnDisk { path: path.clone() };
        let snapshot =
            read_to_edit(&path).map_err(|e| if e.is_missing() { changed() } else { e })?;
        let shown = target.is_none_or(|target| {
            file.path != target.source || target.expected.is_none_or(|h| h == snapshot.hash)
        });
        if !shown || snapshot.text()? != file.written {
            return Err(changed());
        }
        if file.before.is_some() {
            write::check_replace(&snapshot)?;
        }
        checked.push((file, snapshot));
    }
    let mut outcome = Outcome::default();
    let mut written: Vec<&str> = Vec::new();
    for (file, snapshot) in checked {
        let done = match &file.before {
            Some(before) => write::replace(&snapshot, before.as_bytes()),
            None => write::remove(&snapshot),
        };
        if let Err(e) = done {
            return Err(if written.is_empty() {
                e
            } else {
                WriteError::Partial {
                    written: written.join(", "),
                    failed: Box::new(e),
                }
            });
        }
        written.push(&file.path);
        match &file.before {
            Some(before) => outcome.changes.push(FileChange {
                label: file.path.clone(),
                edited: Edited {
                    old: file.written.clone(),
                    new: before.clone(),
                    ops: Vec::new(),
                    note: None,
                },
                created: false,
            }),
            None => {
                let name = file.path.rsplit('/').next().unwrap_or(&file.path);
                outcome.notes.push(format!("{name}: removed"));
            }
        }
    }
    Ok(outcome)
}

fn outcome_of(label: &str, edited: Edited) -> Outcome {
    let mut outcome = Outcome::default();
    if edited.changed() {
        outcome.changes.push(FileChange {
            label: label.to_string(),
            edited,
            created: false,
        });
    } else if let Some(note) = edited.note {
        outcome.notes.push(format!("{label}: {note}"));
    }
    outcome
}

/// Finds checkpoint `name` (`cx-003`, `CX-3`, `3`) among `candidates`.
pub fn find_checkpoint<'a>(
    candidates: &'a [&'a Checkpoint],
    name: &str,
) -> Result<&'a Checkpoint, String> {
    let wanted = normalise_id(name);
    candidates
        .iter()
        .copied()
        .find(|c| normalise_id(&c.id) == wanted)
        .ok_or_else(|| {
            let ids: Vec<&str> = candidates.iter().map(|c| c.id.as_str()).collect();
            if ids.is_empty() {
                format!("no checkpoint {name}: none found for this project")
            } else {
                format!("no checkpoint {name} (found: {})", ids.join(", "))
            }
        })
}

/// Whether `name` names checkpoint `cp` (`cx-003`, `CX-3`, `3`, or its path).
pub fn same_checkpoint_name(cp: &Checkpoint, name: &str) -> bool {
    let path = name.trim().trim_start_matches("./");
    cp.path == path || normalise_id(&cp.id) == normalise_id(name)
}

fn normalise_id(id: &str) -> String {
    let lower = id.trim().to_lowercase();
    let digits = lower.strip_prefix("cx-").unwrap_or(&lower);
    match digits.parse::<u32>() {
        Ok(n) => format!("cx-{n:03}"),
        Err(_) => lower,
    }
}

pub fn event_of(cp: &Checkpoint) -> CheckpointEvent {
    CheckpointEvent {
        id: cp.id.clone(),
        number: cp.number,
        timestamp: cp.created_at_raw.clone(),
        trigger: cp.trigger.clone(),
        fill: cp.fill,
        tier: cp.tier.clone(),
        session_id: cp.session_id.clone(),
        active_phase: cp.current_phase.clone(),
        active_gate: cp.current_gate.clone(),
        active_gate_iteration: cp.current_gate_iteration,
        checkpoint_file: Some(cp.path.clone()),
        acknowledged: cp.acknowledged,
    }
}

fn jerry_only(target: &Target, root: &Path, what: &str) -> Result<(), WriteError> {
    match target.kind {
        ProjectKind::Jerry => Ok(()),
        ProjectKind::Nexus => Err(not_applicable(
            target,
            root,
            format!(
                "{} is a Nexus project; Nexus has no checkpoints to {what}",
                target.project_id
            ),
        )),
    }
}

/// Records checkpoint `cp` in the project's `compaction_events`.
pub fn merge(
    root: &Path,
    target: &Target,
    cp: &Checkpoint,
    dry_run: bool,
) -> Result<Outcome, WriteError> {
    jerry_only(target, root, "merge")?;
    edit_state(
        root,
        target,
        &EditIntent::MergeCheckpoint(event_of(cp)),
        dry_run,
    )
}

/// Acknowledges `checkpoints` (their files, and their events in the section; with
/// `all`, every event of the section). The section is written first: it is the file
/// most likely to have changed under us, and then nothing else is written.
pub fn acknowledge(
    root: &Path,
    target: &Target,
    checkpoints: &[&Checkpoint],
    all: bool,
    now: Timestamp,
    dry_run: bool,
) -> Result<Outcome, WriteError> {
    jerry_only(target, root, "acknowledge")?;
    let mut outcome = Outcome::default();
    let intents: Vec<EditIntent> = if all {
        vec![EditIntent::AcknowledgeAll]
    } else {
        checkpoints
            .iter()
            .map(|c| EditIntent::AcknowledgeCheckpoint { id: c.id.clone() })
            .collect()
    };
    let _lock = hold_unless(dry_run, &root.join(&target.source))?;
    let snapshot = target.read(root)?;
    let mut text = snapshot.text()?.to_string();
    let mut ops = Vec::new();
    for intent in &intents {
        let edited = yaml_edit::edit_yaml(&target.source, &text, intent)?;
        ops.extend(edited.ops);
        text = edited.new;
    }
    let section = Edited {
        old: snapshot.text()?.to_string(),
        new: text,
        ops,
        note: None,
    };
    let file_changes = checkpoint_changes(root, checkpoints, now, &mut outcome)?;
    if !dry_run {
        // Refused files refuse the whole edit before anything is written.
        let replaced = file_changes.iter().filter_map(|(_, s)| s.as_ref());
        for snapshot in std::iter::once(&snapshot)
            .filter(|_| section.changed())
            .chain(replaced)
        {
            write::check_replace(snapshot)?;
        }
    }
    if section.changed() {
        if !dry_run {
            write::replace(&snapshot, section.new.as_bytes())?;
        }
        outcome.changes.push(FileChange {
            label: target.source.clone(),
            edited: section,
            created: false,
        });
    }
    // The section goes first: should a checkpoint's file fail (or the process
    // die) after it, the checkpoint still shows unacknowledged, and acknowledging
    // it again writes the file and leaves the section as it is.
    write_checkpoint_changes(root, file_changes, dry_run, &mut outcome)?;
    Ok(outcome)
}

/// Acknowledges checkpoints tied to no project: there is no state file to
/// record it in, so only their own files are written, as for a project's
/// checkpoint (a real Jerry checkpoint gets its `cx-NNN.acknowledged` marker, a
/// design one `metadata.acknowledged` in its JSON).
pub fn acknowledge_loose(
    root: &Path,
    checkpoints: &[&Checkpoint],
    now: Timestamp,
    dry_run: bool,
) -> Result<Outcome, WriteError> {
    let mut outcome = Outcome::default();
    let file_changes = checkpoint_changes(root, checkpoints, now, &mut outcome)?;
    if !dry_run {
        for snapshot in file_changes.iter().filter_map(|(_, s)| s.as_ref()) {
            write::check_replace(snapshot)?;
        }
    }
    write_checkpoint_changes(root, file_changes, dry_run, &mut outcome)?;
    Ok(outcome)
}

/// Writes each checkpoint's prepared change (none with `dry_run`), adding it to
/// `outcome`; a marker another writer created meanwhile is a note.
fn write_checkpoint_changes(
    root: &Path,
    changes: Vec<PreparedChange>,
    dry_run: bool,
    outcome: &mut Outcome,
) -> Result<(), WriteError> {
    for (change, snapshot) in changes {
        if !dry_run {
            let written = match snapshot {
                Some(snapshot) => write::replace(&snapshot, change.edited.new.as_bytes()),
                None => match create_marker(&root.join(&change.label)) {
                    Err(WriteError::AlreadyExists { .. }) => {
                        outcome
                            .notes
                            .push(format!("{} was created meanwhile", change.label));
                        continue;
                    }
                    other => other,
                },
            };
            if let Err(e) = written {
                return Err(partial(outcome, e));
            }
        }
        outcome.changes.push(change);
    }
    Ok(())
}

/// `failed`, said with what was already written (if anything was).
fn partial(outcome: &Outcome, failed: WriteError) -> WriteError {
    if outcome.changes.is_empty() {
        return failed;
    }
    let written: Vec<&str> = outcome.changes.iter().map(|c| c.label.as_str()).collect();
    WriteError::Partial {
        written: written.join(", "),
        failed: Box::new(failed),
    }
}

/// An empty `cx-NNN.acknowledged` marker, owner-only like the checkpoint it marks.
fn create_marker(path: &Path) -> Result<(), WriteError> {
    write::create_new(path, b"", Some(write::OWNER_ONLY))
}

type PreparedChange = (FileChange, Option<Snapshot>);

/// What acknowledging `cp` writes beside the section; `None` when it already is.
/// The change acknowledging each of `checkpoints`; one already acknowledged is
/// a note in `outcome`.
fn checkpoint_changes(
    root: &Path,
    checkpoints: &[&Checkpoint],
    now: Timestamp,
    outcome: &mut Outcome,
) -> Result<Vec<PreparedChange>, WriteError> {
    let mut changes = Vec::new();
    for cp in checkpoints {
        match checkpoint_change(root, cp, now)? {
            Some(change) => changes.push(change),
            None => outcome
                .notes
                .push(format!("{} is already acknowledged", cp.id)),
        }
    }
    Ok(changes)
}

fn checkpoint_change(
    root: &Path,
    cp: &Checkpoint,
    now: Timestamp,
) -> Result<Option<PreparedChange>, WriteError> {
    let path = root.join(&cp.path);
    match cp.format {
        CheckpointFormat::Design => {
            let snapshot = read_to_edit(&path)?;
            let text = snapshot.text()?.to_string();
            let invalid = |e: edit::json::JsonEditError| match e {
                edit::json::JsonEditError::Invalid {
                    message,
                    line,
                    column,
                } => WriteError::Invalid(
                    Diagnostic::error(cp.path.clone(), format!("not valid JSON: {message}"))
                        .at(line, column),
                ),
                edit::json::JsonEditError::Refused(reason) => WriteError::Refused {
                    path: path.clone(),
                    reason,
                },
            };
            let doc = edit::json::parse(&text).map_err(invalid)?;
            let ops =
                edit::json::plan_acknowledge(&doc, now).map_err(|e| WriteError::NotApplicable {
                    path: path.clone(),
                    message: e.to_string(),
                })?;
            if ops.is_empty() {
                return Ok(None);
            }
            let new = edit::json::edit(&text, &ops).map_err(invalid)?;
            let edited = Edited {
                old: text,
                new,
                ops,
                note: None,
            };
            let change = FileChange {
                label: cp.path.clone(),
                edited,
                created: false,
            };
            Ok(Some((change, Some(snapshot))))
        }
        CheckpointFormat::Jerry => {
            let marker = marker_path(&cp.path, &cp.id);
            if cp.acknowledged || root.join(&marker).exists() {
                return Ok(None);
            }
            if !path.is_file() {
                // A marker for a file deleted since it was read would acknowledge nothing.
                return Err(WriteError::NotApplicable {
                    path,
                    message: format!(
                        "{} is gone (its file was deleted or moved); nothing acknowledged",
                        cp.id
                    ),
                });
            }
            let change = FileChange {
                label: marker,
                edited: Edited::unchanged("", None),
                created: true,
            };
            Ok(Some((change, None)))
        }
    }
}

/// The marker the loader reads for the checkpoint at `checkpoint_path`, named
/// after its file, not its id (`…/cx-34.json` holding cx-034 → `…/cx-34.acknowledged`):
/// `…/cx-007.json` → `…/cx-007.acknowledged`. Only a path that is no `.json`
/// file (never read as a checkpoint) falls back to the id.
pub fn marker_path(checkpoint_path: &str, id: &str) -> String {
    if let Some(marker) = crate::io::load::marker_for(checkpoint_path) {
        return marker;
    }
    let name = format!("{}.acknowledged", id.to_lowercase());
    match checkpoint_path.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{name}"),
        None => name,
    }
}

#[cfg(test)]
#[path = "project_edit_tests.rs"]
mod tests;
