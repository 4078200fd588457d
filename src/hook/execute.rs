//! Carries out a `HookOutcome`'s planned writes through the atomic write path, or
//! describes them for `--dry-run`.

use std::fmt::Write as _;
use std::fs::File;
use std::path::PathBuf;

use super::output::{HookOutcome, PlannedWrite, WriteOp};
use crate::io::write::{self, WriteError};

/// What carrying out a plan did.
#[derive(Debug, Default)]
pub struct Executed {
    /// Every write that failed, in plan order.
    pub failures: Vec<WriteError>,
    /// What the durable writes that were made call to be fsynced: each file
    /// written, or the folder of a file removed.
    pub to_fsync: Vec<PathBuf>,
    /// The replaced files, open: kept until the fsync child has been started, so
    /// that its last close (the child's) frees their blocks, not this process
    /// (`write::replace_holding_old`). Caches' too, when the plan has a durable
    /// write, hence a child.
    pub old_files: Vec<File>,
}

/// Performs every write, in plan order: the writes are independent (each is
/// checked against its own snapshot), so one that fails does not keep the others
/// from being made. New files are created owner-only; a replaced file keeps its
/// mode. Nothing is fsynced here: [`Executed::to_fsync`] is, after the hook exits
/// (`io::fsync_later`).
pub fn execute(writes: &[PlannedWrite]) -> Executed {
    let mut done = Executed::default();
    let child_expected = writes.iter().any(|w| w.durable);
    for planned in writes {
        match execute_one(planned, child_expected) {
            Ok(old) if planned.durable => {
                done.old_files.extend(old);
                done.to_fsync.extend(match &planned.op {
                    WriteOp::Create(_) | WriteOp::Replace { .. } => Some(planned.path.clone()),
                    WriteOp::Remove { .. } => planned.path.parent().map(PathBuf::from),
                });
            }
            Ok(old) => done.old_files.extend(old),
            Err(e) => done.failures.push(e),
        }
    }
    done
}

/// Makes one write; the replaced file, open, for a durable replace, and for a
/// cache's when a child will free it (`child_expected`).
fn execute_one(planned: &PlannedWrite, child_expected: bool) -> Result<Option<File>, WriteError> {
    let options = write::Options {
        durable: false,
        lock_timeout: write::HOOK_LOCK_WAIT,
        // The hooks' own files: a hard-link snapshot's copy keeps the old content.
        split_links: true,
        ..write::Options::default()
    };
    match &planned.op {
        WriteOp::Create(bytes) => {
            if let Some(dir) = planned.path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| WriteError::io(dir, e))?;
            }
            write::create_new_with(&planned.path, bytes, Some(write::OWNER_ONLY), &options)
                .map(|()| None)
        }
        WriteOp::Replace { snapshot, bytes } if planned.durable => {
            write::replace_holding_old(snapshot, bytes, &options)
        }
        // A cache, never fsynced (`write::replace_cache_with`).
        WriteOp::Replace { snapshot, bytes } if child_expected => {
            write::replace_cache_holding_old(snapshot, bytes, &options)
        }
        WriteOp::Replace { snapshot, bytes } => {
            write::replace_cache_with(snapshot, bytes, &options).map(|()| None)
        }
        WriteOp::Remove { snapshot } => write::remove_with(snapshot, &options).map(|()| None),
    }
}

