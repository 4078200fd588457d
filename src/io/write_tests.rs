use std::cell::Cell;
use std::os::unix::fs::PermissionsExt;

use super::*;
use crate::io::test_support::names_in;

fn file_with(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn mode_of(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// The sidecar lock of a file held by another thread (a lock this thread holds
/// nests) until dropped.
struct HeldElsewhere {
    release: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl HeldElsewhere {
    fn take(path: &Path) -> HeldElsewhere {
        let (taken_tx, taken_rx) = std::sync::mpsc::channel();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let path = path.to_path_buf();
        let thread = std::thread::spawn(move || {
            let lock = SidecarLock::acquire(&path, Duration::from_secs(1)).unwrap();
            taken_tx.send(()).unwrap();
            let _ = released.recv();
            drop(lock);
        });
        taken_rx.recv().unwrap();
        HeldElsewhere {
            release: Some(release),
            thread: Some(thread),
        }
    }
}

impl Drop for HeldElsewhere {
    fn drop(&mut self) {
        drop(self.release.take());
        if let Some(thread) = self.thread.take() {
            thread.join().unwrap();
        }
    }
}

/// Writes half the bytes, then fails as a full disk would.
struct DiskFullHalfway;

impl WriteSteps for DiskFullHalfway {
    fn write_temp(&self, out: &mut dyn Write, bytes: &[u8]) -> std::io::Result<()> {
        out.write_all(bytes.get(..bytes.len() / 2).unwrap_or_default())?;
        Err(std::io::Error::from(std::io::ErrorKind::StorageFull))
    }
}

/// Another writer changes the file after it was read, before the check.
struct ConcurrentChange(Cell<bool>);

impl WriteSteps for ConcurrentChange {
    fn before_check(&self, path: &Path) -> std::io::Result<()> {
        if !self.0.replace(true) {
            std::fs::write(path, "someone else's bytes\n")?;
        }
        Ok(())
    }
}

#[test]
fn hash_tells_contents_apart() {
    assert_eq!(ContentHash::of(b"abc"), ContentHash::of(b"abc"));
    assert_ne!(ContentHash::of(b"abc"), ContentHash::of(b"abd"));
    assert_ne!(ContentHash::of(b""), ContentHash::of(b"\0"));
    assert_ne!(ContentHash::of(b"abc"), ContentHash::of(b"abc\0"));
    // Any one byte changed, anywhere (whole words and the tail), and words swapped.
    let base: Vec<u8> = (0..=100u8).collect();
    let mut seen = std::collections::HashSet::from([ContentHash::of(&base)]);
    for i in 0..base.len() {
        for flip in [1u8, 0x80] {
            let mut changed = base.clone();
            changed[i] ^= flip;
            assert!(seen.insert(ContentHash::of(&changed)), "byte {i} ^ {flip}");
        }
    }
    let mut swapped = base.clone();
    swapped[..16].rotate_left(8);
    assert!(seen.insert(ContentHash::of(&swapped)));
}

#[test]
fn replace_writes_keeps_the_mode_and_leaves_no_debris() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "ORCHESTRATION.yaml", "a: 1\n");
    std::fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
    let snapshot = read_snapshot(&path).unwrap();
    replace(&snapshot, b"a: 2\n").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 2\n");
    assert_eq!(mode_of(&path), 0o640);
    assert_eq!(names_in(dir.path()), ["ORCHESTRATION.yaml"]);
}

#[test]
fn replace_refuses_a_stale_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    let snapshot = read_snapshot(&path).unwrap();
    std::fs::write(&path, "a: 3\n").unwrap();
    let err = replace(&snapshot, b"a: 2\n").unwrap_err();
    assert!(matches!(err, WriteError::ChangedOnDisk { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("changed on disk since it was read; reload")
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 3\n");
}

#[test]
fn replace_refuses_a_change_between_read_and_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    let snapshot = read_snapshot(&path).unwrap();
    let steps = ConcurrentChange(Cell::new(false));
    let options = Options {
        steps: &steps,
        ..Options::default()
    };
    let err = replace_with(&snapshot, b"a: 2\n", &options).unwrap_err();
    assert!(matches!(err, WriteError::ChangedOnDisk { .. }), "{err}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "someone else's bytes\n"
    );
}

#[test]
fn a_writer_failing_midway_leaves_the_original_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let original = "keep: me # comment\n".repeat(100);
    let path = file_with(&dir, "f.yaml", &original);
    let snapshot = read_snapshot(&path).unwrap();
    let options = Options {
        steps: &DiskFullHalfway,
        ..Options::default()
    };
    let err = replace_with(&snapshot, b"new: contents\n", &options).unwrap_err();
    assert!(matches!(err, WriteError::Io { .. }), "{err}");
    assert!(err.to_string().contains("f.yaml"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    assert_eq!(
        names_in(dir.path()),
        ["f.yaml"],
        "temp and lock files are gone"
    );
}

#[test]
fn a_lock_that_never_frees_times_out_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    let snapshot = read_snapshot(&path).unwrap();
    let new = dir.path().join("new");
    let holders: Vec<File> = [&path, &new]
        .iter()
        .map(|p| File::create(lock_path(p)).unwrap())
        .collect();
    holders.iter().for_each(|h| h.lock().unwrap());
    let options = Options {
        lock_timeout: Duration::from_millis(50),
        ..Options::default()
    };
    let err = replace_with(&snapshot, b"a: 2\n", &options).unwrap_err();
    assert!(matches!(err, WriteError::LockTimeout { .. }), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 1\n");
    // A file that does not exist yet needs no lock: creating it never clobbers.
    create_new_with(&new, b"x", None, &options).unwrap();
    assert_eq!(std::fs::read_to_string(&new).unwrap(), "x");
}

#[test]
fn of_many_creators_of_one_file_exactly_one_wins() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cx-001-checkpoint.json");
    let outcomes: Vec<Result<(), WriteError>> = std::thread::scope(|scope| {
        let racers: Vec<_> = (0..8)
            .map(|i| {
                let path = &path;
                scope.spawn(move || create_new(path, format!("{i}").as_bytes(), None))
            })
            .collect();
        racers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let won = outcomes.iter().filter(|o| o.is_ok()).count();
    assert_eq!(won, 1, "{outcomes:?}");
    assert!(outcomes.iter().all(|o| match o {
        Ok(()) => true,
        Err(e) => matches!(e, WriteError::AlreadyExists { .. }),
    }));
    let kept = std::fs::read_to_string(&path).unwrap();
    let winner = outcomes.iter().position(|o| o.is_ok()).unwrap();
    assert_eq!(kept, winner.to_string());
    assert_eq!(
        names_in(dir.path()),
        ["cx-001-checkpoint.json"],
        "no debris"
    );
}

#[test]
fn a_read_only_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    std::fs::set_permissions(&path, Permissions::from_mode(0o444)).unwrap();
    let snapshot = read_snapshot(&path).unwrap();
    let err = replace(&snapshot, b"a: 2\n").unwrap_err();
    assert!(matches!(err, WriteError::ReadOnly { .. }), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 1\n");
    assert_eq!(mode_of(&path), 0o444);
}

#[test]
fn a_read_only_folder_is_an_io_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    let snapshot = read_snapshot(&path).unwrap();
    std::fs::set_permissions(dir.path(), Permissions::from_mode(0o555)).unwrap();
    let probe = std::fs::write(dir.path().join("probe"), "");
    let result = replace(&snapshot, b"a: 2\n");
    std::fs::set_permissions(dir.path(), Permissions::from_mode(0o755)).unwrap();
    if probe.is_ok() {
        // Running as root: folder permissions do not bind, and the write goes through.
        result.unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 2\n");
        return;
    }
    let err = result.unwrap_err();
    assert!(matches!(err, WriteError::Io { .. }), "{err}");
    assert!(err.to_string().contains("f.yaml"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 1\n");
}

#[test]
fn a_deleted_file_counts_as_changed() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    let snapshot = read_snapshot(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let err = replace(&snapshot, b"a: 2\n").unwrap_err();
    assert!(matches!(err, WriteError::ChangedOnDisk { .. }), "{err}");
    assert!(!path.exists());
}

#[test]
fn replace_writes_through_a_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let real = file_with(&dir, "real.yaml", "a: 1\n");
    let link = dir.path().join("link.yaml");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let snapshot = read_snapshot(&link).unwrap();
    replace(&snapshot, b"a: 2\n").unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "a: 2\n");
}

/// A cache's replace (the new file swapped in, the old one removed) does what a
/// replace does: new content through a symlink, the mode kept, no debris, a
/// stale snapshot refused with the file untouched.
#[test]
fn a_cache_replace_swaps_in_the_new_file_and_checks_as_a_replace_does() {
    let dir = tempfile::tempdir().unwrap();
    let real = file_with(&dir, "context-monitor-state.json", "{\"fill\": 1}\n");
    std::fs::set_permissions(&real, Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let options = Options {
        durable: false,
        ..Options::default()
    };
    let snapshot = read_snapshot(&link).unwrap();
    replace_cache_with(&snapshot, b"{\"fill\": 2}\n", &options).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "{\"fill\": 2}\n");
    assert_eq!(mode_of(&real), 0o640);
    assert_eq!(
        names_in(dir.path()),
        ["context-monitor-state.json", "link.json"]
    );
    let err = replace_cache_with(&snapshot, b"{\"fill\": 3}\n", &options).unwrap_err();
    assert!(matches!(err, WriteError::ChangedOnDisk { .. }), "{err}");
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "{\"fill\": 2}\n");
    assert_eq!(
        names_in(dir.path()),
        ["context-monitor-state.json", "link.json"]
    );
}

/// The swap itself: what was at the target is gone, the new file is there, and a
/// folder put at the target is swapped back and refused, both left as they were.
#[cfg(target_os = "linux")]
#[test]
fn the_swap_removes_the_old_file_and_refuses_to_swap_out_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let target = file_with(&dir, "state.json", "old");
    let temp = file_with(&dir, ".state.json.abcdef.tmp", "new");
    assert!(matches!(
        swap::swap_in(&temp, &target, false).unwrap(),
        swap::Swapped::Yes { old: None }
    ));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    assert_eq!(names_in(dir.path()), ["state.json"]);
    // Held, the old file is gone by name and still readable through the handle.
    let temp = file_with(&dir, ".state.json.ghijkl.tmp", "newer");
    let swap::Swapped::Yes { old: Some(old) } = swap::swap_in(&temp, &target, true).unwrap() else {
        panic!("the old file was not held");
    };
    assert_eq!(std::io::read_to_string(&old).unwrap(), "new");
    assert_eq!(
        std::os::unix::fs::MetadataExt::nlink(&old.metadata().unwrap()),
        0
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "newer");
    assert_eq!(names_in(dir.path()), ["state.json"]);
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    let temp = file_with(&dir, ".folder.abcdef.tmp", "new");
    assert!(swap::swap_in(&temp, &folder, true).is_err());
    assert!(folder.is_dir());
    assert_eq!(std::fs::read_to_string(&temp).unwrap(), "new");
}

#[test]
fn create_new_never_clobbers_and_sets_the_mode() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("cx-001.acknowledged");
    create_new(&marker, b"", Some(0o600)).unwrap();
    assert_eq!(mode_of(&marker), 0o600);
    let err = create_new(&marker, b"other", None).unwrap_err();
    assert!(matches!(err, WriteError::AlreadyExists { .. }), "{err}");
    assert_eq!(std::fs::read(&marker).unwrap(), b"");
    let plain = dir.path().join("cx-002.json");
    create_new(&plain, b"{}", None).unwrap();
    assert_ne!(
        mode_of(&plain) & 0o044,
        0,
        "a new file follows the umask, not 0600"
    );
    assert_eq!(names_in(dir.path()), ["cx-001.acknowledged", "cx-002.json"]);
}

