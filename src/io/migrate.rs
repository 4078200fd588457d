//! Applies the migrations planned in `core::migrate` to files on disk.
//!
//! - Content changes go through `io::write::replace` (locked, atomic, refusing a file
//!   that changed since it was read).
//! - A legacy `_resume.md` is renamed without ever overwriting: a hard link under the
//!   new name (which fails if that name exists), a check that the old name still
//!   holds what was read, then the old name is removed. Where hard links are not
//!   supported, the bytes are written with `io::write::create_new` instead.
//! - `--backup` keeps the original bytes beside the file as `<file>.bak` (then
//!   `.bak.1`, `.bak.2`, … when that exists; never overwritten), made with
//!   `create_new` before anything changes.
//! - A dry run writes nothing and returns the unified diffs.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::core::edit::diff;
use crate::core::migrate::nexus::{ManifestInput, legacy_target, migrate_manifest};
use crate::core::migrate::report::{FileReport, Report, Status};
use crate::core::migrate::resumption::migrate_resumption;
use crate::core::migrate::{Migration, Outcome};
use crate::core::time::Timestamp;
use crate::io::discover::{FileKind, discover};
use crate::io::env::Env;
use crate::io::write::{self, ContentHash, Snapshot, WriteError};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    pub dry_run: bool,
    pub backup: bool,
}

/// Backups tried per file before giving up: `.bak`, `.bak.1` … `.bak.99`.
const MAX_BACKUPS: usize = 100;

/// Migrates the `resumption:` sections of the given ORCHESTRATION.yaml files
/// (root-relative paths).
pub fn migrate_resumptions(root: &Path, sources: &[String], options: Options) -> Report {
    let files = sources
        .iter()
        .map(|rel| {
            let path = root.join(rel);
            let snapshot = match crate::io::project_edit::read_to_edit(&path) {
                Ok(snapshot) => snapshot,
                Err(e) => return failed(rel, &e),
            };
            let outcome = match snapshot.text() {
                Ok(text) => migrate_resumption(rel, text),
                Err(e) => Outcome::skipped(e.to_string()),
            };
            apply(rel, None, &snapshot, outcome, options)
        })
        .collect();
    Report {
        command: "resumption",
        dry_run: options.dry_run,
        files,
    }
}

/// Every Nexus manifest under `root`: legacy `_resume.md` files renamed to
/// `01-planning/resume-context.md` and every frontmatter brought to the schema.
pub fn migrate_nexus(root: &Path, env: &Env, options: Options) -> Report {
    let discovery = discover(root, env);
    let mut seen = HashSet::new();
    let mut files = Vec::new();
    for found in discovery.of_kind(FileKind::NexusManifest) {
        if seen.insert(found.dir.clone()) {
            files.extend(nexus_project(root, &found.dir, &found.rel, options));
        }
    }
    Report {
        command: "nexus",
        dry_run: options.dry_run,
        files,
    }
}

fn join(dir: &str, tail: &str) -> String {
    if dir.is_empty() {
        tail.to_string()
    } else {
        format!("{dir}/{tail}")
    }
}

/// One project folder: which of its manifests to migrate, rename or leave alone.
fn nexus_project(root: &Path, dir: &str, chosen: &str, options: Options) -> Vec<FileReport> {
    let current = join(dir, "01-planning/resume-context.md");
    let legacy: Vec<String> = [join(dir, "01-planning/_resume.md"), join(dir, "_resume.md")]
        .into_iter()
        .filter(|rel| root.join(rel).is_file())
        .collect();
    let current_exists = root.join(&current).is_file();
    if current_exists && !legacy.is_empty() {
        let mut reports: Vec<FileReport> = legacy
            .iter()
            .map(|old| {
                FileReport::new(old, Status::Skipped).with_reason(format!(
                    "{current} exists too; compare the two, delete the one you do not need, and run again"
                ))
            })
            .collect();
        reports.push(
            FileReport::new(&current, Status::Skipped).with_reason(format!(
                "left alone while the legacy {} exists beside it",
                legacy.join(" and ")
            )),
        );
        return reports;
    }
    if let [first, second] = legacy.as_slice() {
        return [first, second]
            .iter()
            .map(|old| {
                FileReport::new(*old, Status::Skipped).with_reason(format!(
                    "two legacy manifests ({first}, {second}); delete the one you do not need, and run again"
                ))
            })
            .collect();
    }
    let (source, target) = match legacy.first() {
        Some(old) => match legacy_target(old) {
            Some(target) => (old.clone(), target),
            None => (old.clone(), old.clone()),
        },
        None => (chosen.to_string(), chosen.to_string()),
    };
    vec![nexus_file(root, dir, &source, &target, options)]
}

fn nexus_file(root: &Path, dir: &str, source: &str, target: &str, options: Options) -> FileReport {
    let path = root.join(source);
    let snapshot = match crate::io::project_edit::read_to_edit(&path) {
        Ok(snapshot) => snapshot,
        Err(e) => return failed(source, &e),
    };
    let outcome = match snapshot.text() {
        Ok(text) => migrate_manifest(&ManifestInput {
            source,
            target,
            dir,
            text,
            modified: modified(&path),
        }),
        Err(e) => Outcome::skipped(e.to_string()),
    };
    let rename = (source != target).then(|| (root.join(target), target));
    apply(source, rename, &snapshot, outcome, options)
}

fn modified(path: &Path) -> Option<Timestamp> {
    crate::io::clock::timestamp_of(std::fs::metadata(path).ok()?.modified().ok()?)
}

fn failed(rel: &str, e: &WriteError) -> FileReport {
    FileReport::new(rel, Status::Failed).with_reason(e.to_string())
}