/// The `--dry-run` report: every planned write with its content, then the stdout
/// Claude Code would read, then (with `explain`) why.
pub fn describe(event: &str, outcome: &HookOutcome, explain: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "resume-tui hook {event} --dry-run: nothing was written"
    );
    if outcome.writes.is_empty() {
        let _ = writeln!(out, "\n== no files would be written");
    }
    for planned in &outcome.writes {
        let _ = writeln!(
            out,
            "\n== would {} {} ({})",
            planned.op.verb(),
            planned.path.display(),
            planned.why
        );
        if let Some(bytes) = planned.op.bytes() {
            out.push_str(&String::from_utf8_lossy(bytes));
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    match &outcome.stdout {
        Some(stdout) => {
            let _ = writeln!(out, "\n== would print on stdout\n{stdout}");
            if let Some(text) = injected_text(stdout) {
                let _ = writeln!(out, "\n== injected context, as Claude reads it\n{text}");
            }
        }
        None => {
            let _ = writeln!(out, "\n== would print nothing on stdout");
        }
    }
    if explain {
        let _ = writeln!(out, "\n== why");
        for line in &outcome.explain {
            let _ = writeln!(out, "- {line}");
        }
        for (level, line) in &outcome.log {
            let _ = writeln!(out, "- log {}: {line}", level.label());
        }
    }
    out
}

fn injected_text(stdout: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(stdout).ok()?;
    value
        .get("hookSpecificOutput")?
        .get("additionalContext")?
        .as_str()
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::write::{lock_path, read_snapshot};

    fn create(path: &std::path::Path, bytes: &str) -> PlannedWrite {
        PlannedWrite {
            path: path.to_path_buf(),
            op: WriteOp::Create(bytes.as_bytes().to_vec()),
            why: "test".into(),
            durable: true,
        }
    }

    /// PreCompact's two files are independent: a failure of one does not keep the
    /// other from being written, and every failure is returned.
    #[test]
    fn independent_writes_all_run_and_every_failure_is_returned() {
        let dir = tempfile::tempdir().unwrap();
        let taken = dir.path().join("checkpoints/cx-001-checkpoint.json");
        std::fs::create_dir_all(taken.parent().unwrap()).unwrap();
        std::fs::write(&taken, "{}").unwrap();
        let state = dir.path().join(".cache/precompact_state.json");
        let done = execute(&[create(&taken, "{\"new\": 1}"), create(&state, "{}")]);
        assert_eq!(done.failures.len(), 1, "{:?}", done.failures);
        assert!(
            matches!(done.failures[0], WriteError::AlreadyExists { .. }),
            "{:?}",
            done.failures
        );
        assert_eq!(std::fs::read_to_string(&taken).unwrap(), "{}");
        assert_eq!(std::fs::read_to_string(&state).unwrap(), "{}");
        // Only what was written is left to fsync.
        assert_eq!(done.to_fsync, vec![state]);
        let other = dir.path().join("other.json");
        let done = execute(&[create(&other, "1"), create(&dir.path().join("b.json"), "2")]);
        assert!(done.failures.is_empty(), "{:?}", done.failures);
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "1");
    }

    /// Durable writes name what to fsync after exit: the file written, or the folder
    /// of the file removed; a cache names nothing.
    #[test]
    fn durable_writes_name_the_files_and_folders_to_fsync() {
        let dir = tempfile::tempdir().unwrap();
        let checkpoint = dir.path().join("checkpoints/cx-001-checkpoint.json");
        let state = dir.path().join(".cache/precompact_state.json");
        std::fs::create_dir_all(state.parent().unwrap()).unwrap();
        std::fs::write(&state, "{}").unwrap();
        let mut cache = create(&dir.path().join("context-monitor-state.json"), "{}");
        cache.durable = false;
        let removal = PlannedWrite {
            path: state.clone(),
            op: WriteOp::Remove {
                snapshot: read_snapshot(&state).unwrap(),
            },
            why: "consumed".into(),
            durable: true,
        };
        let done = execute(&[create(&checkpoint, "{}"), cache, removal]);
        assert!(done.failures.is_empty(), "{:?}", done.failures);
        assert_eq!(done.to_fsync, vec![checkpoint, dir.path().join(".cache")]);
    }

    /// A durable replace (a checkpoint updated) hands back the old file, open, to
    /// be closed once the fsync child has its own handle, and so does a cache's
    /// replace beside it; a creation hands back nothing, and a cache's replace
    /// with no durable write (no child) nothing either.
    #[test]
    fn replaced_files_are_kept_open_when_a_child_will_free_them() {
        let dir = tempfile::tempdir().unwrap();
        let checkpoint = dir.path().join("cx-001-checkpoint.json");
        let cache = dir.path().join("context-monitor-state.json");
        std::fs::write(&checkpoint, "{\"old\": 1}").unwrap();
        std::fs::write(&cache, "{}").unwrap();
        let replace = |path: &std::path::Path, durable: bool| PlannedWrite {
            path: path.to_path_buf(),
            op: WriteOp::Replace {
                snapshot: read_snapshot(path).unwrap(),
                bytes: b"{\"new\": 2}".to_vec(),
            },
            why: "test".into(),
            durable,
        };
        let created = dir.path().join("cx-002-checkpoint.json");
        let done = execute(&[
            replace(&checkpoint, true),
            replace(&cache, false),
            create(&created, "{}"),
        ]);
        assert!(done.failures.is_empty(), "{:?}", done.failures);
        assert_eq!(done.to_fsync, vec![checkpoint.clone(), created]);
        let held: Vec<String> = done
            .old_files
            .iter()
            .map(|file| std::io::read_to_string(file).unwrap())
            .collect();
        assert_eq!(held, ["{\"old\": 1}", "{}"]);
        assert_eq!(
            std::fs::read_to_string(&checkpoint).unwrap(),
            "{\"new\": 2}"
        );
        assert_eq!(std::fs::read_to_string(&cache).unwrap(), "{\"new\": 2}");
        let cache_alone = execute(&[replace(&cache, false)]);
        assert!(
            cache_alone.failures.is_empty(),
            "{:?}",
            cache_alone.failures
        );
        assert!(cache_alone.old_files.is_empty());
        assert!(cache_alone.to_fsync.is_empty());
    }

    /// The consumed precompact state is removed under the sidecar lock, so a writer
    /// holding it can finish, and a state it rewrote in the meantime is kept.
    #[test]
    fn a_consumed_state_is_removed_under_the_lock_and_only_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("precompact_state.json");
        std::fs::write(&path, "{\"active_project_id\": \"07-a\"}").unwrap();
        let snapshot = read_snapshot(&path).unwrap();
        let lock = std::fs::File::create(lock_path(&path)).unwrap();
        lock.lock().unwrap();
        let planned = PlannedWrite {
            path: path.clone(),
            op: WriteOp::Remove { snapshot },
            why: "consumed".into(),
            durable: true,
        };
        let remover = std::thread::spawn(move || execute(&[planned]));
        std::thread::sleep(std::time::Duration::from_millis(200));
        std::fs::write(&path, "{\"active_project_id\": \"09-b\"}").unwrap();
        lock.unlock().unwrap();
        let done = remover.join().unwrap();
        assert!(
            matches!(done.failures[..], [WriteError::ChangedOnDisk { .. }]),
            "{:?}",
            done.failures
        );
        assert!(done.to_fsync.is_empty());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"active_project_id\": \"09-b\"}"
        );
    }
}
