//! Round 2 of the write path's attacks and faults, through the real binary: lock
//! and log files planted as links or FIFOs, files the user may not write, the
//! identity of a replaced file, byte-order marks, and a crashed writer's leftovers.
//!
//! Identity (issue 16, item 6): the mode, owner and extended attributes are kept;
//! the group is kept when the user may give it (a member of it), and the edit is
//! refused, before anything is written, when the new file could not have it; a
//! file with several hard links is never replaced (the other names would keep the
//! old content), by any command, nor by the hooks, which log the refusal, print
//! nothing and exit 0.

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

use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Stdio};

use hook_fixture::{Fixture, payload};
use hostile::{chmod, cli, contents, write};
use resume_tui::core::time::Timestamp;
use serde_json::json;

const NOW: Timestamp = Timestamp(1_771_331_696);
const PAYOUTS: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";

const ADD: [&str; 5] = ["decision", "add", "payouts", "--decision", "Keep replays"];
/// A group no account has: only `setpriv --groups` makes the editor a member.
const GROUP: u32 = 4242;
const NOBODY: u32 = 65534;

fn add_decision(root: &Path) -> hostile::Run {
    let mut cmd = hostile::cli_command(&[], root, &ADD);
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
    let run = hostile::cli_as_nobody(dir.path(), &ADD);
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

/// The CLI as uid/gid 65534 with exactly the supplementary `groups` (needs root).
fn cli_in_groups(root: &Path, groups: &[u32], args: &[&str]) -> hostile::Run {
    needs::root();
    let membership = if groups.is_empty() {
        "--clear-groups".to_string()
    } else {
        let list: Vec<String> = groups.iter().map(u32::to_string).collect();
        format!("--groups={}", list.join(","))
    };
    let prefix = [
        "setpriv".to_string(),
        format!("--reuid={NOBODY}"),
        format!("--regid={NOBODY}"),
        membership,
    ];
    let mut cmd = hostile::cli_command(&prefix, root, args);
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    hostile::finish_or_kill(cmd.spawn().unwrap(), &args.join(" "))
}

fn chown(path: &Path, owner: &str) {
    let status = Command::new("chown").arg(owner).arg(path).status().unwrap();
    assert!(status.success(), "chown {owner} {}", path.display());
}

fn owner_group_mode_links(path: &Path) -> (u32, u32, u32, u64) {
    let meta = std::fs::metadata(path).unwrap();
    (meta.uid(), meta.gid(), meta.mode() & 0o7777, meta.nlink())
}

/// No temporary or lock file left anywhere under `root`.
fn assert_no_debris(root: &Path) {
    let debris: Vec<String> = hostile::tree(root)
        .into_iter()
        .filter(|f| f.ends_with(".tmp") || f.ends_with(".lock"))
        .collect();
    assert!(debris.is_empty(), "{debris:?}");
}

/// A demo copy whose files are 65534's, the payouts workflow in group `gid` and
/// group-writable (0664); needs root.
fn nobodys_payouts_in_group(gid: u32) -> (tempfile::TempDir, std::path::PathBuf) {
    needs::root();
    let dir = folder::demo_copy(NOW);
    let path = dir.path().join(PAYOUTS);
    hostile::hand_to_nobody(dir.path());
    chown(&path, &format!("{NOBODY}:{gid}"));
    chmod(&path, 0o664);
    (dir, path)
}

/// The user's own file in a group they are in, group-writable: the edit keeps
/// the group (and with it the group's write access) and the mode.
#[test]
#[cfg_attr(not(resume_tui_root), ignore = "needs RESUME_TUI_ROOT=1 (and root)")]
fn an_edit_by_a_member_of_the_files_group_keeps_the_group() {
    let (dir, path) = nobodys_payouts_in_group(GROUP);
    let run = cli_in_groups(dir.path(), &[GROUP], &ADD);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("Keep replays")
    );
    assert_eq!(owner_group_mode_links(&path), (NOBODY, GROUP, 0o664, 1));
    assert_no_debris(dir.path());
}

/// The tester's case: the user's own file, mode 0664, in group root, which the user
/// is not in. The user could edit it in place; a replace would move it to the
/// user's group and take group root's write access away. Refused before anything
/// is written, naming the file, its group and why.
#[test]
#[cfg_attr(not(resume_tui_root), ignore = "needs RESUME_TUI_ROOT=1 (and root)")]
fn an_edit_that_could_not_keep_the_files_group_is_refused() {
    let (dir, path) = nobodys_payouts_in_group(0);
    let before = std::fs::read(&path).unwrap();
    let ino = std::fs::metadata(&path).unwrap().ino();
    for groups in [&[][..], &[GROUP][..]] {
        let run = cli_in_groups(dir.path(), groups, &ADD);
        assert_eq!(run.code, Some(1), "{}", run.stdout);
        for said in [
            PAYOUTS,
            "refused: its group is root (gid 0), which you are not in",
            "could not keep that group",
            "nothing was written",
        ] {
            assert!(
                run.stderr.contains(said),
                "{said:?} not said: {}",
                run.stderr
            );
        }
        assert_eq!(std::fs::read(&path).unwrap(), before);
        assert_eq!(std::fs::metadata(&path).unwrap().ino(), ino, "replaced");
        assert_eq!(owner_group_mode_links(&path), (NOBODY, 0, 0o664, 1));
        assert_no_debris(dir.path());
    }
    // A member of group root may edit it, and it stays in group root.
    let run = cli_in_groups(dir.path(), &[0], &ADD);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(owner_group_mode_links(&path), (NOBODY, 0, 0o664, 1));
}

