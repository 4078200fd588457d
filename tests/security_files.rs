//! Round 2 of the write path's attacks and faults, through the real binary: lock
//! and log files planted as links or FIFOs, files the user may not write, the
//! identity of a replaced file, byte-order marks, and a crashed writer's leftovers.

#[path = "support/folder.rs"]
mod folder;
#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/transcript.rs"]
mod transcript;

use std::path::Path;
use std::process::Stdio;

use hook_fixture::{Fixture, payload};
use resume_tui::core::time::Timestamp;
use serde_json::json;

const NOW: Timestamp = Timestamp(1_771_331_696);
const PAYOUTS: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";

fn add_decision(root: &Path) -> hostile::Run {
    let mut cmd = hostile::cli_command(
        &[],
        root,
        &["decision", "add", "payouts", "--decision", "Keep replays"],
    );
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    hostile::finish_or_kill(cmd.spawn().unwrap(), "decision add")
}

/// A `.lock` planted as a link to a file elsewhere: the writer neither follows it
/// nor creates the file it names, and says what to remove.
#[test]
fn a_symlinked_lock_file_is_refused_and_nothing_is_created_elsewhere() {
    let dir = folder::demo_copy(NOW);
    let elsewhere = tempfile::tempdir().unwrap();
    let victim = elsewhere.path().join("created-by-the-attack");
    let lock = dir.path().join(format!("{PAYOUTS}.lock"));
    std::os::unix::fs::symlink(&victim, &lock).unwrap();
    let before = std::fs::read(dir.path().join(PAYOUTS)).unwrap();
    let run = add_decision(dir.path());
    assert_ne!(run.code, Some(0), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("not a regular file (a symbolic link); remove it"),
        "{}",
        run.stderr
    );
    assert!(!victim.exists(), "the link was followed");
    assert_eq!(std::fs::read(dir.path().join(PAYOUTS)).unwrap(), before);
}

/// A FIFO in the lock's place used to hang every writer: now refused at once.
#[test]
fn a_fifo_lock_file_is_refused_without_blocking() {
    let dir = folder::demo_copy(NOW);
    hostile::fifo(dir.path(), &format!("{PAYOUTS}.lock"));
    let run = add_decision(dir.path());
    assert_ne!(run.code, Some(0));
    assert!(
        run.stderr.contains("not a regular file (a FIFO)"),
        "{}",
        run.stderr
    );
}

/// The hook log planted as a FIFO or as a link: the hook still exits 0 with its
/// output, never blocks, and writes nothing through the link.
#[test]
fn a_fifo_or_symlinked_hook_log_never_blocks_or_redirects_the_hook() {
    let fx = Fixture::new();
    hostile::fifo(fx.log.path(), "hook.log");
    let stdin = payload("PreCompact", None, json!({"trigger": "manual"}));
    let child = fx.spawn_fed(&["PreCompact"], &stdin);
    let run = hostile::finish_or_kill(child, "PreCompact with a FIFO log");
    assert_eq!(run.code, Some(0));
    assert_eq!(run.stdout, "");
    assert_eq!(fx.checkpoints().len(), 1, "the checkpoint is still written");

    let fx = Fixture::new();
    let elsewhere = tempfile::tempdir().unwrap();
    let victim = elsewhere.path().join("appended-by-the-attack");
    std::fs::write(&victim, "").unwrap();
    std::os::unix::fs::symlink(&victim, fx.log.path().join("hook.log")).unwrap();
    let (out, _) = fx.run(&["PreCompact"], &stdin);
    assert_eq!(out, "");
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "",
        "written through the link"
    );
}

/// The folder allows the rename, the file forbids writing: the edit is refused,
/// as it would be in place.
#[test]
fn a_file_the_user_may_not_write_is_not_replaced() {
    let dir = folder::demo_copy(NOW);
    let path = dir.path().join(PAYOUTS);
    hostile::hand_to_nobody(dir.path());
    // Writable by its owner only, and the owner is not the one editing.
    if hostile::is_root() {
        hostile::chmod(&path, 0o644);
        let status = std::process::Command::new("chown")
            .args(["0:0"])
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success());
    } else {
        hostile::chmod(&path, 0o444);
    }
    let before = std::fs::read(&path).unwrap();
    let run = hostile::cli_as_nobody(
        dir.path(),
        &["decision", "add", "payouts", "--decision", "Keep replays"],
    );
    assert_ne!(run.code, Some(0), "{}", run.stdout);
    assert!(run.stderr.contains("read-only"), "{}", run.stderr);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// A replaced file keeps its mode and its extended attributes.
#[test]
fn an_edit_keeps_the_files_mode_and_extended_attributes() {
    let dir = folder::demo_copy(NOW);
    let path = dir.path().join(PAYOUTS);
    hostile::chmod(&path, 0o640);
    let set = rustix::fs::setxattr(
        &path,
        "user.resume-tui-test",
        b"kept",
        rustix::fs::XattrFlags::empty(),
    );
    if let Err(e) = set {
        // Some file systems (tmpfs without user xattrs) refuse them: say so loudly.
        panic!(
            "user extended attributes are needed for this test (the temp folder refused one: {e})"
        );
    }
    let run = add_decision(dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("Keep replays")
    );
    assert_eq!(hostile::mode_of(&path), 0o640);
    let mut value = [0u8; 16];
    let len = rustix::fs::getxattr(&path, "user.resume-tui-test", &mut value[..]).unwrap();
    assert_eq!(&value[..len], b"kept");
}

/// A state file that starts with a byte-order mark is edited, and keeps the mark.
#[test]
fn a_file_with_a_byte_order_mark_is_edited_and_keeps_it() {
    let dir = folder::demo_copy(NOW);
    let path = dir.path().join(PAYOUTS);
    let text = std::fs::read(&path).unwrap();
    std::fs::write(&path, [&b"\xEF\xBB\xBF"[..], &text].concat()).unwrap();
    let run = add_decision(dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let after = std::fs::read(&path).unwrap();
    assert!(after.starts_with(b"\xEF\xBB\xBF"), "the mark was dropped");
    assert!(String::from_utf8_lossy(&after).contains("Keep replays"));
    assert_eq!(after.iter().filter(|&&b| b == 0xEF).count(), 1, "one mark");
}

/// A temporary file a crashed writer left (an hour old) is removed by the next
/// write of the same file; a young one (a writer at work) is left.
#[test]
fn a_crashed_writers_temporary_file_is_cleaned_on_the_next_write() {
    let dir = folder::demo_copy(NOW);
    let folder = dir.path().join(PAYOUTS).parent().unwrap().to_path_buf();
    let old = folder.join(".ORCHESTRATION.yaml.Ab3xYz.tmp");
    let young = folder.join(".ORCHESTRATION.yaml.Qw9rTy.tmp");
    let unrelated = folder.join(".notes.md.Ab3xYz.tmp");
    for path in [&old, &young, &unrelated] {
        std::fs::write(path, "half a file").unwrap();
    }
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for path in [&old, &unrelated] {
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
    }
    let run = add_decision(dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(!old.exists(), "the crash leftover is still there");
    assert!(young.exists(), "a young temporary file was removed");
    assert!(
        unrelated.exists(),
        "another file's temporary file was removed"
    );
}