#[test]
fn create_new_failing_midway_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let options = Options {
        steps: &DiskFullHalfway,
        ..Options::default()
    };
    let path = dir.path().join("cx-003.json");
    assert!(create_new_with(&path, b"{\"a\": 1}", None, &options).is_err());
    assert!(names_in(dir.path()).is_empty());
}

#[test]
fn threads_racing_on_one_file_lose_no_update() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "counter", "0");
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut done = 0;
                while done < 25 {
                    let snapshot = read_snapshot(&path).unwrap();
                    let n: u32 = snapshot.text().unwrap().parse().unwrap();
                    match replace(&snapshot, (n + 1).to_string().as_bytes()) {
                        Ok(()) => done += 1,
                        Err(WriteError::ChangedOnDisk { .. }) => {}
                        Err(other) => panic!("{other}"),
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "100");
    assert_eq!(names_in(dir.path()), ["counter"]);
}

#[test]
fn remove_unlinks_an_unchanged_file_and_leaves_no_debris() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "precompact_state.json", "{}\n");
    file_with(&dir, "other.json", "{}\n");
    let snapshot = read_snapshot(&path).unwrap();
    remove(&snapshot).unwrap();
    assert_eq!(names_in(dir.path()), ["other.json"]);
    // Gone already (a sibling hook consumed it): the goal is reached.
    remove(&snapshot).unwrap();
}