/// Turns an outcome into a report entry and, unless this is a dry run, into
/// writes: backup, rename (when `rename` names a new path), new content.
fn apply(
    rel: &str,
    rename: Option<(PathBuf, &str)>,
    snapshot: &Snapshot,
    outcome: Outcome,
    options: Options,
) -> FileReport {
    let old = String::from_utf8_lossy(&snapshot.bytes).into_owned();
    let migration = match outcome {
        Outcome::Skipped { reason } => {
            return FileReport::new(rel, Status::Skipped).with_reason(reason);
        }
        Outcome::Unchanged { note, unresolved } if rename.is_none() => {
            let mut report = FileReport::new(rel, Status::Unchanged).with_reason(note);
            report.unresolved = unresolved;
            return report;
        }
        Outcome::Unchanged { unresolved, .. } => Migration {
            text: old.clone(),
            changes: Vec::new(),
            unresolved,
        },
        Outcome::Changed(migration) => migration,
    };
    let mut report = FileReport::new(rel, Status::Changed);
    report.renamed_to = rename.as_ref().map(|(_, to)| (*to).to_string());
    if let Some((_, to)) = &rename {
        report.changes.push(format!("renamed to {to}"));
    }
    report.changes.extend(migration.changes);
    report.unresolved = migration.unresolved;
    let content_changed = migration.text != old;
    if options.dry_run {
        let label = rename.as_ref().map_or(rel, |(_, to)| *to);
        let mut text = match &rename {
            Some((_, to)) => format!("rename from {rel}\nrename to {to}\n"),
            None => String::new(),
        };
        text.push_str(&diff::unified(label, &old, &migration.text, 3));
        report.diff = Some(text);
        return report;
    }
    let backup = if options.backup {
        match make_backup(&snapshot.path, &snapshot.bytes) {
            Ok(path) => Some(path),
            Err(e) => return failed(rel, &e),
        }
    } else {
        None
    };
    let written = write_all(
        snapshot,
        rename.as_ref().map(|(p, _)| p.as_path()),
        content_changed,
        &migration.text,
    );
    match (written, backup) {
        (Ok(()), Some(path)) => {
            report.backup = Some(relative_name(rel, &path));
            report
        }
        (Ok(()), None) => report,
        (Err(e), backup) => {
            if let Some(path) = backup {
                // Nothing changed, so the backup is not needed.
                let _ = std::fs::remove_file(path);
            }
            let mut report = failed(rel, &e);
            report.renamed_to = None;
            report
        }
    }
}

/// The backup's path shown in the report: beside `rel`, under its own name.
fn relative_name(rel: &str, path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match rel.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{name}"),
        None => name,
    }
}

fn write_all(
    snapshot: &Snapshot,
    rename: Option<&Path>,
    content_changed: bool,
    new: &str,
) -> Result<(), WriteError> {
    let Some(target) = rename else {
        return write::replace(snapshot, new.as_bytes());
    };
    rename_no_clobber(snapshot, target)?;
    if content_changed {
        let moved = Snapshot::from_bytes(target, snapshot.bytes.clone());
        if let Err(e) = write::replace(&moved, new.as_bytes()) {
            // Put the file back under its old name; it still holds the old bytes.
            let back = Snapshot::from_bytes(target, snapshot.bytes.clone());
            let _ = rename_no_clobber(&back, &snapshot.path);
            return Err(e);
        }
    }
    Ok(())
}

/// Renames the snapshot's file to `target`, which must not exist, and only if the
/// file still holds the snapshot's bytes.
pub fn rename_no_clobber(snapshot: &Snapshot, target: &Path) -> Result<(), WriteError> {
    let source = &snapshot.path;
    if let Some(parent) = target.parent()
        && !parent.as_os_str().is_empty()
        && !parent.is_dir()
    {
        std::fs::create_dir(parent).map_err(|e| WriteError::io(parent, e))?;
    }
    match std::fs::hard_link(source, target) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(WriteError::AlreadyExists {
                path: target.to_path_buf(),
            });
        }
        Err(_) => write::create_new(target, &snapshot.bytes, None)?,
    }
    let still = std::fs::read(source).map(|bytes| ContentHash::of(&bytes) == snapshot.hash);
    if !matches!(still, Ok(true)) {
        let _ = std::fs::remove_file(target);
        return Err(WriteError::ChangedOnDisk {
            path: source.clone(),
        });
    }
    std::fs::remove_file(source).map_err(|e| {
        let _ = std::fs::remove_file(target);
        WriteError::io(source, e)
    })
}

/// Writes `bytes` to the first free `<file>.bak`, `<file>.bak.1`, … beside `path`.
pub fn make_backup(path: &Path, bytes: &[u8]) -> Result<PathBuf, WriteError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for n in 0..MAX_BACKUPS {
        let candidate = match n {
            0 => path.with_file_name(format!("{name}.bak")),
            n => path.with_file_name(format!("{name}.bak.{n}")),
        };
        match write::create_new(&candidate, bytes, mode_of(path)) {
            Ok(()) => return Ok(candidate),
            Err(WriteError::AlreadyExists { .. }) => continue,
            Err(e) => return Err(e),
        }
    }
    Err(WriteError::Refused {
        path: path.to_path_buf(),
        reason: format!("{MAX_BACKUPS} backups exist beside it; remove some and run again"),
    })
}

#[cfg(unix)]
fn mode_of(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o777)
}

#[cfg(not(unix))]
fn mode_of(_path: &Path) -> Option<u32> {
    None
}

#[cfg(test)]
#[path = "migrate_tests.rs"]
mod tests;
