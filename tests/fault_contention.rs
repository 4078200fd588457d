//! Sixteen `decision add` runs on one workflow at the same moment (the real
//! binary): each holds the file's lock from its read to its write and waits for
//! the others, so every one succeeds and every decision is in the file (before,
//! 20–71 % failed "changed on disk"). `ack` waits as long for a checkpoint's lock.

#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;

use std::sync::Barrier;

use resume_tui::core::time::Timestamp;
use resume_tui::io::demo;

const NOW: Timestamp = Timestamp(1_771_331_696);
const PAYOUTS: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
const EDITORS: usize = 16;

#[test]
fn sixteen_editors_at_once_all_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    demo::unpack_into(root, NOW).unwrap();
    let start = Barrier::new(EDITORS);
    let runs: Vec<hostile::Run> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..EDITORS)
            .map(|i| {
                let start = &start;
                scope.spawn(move || {
                    let text = format!("contended decision {i}");
                    let args = ["decision", "add", "payouts", "--decision", text.as_str()];
                    start.wait();
                    hostile::cli(root, &args)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let failed: Vec<&String> = runs
        .iter()
        .filter(|r| r.code != Some(0))
        .map(|r| &r.stderr)
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {EDITORS} failed: {failed:#?}",
        failed.len()
    );
    let text = std::fs::read_to_string(root.join(PAYOUTS)).unwrap();
    for i in 0..EDITORS {
        assert!(
            text.contains(&format!("contended decision {i}\"")),
            "decision {i} lost"
        );
    }
    let leftovers: Vec<String> = hostile::tree(root)
        .into_iter()
        .filter(|f| f.ends_with(".lock") || f.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

const CHECKPOINT: &str = ".jerry/checkpoints/cx-002-checkpoint.json";

/// The demo, and another writer's hold on cx-002's sidecar lock: an exclusive
/// flock(2) on `<checkpoint>.lock`, as `io::write` takes it, until dropped.
fn demo_with_checkpoint_locked() -> (tempfile::TempDir, std::fs::File) {
    let dir = tempfile::tempdir().unwrap();
    demo::unpack_into(dir.path(), NOW).unwrap();
    let lock = std::fs::File::create(dir.path().join(format!("{CHECKPOINT}.lock"))).unwrap();
    lock.lock().unwrap();
    (dir, lock)
}

fn ack(root: &std::path::Path) -> std::process::Child {
    let mut cmd = hostile::cli_command(&[], root, &["ack", "payouts", "cx-002"]);
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    cmd.spawn().unwrap()
}

fn acknowledged(root: &std::path::Path) -> bool {
    let text = std::fs::read_to_string(root.join(CHECKPOINT)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["metadata"]["acknowledged"] == serde_json::Value::Bool(true)
}

/// `ack` waits for a checkpoint's lock as long as every edit waits for any lock
/// (`io::write::EDIT_LOCK_WAIT`, 10 s): still waiting after 4 s (it gave up after
/// 3 s before, with the section written and the checkpoint not), and done once
/// the other writer lets go.
#[test]
fn ack_waits_for_a_checkpoints_lock_as_long_as_any_edit() {
    let (dir, held) = demo_with_checkpoint_locked();
    let root = dir.path();
    let mut child = ack(root);
    std::thread::sleep(std::time::Duration::from_secs(4));
    let early = child.try_wait().unwrap();
    drop(held);
    let run = hostile::finish_or_kill(child, "ack");
    assert_eq!(early, None, "ack gave up within 4 s: {}", run.stderr);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(acknowledged(root));
    assert!(!root.join(format!("{CHECKPOINT}.lock")).exists());
}

/// Held for good, the wait ends: `ack` stops after the bounded wait, saying which
/// lock, how long it waited and that running it again finishes (the section was
/// written first); once the lock is free, it does.
#[test]
fn ack_gives_up_on_a_held_checkpoint_lock_after_the_bounded_wait() {
    let (dir, held) = demo_with_checkpoint_locked();
    let root = dir.path();
    let run = hostile::finish_or_kill(ack(root), "ack");
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    for said in [
        "cx-002-checkpoint.json: locked by another writer for 10.",
        "cx-002-checkpoint.json.lock); try again",
        "was already written: run the same command again to finish",
    ] {
        assert!(
            run.stderr.contains(said),
            "{said:?} not said: {}",
            run.stderr
        );
    }
    assert!(!acknowledged(root));
    drop(held);
    let again = hostile::finish_or_kill(ack(root), "ack again");
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert!(acknowledged(root));
}
