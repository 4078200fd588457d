//! Carries out a `HookOutcome`'s planned writes through the atomic write path, or
//! describes them for `--dry-run`.

use std::fmt::Write as _;

use super::output::{HookOutcome, PlannedWrite, WriteOp};
use crate::io::write::{self, WriteError};

/// Performs each write in order; stops at the first failure and returns it.
pub fn execute(writes: &[PlannedWrite]) -> Result<(), WriteError> {
    writes.iter().try_for_each(execute_one)
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
            write::create_new_with(&planned.path, bytes, None, &options)
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
