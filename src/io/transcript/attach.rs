//! For the dashboard's loader: the compaction summary a checkpoint's session
//! transcript holds, attached to each checkpoint that records none
//! (`Checkpoint::transcript_summary`; which summary counts is
//! `core::dropped::summary::choose`). Done on the load's worker thread, never
//! while drawing; bounded: each transcript read once per load, only its last
//! `PER_TRANSCRIPT` bytes, and no more than `PER_LOAD` bytes in all (the newest
//! checkpoints first).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::summaries::{compact_summaries, transcript_of};
use crate::core::dropped::summary::{CompactSummary, Origin, choose};
use crate::core::model::{Checkpoint, TranscriptSummary, Workspace};
use crate::io::env::Env;

/// The tail of one transcript read: the compactions of a long session.
pub const PER_TRANSCRIPT: u64 = 8 * 1024 * 1024;
/// What one load reads of transcripts in all.
pub const PER_LOAD: u64 = 64 * 1024 * 1024;

/// Transcripts read during one load, by session id.
pub struct Reader<'a> {
    root: &'a Path,
    env: &'a Env,
    left: u64,
    read: HashMap<String, Option<(PathBuf, Vec<CompactSummary>)>>,
}

impl<'a> Reader<'a> {
    pub fn new(root: &'a Path, env: &'a Env) -> Reader<'a> {
        Reader {
            root,
            env,
            left: PER_LOAD,
            read: HashMap::new(),
        }
    }

    /// Every checkpoint of the workspace, the newest first.
    pub fn attach_workspace(&mut self, workspace: &mut Workspace) {
        let own = workspace
            .projects
            .iter_mut()
            .flat_map(|p| p.checkpoints.iter_mut());
        self.attach_all(own.chain(workspace.unassigned_checkpoints.iter_mut()));
    }

    /// These checkpoints, the newest first.
    pub fn attach_all<'c>(&mut self, checkpoints: impl IntoIterator<Item = &'c mut Checkpoint>) {
        let mut all: Vec<&mut Checkpoint> = checkpoints.into_iter().collect();
        all.sort_by_key(|c| std::cmp::Reverse(c.created_at));
        for checkpoint in all {
            self.attach(checkpoint);
        }
    }

    /// Sets the checkpoint's transcript summary when it records none and its
    /// session's transcript holds one for it.
    pub fn attach(&mut self, checkpoint: &mut Checkpoint) {
        checkpoint.transcript_summary = None;
        if crate::core::dropped::recorded(checkpoint).is_some() {
            return;
        }
        let Some(session) = checkpoint.session_id.clone() else {
            return;
        };
        let Some((path, summaries)) = self.transcript(&session) else {
            return;
        };
        if let Some((Origin::Transcript, text)) = choose(checkpoint, Some(summaries)) {
            let summary = TranscriptSummary {
                path: path.display().to_string(),
                text: text.to_string(),
            };
            checkpoint.transcript_summary = Some(summary);
        }
    }

    fn transcript(&mut self, session: &str) -> Option<&(PathBuf, Vec<CompactSummary>)> {
        if !self.read.contains_key(session) {
            let found = self.read_transcript(session);
            self.read.insert(session.to_string(), found);
        }
        self.read.get(session)?.as_ref()
    }

    fn read_transcript(&mut self, session: &str) -> Option<(PathBuf, Vec<CompactSummary>)> {
        let path = transcript_of(self.env, self.root, session)?;
        let len = std::fs::metadata(&path).ok()?.len();
        let take = len.min(PER_TRANSCRIPT);
        if take > self.left {
            return None;
        }
        self.left -= take;
        let summaries = compact_summaries(&path, take).ok()?;
        Some((path, summaries))
    }
}
