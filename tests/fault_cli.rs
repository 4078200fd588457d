//! Faults under the plain commands, through the binary: a full disk, read-only
//! folders, unreadable files, a file replaced by a folder, symlinks to elsewhere
//! (nowhere, a folder, a device, a FIFO). Each is reported clearly with a non-zero
//! exit where a command could not do its job, and no file is ever left partial:
//! the original stays byte-for-byte, and no temporary or lock file remains.

#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;

use std::path::Path;

use hostile::{TinyDisk, chmod, cli, cli_as_nobody, contents, hand_to_nobody, write};
use serde_json::json;

const STATE: &str = "projects/PROJ-001/ORCHESTRATION.yaml";

/// A v2 workflow of about `kib` KiB with a decision log, a v1 workflow (for the
/// migration), a design checkpoint and a real Jerry checkpoint (acknowledged by a
/// marker file).
fn workspace(root: &Path, kib: usize) {
    let mut text = String::from(
        "workflow:\n  id: wf-fault\n  status: ACTIVE\nresumption:\n  recovery_state:\n    \
         next_step: \"go on\"\n    updated_at: \"2026-01-01T00:00:00Z\"\n  decision_log:\n",
    );
    let mut i = 0;
    while text.len() < kib * 1024 {
        i += 1;
        text.push_str(&format!(
            "    - id: \"RD-{i:03}\"\n      decision: \"decision number {i}\"  # why not\n      affects_phases: [2]\n      applied: false\n"
        ));
    }
    write(root, STATE, text);
    write(
        root,
        "projects/PROJ-002/ORCHESTRATION.yaml",
        "workflow:\n  id: wf-v1\nresumption:\n  current_state: \"v1 prose\"\n  next_step: go\n",
    );
    write(
        root,
        ".jerry/checkpoints/cx-001-checkpoint.json",
        json!({"event_id": "cx-001", "session_id": "s",
               "orchestration_state": {"workflow_id": "wf-fault"},
               "metadata": {"acknowledged": false}})
        .to_string(),
    );
    write(
        root,
        ".jerry/checkpoints/cx-002.json",
        json!({"checkpoint_id": "cx-002", "workflow_id": "wf-fault",
               "context_state": {"fill_percentage": 0.9}})
        .to_string(),
    );
}

/// Every command that writes data, on a workspace that must come out unchanged;
/// with `markers`, also the one that creates an empty marker file.
fn all_edits_fail(run: impl Fn(&[&str]) -> hostile::Run, expected: &str, markers: bool) {
    let mut commands = vec![
        vec!["decision", "add", "wf-fault", "--decision", "a new one"],
        vec!["decision", "apply", "wf-fault", "RD-001"],
        vec!["ack", "wf-fault", "cx-001"],
        vec!["merge", "wf-fault", "cx-001"],
        vec!["migrate", "resumption", "--all"],
    ];
    if markers {
        commands.push(vec!["ack", "wf-fault", "cx-002"]);
    }
    for args in commands {
        let out = run(&args);
        assert_eq!(
            out.code,
            Some(1),
            "{args:?} should fail: {}{}",
            out.stdout,
            out.stderr
        );
        assert!(
            out.stderr.contains(expected) || out.stdout.contains(expected),
            "{args:?} does not say {expected:?}: {}{}",
            out.stdout,
            out.stderr
        );
    }
}

