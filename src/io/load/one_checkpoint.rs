//! One checkpoint file read again after it changed (the dashboard's live refresh),
//! through the same reader as a full load, so that `core::workspace::
//! replace_checkpoint` can put it where a full load would.

use std::collections::HashSet;
use std::path::Path;

use super::{Item, LoadOptions, load_one, marker_for};
use crate::core::model::{Checkpoint, Diagnostic};
use crate::io::discover::{self, FileKind, Found};

/// What a checkpoint file is now.
#[derive(Debug, Clone, PartialEq)]
pub enum CheckpointReading {
    /// No file there any more.
    Gone,
    Read(Box<Checkpoint>),
    /// It is there but does not read as a checkpoint: a full load says why.
    Problem(Diagnostic),
}

/// Reads the checkpoint at root-relative `rel`, acknowledged when its marker file
/// (`cx-007.acknowledged` beside `cx-007.json`) exists. `None` when `rel` is not
/// where a checkpoint is looked for.
pub fn read_checkpoint(root: &Path, rel: &str) -> Option<CheckpointReading> {
    let (kind, dir) = discover::classify(rel)?;
    if kind != FileKind::Checkpoint {
        return None;
    }
    let path = root.join(rel);
    if std::fs::symlink_metadata(&path).is_err() {
        return Some(CheckpointReading::Gone);
    }
    let marker = marker_for(rel).filter(|m| root.join(m).is_file());
    let markers: HashSet<&str> = marker.iter().map(String::as_str).collect();
    let found = Found {
        kind,
        path,
        rel: rel.to_string(),
        dir,
    };
    let (item, _) = load_one(&found, &markers, &LoadOptions::default(), false);
    Some(match item {
        Item::Checkpoint(checkpoint) => CheckpointReading::Read(checkpoint),
        Item::Problem(diagnostic) => CheckpointReading::Problem(diagnostic),
        _ => CheckpointReading::Problem(Diagnostic::error(rel, "not read as a checkpoint")),
    })
}

/// The checkpoint a marker file acknowledges, among `known` checkpoint paths.
pub fn marked_checkpoint<'a>(
    marker: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    known
        .into_iter()
        .find(|path| marker_for(path).as_deref() == Some(marker))
}
