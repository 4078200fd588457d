//! `.jerry/context-window/` gains two records per session, the status line's
//! `<session>.json` and the hooks' `<session>.hooks.json`, and nothing else ever
//! removes them; every write of a record lists that folder for its leftover
//! temporary files. SessionStart removes the records untouched for
//! [`KEEP_DAYS`] days, at most once a day: the folder's `.pruned` stamp says when
//! it last looked. A removed record is only a cache: a session resumed later
//! learns its evidence again from its transcript, and the status line writes its
//! figures again at the next refresh.

use std::path::Path;

use super::context::{HookContext, jerry_dir};
use super::output::{HookOutcome, WriteOp};
use crate::io::clock::timestamp_of;
use crate::io::context_fill::statusline_record::{plain_session_id, records_dir};
use crate::io::write::read_snapshot_capped;

/// Records untouched for this many days are removed.
pub const KEEP_DAYS: i64 = 7;
/// The folder is looked through at most once in this many seconds.
const EVERY_SECONDS: i64 = 24 * 60 * 60;
/// At most this many records are removed by one hook run (the rest the next day),
/// and at most this many entries looked at.
const MAX_REMOVED: usize = 200;
const MAX_EXAMINED: usize = 4_000;
/// A record is a few hundred bytes: a larger file of that name is not one.
const MAX_RECORD_BYTES: u64 = 64 * 1024;
const STAMP: &str = ".pruned";

/// Plans the removal of the stale records of `root`'s folder, and the stamp.
/// Only in a real folder (`.jerry` and `context-window` not symlinks: a pattern
/// of names is never removed from wherever a link leads), and only with a stamp
/// that is absent or a regular file (one that is a link is never written
/// through).
pub fn plan(root: &Path, ctx: &HookContext, session_id: Option<&str>, out: &mut HookOutcome) {
    let dir = records_dir(root);
    let stamp = dir.join(STAMP);
    // The stamp first: on every day but one, the only look this hook adds.
    match std::fs::symlink_metadata(&stamp) {
        Ok(meta) if !meta.is_file() => {
            return out.explain(format!(
                "session records not pruned: {} is not a regular file",
                stamp.display()
            ));
        }
        Ok(meta) => {
            let at = meta.modified().ok().and_then(timestamp_of);
            if at.is_some_and(|at| ctx.now.seconds_since(at) < EVERY_SECONDS) {
                return;
            }
        }
        Err(_) => {}
    }
    if !(real_folder(&jerry_dir(root)) && real_folder(&dir)) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut removed = 0;
    for entry in entries.flatten().take(MAX_EXAMINED) {
        if removed == MAX_REMOVED {
            break;
        }
        let name = entry.file_name();
        let Some(session) = name.to_str().and_then(record_session) else {
            continue;
        };
        if Some(session) == session_id {
            continue;
        }
        // The entry itself, never what a symlink names.
        let stale = entry.metadata().is_ok_and(|meta| {
            meta.is_file()
                && meta
                    .modified()
                    .ok()
                    .and_then(timestamp_of)
                    .is_some_and(|at| ctx.now.seconds_since(at) >= KEEP_DAYS * EVERY_SECONDS)
        });
        if !stale {
            continue;
        }
        let path = entry.path();
        match read_snapshot_capped(&path, MAX_RECORD_BYTES) {
            Ok(snapshot) => {
                out.write_cache(
                    path,
                    WriteOp::Remove { snapshot },
                    format!("session record untouched for {KEEP_DAYS} days"),
                );
                removed += 1;
            }
            Err(e) if !e.is_missing() => out.error(format!("{e}; left in place")),
            Err(_) => {}
        }
    }
    out.explain(format!(
        "session records: {removed} untouched for {KEEP_DAYS} days removed from {}",
        dir.display()
    ));
    match WriteOp::put(&stamp, format!("{}\n", ctx.now.to_iso()).into_bytes()) {
        Ok(op) => out.write_cache(stamp, op, "session records looked through"),
        Err(e) => out.error(format!("{e}; left alone")),
    }
}

/// The session a record's file name names: `<session>.json` or
/// `<session>.hooks.json`, the session id plain (letters, digits, `-`, `_`: the
/// only ids recorded), so never a hidden file (the stamp, temporary files).
fn record_session(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(".json")?;
    let session = stem.strip_suffix(".hooks").unwrap_or(stem);
    plain_session_id(session).then_some(session)
}

/// A folder itself, not a symlink to one.
fn real_folder(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir())
}

#[cfg(test)]
#[path = "prune_records_tests.rs"]
mod tests;