#[test]
#[cfg_attr(not(resume_tui_root), ignore = "needs RESUME_TUI_ROOT=1 (and root)")]
fn a_full_disk_fails_every_edit_and_leaves_every_file_whole() {
    let disk = TinyDisk::mount(256);
    let root = disk.path();
    workspace(root, 40);
    disk.fill(0);
    let before = contents(root);
    all_edits_fail(|args| cli(root, args), "No space left on device", false);
    assert_eq!(contents(root), before, "no file changed, none left behind");
    // An empty marker needs no space: it is made, whole.
    let ack = cli(root, &["ack", "wf-fault", "cx-002"]);
    assert_eq!(ack.code, Some(0), "{}", ack.stderr);
    let marker = root.join(".jerry/checkpoints/cx-002.acknowledged");
    assert_eq!(std::fs::read(marker).unwrap(), b"");
    // Reading still works.
    let list = cli(root, &["list"]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert!(list.stdout.contains("wf-fault"));
}

#[test]
fn read_only_folders_refuse_edits_clearly() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    workspace(root, 4);
    hand_to_nobody(root);
    for dir in [
        "projects/PROJ-001",
        "projects/PROJ-002",
        ".jerry/checkpoints",
    ] {
        chmod(&root.join(dir), 0o555);
    }
    let before = contents(root);
    all_edits_fail(|args| cli_as_nobody(root, args), "Permission denied", true);
    assert_eq!(contents(root), before);
    let list = cli_as_nobody(root, &["list"]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    for dir in [
        "projects/PROJ-001",
        "projects/PROJ-002",
        ".jerry/checkpoints",
    ] {
        chmod(&root.join(dir), 0o755);
    }
}

#[test]
fn unreadable_files_are_reported_and_not_edited() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    workspace(root, 4);
    hand_to_nobody(root);
    chmod(&root.join(STATE), 0o000);
    chmod(
        &root.join(".jerry/checkpoints/cx-001-checkpoint.json"),
        0o000,
    );
    let validate = cli_as_nobody(root, &["validate"]);
    assert_eq!(validate.code, Some(1));
    assert!(
        validate
            .stdout
            .contains(&format!("{STATE}: error: cannot read: Permission denied")),
        "{}",
        validate.stdout
    );
    assert!(
        validate
            .stdout
            .contains("cx-001-checkpoint.json: error: cannot read: Permission denied")
    );
    let show = cli_as_nobody(root, &["show", "PROJ-001"]);
    assert!(
        show.stdout.contains("Permission denied"),
        "{}{}",
        show.stdout,
        show.stderr
    );
    let edit = cli_as_nobody(root, &["decision", "add", "PROJ-001", "--decision", "x"]);
    assert_eq!(edit.code, Some(1));
    assert!(edit.stderr.contains("Permission denied"), "{}", edit.stderr);
    chmod(&root.join(STATE), 0o644);
}

#[test]
fn a_file_replaced_by_a_folder_is_reported() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    workspace(root, 4);
    let checkpoint = root.join(".jerry/checkpoints/cx-001-checkpoint.json");
    std::fs::remove_file(&checkpoint).unwrap();
    std::fs::create_dir(&checkpoint).unwrap();
    std::fs::create_dir_all(root.join("projects/PROJ-009/ORCHESTRATION.yaml")).unwrap();
    let validate = cli(root, &["validate"]);
    assert!(validate.code.is_some());
    for rel in [
        ".jerry/checkpoints/cx-001-checkpoint.json",
        "projects/PROJ-009/ORCHESTRATION.yaml",
    ] {
        assert!(
            validate.stdout.contains(&format!(
                "{rel}: warning: is a folder, not a file: not read"
            )),
            "{}",
            validate.stdout
        );
    }
    let list = cli(root, &["list"]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert!(list.stdout.contains("wf-fault"));
    let ack = cli(root, &["ack", "wf-fault", "cx-001"]);
    assert_eq!(ack.code, Some(1), "{}{}", ack.stdout, ack.stderr);
    assert!(checkpoint.is_dir(), "the folder is left alone");
}

#[test]
fn symlinks_to_nowhere_a_folder_a_device_or_a_fifo_never_hang_or_crash() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    workspace(root, 4);
    let elsewhere = tempfile::tempdir().unwrap();
    let fifo = hostile::fifo(elsewhere.path(), "fifo");
    let targets = [
        ("projects/A", elsewhere.path().join("missing.yaml")),
        ("projects/B", elsewhere.path().to_path_buf()),
        ("projects/C", "/dev/zero".into()),
        ("projects/D", fifo.clone()),
    ];
    for (dir, target) in &targets {
        std::fs::create_dir_all(root.join(dir)).unwrap();
        std::os::unix::fs::symlink(target, root.join(dir).join("ORCHESTRATION.yaml")).unwrap();
    }
    std::fs::create_dir_all(root.join("02-projects/07-x/01-planning")).unwrap();
    std::os::unix::fs::symlink(
        &fifo,
        root.join("02-projects/07-x/01-planning/resume-context.md"),
    )
    .unwrap();
    let validate = cli(root, &["validate"]);
    assert_eq!(validate.code, Some(1), "{}", validate.stderr);
    let out = validate.stdout;
    assert!(
        out.contains("projects/C/ORCHESTRATION.yaml: error: not a regular file"),
        "{out}"
    );
    assert!(
        out.contains("projects/D/ORCHESTRATION.yaml: error: not a regular file"),
        "{out}"
    );
    assert!(
        out.contains("resume-context.md: error: not a regular file"),
        "{out}"
    );
    let list = cli(root, &["list"]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    let edit = cli(root, &["decision", "add", "D", "--decision", "x"]);
    assert_eq!(edit.code, Some(1), "{}{}", edit.stdout, edit.stderr);
    let prompt = cli(
        root,
        &[
            "monitor",
            "wf-fault",
            "--transcript",
            fifo.to_str().unwrap(),
        ],
    );
    assert!(prompt.code.is_some(), "monitor returned");
}