#[test]
fn remove_refuses_a_file_changed_after_it_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "precompact_state.json", "{\"a\": 1}\n");
    let snapshot = read_snapshot(&path).unwrap();
    let options = Options {
        steps: &ConcurrentChange(Cell::new(false)),
        ..Options::default()
    };
    let err = remove_with(&snapshot, &options).unwrap_err();
    assert!(matches!(err, WriteError::ChangedOnDisk { .. }), "{err}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "someone else's bytes\n"
    );
    assert_eq!(names_in(dir.path()), ["precompact_state.json"]);
}

#[test]
fn remove_waits_for_the_lock_and_gives_up_after_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "precompact_state.json", "{}\n");
    let snapshot = read_snapshot(&path).unwrap();
    let held = HeldElsewhere::take(&path);
    let options = Options {
        lock_timeout: Duration::from_millis(50),
        ..Options::default()
    };
    let err = remove_with(&snapshot, &options).unwrap_err();
    assert!(matches!(err, WriteError::LockTimeout { .. }), "{err}");
    assert!(path.exists());
    drop(held);
    remove_with(&snapshot, &options).unwrap();
    assert!(names_in(dir.path()).is_empty());
}

#[test]
fn remove_unlinks_a_symlink_not_the_file_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let real = file_with(&dir, "real.json", "{}\n");
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    remove(&read_snapshot(&link).unwrap()).unwrap();
    assert_eq!(names_in(dir.path()), ["real.json"]);
}

