//! How much of `.jerry/checkpoints/` one hook reads: the newest checkpoints (by
//! number) up to [`MAX_FILES`] files and [`MAX_BYTES`] bytes, and no more. Two
//! thousand large checkpoints made SessionStart take 15 s; what is left unread is
//! said in the log.

use super::checkpoints::CheckpointFile;
use super::output::HookOutcome;
use crate::io::write::Snapshot;

/// At most this many checkpoint files are read per hook.
pub const MAX_FILES: usize = 256;
/// Reading stops once this many bytes of checkpoints have been read.
pub const MAX_BYTES: usize = 32 * 1024 * 1024;

/// The newest of `files` (oldest first, as listed) read by `read` within the
/// budget, oldest first; the older ones left unread are logged.
pub fn read_newest<'f>(
    files: &'f [CheckpointFile],
    out: &mut HookOutcome,
    mut read: impl FnMut(&CheckpointFile, &mut HookOutcome) -> Option<Snapshot>,
) -> Vec<(&'f CheckpointFile, Snapshot)> {
    let (mut taken, mut bytes) = (Vec::new(), 0usize);
    for (left, file) in files.iter().enumerate().rev() {
        if taken.len() >= MAX_FILES || bytes >= MAX_BYTES {
            let left = left + 1;
            out.info(format!(
                "{left} older checkpoint(s) left unread, up to {}: a hook reads the newest {MAX_FILES} \
                 or {} MB, and had read {} ({bytes} bytes)",
                file.path.display(),
                MAX_BYTES / (1024 * 1024),
                taken.len()
            ));
            break;
        }
        if let Some(snapshot) = read(file, out) {
            bytes = bytes.saturating_add(snapshot.bytes.len());
            taken.push((file, snapshot));
        }
    }
    taken.reverse();
    taken
}
