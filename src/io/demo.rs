//! The demo workspace, embedded from `assets/demo/` at build time and unpacked to a
//! temporary folder so that edits never touch the repository.

use crate::core::time::Timestamp;
use crate::{Error, Result};

include!(concat!(env!("OUT_DIR"), "/demo_files.rs"));

/// Unpacks the demo workspace into a new temporary folder, removed when dropped.
/// Timestamps in the demo are written relative to `now`, so its fresh projects are fresh.
pub fn unpack(now: Timestamp) -> Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix("resume-tui-demo-")
        .tempdir()
        .map_err(|e| Error::io("temporary folder", e))?;
    unpack_into(dir.path(), now)?;
    Ok(dir)
}

/// Writes every demo file under `target`, creating folders as needed.
pub fn unpack_into(target: &std::path::Path, _now: Timestamp) -> Result<()> {
    for (rel, bytes) in DEMO_FILES {
        let path = target.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent.display(), e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| Error::io(path.display(), e))?;
    }
    Ok(())
}