/// Counts the fsyncs a write asks for.
struct CountSyncs(Cell<usize>);

impl WriteSteps for CountSyncs {
    fn sync(&self, _file: &File) -> std::io::Result<()> {
        self.0.set(self.0.get() + 1);
        Ok(())
    }
}

#[test]
fn durable_writes_fsync_the_file_and_the_folder_and_caches_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "state.json", "{}\n");
    let syncs = |durable: bool, f: &dyn Fn(&Options)| {
        let steps = CountSyncs(Cell::new(0));
        let options = Options {
            steps: &steps,
            durable,
            ..Options::default()
        };
        f(&options);
        steps.0.get()
    };
    let replace_once = |options: &Options| {
        let snapshot = read_snapshot(&path).unwrap();
        replace_with(&snapshot, b"{\"n\": 1}\n", options).unwrap();
    };
    assert_eq!(syncs(true, &replace_once), 2);
    assert_eq!(syncs(false, &replace_once), 0);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"n\": 1}\n");
    let create = |name: &'static str| {
        let path = dir.path().join(name);
        move |options: &Options| create_new_with(&path, b"x", None, options).unwrap()
    };
    assert_eq!(syncs(true, &create("a")), 2);
    assert_eq!(syncs(false, &create("b")), 0);
    assert_eq!(names_in(dir.path()), ["a", "b", "state.json"]);
}