const CHECKPOINT: &str = ".jerry/checkpoints/cx-002-checkpoint.json";
const FRAUD: &str =
    "projects/PROJ-003-fraud-rules-audit/orchestration/fraud-audit-20260227-001/ORCHESTRATION.yaml";
const LEDGER: &str = "projects/PROJ-001-ledger-migration/ORCHESTRATION.yaml";

/// Every command that replaces a file, on a file with a second hard link (kept
/// outside the workspace, as a backup or a second checkout would be): refused,
/// naming the file and its link count; no file changed, both names still one file.
#[test]
fn no_command_replaces_a_file_with_several_hard_links() {
    let cases: [(&str, &[&str]); 6] = [
        (PAYOUTS, &ADD),
        (PAYOUTS, &["decision", "apply", "payouts", "RD-002"]),
        (FRAUD, &["merge", "fraud", "cx-005"]),
        (PAYOUTS, &["ack", "payouts", "cx-002"]),
        // The section changes too: nothing is written before the refusal.
        (CHECKPOINT, &["ack", "payouts", "cx-002"]),
        (LEDGER, &["migrate", "resumption", "ledger"]),
    ];
    for (linked, args) in cases {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        resume_tui::io::demo::unpack_into(&root, NOW).unwrap();
        // A checkpoint no workflow has merged yet (cx-004 is the docs rewrite's).
        let loose = std::fs::read_to_string(root.join(".jerry/checkpoints/cx-004.json"))
            .unwrap()
            .replace("cx-004", "cx-005")
            .replace("docs-rewrite-20260225-001", "elsewhere");
        write(&root, ".jerry/checkpoints/cx-005.json", loose);
        let elsewhere = dir.path().join("backup-link");
        std::fs::hard_link(root.join(linked), &elsewhere).unwrap();
        let before = contents(&root);
        let run = cli(&root, args);
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stdout);
        // `migrate` reports each file on stdout, the edits on stderr.
        let said_all = format!("{}{}", run.stdout, run.stderr);
        for said in [
            &format!("{linked}: refused: it has 2 hard links (link count 2)"),
            "would split the links",
            "nothing was written",
        ] {
            assert!(
                said_all.contains(said),
                "{args:?}: {said:?} not said: {said_all}"
            );
        }
        assert_eq!(contents(&root), before, "{args:?} changed a file");
        assert_eq!(
            std::fs::read(&elsewhere).unwrap(),
            std::fs::read(root.join(linked)).unwrap()
        );
        assert_eq!(
            std::fs::metadata(&elsewhere).unwrap().nlink(),
            2,
            "{args:?}"
        );
        assert_no_debris(&root);
        // With the link broken the same command goes ahead.
        std::fs::remove_file(&elsewhere).unwrap();
        let run = cli(&root, args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
    }
}

/// The hooks write their own files through a hard link (a `cp -al` snapshot
/// sharing the workspace's files): the hook's name gets the new content, the
/// snapshot keeps the old, and the alert's delivery is recorded once (a refusal
/// here kept the alert due on every prompt).
#[test]
fn hooks_write_their_own_files_through_a_hard_link_snapshot() {
    let fx = Fixture::new();
    let t = fx.edits_in("projects/PROJ-001-demo");
    let first = payload("PreCompact", Some(&t), json!({"trigger": "manual"}));
    assert_eq!(fx.run(&[], &first).0, "");
    let checkpoint = fx.root().join(".jerry/checkpoints/cx-001-checkpoint.json");
    let snapshot = fx.home.path().join("cx-001-snapshot.json");
    std::fs::hard_link(&checkpoint, &snapshot).unwrap();
    let before = std::fs::read(&checkpoint).unwrap();
    let post = payload(
        "PostCompact",
        Some(&t),
        json!({"trigger": "manual", "compact_summary": "Kept: phase 2."}),
    );
    let child = fx.spawn_fed(&[], &post);
    let run = hostile::finish_or_kill(child, "PostCompact");
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), ""));
    let after = std::fs::read_to_string(&checkpoint).unwrap();
    assert!(after.contains("Kept: phase 2."), "{after}");
    assert_eq!(
        std::fs::read(&snapshot).unwrap(),
        before,
        "the snapshot keeps the old"
    );

    // A deliveries record shared with a snapshot before the alert goes out.
    let deliveries = fx.root().join(".jerry/alert-deliveries.json");
    std::fs::write(&deliveries, "{}\n").unwrap();
    std::fs::hard_link(&deliveries, fx.home.path().join("deliveries-snapshot.json")).unwrap();
    let prompt = payload("UserPromptSubmit", Some(&t), json!({"prompt": "go"}));
    assert!(fx.run(&[], &prompt).0.contains("compaction-alert"));
    let again = fx.run(&[], &prompt).0;
    assert!(
        !again.contains("compaction-alert"),
        "delivered once: {again}"
    );
    assert_no_debris(fx.root());
}
