//! Carries out a `HookOutcome`'s planned writes through the atomic write path, or
//! describes them for `--dry-run`.

use std::fmt::Write as _;

use super::output::{HookOutcome, PlannedWrite, WriteOp};
use crate::io::write::{self, WriteError};

/// Performs the writes and returns the first failure in plan order. New files are
/// created owner-only; a replaced file keeps its mode. Durable writes
/// of different files (PreCompact's checkpoint and precompact state) run at the
/// same time: each is mostly waiting on its own fsyncs, and neither needs the
/// other. Otherwise the writes run in order and stop at the first failure.
pub fn execute(writes: &[PlannedWrite]) -> Result<(), WriteError> {
    let durable = writes.iter().filter(|w| w.durable).count();
    let distinct = writes
        .iter()
        .enumerate()
        .all(|(i, w)| writes.iter().skip(i + 1).all(|o| o.path != w.path));
    if durable < 2 || !distinct {
        return writes.iter().try_for_each(execute_one);
    }
    let results: Vec<Result<(), WriteError>> = std::thread::scope(|scope| {
        let (first, rest) = writes
            .split_first()
            .map_or((None, &[][..]), |(f, r)| (Some(f), r));
        let others: Vec<_> = rest
            .iter()
            .map(|w| scope.spawn(move || execute_one(w)))
            .collect();
        let mut results = vec![first.map_or(Ok(()), execute_one)];
        for (handle, planned) in others.into_iter().zip(rest) {
            results.push(handle.join().unwrap_or_else(|_| {
                Err(WriteError::io(
                    &planned.path,
                    std::io::Error::other("the writing thread panicked"),
                ))
            }));
        }
        results
    });
    results.into_iter().collect()
}

fn execute_one(planned: &PlannedWrite) -> Result<(), WriteError> {
    let options = write::Options {
        durable: planned.durable,
        ..write::Options::default()
    };
    match &planned.op {
        WriteOp::Create(bytes) => {
            if let Some(dir) = planned.path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| WriteError::io(dir, e))?;
            }
            write::create_new_with(&planned.path, bytes, Some(write::OWNER_ONLY), &options)
        }
        WriteOp::Replace { snapshot, bytes } => write::replace_with(snapshot, bytes, &options),
        WriteOp::Remove { snapshot } => write::remove_with(snapshot, &options),
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

    /// PreCompact's two files are written side by side: a failure of one does not
    /// keep the other from being written, and the first failure is returned.
    #[test]
    fn independent_durable_writes_all_run_and_the_first_failure_is_returned() {
        let dir = tempfile::tempdir().unwrap();
        let taken = dir.path().join("checkpoints/cx-001-checkpoint.json");
        std::fs::create_dir_all(taken.parent().unwrap()).unwrap();
        std::fs::write(&taken, "{}").unwrap();
        let state = dir.path().join(".cache/precompact_state.json");
        let result = execute(&[create(&taken, "{\"new\": 1}"), create(&state, "{}")]);
        assert!(
            matches!(result, Err(WriteError::AlreadyExists { .. })),
            "{result:?}"
        );
        assert_eq!(std::fs::read_to_string(&taken).unwrap(), "{}");
        assert_eq!(std::fs::read_to_string(&state).unwrap(), "{}");
        let other = dir.path().join("other.json");
        execute(&[create(&other, "1"), create(&dir.path().join("b.json"), "2")]).unwrap();
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "1");
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
        let result = remover.join().unwrap();
        assert!(
            matches!(result, Err(WriteError::ChangedOnDisk { .. })),
            "{result:?}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"active_project_id\": \"09-b\"}"
        );
    }
}