use crate::io::test_support::mkfifo;

/// Opening a FIFO blocks until a writer comes; a file over the cap is not read.
#[test]
fn snapshots_refuse_pipes_folders_and_files_over_the_cap_unread() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("cx-001-checkpoint.json");
    mkfifo(&fifo);
    assert_eq!(
        read_snapshot(&fifo).unwrap_err().to_string(),
        format!(
            "{}: refused: not a regular file (a pipe, socket or device): not read",
            fifo.display()
        )
    );
    let big = dir.path().join("precompact_state.json");
    File::create(&big)
        .unwrap()
        .set_len(MAX_FILE_BYTES + 1)
        .unwrap();
    let err = read_snapshot(&big).unwrap_err().to_string();
    assert!(
        err.ends_with("refused: file too large (16 MB); limit 16 MB: not read"),
        "{err}"
    );
    let small = file_with(&dir, "small.json", "12345");
    assert!(read_snapshot_capped(&small, 4).is_err());
    assert_eq!(read_snapshot_capped(&small, 5).unwrap().bytes, b"12345");
    assert!(
        read_snapshot(&dir.path().join("gone"))
            .unwrap_err()
            .is_missing()
    );
    let err = read_snapshot(dir.path()).unwrap_err();
    assert!(!err.is_missing());
    assert!(
        err.to_string()
            .ends_with("is a folder, not a file: not read")
    );
}

/// The re-read under the lock is as safe as the first read: what became a FIFO or
/// grew has changed, and is neither opened nor read past the snapshot's length.
#[test]
fn a_file_that_became_a_fifo_or_grew_since_it_was_read_is_left_alone() {
    for became_fifo in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let path = file_with(&dir, "state.json", "{}\n");
        let snapshot = read_snapshot(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        if became_fifo {
            mkfifo(&path);
        } else {
            std::fs::write(&path, "{}\n and more\n").unwrap();
        }
        let err = replace(&snapshot, b"{\"n\": 1}\n").unwrap_err();
        assert!(matches!(err, WriteError::ChangedOnDisk { .. }), "{err}");
        let err = remove(&snapshot).unwrap_err();
        assert!(matches!(err, WriteError::ChangedOnDisk { .. }), "{err}");
        let kind = std::fs::symlink_metadata(&path).unwrap().file_type();
        assert_eq!(std::os::unix::fs::FileTypeExt::is_fifo(&kind), became_fifo);
        assert_eq!(names_in(dir.path()), ["state.json"], "no debris");
    }
}

