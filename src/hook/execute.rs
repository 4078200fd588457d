//! Carries out a `HookOutcome`'s planned writes through the atomic write path, or
//! describes them for `--dry-run`.

use std::fmt::Write as _;
use std::path::Path;

use super::output::{HookOutcome, PlannedWrite, WriteOp};
use crate::io::write::{self, ContentHash, WriteError};

/// Performs each write in order; stops at the first failure and returns it.
pub fn execute(writes: &[PlannedWrite]) -> Result<(), WriteError> {
    writes.iter().try_for_each(execute_one)
}

fn execute_one(planned: &PlannedWrite) -> Result<(), WriteError> {
    match &planned.op {
        WriteOp::Create(bytes) => {
            if let Some(dir) = planned.path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| WriteError::io(dir, e))?;
            }
            write::create_new(&planned.path, bytes, None)
        }
        WriteOp::Replace { snapshot, bytes } => write::replace(snapshot, bytes),
        WriteOp::Remove { snapshot } => remove_unchanged(&snapshot.path, snapshot.hash),
    }
}

/// Removes `path` if it still holds the bytes that were read. (`io::write` has no
/// removal yet; this keeps the "refuse what changed" rule for the one file a hook
/// deletes, the consumed precompact state.)
fn remove_unchanged(path: &Path, hash: ContentHash) -> Result<(), WriteError> {
    let current = match std::fs::read(path) {
        Ok(bytes) => bytes,
        // Already consumed by a sibling hook run: the goal is reached.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(WriteError::io(path, e)),
    };
    if ContentHash::of(&current) != hash {
        return Err(WriteError::ChangedOnDisk {
            path: path.to_path_buf(),
        });
    }
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(WriteError::io(path, e)),
        _ => Ok(()),
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
