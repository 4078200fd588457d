use std::time::{Duration, SystemTime};

use super::*;
use crate::config::Config;
use crate::hook::execute::execute;
use crate::hook::input::HookInput;
use crate::io::env::Env;
use crate::io::test_support::names_in;

const DAY: u64 = 24 * 60 * 60;

fn aged(path: &Path, days: u64, now: SystemTime) {
    let at = now - Duration::from_secs(days * DAY);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(at)
        .unwrap();
}

/// Records untouched for a week go, except the current session's; what is not
/// a record (hidden files, other names, symlinks, folders) stays; then the stamp
/// keeps the folder from being looked through again the same day.
#[cfg(unix)]
#[test]
fn stale_records_are_removed_once_a_day_and_nothing_else() {
    let root = tempfile::tempdir().unwrap();
    let dir = records_dir(root.path());
    std::fs::create_dir_all(&dir).unwrap();
    let now = SystemTime::now();
    let write = |name: &str, days: u64| {
        let path = dir.join(name);
        std::fs::write(&path, "{}").unwrap();
        aged(&path, days, now);
    };
    write("old.json", 8);
    write("old.hooks.json", 30);
    write("young.json", 6);
    write("young.hooks.json", 1);
    write("mine.hooks.json", 40);
    write(".old.json.abcdef.tmp", 40);
    write("notes.txt", 40);
    write(".json", 40);
    std::os::unix::fs::symlink(dir.join("notes.txt"), dir.join("link.json")).unwrap();
    std::fs::create_dir(dir.join("folder.json")).unwrap();

    let input = HookInput::from_map(serde_json::Map::new());
    let (env, config) = (Env::default(), Config::default());
    let seconds = now.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let ctx = HookContext::new(
        &env,
        Timestamp::from_unix(i64::try_from(seconds).unwrap()),
        &config,
        &input,
    );
    let mut out = HookOutcome::default();
    plan(root.path(), &ctx, Some("mine"), &mut out);
    let mut removed: Vec<String> = out
        .writes
        .iter()
        .filter(|w| matches!(w.op, WriteOp::Remove { .. }))
        .map(|w| w.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    removed.sort();
    assert_eq!(removed, ["old.hooks.json", "old.json"]);
    assert!(out.writes.iter().all(|w| !w.durable));
    let done = execute(&out.writes);
    assert!(done.failures.is_empty(), "{:?}", done.failures);
    assert_eq!(
        names_in(&dir),
        [
            ".json",
            ".old.json.abcdef.tmp",
            ".pruned",
            "folder.json",
            "link.json",
            "mine.hooks.json",
            "notes.txt",
            "young.hooks.json",
            "young.json"
        ]
    );

    // Within a day of the stamp: not looked through, even with a stale record.
    write("later.json", 9);
    let mut again = HookOutcome::default();
    plan(root.path(), &ctx, Some("mine"), &mut again);
    assert!(again.writes.is_empty());
    // A day on, it is.
    aged(&dir.join(STAMP), 2, now);
    let mut next_day = HookOutcome::default();
    plan(root.path(), &ctx, Some("mine"), &mut next_day);
    let planned: Vec<&str> = next_day
        .writes
        .iter()
        .map(|w| w.path.file_name().unwrap().to_str().unwrap())
        .collect();
    assert_eq!(planned, ["later.json", ".pruned"]);
}

#[test]
fn record_names_name_their_session() {
    assert_eq!(record_session("abc-1.json"), Some("abc-1"));
    assert_eq!(record_session("abc-1.hooks.json"), Some("abc-1"));
    for other in [
        ".pruned",
        ".abc.json.x1y2z3.tmp",
        ".json",
        "abc.txt",
        "abc.json.lock",
    ] {
        assert_eq!(record_session(other), None, "{other}");
    }
}

/// No folder: nothing planned, not even the stamp.
#[test]
fn a_workspace_without_records_plans_nothing() {
    let root = tempfile::tempdir().unwrap();
    let input = HookInput::from_map(serde_json::Map::new());
    let (env, config) = (Env::default(), Config::default());
    let ctx = HookContext::new(&env, Timestamp::from_unix(1_800_000_000), &config, &input);
    let mut out = HookOutcome::default();
    plan(root.path(), &ctx, None, &mut out);
    assert!(out.writes.is_empty());
}