/// A lock file planted as a link (to a file that would be created elsewhere) or
/// as a FIFO (which blocked every writer) is refused at once.
#[test]
fn a_lock_file_that_is_a_link_or_a_fifo_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    let snapshot = read_snapshot(&path).unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::os::unix::fs::symlink(&elsewhere, lock_path(&path)).unwrap();
    let err = replace(&snapshot, b"a: 2\n").unwrap_err();
    assert!(err.to_string().contains("a symbolic link"), "{err}");
    assert!(!elsewhere.exists());
    std::fs::remove_file(lock_path(&path)).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(lock_path(&path))
        .status()
        .unwrap();
    assert!(made.success());
    let err = replace(&snapshot, b"a: 2\n").unwrap_err();
    assert!(err.to_string().contains("a FIFO"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 1\n");
}

/// An edit holds the lock from its read to its write; the replace inside nests.
#[test]
fn a_held_lock_nests_and_makes_other_writers_wait() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    let held = hold_lock(&path, Duration::from_secs(1)).unwrap();
    let snapshot = read_snapshot(&path).unwrap();
    let other = {
        let path = path.clone();
        std::thread::spawn(move || {
            let options = Options {
                lock_timeout: Duration::from_millis(30),
                ..Options::default()
            };
            replace_with(&read_snapshot(&path).unwrap(), b"a: 3\n", &options)
        })
    };
    let err = other.join().unwrap().unwrap_err();
    assert!(matches!(err, WriteError::LockTimeout { .. }), "{err}");
    replace(&snapshot, b"a: 2\n").unwrap();
    assert!(lock_path(&path).exists(), "the outer lock is still held");
    drop(held);
    assert_eq!(names_in(dir.path()), ["f.yaml"]);
}

#[test]
fn a_byte_order_mark_is_kept_through_an_edit_of_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "\u{feff}a: 1\n");
    let snapshot = read_snapshot(&path).unwrap();
    assert_eq!(snapshot.text().unwrap(), "a: 1\n");
    let edited = snapshot.text().unwrap().replace('1', "2");
    replace(&snapshot, edited.as_bytes()).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "\u{feff}a: 2\n");
}

#[test]
fn stale_temporary_files_of_the_same_file_are_removed_by_the_next_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    let stale = file_with(&dir, ".f.yaml.aB3dE9.tmp", "half");
    file_with(&dir, ".f.yaml.zZ9yY8.tmp", "half");
    let other = file_with(&dir, ".g.yaml.aB3dE9.tmp", "half");
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    for p in [&stale, &other] {
        File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
    }
    replace(&read_snapshot(&path).unwrap(), b"a: 2\n").unwrap();
    assert_eq!(
        names_in(dir.path()),
        [".f.yaml.zZ9yY8.tmp", ".g.yaml.aB3dE9.tmp", "f.yaml"]
    );
    // A file created new cleans its own name's leftovers too.
    let new = dir.path().join("n.json");
    let leftover = file_with(&dir, ".n.json.qQ1wW2.tmp", "half");
    File::options()
        .write(true)
        .open(&leftover)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    create_new(&new, b"{}", None).unwrap();
    assert!(!leftover.exists());
}

#[test]
fn extended_attributes_and_the_mode_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    std::fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
    rustix::fs::setxattr(&path, "user.kept", b"yes", rustix::fs::XattrFlags::empty())
        .expect("the temp folder's file system takes user extended attributes");
    replace(&read_snapshot(&path).unwrap(), b"a: 2\n").unwrap();
    let mut value = [0u8; 8];
    let len = rustix::fs::getxattr(&path, "user.kept", &mut value[..]).unwrap();
    assert_eq!(&value[..len], b"yes");
    assert_eq!(mode_of(&path), 0o640);
}

