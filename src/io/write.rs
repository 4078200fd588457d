//! The one way resume-tui changes a file: atomic, locked, and refusing to overwrite
//! what it did not read.
//!
//! - [`read_snapshot`] reads a file and remembers a [`ContentHash`] of its bytes;
//!   like the loader, it never opens anything but a regular file and refuses one
//!   over 16 MB unread. Re-reads before a write read at most the snapshot's length
//!   plus one byte.
//! - [`replace`] takes the sidecar lock `<file>.lock` (polling `try_lock` until a
//!   timeout; the lock file must be a regular file), checks the file still hashes to the snapshot (else
//!   [`WriteError::ChangedOnDisk`]: "changed on disk since it was read; reload"),
//!   writes a temporary file in the same folder, gives it the original mode, fsyncs,
//!   renames it over the original and fsyncs the folder. (`Options::durable: false`
//!   skips both fsyncs: for caches rewritten on every run, and for the hooks, which
//!   leave the fsyncs to `io::fsync_later`.)
//!   [`replace_holding_old`] renames without the fsyncs and keeps the old file
//!   open, for the hooks: whoever closes it last frees its blocks (the fsync child).
//! - [`create_new`] does the same for a file that must not exist yet (checkpoints,
//!   `.acknowledged` markers), without the lock: the final step never clobbers.
//! - [`remove`] unlinks a file under the same lock, if it still hashes to the
//!   snapshot, and fsyncs the folder (a consumed precompact state).
//!
//! Every failure leaves the original byte-for-byte unchanged. The `_with` variants take
//! [`Options`]: the lock timeout and the [`WriteSteps`] through which tests inject
//! failures (a writer that fails mid-way, a change between read and write).
//!
//! The sidecar lock file is removed by its holder before unlocking; a waiter that then
//! acquires the lock on the removed file notices (the path no longer names the file it
//! locked) and tries again, so the lock stays exclusive and folders stay clean. It is
//! never opened through a symbolic link nor blocked on (a FIFO): `lock`. An edit holds
//! it from its read to its write ([`hold_lock`]); the replace inside nests.
//!
//! A replace refuses a file the user could not write in place, a file with other
//! hard links (the rename would split them), and a file whose owner or group the
//! new file could not keep; it keeps the file's mode, owner, group and extended
//! attributes (`identity`; [`check_replace`] asks beforehand); it keeps a leading
//! byte-order mark ([`Snapshot::text`] leaves it out); it removes the temporary files
//! a crashed writer left beside the file (`leftovers`).

use std::fs::{File, Permissions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::core::model::Diagnostic;
use crate::io::load::{MAX_FILE_BYTES, NotRead, read_bytes_capped, read_bytes_listed_regular};

mod identity;
mod leftovers;
mod lock;
mod swap;

use lock::SidecarLock;
pub use lock::{lock_path, open_regular};

/// A 64-bit hash of the bytes and their length, eight bytes at a step: cheap
/// (the dashboard hashes every state file it loads), and enough to notice a
/// change. Never stored: only compared within one process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContentHash(pub u64);

impl ContentHash {
    pub fn of(bytes: &[u8]) -> ContentHash {
        const MUL: u64 = 0x9e37_79b9_7f4a_7c15;
        let step = |h: u64, word: u64| (h ^ word).wrapping_mul(MUL).rotate_left(29);
        let mut h = 0xcbf2_9ce4_8422_2325 ^ (bytes.len() as u64);
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut le = [0u8; 8];
            le.copy_from_slice(word);
            h = step(h, u64::from_le_bytes(le));
        }
        let mut tail = [0u8; 8];
        tail.get_mut(..words.remainder().len())
            .unwrap_or_default()
            .copy_from_slice(words.remainder());
        h = step(h, u64::from_le_bytes(tail));
        // The splitmix64 finaliser: every input bit reaches every output bit.
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ContentHash(h ^ (h >> 31))
    }
}

/// A file's bytes as read, and their hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    pub hash: ContentHash,
}

