//! Whether a folder above the one a hook starts in may be its workspace. In a
//! shared folder anyone can create a `.jerry/` or an `ORCHESTRATION.yaml`, and a
//! hook that took it would show that stranger's workflow to Claude Code and write
//! its checkpoints there. So a folder above the start is passed over when another
//! user owns it, or when others may write into it (group or world) without the
//! sticky bit; with the sticky bit (`/tmp`), only when the entries that make it a
//! workspace are all the user's own (others cannot replace those).

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// Why a folder is passed over as a workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Distrust {
    /// Owned by this uid, not the user the hook runs as.
    OtherOwner(u32),
    /// Group- or world-writable (these permission bits) without the sticky bit.
    SharedWritable(u32),
    /// Sticky and shared-writable, and this entry in it belongs to another user.
    ForeignEntry(&'static str, u32),
    /// Its metadata could not be read.
    Unreadable,
}

impl std::fmt::Display for Distrust {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Distrust::OtherOwner(uid) => write!(f, "owned by uid {uid}, not by you"),
            Distrust::SharedWritable(mode) => write!(
                f,
                "writable by others (mode {mode:o}, no sticky bit): anyone could have made it look like a workspace"
            ),
            Distrust::ForeignEntry(name, uid) => write!(
                f,
                "a shared folder whose {name} belongs to uid {uid}, not to you"
            ),
            Distrust::Unreadable => write!(f, "its owner and mode cannot be read"),
        }
    }
}

/// The entries that can make a folder a workspace (`root::is_workspace_root`).
const MARKERS: [&str; 6] = [
    ".jerry",
    "ORCHESTRATION.yaml",
    "00-system",
    "02-projects",
    "02-builds",
    "projects",
];

/// `None` when `dir` may be a workspace of the user `euid`.
pub fn distrust(dir: &Path, euid: u32) -> Option<Distrust> {
    let Ok(meta) = std::fs::metadata(dir) else {
        return Some(Distrust::Unreadable);
    };
    if meta.uid() != euid {
        return Some(Distrust::OtherOwner(meta.uid()));
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o022 == 0 {
        return None;
    }
    if mode & 0o1000 == 0 {
        return Some(Distrust::SharedWritable(mode));
    }
    MARKERS.into_iter().find_map(|name| {
        let entry = std::fs::symlink_metadata(dir.join(name)).ok()?;
        (entry.uid() != euid).then_some(Distrust::ForeignEntry(name, entry.uid()))
    })
}

/// The user the process runs as.
pub fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}