/// A file with another hard link is never replaced, by any kind of replace: the
/// rename would leave the other name with the old content.
#[cfg(unix)]
#[test]
fn a_file_with_another_hard_link_is_refused_and_both_names_stay_one_file() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    let other = dir.path().join("other.yaml");
    std::fs::hard_link(&path, &other).unwrap();
    let snapshot = read_snapshot(&path).unwrap();
    let options = Options::default();
    let refused = |result: Result<(), WriteError>| {
        let err = result.unwrap_err();
        assert!(matches!(err, WriteError::Refused { .. }), "{err}");
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("{}: refused: it has 2 hard links", path.display())),
            "{text}"
        );
    };
    refused(check_replace(&snapshot));
    refused(replace(&snapshot, b"a: 2\n"));
    refused(replace_cache_with(&snapshot, b"a: 2\n", &options));
    refused(replace_holding_old(&snapshot, b"a: 2\n", &options).map(drop));
    refused(replace_cache_holding_old(&snapshot, b"a: 2\n", &options).map(drop));
    for name in [&path, &other] {
        assert_eq!(std::fs::read_to_string(name).unwrap(), "a: 1\n");
        assert_eq!(std::fs::metadata(name).unwrap().nlink(), 2);
    }
    assert_eq!(names_in(dir.path()), ["f.yaml", "other.yaml"]);
    // Through a symlink, the file it names is judged.
    let link = dir.path().join("link.yaml");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    refused_through(&link, &read_snapshot(&link).unwrap());
    // The other name gone, the edit goes ahead.
    std::fs::remove_file(&other).unwrap();
    replace(&snapshot, b"a: 2\n").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "a: 2\n");
}

fn refused_through(link: &Path, snapshot: &Snapshot) {
    let err = replace(snapshot, b"a: 3\n").unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{}: refused: it has 2 hard links", link.display())),
        "{err}"
    );
}

/// Run as root (CAP_CHOWN), a replace keeps any group, also one the process is not in.
#[cfg(unix)]
#[test]
fn the_group_is_kept_when_it_may_be() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "f.yaml", "a: 1\n");
    let gid = std::fs::metadata(&path).unwrap().gid();
    let wanted = if rustix::process::geteuid().is_root() {
        4242
    } else {
        gid
    };
    std::os::unix::fs::chown(&path, None, Some(wanted)).unwrap();
    replace(&read_snapshot(&path).unwrap(), b"a: 2\n").unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().gid(), wanted);
}

/// Edits wait the documented time for every file's lock; hooks keep their short one.
#[test]
fn edits_wait_ten_seconds_for_a_lock_and_hooks_three() {
    assert_eq!(Options::default().lock_timeout, EDIT_LOCK_WAIT);
    assert_eq!(EDIT_LOCK_WAIT, Duration::from_secs(10));
    assert_eq!(HOOK_LOCK_WAIT, Duration::from_secs(3));
}

/// A replace that holds the old file returns it open: the old bytes, no name left
/// in the folder (so no debris if the holder dies), the new file in place.
#[cfg(unix)]
#[test]
fn a_replace_holding_the_old_file_returns_it_open_and_unnamed() {
    use std::io::Read;
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "cx-001-checkpoint.json", "{\"old\": 1}\n");
    let snapshot = read_snapshot(&path).unwrap();
    let options = Options {
        durable: false,
        ..Options::default()
    };
    let mut old = replace_holding_old(&snapshot, b"{\"new\": 2}\n", &options)
        .unwrap()
        .expect("the old file, open");
    let mut text = String::new();
    old.read_to_string(&mut text).unwrap();
    assert_eq!(text, "{\"old\": 1}\n");
    assert_eq!(
        old.metadata().unwrap().nlink(),
        0,
        "the old file has no name"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"new\": 2}\n");
    assert_eq!(names_in(dir.path()), ["cx-001-checkpoint.json"]);
}

/// Refused like any replace when the file changed since it was read: nothing
/// held, nothing written.
#[test]
fn a_replace_holding_the_old_file_still_refuses_a_stale_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(&dir, "cx-001-checkpoint.json", "{\"old\": 1}\n");
    let snapshot = read_snapshot(&path).unwrap();
    std::fs::write(&path, "{\"theirs\": 3}\n").unwrap();
    let err = replace_holding_old(&snapshot, b"{\"new\": 2}\n", &Options::default()).unwrap_err();
    assert!(matches!(err, WriteError::ChangedOnDisk { .. }), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"theirs\": 3}\n");
    assert_eq!(names_in(dir.path()), ["cx-001-checkpoint.json"]);
}
