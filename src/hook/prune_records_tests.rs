use std::time::{Duration, SystemTime};

use super::*;
use crate::config::Config;
use crate::core::time::Timestamp;
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

fn context_at(now: SystemTime) -> (Env, Config, HookInput, Timestamp) {
    let seconds = now.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    (
        Env::default(),
        Config::default(),
        HookInput::from_map(serde_json::Map::new()),
        Timestamp::from_unix(i64::try_from(seconds).unwrap()),
    )
}

/// A stamp that is a symlink (to a file outside, or dangling) or a folder is
/// never written through, and nothing is pruned; a records folder that is a
/// symlink (or a `.jerry` that is one) is never pruned: names matching a
/// pattern are not removed from wherever a link leads.
#[cfg(unix)]
#[test]
fn links_and_folders_in_place_of_the_stamp_or_the_folder_stop_the_pruning() {
    let now = SystemTime::now();
    let (env, config, input, at) = context_at(now);
    let ctx = HookContext::new(&env, at, &config, &input);
    let outside = tempfile::tempdir().unwrap();
    let precious = outside.path().join("precious.txt");
    std::fs::write(&precious, "IMPORTANT").unwrap();
    let old = outside.path().join("package.json");
    std::fs::write(&old, "{}").unwrap();
    aged(&old, 30, now);

    for stamp in ["link", "dangling", "folder"] {
        let root = tempfile::tempdir().unwrap();
        let dir = records_dir(root.path());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("old.json"), "{}").unwrap();
        aged(&dir.join("old.json"), 30, now);
        match stamp {
            "link" => std::os::unix::fs::symlink(&precious, dir.join(STAMP)).unwrap(),
            "dangling" => {
                std::os::unix::fs::symlink(outside.path().join("none"), dir.join(STAMP)).unwrap();
            }
            _ => std::fs::create_dir(dir.join(STAMP)).unwrap(),
        }
        let mut out = HookOutcome::default();
        plan(root.path(), &ctx, None, &mut out);
        assert!(out.writes.is_empty(), "{stamp}: {:?}", out.writes.len());
        assert!(
            out.explain.iter().any(|l| l.contains("not a regular file")),
            "{stamp}"
        );
    }
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "IMPORTANT");
    assert!(!outside.path().join("none").exists());

    for linked in [".jerry/context-window", ".jerry"] {
        let root = tempfile::tempdir().unwrap();
        let link = root.path().join(linked);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        let target = if linked == ".jerry" {
            let jerry = outside.path().join("jerry");
            std::fs::create_dir_all(&jerry).unwrap();
            std::os::unix::fs::symlink(outside.path(), jerry.join("context-window")).unwrap();
            jerry
        } else {
            outside.path().to_path_buf()
        };
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let mut out = HookOutcome::default();
        plan(root.path(), &ctx, None, &mut out);
        assert!(out.writes.is_empty(), "{linked}");
    }
    assert!(old.exists());
}