impl Snapshot {
    /// A snapshot of bytes already in hand (e.g. read by the loader).
    pub fn from_bytes(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Snapshot {
        let hash = ContentHash::of(&bytes);
        Snapshot {
            path: path.into(),
            bytes,
            hash,
        }
    }

    /// The bytes as text, without a leading byte-order mark (a replace puts it back).
    pub fn text(&self) -> Result<&str, WriteError> {
        let bytes = self.bytes.strip_prefix(BOM).unwrap_or(&self.bytes);
        std::str::from_utf8(bytes).map_err(|e| {
            WriteError::Invalid(Diagnostic::error(
                self.path.display().to_string(),
                format!("not UTF-8 text (byte {})", e.valid_up_to()),
            ))
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{}: changed on disk since it was read; reload", path.display())]
    ChangedOnDisk { path: PathBuf },
    #[error("{}: locked by another writer for {:.1} s ({}); try again", path.display(), waited.as_secs_f64(), lock.display())]
    LockTimeout {
        path: PathBuf,
        lock: PathBuf,
        waited: Duration,
    },
    #[error("{}: the file is read-only; nothing was written", path.display())]
    ReadOnly { path: PathBuf },
    #[error("{}: already exists; nothing was written", path.display())]
    AlreadyExists { path: PathBuf },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file (or the edited result) does not parse; located at file:line:col.
    #[error("{0}")]
    Invalid(Diagnostic),
    /// The edit would change more (or less) than intended; nothing was written.
    #[error("{}: refused: {reason}", path.display())]
    Refused { path: PathBuf, reason: String },
    /// A change of several files stopped part-way: what was written is consistent
    /// on its own, and running the same command again finishes the rest (every
    /// step is idempotent).
    #[error("{failed}; {written} was already written: run the same command again to finish")]
    Partial {
        written: String,
        failed: Box<WriteError>,
    },
    /// The edit does not apply (no such decision, checkpoint, …).
    #[error("{}: {message}", path.display())]
    NotApplicable { path: PathBuf, message: String },
}

impl WriteError {
    pub fn io(path: &Path, source: std::io::Error) -> WriteError {
        WriteError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// A file changed under the write (alone, or part-way through several):
    /// reading again and redoing the edit may succeed.
    pub fn is_changed_on_disk(&self) -> bool {
        match self {
            WriteError::ChangedOnDisk { .. } => true,
            WriteError::Partial { failed, .. } => failed.is_changed_on_disk(),
            _ => false,
        }
    }

    /// The file is not there (rather than there but unreadable or refused).
    pub fn is_missing(&self) -> bool {
        matches!(self, WriteError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// The steps of a write that tests replace to inject failures. The real ones do the work.
pub trait WriteSteps {
    /// Runs once the lock is held, just before the on-disk check.
    fn before_check(&self, _path: &Path) -> std::io::Result<()> {
        Ok(())
    }

    /// Writes the new bytes into the temporary file.
    fn write_temp(&self, out: &mut dyn Write, bytes: &[u8]) -> std::io::Result<()> {
        out.write_all(bytes)
    }

    /// Flushes a file (the new one, then its folder) to the disk.
    fn sync(&self, file: &File) -> std::io::Result<()> {
        file.sync_all()
    }
}

/// The real steps.
pub struct RealSteps;

impl WriteSteps for RealSteps {}

pub struct Options<'a> {
    pub lock_timeout: Duration,
    pub steps: &'a dyn WriteSteps,
    /// Fsync the new file before the rename and the folder after it (the default).
    /// `false` for caches that are rewritten on every run and may be lost, and for
    /// the hooks' writes, fsynced after the hook exits (`io::fsync_later`): the
    /// rename is still atomic, but a crash before the fsync may leave the old or an
    /// empty file.
    pub durable: bool,
    /// Replace a file that has other hard links (they keep the old content): the
    /// hooks' own files (checkpoints, their caches), which a hard-link snapshot
    /// (`cp -al`) shares with its copy. `false` (the default) for the operator's
    /// edits, which refuse such a file rather than split it.
    pub split_links: bool,
}

/// How long an edit of the CLI or the dashboard waits for another writer of the
/// same file (the default [`Options::lock_timeout`], and [`hold_lock`]'s in
/// `io::project_edit`): every file an edit writes, the state file and checkpoints alike.
pub const EDIT_LOCK_WAIT: Duration = Duration::from_secs(10);

/// How long a hook (and the status line) waits for a file's lock: short, as
/// Claude Code waits for them (docs/hooks.md); past it the write is logged as failed.
pub const HOOK_LOCK_WAIT: Duration = Duration::from_secs(3);

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            lock_timeout: EDIT_LOCK_WAIT,
            steps: &RealSteps,
            durable: true,
            split_links: false,
        }
    }
}

/// The mode of files that hold a session's state (checkpoints, the precompact and
/// monitor states, acknowledgement markers): readable by their owner only.
pub const OWNER_ONLY: u32 = 0o600;

/// Reads a file whole, as the loader would: at most [`MAX_FILE_BYTES`], and only a
/// regular file (a FIFO is never opened). A file missing is [`WriteError::Io`]
/// with [`std::io::ErrorKind::NotFound`]; one refused is [`WriteError::Refused`].
pub fn read_snapshot(path: &Path) -> Result<Snapshot, WriteError> {
    read_snapshot_capped(path, MAX_FILE_BYTES)
}

/// [`read_snapshot`] with a lower cap (a hook reads checkpoints up to 4 MB).
pub fn read_snapshot_capped(path: &Path, cap: u64) -> Result<Snapshot, WriteError> {
    read_bounded(path, cap, "not read")
}

/// [`read_snapshot_capped`] for a file its folder's listing called regular
/// (`load::read_bytes_listed_regular`: one `stat` fewer).
pub fn read_listed_snapshot_capped(path: &Path, cap: u64) -> Result<Snapshot, WriteError> {
    snapshot_or_refusal(path, read_bytes_listed_regular(path, cap), "not read")
}

/// [`read_snapshot_capped`], saying what a refusal means to the caller
/// (`"not read"`, `"not edited"`).
pub fn read_bounded(path: &Path, cap: u64, refused: &str) -> Result<Snapshot, WriteError> {
    snapshot_or_refusal(path, read_bytes_capped(path, cap), refused)
}

fn snapshot_or_refusal(
    path: &Path,
    read: Result<Vec<u8>, NotRead>,
    refused: &str,
) -> Result<Snapshot, WriteError> {
    match read {
        Ok(bytes) => Ok(Snapshot::from_bytes(path, bytes)),
        Err(NotRead::Io(e)) => Err(WriteError::io(path, e)),
        Err(why) => Err(WriteError::Refused {
            path: path.to_path_buf(),
            reason: format!("{why}: {refused}"),
        }),
    }
}

/// The file at `target` as it is now, if it may still be the snapshot's: what is
/// longer, no longer a regular file, or gone has changed (`Ok(None)`: gone).
fn reread(target: &Path, snapshot: &Snapshot) -> Result<Option<Vec<u8>>, WriteError> {
    match read_bytes_capped(target, snapshot.bytes.len() as u64) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(NotRead::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(NotRead::Io(e)) => Err(WriteError::io(&snapshot.path, e)),
        Err(_) => Err(WriteError::ChangedOnDisk {
            path: snapshot.path.clone(),
        }),
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `new` with the byte-order mark `old` started with (an edit of [`Snapshot::text`]
/// works without it).
fn with_bom_kept<'a>(old: &[u8], new: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
    if old.starts_with(BOM) && !new.starts_with(BOM) {
        std::borrow::Cow::Owned([BOM, new].concat())
    } else {
        std::borrow::Cow::Borrowed(new)
    }
}

/// Replaces the snapshot's file with `new_bytes`, if it still holds the snapshot's bytes.
pub fn replace(snapshot: &Snapshot, new_bytes: &[u8]) -> Result<(), WriteError> {
    replace_with(snapshot, new_bytes, &Options::default())
}

pub fn replace_with(
    snapshot: &Snapshot,
    new_bytes: &[u8],
    options: &Options,
) -> Result<(), WriteError> {
    replace_as(snapshot, new_bytes, options, Last::Rename).map(drop)
}

/// [`replace_with`] for a write fsynced after the hook exits (`io::fsync_later`):
/// the old file is opened before the rename and returned, so that its last
/// close, not the rename, frees its blocks. On ext4 freeing the blocks of a file
/// written moments ago costs 0.3–1 ms (docs/performance.md); the fsync child
/// inherits the handle and pays it after the hook has gone. `None` when the old
/// file could not be opened: the rename freed it, as [`replace_with`] does.
pub fn replace_holding_old(
    snapshot: &Snapshot,
    new_bytes: &[u8],
    options: &Options,
) -> Result<Option<File>, WriteError> {
    replace_as(snapshot, new_bytes, options, Last::RenameHoldingOld)
}

/// [`replace_with`] for a cache that is never fsynced and may be lost: the new
/// file is swapped in by name instead of renamed over the old one (`swap`), which
/// spares the rename's block allocation on ext4. Same checks, same atomicity.
pub fn replace_cache_with(
    snapshot: &Snapshot,
    new_bytes: &[u8],
    options: &Options,
) -> Result<(), WriteError> {
    replace_as(snapshot, new_bytes, options, Last::Swap).map(drop)
}

/// [`replace_cache_with`] in a hook that leaves fsyncs to a child: the old file is
/// returned open, as [`replace_holding_old`] does, for the child's last close to
/// free it (also when the system cannot swap and renames). `None` when it could
/// not be opened.
pub fn replace_cache_holding_old(
    snapshot: &Snapshot,
    new_bytes: &[u8],
    options: &Options,
) -> Result<Option<File>, WriteError> {
    replace_as(snapshot, new_bytes, options, Last::SwapHoldingOld)
}

/// How a replace puts its new file in place.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    Rename,
    /// A rename, the old file kept open (see [`replace_holding_old`]).
    RenameHoldingOld,
    Swap,
    /// A swap, the old file kept open.
    SwapHoldingOld,
}

fn replace_as(
    snapshot: &Snapshot,
    new_bytes: &[u8],
    options: &Options,
    last: Last,
) -> Result<Option<File>, WriteError> {
    let path = &snapshot.path;
    // Write through symlinks to the file they name, never over the link.
    let target = std::fs::canonicalize(path).map_err(|e| changed_if_missing(path, e))?;
    let _lock = SidecarLock::acquire(&target, options.lock_timeout)?;
    options
        .steps
        .before_check(&target)
        .map_err(|e| WriteError::io(path, e))?;
    let current = reread(&target, snapshot)?;
    if current.is_none_or(|bytes| ContentHash::of(&bytes) != snapshot.hash) {
        return Err(WriteError::ChangedOnDisk { path: path.clone() });
    }
    let meta = std::fs::metadata(&target).map_err(|e| WriteError::io(path, e))?;
    identity::may_replace(&target, path, &meta, options.split_links)?;
    leftovers::remove_stale(&target, std::time::SystemTime::now());
    let new_bytes = with_bom_kept(&snapshot.bytes, new_bytes);
    let temp = write_temp(&target, &new_bytes, TempMode::Exact(&target, meta), options)?;
    let swapped = match last {
        Last::Swap | Last::SwapHoldingOld => {
            swap::swap_in(temp.path(), &target, last == Last::SwapHoldingOld)
                .map_err(|e| WriteError::io(path, e))?
        }
        Last::Rename | Last::RenameHoldingOld => swap::Swapped::No,
    };
    let mut old = None;
    if let swap::Swapped::Yes { old: held } = swapped {
        // The temporary name now holds the old file, removed already.
        let _ = temp.into_temp_path().keep();
        old = held;
    } else {
        if matches!(last, Last::RenameHoldingOld | Last::SwapHoldingOld) {
            // Checked a regular file above, under the lock; never waits or follows.
            old = open_read_only(&target).ok();
        }
        temp.persist(&target)
            .map_err(|e| WriteError::io(path, e.error))?;
    }
    sync_parent(&target, options);
    Ok(old)
}

/// Whether [`replace`] would refuse the snapshot's file for who may replace it
/// (`identity::may_replace`: not writable in place, other hard links, an owner or
/// group the new file could not keep), asked before an edit of several files
/// writes the first. Nothing is locked or written.
pub fn check_replace(snapshot: &Snapshot) -> Result<(), WriteError> {
    let path = &snapshot.path;
    let target = std::fs::canonicalize(path).map_err(|e| changed_if_missing(path, e))?;
    let meta = std::fs::metadata(&target).map_err(|e| WriteError::io(path, e))?;
    identity::may_replace(&target, path, &meta, false)
}

/// Opens a file for reading without following a last symlink and without
/// waiting (a FIFO swapped in never holds the caller).
pub fn open_read_only(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NOFOLLOW | libc::O_NONBLOCK,
    );
    options.open(path)
}

/// The sidecar lock of the file at `path`, held until the guard is dropped: for an
/// edit that reads, changes and replaces a file, so that writers that also lock
/// wait for each other (at most `timeout`) instead of failing with
/// [`WriteError::ChangedOnDisk`]. The replace inside nests in it.
pub fn hold_lock(path: &Path, timeout: Duration) -> Result<HeldLock, WriteError> {
    let target = std::fs::canonicalize(path).map_err(|e| WriteError::io(path, e))?;
    SidecarLock::acquire(&target, timeout).map(|lock| HeldLock { _lock: lock })
}

/// See [`hold_lock`].
pub struct HeldLock {
    _lock: SidecarLock,
}

/// Removes the snapshot's file, if it still holds the snapshot's bytes: under the
/// sidecar lock, the hash checked, the name unlinked (a symlink itself, not what it
/// names) and the folder fsynced. A file already gone is fine: nothing is lost.
pub fn remove(snapshot: &Snapshot) -> Result<(), WriteError> {
    remove_with(snapshot, &Options::default())
}

pub fn remove_with(snapshot: &Snapshot, options: &Options) -> Result<(), WriteError> {
    let path = &snapshot.path;
    let target = match std::fs::canonicalize(path) {
        Ok(target) => target,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(WriteError::io(path, e)),
    };
    let _lock = SidecarLock::acquire(&target, options.lock_timeout)?;
    options
        .steps
        .before_check(&target)
        .map_err(|e| WriteError::io(path, e))?;
    let Some(current) = reread(&target, snapshot)? else {
        return Ok(());
    };
    if ContentHash::of(&current) != snapshot.hash {
        return Err(WriteError::ChangedOnDisk { path: path.clone() });
    }
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(WriteError::io(path, e));
        }
        _ => {}
    }
    sync_parent(path, options);
    Ok(())
}

/// Creates `path`, which must not exist yet, with `bytes`; `mode` (e.g. `0o600`) or the
/// usual default.
pub fn create_new(path: &Path, bytes: &[u8], mode: Option<u32>) -> Result<(), WriteError> {
    create_new_with(path, bytes, mode, &Options::default())
}

pub fn create_new_with(
    path: &Path,
    bytes: &[u8],
    mode: Option<u32>,
    options: &Options,
) -> Result<(), WriteError> {
    // No sidecar lock: nobody else can be writing a file that does not exist yet,
    // and the last step never clobbers (of two creators, one wins, the other is
    // told `AlreadyExists`).
    options
        .steps
        .before_check(path)
        .map_err(|e| WriteError::io(path, e))?;
    if std::fs::symlink_metadata(path).is_ok() {
        return Err(WriteError::AlreadyExists {
            path: path.to_path_buf(),
        });
    }
    leftovers::remove_stale(path, std::time::SystemTime::now());
    let temp = write_temp(path, bytes, TempMode::Create(mode), options)?;
    temp.persist_noclobber(path).map_err(|e| {
        if e.error.kind() == std::io::ErrorKind::AlreadyExists {
            WriteError::AlreadyExists {
                path: path.to_path_buf(),
            }
        } else {
            WriteError::io(path, e.error)
        }
    })?;
    sync_parent(path, options);
    Ok(())
}

enum TempMode<'a> {
    /// The replaced file's permissions, owner, group and extended attributes,
    /// restored as far as the user may (`identity::keep`).
    Exact(&'a Path, std::fs::Metadata),
    /// A new file: this mode, or 0666 less the umask (a temporary file alone would be 0600).
    Create(Option<u32>),
}

/// Writes and fsyncs a temporary file beside `path`; dropped (deleted) on any failure.
fn write_temp(
    path: &Path,
    bytes: &[u8],
    mode: TempMode<'_>,
    options: &Options,
) -> Result<tempfile::NamedTempFile, WriteError> {
    let io = |e| WriteError::io(path, e);
    let prefix = format!(".{}.", file_name(path));
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    if let TempMode::Create(mode) = &mode {
        set_create_mode(&mut builder, *mode);
    }
    let mut temp = builder.tempfile_in(parent_dir(path)).map_err(io)?;
    options
        .steps
        .write_temp(temp.as_file_mut(), bytes)
        .map_err(io)?;
    temp.as_file_mut().flush().map_err(io)?;
    if let TempMode::Exact(target, meta) = &mode {
        identity::keep(target, path, meta, temp.as_file())?;
    }
    if options.durable {
        options.steps.sync(temp.as_file()).map_err(io)?;
    }
    Ok(temp)
}

#[cfg(unix)]
fn set_create_mode(builder: &mut tempfile::Builder, mode: Option<u32>) {
    use std::os::unix::fs::PermissionsExt;
    builder.permissions(Permissions::from_mode(mode.unwrap_or(0o666)));
}

#[cfg(not(unix))]
fn set_create_mode(_builder: &mut tempfile::Builder, _mode: Option<u32>) {}

fn changed_if_missing(path: &Path, e: std::io::Error) -> WriteError {
    if e.kind() == std::io::ErrorKind::NotFound {
        WriteError::ChangedOnDisk {
            path: path.to_path_buf(),
        }
    } else {
        WriteError::io(path, e)
    }
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn sync_parent(path: &Path, options: &Options) {
    if options.durable {
        sync_folder(parent_dir(path), options.steps);
    }
}

/// Fsyncs a folder, best effort: some file systems refuse to, and the rename is
/// done by then.
pub fn sync_folder(dir: &Path, steps: &dyn WriteSteps) {
    if let Ok(dir) = File::open(dir) {
        let _ = steps.sync(&dir);
    }
}

#[cfg(test)]
#[path = "write_tests.rs"]
mod tests;
